// Issue 30 item 6: `modkit manifest pack` writes a zip of a mod folder without the game, and
// `modkit apply PACK.zip` runs it against the player's own base files. Hostile packs (names that
// leave the folder, symlinks, duplicates, damaged or oversized entries, a pack carrying the base
// file) are refused with one line naming the entry, and nothing is written. The hostile zips are
// built by hand here (stored entries), independently of the libzip that modkit reads them with.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/image/png.hpp"
#include "libmod/manifest/pack.hpp"
#include "libmod/sample/examples.hpp"

#include <fstream>

namespace fs = std::filesystem;
namespace mf = mod::manifest;
using modtest::TempDir;

namespace {

std::string pack_text_of(const fs::path& p) {
    const auto b = mod::read_file(p);
    return {b.begin(), b.end()};
}

std::string pack_sha1_of(const fs::path& p) { return mod::to_hex(mod::sha1(mod::read_file(p))); }

// The totem mod of these tests, its inputs declared by sha1 (as a shared mod should).
std::string pack_totem_mod(const fs::path& dir, const std::string& extra = "") {
    return R"({ "modkit": 1, "name": "crate", "id": "crate-green", "version": "1.0", "authors": ["A. Modder"],)" + extra + R"(
  "game": "totemtech",
  "inputs": { "data": { "path": "base/totem/SAMPLE.DGC", "names": "names", "sha1": ")" +
           pack_sha1_of(dir / "base/totem/SAMPLE.DGC") + R"(" },
              "names": { "path": "base/totem/SAMPLE.NGC", "sha1": ")" + pack_sha1_of(dir / "base/totem/SAMPLE.NGC") + R"(" } },
  "outputs": { "data": "out/SAMPLE.DGC", "report": "out/report" },
  "edits": [ { "id": "crate", "op": "palette.hsv", "bitmap": "DB:>SAMPLE>TEXTURES>CRATE.TBITMAP", "hue": 90 } ] }
)";
}

// A mod folder with the sample games in base/, the manifest, a README, a hidden folder, a copy
// of a base file under another name and, after one apply, its outputs.
fs::path pack_make_mod(const TempDir& tmp, const std::string& extra = "") {
    const fs::path mod = tmp / "mod";
    fs::create_directories(mod);
    mod::sample::write_example_inputs(mod);
    modtest::write_text_file(mod / "mod.json", pack_totem_mod(mod, extra));
    modtest::write_text_file(mod / "README.md", "# Green crate\n");
    modtest::write_text_file(mod / ".git/HEAD", "ref: refs/heads/main\n");
    fs::copy_file(mod / "base/totem/SAMPLE.DGC", mod / "assets/backup.bin", fs::copy_options::none);
    return mod;
}

// --- a hand-made zip (stored entries) -------------------------------------------------------

struct RawEntry {
    std::string name;
    std::string data;
    std::uint32_t unix_mode = 0100644;
    std::uint32_t declared_size = UINT32_MAX;  // UINT32_MAX: the data's size
    bool bad_crc = false;
};

void pack_le16(std::string& s, unsigned v) { s += char(v & 0xFF), s += char((v >> 8) & 0xFF); }
void pack_le32(std::string& s, std::uint32_t v) { pack_le16(s, v & 0xFFFF), pack_le16(s, v >> 16); }

std::string pack_raw_zip(const std::vector<RawEntry>& entries, const std::string& comment = "") {
    std::string body, central;
    for (const auto& e : entries) {
        const std::uint32_t crc = mod::crc32(std::span(reinterpret_cast<const std::uint8_t*>(e.data.data()), e.data.size())) ^
                                  (e.bad_crc ? 1u : 0u);
        const std::uint32_t size = e.declared_size == UINT32_MAX ? std::uint32_t(e.data.size()) : e.declared_size;
        const std::uint32_t offset = std::uint32_t(body.size());
        pack_le32(body, 0x04034b50), pack_le16(body, 20), pack_le16(body, 0), pack_le16(body, 0), pack_le16(body, 0), pack_le16(body, 0x21);
        pack_le32(body, crc), pack_le32(body, std::uint32_t(e.data.size())), pack_le32(body, size);
        pack_le16(body, unsigned(e.name.size())), pack_le16(body, 0);
        body += e.name + e.data;
        pack_le32(central, 0x02014b50), pack_le16(central, (3 << 8) | 20), pack_le16(central, 20), pack_le16(central, 0), pack_le16(central, 0);
        pack_le16(central, 0), pack_le16(central, 0x21), pack_le32(central, crc), pack_le32(central, std::uint32_t(e.data.size())), pack_le32(central, size);
        pack_le16(central, unsigned(e.name.size())), pack_le16(central, 0), pack_le16(central, 0), pack_le16(central, 0), pack_le16(central, 0);
        pack_le32(central, e.unix_mode << 16), pack_le32(central, offset);
        central += e.name;
    }
    std::string out = body + central;
    pack_le32(out, 0x06054b50), pack_le16(out, 0), pack_le16(out, 0), pack_le16(out, unsigned(entries.size())), pack_le16(out, unsigned(entries.size()));
    pack_le32(out, std::uint32_t(central.size())), pack_le32(out, std::uint32_t(body.size())), pack_le16(out, unsigned(comment.size()));
    return out + comment;
}

const char* const pack_small_mod = R"({ "modkit": 1, "name": "x", "game": "totemtech",
  "inputs": { "data": { "path": "base/SAMPLE.DGC", "names": "names", "sha1": "SHA" }, "names": { "path": "base/SAMPLE.NGC" } },
  "outputs": { "data": "out/SAMPLE.DGC" }, "edits": [] }
)";

}  // namespace

BOOST_AUTO_TEST_SUITE(manifest_pack)

BOOST_AUTO_TEST_CASE(a_pack_holds_the_mod_and_never_the_game_and_is_the_same_bytes_every_time) {
    TempDir tmp;
    const fs::path mod = pack_make_mod(tmp);
    BOOST_REQUIRE_EQUAL(modtest::run_cli({"apply", (mod / "mod.json").string(), "-q"}).exit_code, 0);
    const auto r = modtest::run_cli({"manifest", "pack", (mod / "mod.json").string(), (tmp / "crate.zip").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("packed    README.md") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("packed    mod.json") != std::string::npos, r.out);
    for (const char* why : {"left out  base/totem/SAMPLE.DGC: the base file of input \"data\"",
                            "left out  base/totem/SAMPLE.NGC: the base file of input \"names\"",
                            "left out  assets/backup.bin: a copy of input \"data\"'s base file",
                            "left out  base/totem/SAMPLE.DPS: in base/ with the base files, and named by no edit",
                            "left out  out/SAMPLE.DGC: an output of apply", "left out  out/report/: the report apply writes",
                            "left out  .git/: a hidden folder"})
        BOOST_TEST(r.out.find(why) != std::string::npos, why << "\n" << r.out);
    BOOST_TEST(r.err.empty(), r.err);  // hashes declared: no warning

    // What is in it, read back by unpacking.
    TempDir back;
    const auto u = mf::unpack_mod(tmp / "crate.zip", back.path());
    // mod.json, README.md and the four assets the sample writes (assets/backup.bin left out).
    BOOST_TEST(u.files == 6u);
    BOOST_TEST(u.manifest == back.path() / "mod.json");
    BOOST_TEST(fs::exists(back.path() / "assets/hero_even.glb"));
    BOOST_TEST(!fs::exists(back.path() / "base"));
    BOOST_TEST(pack_text_of(back.path() / "README.md") == "# Green crate\n");
    BOOST_TEST(pack_text_of(back.path() / "mod.json") == pack_text_of(mod / "mod.json"));
    // Deterministic: the same folder packs to the same bytes, whenever.
    fs::last_write_time(mod / "README.md", fs::last_write_time(mod / "README.md") - std::chrono::hours(30));
    BOOST_REQUIRE_EQUAL(modtest::run_cli({"manifest", "pack", (mod / "mod.json").string(), (tmp / "again.zip").string(), "-q"}).exit_code, 0);
    BOOST_TEST((mod::read_file(tmp / "crate.zip") == mod::read_file(tmp / "again.zip")));
}

BOOST_AUTO_TEST_CASE(apply_of_a_pack_finds_the_players_bases_and_writes_what_the_folder_writes) {
    TempDir tmp;
    const fs::path mod = pack_make_mod(tmp);
    BOOST_REQUIRE_EQUAL(modtest::run_cli({"apply", (mod / "mod.json").string(), "-q"}).exit_code, 0);
    BOOST_REQUIRE_EQUAL(modtest::run_cli({"manifest", "pack", (mod / "mod.json").string(), (tmp / "crate.zip").string(), "-q"}).exit_code, 0);
    // The player's copies, named otherwise, elsewhere.
    fs::create_directories(tmp / "games");
    fs::copy_file(mod / "base/totem/SAMPLE.DGC", tmp / "games/my.dgc");
    fs::copy_file(mod / "base/totem/SAMPLE.NGC", tmp / "games/my.ngc");

    const auto r = modtest::run_cli({"apply", (tmp / "crate.zip").string(), "--bases", (tmp / "games").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("outputs under " + (tmp / "crate").string()) != std::string::npos, r.out);
    BOOST_TEST((mod::read_file(tmp / "crate/out/SAMPLE.DGC") == mod::read_file(mod / "out/SAMPLE.DGC")));
    BOOST_TEST(fs::exists(tmp / "crate/out/report/report.html"));

    // --input and --out work as for a folder.
    const auto r2 = modtest::run_cli({"apply", (tmp / "crate.zip").string(), "--input", "data=" + (tmp / "games/my.dgc").string(),
                                      "--input", "names=" + (tmp / "games/my.ngc").string(), "--out", (tmp / "elsewhere").string(), "-q"});
    BOOST_TEST_REQUIRE(r2.exit_code == 0, r2.err);
    BOOST_TEST((mod::read_file(tmp / "elsewhere/out/SAMPLE.DGC") == mod::read_file(mod / "out/SAMPLE.DGC")));

    // Without the player's bases: the missing inputs are named, nothing is written.
    const auto r3 = modtest::run_cli({"apply", (tmp / "crate.zip").string(), "--out", (tmp / "none").string()});
    BOOST_TEST(r3.exit_code == 4, r3.err);
    BOOST_TEST(r3.err.find("--input data=PATH") != std::string::npos, r3.err);
    BOOST_TEST(!fs::exists(tmp / "none"));
    // A pack with other manifests, or watched: usage.
    BOOST_TEST(modtest::run_cli({"apply", (tmp / "crate.zip").string(), (mod / "mod.json").string()}).exit_code == 1);
    BOOST_TEST(modtest::run_cli({"apply", (tmp / "crate.zip").string(), "--watch"}).exit_code == 1);
}

BOOST_AUTO_TEST_CASE(pack_says_what_a_shared_mod_lacks) {
    TempDir tmp;
    const fs::path mod = pack_make_mod(tmp, R"( "preview": "preview.png",)");
    // The preview is missing, then not a picture.
    auto r = modtest::run_cli({"manifest", "pack", (mod / "mod.json").string(), (tmp / "p.zip").string()});
    BOOST_TEST(r.exit_code == 4, r.err);
    BOOST_TEST(r.err.find("\"preview\"") != std::string::npos, r.err);
    modtest::write_text_file(mod / "preview.png", "not a png");
    r = modtest::run_cli({"manifest", "pack", (mod / "mod.json").string(), (tmp / "p.zip").string()});
    BOOST_TEST(r.exit_code == 2, r.err);
    BOOST_TEST(!fs::exists(tmp / "p.zip"));
    mod::image::RgbaImage img;
    img.width = img.height = 2;
    img.pixels.assign(16, 200);
    const auto png = mod::image::write_png(img);
    mod::write_file_atomic(mod / "preview.png", png);
    r = modtest::run_cli({"manifest", "pack", (mod / "mod.json").string(), (tmp / "p.zip").string()});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("packed    preview.png") != std::string::npos, r.out);

    // An input without a hash: packed, with the sha1 to declare.
    std::string text = pack_text_of(mod / "mod.json");
    const std::string data_sha1 = pack_sha1_of(mod / "base/totem/SAMPLE.DGC");
    text.replace(text.find(", \"sha1\": \"" + data_sha1 + "\""), 11 + 40 + 1, "");
    modtest::write_text_file(mod / "mod.json", text);
    r = modtest::run_cli({"manifest", "pack", (mod / "mod.json").string(), (tmp / "p.zip").string()});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("input \"data\" declares no sha1 or md5") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("\"sha1\": \"" + data_sha1 + "\"") != std::string::npos, r.err);
    // The pack would overwrite an output: usage.
    r = modtest::run_cli({"manifest", "pack", (mod / "mod.json").string(), (mod / "out/SAMPLE.DGC").string()});
    BOOST_TEST(r.exit_code == 1, r.err);
    // The new manifest fields are checked by the schema.
    modtest::write_text_file(tmp / "bad/mod.json", std::string(pack_small_mod).replace(std::string(pack_small_mod).find("\"name\""), 6, "\"id\": \"no spaces allowed\", \"name\""));
    r = modtest::run_cli({"manifest", "check", (tmp / "bad/mod.json").string()});
    BOOST_TEST(r.exit_code == 2, r.err);
    BOOST_TEST(r.err.find("id") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(hostile_packs_are_refused_naming_the_entry_and_nothing_is_written) {
    TempDir tmp;
    const std::string game = "GAME BYTES, the whole ROM";
    const std::string manifest = std::string(pack_small_mod).replace(std::string(pack_small_mod).find("SHA"), 3,
                                                                mod::to_hex(mod::sha1(std::span(reinterpret_cast<const std::uint8_t*>(game.data()), game.size()))));
    struct Case {
        const char* name;
        std::vector<RawEntry> entries;
        int exit;
        const char* says;
    };
    const Case cases[] = {
        {"dotdot", {{"mod.json", manifest}, {"../evil.sh", "x"}}, 2, "\"../evil.sh\": a \"..\" that leaves the pack's folder"},
        {"absolute", {{"mod.json", manifest}, {"/etc/cron.d/x", "x"}}, 2, "an absolute path"},
        {"backslash", {{"mod.json", manifest}, {"a\\..\\..\\x", "x"}}, 2, "a backslash"},
        {"twice", {{"mod.json", manifest}, {"a.txt", "x"}, {"A.TXT", "y"}}, 2, "two entries named \"A.TXT\""},
        {"symlink", {{"mod.json", manifest}, {"link", "/etc/passwd", 0120777}}, 2, "\"link\" is a symlink"},
        {"crc", {{"mod.json", manifest}, {"a.txt", "hello", 0100644, UINT32_MAX, true}}, 2, "\"a.txt\" is damaged"},
        {"huge", {{"mod.json", manifest}, {"big.bin", "x", 0100644, 0xFFFFFFF0u}}, 3, "more than 2048 MiB"},
        {"no manifest", {{"readme.txt", "x"}}, 2, "holds no mod.json"},
        {"the game", {{"mod.json", manifest}, {"roms/game.dgc", game}}, 2, "entry \"roms/game.dgc\" is the base file of input \"data\""},
        {"bad manifest", {{"mod.json", "{ \"modkit\": 2 }"}}, 2, "mod.json:1:"},
    };
    for (const auto& c : cases) {
        const fs::path zip = tmp / (std::string(c.name) + ".zip");
        modtest::write_text_file(zip, pack_raw_zip(c.entries));
        const auto r = modtest::run_cli({"apply", zip.string(), "--out", (tmp / "out").string()});
        BOOST_TEST(r.exit_code == c.exit, c.name << ": " << r.err);
        BOOST_TEST(r.err.find(c.says) != std::string::npos, c.name << ": " << r.err);
        BOOST_TEST(!fs::exists(tmp / "out"), c.name);
        BOOST_TEST(!fs::exists(tmp / "evil.sh"));
    }
    // Not a zip at all, though it starts like one.
    modtest::write_text_file(tmp / "junk.zip", "PK\x03\x04 and then nothing a zip has");
    const auto r = modtest::run_cli({"apply", (tmp / "junk.zip").string()});
    BOOST_TEST(r.exit_code == 2, r.err);
    BOOST_TEST(r.err.find("not a readable zip") != std::string::npos, r.err);
    // A well-formed hand-made pack applies its manifest (the reader is not libzip-only).
    modtest::write_text_file(tmp / "fine.zip", pack_raw_zip({{"mod.json", manifest}, {"notes/readme.txt", "hi"}}));
    TempDir into;
    const auto u = mf::unpack_mod(tmp / "fine.zip", into.path());
    BOOST_TEST(u.files == 2u);
    BOOST_TEST(pack_text_of(into.path() / "notes/readme.txt") == "hi");
}

BOOST_AUTO_TEST_SUITE_END()
