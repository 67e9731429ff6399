// Issue 34: the second hostile-input round. Every crafted input is built here, from the format
// docs (doc/formats/totem-archive.md, doc/formats/shred-pak.md) or by hand as JSON; each case
// checks one clear line, the documented exit code, nothing written and bounded memory.
#include "test_support.hpp"

#include "libmod/core/bytes.hpp"
#include "libmod/core/file.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/totem/names.hpp"

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using modtest::run_cli;
using modtest::TempDir;

namespace {

void write_text(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

std::string text_of(const fs::path& p) {
    const mod::Bytes b = mod::read_file(p);
    return std::string(b.begin(), b.end());
}

std::size_t lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

modtest::CliResult sample(const fs::path& dir, const std::string& game) {
    auto r = run_cli({"sample", dir.string(), "--game", game, "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return r;
}

std::string modkit() {
    const char* exe = std::getenv("MODKIT_CLI");
    return exe ? exe : (fs::path(MODKIT_BINARY_DIR) / "modkit").string();
}

// Runs modkit under an address-space limit (KiB); the exit code, or -1 for a signal. Under
// AddressSanitizer (build.sh sanitize) no limit is set: its shadow memory reserves terabytes of
// address space, so the bound is checked by the main build's run of the same tests.
int run_limited(const std::vector<std::string>& args, std::size_t kib, std::string* err) {
    TempDir tmp;
#if defined(__SANITIZE_ADDRESS__)
    (void)kib;
    std::string cmd = "exec '" + modkit() + "'";
#else
    std::string cmd = "ulimit -v " + std::to_string(kib) + "; exec '" + modkit() + "'";
#endif
    for (const auto& a : args) cmd += " '" + a + "'";
    cmd += " >/dev/null 2>'" + (tmp / "err").string() + "' </dev/null";
    const int status = std::system(("sh -c \"" + cmd + "\"").c_str());
    *err = text_of(tmp / "err");
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A TotemTech archive of one short chunk (doc/formats/totem-archive.md): 0x100-byte notice,
// u32 chunk size at 0x100, 0x6FC bytes of padding, then record count 1 and one record.
mod::Bytes lone_chunk_archive(std::uint32_t chunk_size, std::size_t total) {
    mod::ByteWriter w(mod::Endian::big);
    w.fill(0x100);
    w.u32(chunk_size);
    w.fill(0x6FC);
    w.u32(1);
    const std::size_t payload = total - 0x800 - 4 - 16;
    w.u32(static_cast<std::uint32_t>(16 + payload));
    w.i32(mod::totem::name_id("SKIN"));
    w.i32(mod::totem::name_id("DB:>X.TSKIN"));
    w.i32(mod::totem::name_id("LVL"));
    w.fill(payload, 0x11);
    return w.take();
}

std::string hex_byte(std::uint8_t b) {
    static const char* digits = "0123456789ABCDEF";
    return std::string{digits[b >> 4], digits[b & 15]};
}

// A totemtech manifest over base/SAMPLE.DGC + base/SAMPLE.NGC with the given outputs (JSON
// members) and edits (a JSON array).
std::string totem_manifest(const std::string& outputs, const std::string& edits = "[]",
                           const std::string& data_path = "base/SAMPLE.DGC") {
    return R"({"modkit": 1, "name": "t", "game": "totemtech",
  "inputs": {"data": {"path": ")" + data_path + R"(", "names": "names"}, "names": {"path": "base/SAMPLE.NGC"}},
  "outputs": {)" + outputs + R"(},
  "edits": )" + edits + "}";
}

// One mod folder with the sample archive under base/.
struct Mod {
    TempDir tmp;
    fs::path dir = tmp / "mod";
    Mod() {
        sample(tmp / "s", "totem");
        fs::create_directories(dir / "base");
        fs::copy_file(tmp / "s/totem/SAMPLE.DGC", dir / "base/SAMPLE.DGC");
        fs::copy_file(tmp / "s/totem/SAMPLE.NGC", dir / "base/SAMPLE.NGC");
    }
    mod::Bytes dgc() const { return mod::read_file(dir / "base/SAMPLE.DGC"); }
    // A bytes.patch edit of `size` bytes at `offset`, expecting the file's bytes.
    std::string patch(std::size_t offset, std::size_t size = 1, const std::string& id = {}) const {
        const mod::Bytes b = dgc();
        std::string expect, bytes;
        for (std::size_t i = 0; i < size; ++i) expect += hex_byte(b.at(offset + i)), bytes += hex_byte(b[offset + i] ^ 0xFF);
        return R"({"op": "bytes.patch", )" + (id.empty() ? std::string() : "\"id\": \"" + id + "\", ") +
               "\"offset\": " + std::to_string(offset) + ", \"expect\": \"" + expect + "\", \"bytes\": \"" + bytes + "\"}";
    }
    modtest::CliResult check(const std::string& manifest_text) const {
        write_text(dir / "mod.json", manifest_text);
        return run_cli({"manifest", "check", (dir / "mod.json").string()});
    }
    modtest::CliResult apply(const std::string& manifest_text, std::vector<std::string> extra = {}) const {
        write_text(dir / "mod.json", manifest_text);
        std::vector<std::string> args{"apply", (dir / "mod.json").string(), "-q"};
        args.insert(args.end(), extra.begin(), extra.end());
        return run_cli(args);
    }
};

// The exit code doc/manifest.md section 6 gives the row whose message contains `snippet`.
int documented_exit(const std::string& snippet) {
    const std::string doc = text_of(fs::path(MODKIT_SOURCE_DIR) / "doc/manifest.md");
    std::istringstream in(doc);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("| ", 0) == 0 && line.find(snippet) != std::string::npos) {
            static const std::regex last(R"(\|\s*([0-9])\s*\|\s*$)");
            std::smatch m;
            if (std::regex_search(line, m, last)) return std::stoi(m[1]);
        }
    BOOST_ERROR("doc/manifest.md has no row with " + snippet);
    return -1;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hostile_round2)

// (1) A 10 KB archive whose chunk size word is 0xFFFFF800: refused (exit 3) in one line, in
// bounded memory, by `totem list` and by an apply that would rewrite its chunk.
BOOST_AUTO_TEST_CASE(a_totem_chunk_size_bomb_is_refused_in_bounded_memory) {
    Mod m;
    for (std::uint32_t word : {0xFFFFF800u, 0x80000000u, 0x1000800u}) {
        BOOST_TEST_CONTEXT(mod::hex(word)) {
            const mod::Bytes bomb = lone_chunk_archive(word, 10 * 1024);
            mod::write_file_atomic(m.dir / "base/BOMB.DGC", bomb);
            std::string err;
            const int code = run_limited({"totem", "list", (m.dir / "base/BOMB.DGC").string()}, 512 * 1024, &err);
            BOOST_TEST(code == 3, err);
            BOOST_TEST(lines(err) == 1u, err);
            BOOST_TEST(err.find("offset 0x100") != std::string::npos, err);
            BOOST_TEST(err.find("limit of 0x1000000") != std::string::npos, err);
            write_text(m.dir / "mod.json",
                       totem_manifest(R"("data": "out/BOMB.DGC")",
                                      R"([{"op": "record.remove", "record": "#0"}])",
                                      "base/BOMB.DGC"));
            const int apply = run_limited({"apply", (m.dir / "mod.json").string(), "-q"}, 512 * 1024, &err);
            BOOST_TEST(apply == 3, err);
            BOOST_TEST(err.find("limit of 0x1000000") != std::string::npos, err);
            BOOST_TEST(!fs::exists(m.dir / "out"));
        }
    }
}

// (2) A symbolic link in an extraction folder is refused by every repack (exit 2), whether it
// stands for a record/entry file or for index.json, and nothing is written.
BOOST_AUTO_TEST_CASE(repacks_refuse_symbolic_links_in_the_extract_folder) {
    TempDir tmp;
    sample(tmp / "s", "totem");
    sample(tmp / "s", "shred");
    write_text(tmp / "outside.bin", "bytes from outside the folder");
    auto first_file = [](const fs::path& index, const std::string& key) {
        const std::string text = text_of(index);
        const std::regex re("\"" + key + R"(\"\s*:\s*\"([^\"]+)\")");
        std::smatch m;
        BOOST_REQUIRE(std::regex_search(text, m, re));
        return std::string(m[1]);
    };
    auto expect_refused = [&](std::vector<std::string> args, const fs::path& out) {
        const auto r = run_cli(args);
        BOOST_TEST(r.exit_code == 2, r.err);
        BOOST_TEST(r.err.find("symbolic link") != std::string::npos, r.err);
        BOOST_TEST(lines(r.err) == 1u, r.err);
        BOOST_TEST(!fs::exists(out));
    };
    // TotemTech.
    const fs::path dgc = tmp / "s/totem/SAMPLE.DGC", ngc = tmp / "s/totem/SAMPLE.NGC", tx = tmp / "tx";
    auto r = run_cli({"totem", "extract", dgc.string(), ngc.string(), tx.string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const fs::path record = tx / first_file(tx / "index.json", "file");
    fs::remove(record);
    fs::create_symlink(tmp / "outside.bin", record);
    expect_refused({"totem", "repack", dgc.string(), ngc.string(), tx.string(), (tmp / "T.DGC").string()}, tmp / "T.DGC");
    fs::remove(record);
    fs::copy_file(tmp / "outside.bin", record);  // a regular file again: accepted
    r = run_cli({"totem", "repack", dgc.string(), ngc.string(), tx.string(), (tmp / "T.DGC").string()});
    BOOST_TEST(r.exit_code == 0, r.err);
    fs::remove(tmp / "T.DGC");
    fs::rename(tx / "index.json", tmp / "index.json");
    fs::create_symlink(tmp / "index.json", tx / "index.json");
    expect_refused({"totem", "repack", dgc.string(), ngc.string(), tx.string(), (tmp / "T.DGC").string()}, tmp / "T.DGC");
    // A symlinked folder on the way.
    fs::remove(tx / "index.json");
    fs::rename(tmp / "index.json", tx / "index.json");
    const fs::path folder = record.parent_path();
    if (folder != tx) {
        fs::rename(folder, tmp / "moved");
        fs::create_directory_symlink(tmp / "moved", folder);
        expect_refused({"totem", "repack", dgc.string(), ngc.string(), tx.string(), (tmp / "T.DGC").string()}, tmp / "T.DGC");
    }
    // SHRED PAK.
    const fs::path pak = tmp / "s/shred/char_sample.pak", px = tmp / "px";
    r = run_cli({"shred", "pak", "extract", pak.string(), px.string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const fs::path entry = px / first_file(px / "index.json", "file");
    fs::remove(entry);
    fs::create_symlink(tmp / "outside.bin", entry);
    expect_refused({"shred", "pak", "repack", pak.string(), px.string(), (tmp / "P.pak").string()}, tmp / "P.pak");
}

// (2) `stadium repack` likewise (the sample ROM is 32 MiB: a case of its own).
BOOST_AUTO_TEST_CASE(stadium_repack_refuses_symbolic_links_in_the_extract_folder) {
    TempDir tmp;
    sample(tmp / "s", "stadium");
    write_text(tmp / "outside.bin", "bytes from outside the folder");
    const fs::path rom = tmp / "s/stadium/pokemon_stadium_sample.z64", x = tmp / "x";
    auto r = run_cli({"stadium", "extract", rom.string(), x.string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string text = text_of(x / "index.json");
    std::smatch m;
    BOOST_REQUIRE(std::regex_search(text, m, std::regex(R"re("file"\s*:\s*"([^"]+)")re")));
    const fs::path entry = x / std::string(m[1]);
    fs::remove(entry);
    fs::create_symlink(tmp / "outside.bin", entry);
    r = run_cli({"stadium", "repack", rom.string(), x.string(), (tmp / "R.z64").string()});
    BOOST_TEST(r.exit_code == 2, r.err);
    BOOST_TEST(r.err.find("symbolic link") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(tmp / "R.z64"));
}

// (3) Outputs that would land on one another are refused at validation, naming both fields:
// an output on the report's own path, a report folder that is an output file, a patch on
// another output, and names that differ only in case.
BOOST_AUTO_TEST_CASE(colliding_outputs_are_refused_at_validation_naming_the_fields) {
    Mod m;
    const std::string edit = "[" + m.patch(0x10) + "]";
    struct Case {
        std::string outputs, first, second, why;
    };
    const std::vector<Case> cases = {
        {R"("data": "out/report/report.json", "report": "out/report")", "outputs.report", "outputs.data", "the same file"},
        {R"("data": "out/r", "report": "out/r")", "outputs.report", "outputs.data", "needs a folder"},
        {R"("data": "out/x.DGC", "names": "out/x.DGC.zpatch", "patches": ["zpatch"])", "outputs.names",
         "outputs.patches[0]", "the same file"},
        {R"("data": "out/SAMPLE.DGC", "names": "out/sample.dgc")", "outputs.names", "outputs.data", "only in case"},
        {R"("data": "out/a/b.DGC", "names": "out/A")", "outputs.data", "outputs.names", "needs a folder"},
        {R"("data": "out/REPORT.HTML", "report": "out")", "outputs.report", "outputs.data", "only in case"},
    };
    for (const auto& c : cases) {
        BOOST_TEST_CONTEXT(c.outputs) {
            auto r = m.check(totem_manifest(c.outputs, edit));
            BOOST_TEST(r.exit_code == 2, r.err);
            BOOST_TEST(r.err.find(c.first) != std::string::npos, r.err);
            BOOST_TEST(r.err.find(c.second) != std::string::npos, r.err);
            BOOST_TEST(r.err.find(c.why) != std::string::npos, r.err);
            r = m.apply(totem_manifest(c.outputs, edit));
            BOOST_TEST(r.exit_code == 2, r.err);
            BOOST_TEST(!fs::exists(m.dir / "out"));
        }
    }
    // Distinct outputs are fine, and everything is written.
    const auto r = m.apply(totem_manifest(R"("data": "out/SAMPLE.DGC", "names": "out/SAMPLE.NGC", "report": "out/report")", edit));
    BOOST_TEST(r.exit_code == 0, r.err);
    for (const char* f : {"out/SAMPLE.DGC", "out/report/report.json", "out/report/report.html"})
        BOOST_TEST(fs::is_regular_file(m.dir / f), f);
}

// (5) A NUL in a manifest path ("\u0000" in JSON) is refused, not cut.
BOOST_AUTO_TEST_CASE(a_nul_in_a_manifest_path_is_refused) {
    Mod m;
    const std::string edit = "[" + m.patch(0x10) + "]";
    for (const auto& [manifest, field] : std::vector<std::pair<std::string, std::string>>{
             {totem_manifest(R"("data": "out/x\u0000.DGC")", edit), "outputs.data"},
             {totem_manifest(R"("data": "out/x.DGC", "report": "out/r\u0000eport")", edit), "outputs.report"},
             {totem_manifest(R"("data": "out/x.DGC")", edit, "base/SAMPLE.DGC\\u0000.txt"), "inputs.data.path"}}) {
        BOOST_TEST_CONTEXT(field) {
            auto r = m.apply(manifest);
            BOOST_TEST(r.exit_code == 2, r.err);
            BOOST_TEST(r.err.find(field + ": ") != std::string::npos, r.err);
            BOOST_TEST(r.err.find("NUL") != std::string::npos, r.err);
            BOOST_TEST(!fs::exists(m.dir / "out"));
        }
    }
}

// (6) Exit codes as doc/manifest.md's table gives them (the test reads the table), and
// `shred pak repack` on an entry name that leaves the folder is bad input (2), not usage (1).
BOOST_AUTO_TEST_CASE(exit_codes_follow_the_documented_table) {
    Mod m;
    const std::string edit = "[" + m.patch(0x10) + "]";
    // A missing base file.
    auto r = m.apply(totem_manifest(R"("data": "out/x.DGC")", edit, "base/missing.DGC"));
    BOOST_TEST(r.exit_code == documented_exit("cannot read base/stadium/missing.z64"), r.err);
    BOOST_TEST(r.exit_code == 4, r.err);
    // A missing asset.
    r = m.apply(totem_manifest(R"("data": "out/x.DGC")",
                               R"([{"op": "skin.reweight", "skin": "DB:>SAMPLE>CHARACTERS>HERO>HERO.TSKIN", "model": "assets/missing.glb"}])"));
    BOOST_TEST(r.exit_code == documented_exit("assets/missing.glb: cannot read"), r.err);
    BOOST_TEST(r.err.find("assets/missing.glb") != std::string::npos, r.err);
    // An unreadable manifest, a path leaving the folder, a conflict.
    r = run_cli({"apply", (m.dir / "nope.json").string()});
    BOOST_TEST(r.exit_code == documented_exit("nope.json: cannot open for reading"), r.err);
    r = m.apply(totem_manifest(R"("data": "../x.DGC")", edit));
    BOOST_TEST(r.exit_code == documented_exit("leaves the manifest's folder"), r.err);
    r = m.apply(totem_manifest(R"("data": "out/x.DGC")", "[" + m.patch(0x10, 2, "a") + ", " + m.patch(0x11, 1, "b") + "]"));
    BOOST_TEST(r.exit_code == documented_exit("conflicts with edit"), r.err);
    BOOST_TEST(!fs::exists(m.dir / "out"));

    // SHRED: a PAK (doc/formats/shred-pak.md, written by build_pak) with an escaping entry name.
    TempDir tmp;
    std::vector<mod::shred::PakBuildEntry> entries(2);
    entries[0].name = "ok.bin";
    entries[0].data = mod::Bytes(8, 1);
    entries[1].name = "../escape.bin";
    entries[1].data = mod::Bytes(8, 2);
    mod::write_file_atomic(tmp / "evil.pak", mod::shred::build_pak(entries));
    fs::create_directories(tmp / "x");
    r = run_cli({"shred", "pak", "repack", (tmp / "evil.pak").string(), (tmp / "x").string(), (tmp / "out.pak").string()});
    BOOST_TEST(r.exit_code == 2, r.err);
    BOOST_TEST(r.err.find("escapes the folder") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("evil.pak") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(tmp / "out.pak"));
}

// (7) Two applies writing in one folder take turns: with the folder locked by another process,
// apply --no-wait refuses (exit 3, saying why) and plain apply says it waits, then runs.
BOOST_AUTO_TEST_CASE(two_applies_take_turns_on_the_folder_lock) {
    Mod m;
    const std::string manifest = totem_manifest(R"("data": "out/x.DGC")", "[" + m.patch(0x10) + "]");
    const int fd = ::open(m.dir.c_str(), O_RDONLY | O_DIRECTORY);
    BOOST_REQUIRE(fd >= 0);
    BOOST_REQUIRE(::flock(fd, LOCK_EX) == 0);
    auto r = m.apply(manifest, {"--no-wait"});
    BOOST_TEST(r.exit_code == 3, r.err);
    BOOST_TEST(r.err.find("another modkit process is writing here") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(m.dir / "out"));
    // A waiting apply in the background; released after a moment, it finishes.
    const fs::path err = m.tmp / "wait.err";
    const std::string cmd = "'" + modkit() + "' apply '" + (m.dir / "mod.json").string() + "' -q >/dev/null 2>'" + err.string() + "'";
    const pid_t child = ::fork();
    BOOST_REQUIRE(child >= 0);
    if (child == 0) {
        ::close(fd);
        ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    std::string said;
    for (int i = 0; i < 300 && said.find("waiting") == std::string::npos; ++i) {
        ::usleep(50 * 1000);
        if (fs::exists(err)) said = text_of(err);
    }
    BOOST_TEST(said.find("waiting for another modkit process writing in") != std::string::npos, said);
    BOOST_TEST(!fs::exists(m.dir / "out/x.DGC"));  // nothing while it waits
    ::close(fd);                                    // releases the lock
    int status = 0;
    ::waitpid(child, &status, 0);
    BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 0), text_of(err));
    BOOST_TEST(fs::is_regular_file(m.dir / "out/x.DGC"));
}

// (8) The conflict check is near-linear: 20,000 disjoint bytes.patch edits plan without a
// conflict and 2,000 that all collide give n - 1 reports, 200 listed. How long it takes is
// measured by bench/bench_conflicts (ratio 20,000 / 2,000 edits), not here: a wall-clock bound
// fails on a loaded or sanitized machine (CI: 19.5 s under ASan+UBSan).
BOOST_AUTO_TEST_CASE(twenty_thousand_edits_are_checked_for_conflicts) {
    Mod m;
    const mod::Bytes b = m.dgc();
    BOOST_REQUIRE(b.size() >= 0x800 + 20000);
    std::string edits = "[";
    for (std::size_t i = 0; i < 20000; ++i) edits += (i ? ",\n" : "") + m.patch(0x800 + i);
    edits += "]";
    write_text(m.dir / "mod.json", totem_manifest(R"("data": "out/x.DGC")", edits));
    auto r = run_cli({"apply", (m.dir / "mod.json").string(), "--dry-run", "-q"});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("conflict") == std::string::npos, r.err);
    // All colliding: each reported once against the first (n - 1 conflicts, 200 listed).
    edits = "[";
    for (std::size_t i = 0; i < 2000; ++i) edits += (i ? ",\n" : "") + m.patch(0x800, 4, "e" + std::to_string(i));
    edits += "]";
    write_text(m.dir / "mod.json", totem_manifest(R"("data": "out/x.DGC")", edits));
    r = run_cli({"apply", (m.dir / "mod.json").string(), "--dry-run", "-q"});
    BOOST_TEST(r.exit_code == 3, r.err);
    BOOST_TEST(r.err.find("edits[1]: conflicts with edit \"e0\"") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("and 1799 more edits in conflict (only the first 200 are listed)") != std::string::npos, r.err);
}

// (8) `yay0 decompress --max-size 4294967295` on a stream that declares 0xFFFFFFFF bytes but
// holds a few: refused at the size word (what the stream can produce at most: every chunk byte
// a literal, every link halfword a 0x111-byte match), before allocating, under 512 MiB.
BOOST_AUTO_TEST_CASE(a_yay0_size_word_is_checked_against_the_stream_before_allocating) {
    TempDir tmp;
    mod::ByteWriter w(mod::Endian::big);
    w.string("Yay0");
    w.u32(0xFFFFFFFFu);  // declared size
    w.u32(0x14);         // link table at 0x14
    w.u32(0x18);         // chunk data at 0x18
    w.u32(0x00000000);   // one mask word: 32 matches
    w.u32(0x00010001);   // two link halfwords
    w.u32(0x41424344);   // four chunk bytes
    mod::write_file_atomic(tmp / "big.yay0", w.take());
    std::string err;
    const int code = run_limited({"yay0", "decompress", (tmp / "big.yay0").string(), (tmp / "out.bin").string(),
                                  "--max-size", "4294967295"},
                                 512 * 1024, &err);
    BOOST_TEST(code == 2, err);
    BOOST_TEST(lines(err) == 1u, err);
    // 4 literals + 2 matches x 0x111 = 550 bytes at most.
    BOOST_TEST(err.find("offset 0x4: yay0: declared decompressed size 4294967295 cannot come from this 28-byte stream "
                        "(at most 550 bytes") != std::string::npos,
               err);
    BOOST_TEST(!fs::exists(tmp / "out.bin"));
}

// (10) Temporary files a killed run left (NAME.modkit-tmp.PID.N) are removed by any later
// writing run, wherever it writes (the dead run's journal lists them), and by `modkit clean`.
BOOST_AUTO_TEST_CASE(temporaries_of_a_killed_run_are_removed_by_a_later_run_anywhere_and_by_clean) {
    TempDir tmp;
    const std::string dead = "4194304";  // PID_MAX_LIMIT: no process can have this PID
    const fs::path a = tmp / "a", b = tmp / "b", journal = tmp / "pending";
    const fs::path left = a / ("SAMPLE.DGC.modkit-tmp." + dead + ".0");
    write_text(left, "half an output");
    write_text(journal / dead, left.string() + "\n");
    write_text(b / "in.bin", std::string(1000, 'x'));
    const char* old = std::getenv("MODKIT_PENDING_DIR");
    const std::string saved = old ? old : "";
    ::setenv("MODKIT_PENDING_DIR", journal.c_str(), 1);
    auto r = run_cli({"yay0", "compress", (b / "in.bin").string(), (b / "in.yay0").string()});  // writes in b/ only
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(!fs::exists(left), "a later run elsewhere removed it");
    BOOST_TEST(!fs::exists(journal / dead));
    BOOST_TEST(r.err.find(left.filename().string()) != std::string::npos, r.err);  // and said so
    // modkit clean: by name below a folder (new and old names), files of live processes kept.
    write_text(a / "deep" / ("x.pak.modkit-tmp." + dead + ".3"), "x");
    write_text(a / (".y.z64.tmp." + dead + ".1"), "x");
    write_text(a / "z.modkit-tmp.1.0", "x");  // PID 1 always runs
    r = run_cli({"clean", a.string()});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("2 stale temporary files removed") != std::string::npos, r.out);
    BOOST_TEST(!fs::exists(a / "deep" / ("x.pak.modkit-tmp." + dead + ".3")));
    BOOST_TEST(!fs::exists(a / (".y.z64.tmp." + dead + ".1")));
    BOOST_TEST(fs::exists(a / "z.modkit-tmp.1.0"));
    if (old) ::setenv("MODKIT_PENDING_DIR", saved.c_str(), 1);
    else ::unsetenv("MODKIT_PENDING_DIR");
}

BOOST_AUTO_TEST_SUITE_END()
