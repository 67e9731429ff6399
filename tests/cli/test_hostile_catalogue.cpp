// The hostile-input catalogue (issue 21): every command that reads a file, run on truncations
// (every length for small files, sampled for large ones), byte flips, crafted header words
// (counts and sizes 0xFFFFFFFF, offsets pointing at themselves or past the end) and crafted
// names ('..', absolute paths, backslashes, control bytes, NUL, 300-byte segments). Each run
// must exit 0 or 1-4 (never 70, never a signal); a failure must be exactly one error line on
// stderr (warning lines, "modkit: warning: ...", may come before it) and leave no file in the
// output folder; inputs stay unchanged, nothing is written outside the output folder, and no
// run needs more address space than 512 MiB + 8 x its inputs (RLIMIT_AS; "out of memory" fails).
// MODKIT_HOSTILE_SCALE (0 < x <= 1, default 1) thins the variants (the sanitizer build).
#include "hostile_runner.hpp"

#include "libmod/codec/bps.hpp"
#include "libmod/codec/szp.hpp"
#include "libmod/codec/zstd_patch.hpp"
#include "libmod/sample/shred.hpp"
#include "libmod/sample/stadium.hpp"
#include "libmod/sample/totem.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/stadium/archive.hpp"

#include "test_support.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <set>

namespace fs = std::filesystem;
using hostile::Case;
using hostile::Variant;
using hostile::VariantOptions;

namespace {

constexpr std::uint64_t MiB = 1u << 20;

double scale() {
    const char* s = std::getenv("MODKIT_HOSTILE_SCALE");
    const double v = s ? std::atof(s) : 1.0;
    return v > 0 && v <= 1 ? v : 1.0;
}

// Keeps every k-th variant when scaled down (deterministic).
std::vector<Variant> thin(std::vector<Variant> v) {
    const double s = scale();
    if (s >= 1) return v;
    std::vector<Variant> out;
    const std::size_t step = static_cast<std::size_t>(1 / s + 0.5);
    for (std::size_t i = 0; i < v.size(); i += step) out.push_back(std::move(v[i]));
    return out;
}

std::vector<Case> cases_for(const std::vector<Variant>& vs, const std::string& name,
                            const std::vector<std::vector<std::string>>& commands,
                            const std::vector<std::pair<std::string, mod::Bytes>>& others = {}) {
    std::vector<Case> out;
    for (const auto& cmd : commands) {
        for (const auto& v : vs) {
            Case c;
            c.input = v;
            std::string words;
            for (const auto& a : cmd) {
                if (!words.empty()) words += ' ';
                words += a;
            }
            c.label = words + " / " + v.label;
            c.args = cmd;
            c.input_name = name;
            c.others = others;
            std::uint64_t total = v.size;
            for (const auto& o : others) total += o.second.size();
            c.memory_bound = 512 * MiB + 8 * total;
            out.push_back(std::move(c));
        }
    }
    return out;
}

mod::Bytes text(std::string_view s) { return mod::Bytes(s.begin(), s.end()); }

// Built piece by piece (GCC 12 warns -Wrestrict on "literal" + std::string chains).
std::string cat(std::initializer_list<std::string_view> parts) {
    std::string out;
    for (auto p : parts) out += p;
    return out;
}

std::string named(const std::string& name) { return cat({"name '", mod::escape_controls(name.substr(0, 24)), "'"}); }

// Lines of stderr that are not warnings ("modkit: warning: ..."): a failure is exactly one.
std::size_t error_lines(const std::string& err) {
    std::size_t n = 0;
    for (std::size_t start = 0; start < err.size();) {
        const std::size_t end = std::min(err.find('\n', start), err.size());
        if (std::string_view(err).substr(start, end - start).rfind("modkit: warning: ", 0) != 0) ++n;
        start = end + 1;
    }
    return n;
}

VariantOptions opts(std::size_t truncations, std::size_t flips, std::size_t header_bytes,
                    mod::Endian endian = mod::Endian::big, std::size_t every_length_below = 2048) {
    VariantOptions o;
    o.truncations = truncations;
    o.flips = flips;
    o.header_bytes = header_bytes;
    o.endian = endian;
    o.every_length_below = every_length_below;
    return o;
}

// PAKs whose names are hostile.
std::vector<Variant> crafted_paks() {
    const std::vector<std::string> names = {
        "../escape.txt", "/abs/escape.txt", "..\\..\\escape.txt", "a\\b\\c.txt", "ctl\x01\n.txt",
        cat({std::string(300, 's'), "/x.txt"}), std::string(300, 'f'), "", ".", "./..",
        [] {
            std::string p;
            for (int i = 0; i < 22; ++i) p += cat({std::string(200, 'd'), "/"});
            p += 'x';
            return p;
        }()};
    std::vector<Variant> out;
    for (const auto& n : names) {
        std::vector<mod::shred::PakBuildEntry> e = {{"ok.txt", 1, 0, 0, text("ok")}, {n, 2, 0, 0, text("bad")}};
        out.push_back({named(n), mod::shred::build_pak(e)});
    }
    // A name table whose last name has no NUL before the end of the file.
    auto p = mod::shred::build_pak(std::vector<mod::shred::PakBuildEntry>{{"x.txt", 1, 0, 0, {}}});
    std::replace(p.begin(), p.end(), std::uint8_t(0), std::uint8_t('A'));
    out.push_back({"no NUL anywhere", p});
    return out;
}

// Name tables with hostile names (the IDs of the sample's records kept).
std::vector<Variant> crafted_names(const mod::Bytes& names) {
    const std::string s(names.begin(), names.end());
    const std::string from = "DB:>SAMPLE>CHARACTERS>HERO>HERO_BODY.TMESH";
    std::vector<Variant> out;
    for (const std::string& to :
         {std::string("DB:>..>..>..>escape.TMESH"), std::string("/etc/escape"), std::string("DB:>a\\..\\b"),
          cat({"DB:>A", std::string_view("\0", 1), "B.TMESH"}), cat({"DB:>", std::string(300, 'C'), ">X.TMESH"}),
          std::string(5000, 'L'), std::string("DB:>a\nb")}) {
        std::string t = s;
        t.replace(t.find(from), from.size(), to);
        out.push_back({named(to), text(t)});
    }
    out.push_back({"unterminated quote", text(cat({s.substr(0, s.find('\n')), "\n12 \"open"}))});
    out.push_back({"id 2^40", text("1099511627776 \"X\"\n")});
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hostile_catalogue)

BOOST_AUTO_TEST_CASE(every_reader_fails_cleanly_on_hostile_files) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<Case> cases;
    const auto add = [&](std::vector<Case> more) { cases.insert(cases.end(), more.begin(), more.end()); };

    // SHRED: the character PAK (10 entries; every word of the entry table stomped too).
    const mod::Bytes pak = mod::sample::shred_character_pak();
    const auto pak_p = std::make_shared<const mod::Bytes>(pak);
    VariantOptions po = opts(32, 32, 16);
    for (std::size_t i = 0; i < 10; ++i)
        for (std::size_t w : {4u, 16u, 20u}) po.extra_words.push_back(mod::shred::pak_header_bytes + 24 * i + w);
    auto pak_variants = thin(hostile::variants(pak_p, po));
    for (auto& v : crafted_paks()) pak_variants.push_back(std::move(v));
    add(cases_for(pak_variants, "in.pak",
                  {{"shred", "pak", "list", "IN"}, {"shred", "pak", "extract", "IN", "OUT/x"}, {"shred", "show", "IN"},
                   {"shred", "scan", "IN"}}));
    add(cases_for(thin(hostile::variants(pak_p, opts(16, 16, 32))), "in.pak",
                  {{"shred", "export", "IN", "skater01", "0", "OUT/m.glb"},
                   {"shred", "pak", "repack", "IN", "DIR/missing", "OUT/r.pak"}}));

    // TotemTech: the GameCube archive and its name table (every length of the table), the PS2
    // archive (little-endian words).
    const auto gc = mod::sample::totem_sample(mod::totem::Platform::gamecube);
    const auto ps2 = mod::sample::totem_sample(mod::totem::Platform::ps2);
    const std::string skin = mod::sample::totem_skin_seed_name;
    const auto gc_p = std::make_shared<const mod::Bytes>(gc.data);
    add(cases_for(thin(hostile::variants(gc_p, opts(32, 32, 64))), "in.DGC",
                  {{"totem", "list", "IN", "DIR/n.NGC"}, {"totem", "extract", "IN", "DIR/n.NGC", "OUT/x"},
                   {"totem", "verify", "IN", "DIR/n.NGC"}},
                  {{"n.NGC", gc.names}}));
    add(cases_for(thin(hostile::variants(gc_p, opts(16, 16, 32))), "in.DGC",
                  {{"totem", "show", "IN", "DIR/n.NGC", skin}, {"totem", "export", "IN", "DIR/n.NGC", skin, "OUT/s.glb"}},
                  {{"n.NGC", gc.names}}));
    auto name_variants = thin(hostile::variants(std::make_shared<const mod::Bytes>(gc.names), VariantOptions()));
    for (auto& v : crafted_names(gc.names)) name_variants.push_back(std::move(v));
    add(cases_for(name_variants, "n.NGC", {{"totem", "list", "DIR/d.DGC", "IN"}}, {{"d.DGC", gc.data}}));
    auto name_sample = thin(hostile::variants(std::make_shared<const mod::Bytes>(gc.names), opts(24, 24, 16, mod::Endian::big, 0)));
    for (auto& v : crafted_names(gc.names)) name_sample.push_back(std::move(v));
    add(cases_for(name_sample, "n.NGC",
                  {{"totem", "extract", "DIR/d.DGC", "IN", "OUT/x"}, {"totem", "verify", "DIR/d.DGC", "IN"}},
                  {{"d.DGC", gc.data}}));
    add(cases_for(thin(hostile::variants(std::make_shared<const mod::Bytes>(ps2.data), opts(24, 24, 64, mod::Endian::little))),
                  "in.DPS", {{"totem", "list", "IN", "DIR/n.NPS"}, {"totem", "verify", "IN", "DIR/n.NPS"}},
                  {{"n.NPS", ps2.names}}));

    // Stadium: the 32 MiB sample ROM (header, archive header and descriptor words; flips in
    // the archive), and one model FRAGMENT through `fragment check`.
    const auto rom_p = std::make_shared<const mod::Bytes>(mod::sample::stadium_rom());
    const mod::Bytes& rom = *rom_p;
    VariantOptions ro = opts(4, 0, 0x10, mod::Endian::big, 0);
    for (std::size_t w = 0; w < 0x10; w += 4) ro.extra_words.push_back(mod::stadium::model_archive_rom + w);
    auto rom_variants = thin(hostile::variants(rom_p, ro));
    modtest::Rng rng(7);
    for (int k = 0; k < 4; ++k) {
        const std::size_t at = mod::stadium::model_archive_rom + rng.below(0x8000);
        Variant v(cat({"flip archive+", std::to_string(at - mod::stadium::model_archive_rom)}), rom_p, rom.size());
        v.edits.push_back({at, static_cast<std::uint8_t>(rom[at] ^ 0xFF)});
        rom_variants.push_back(std::move(v));
    }
    add(cases_for(rom_variants, "in.z64",
                  {{"stadium", "list", "IN"}, {"stadium", "extract", "IN", "OUT/x"}}));
    const mod::Bytes fragment = mod::sample::stadium_model(0);
    add(cases_for(thin(hostile::variants(std::make_shared<const mod::Bytes>(fragment), opts(24, 24, 64))), "m.fragment",
                  {{"stadium", "fragment", "check", "IN"}}));

    // Codecs and patches: a PERS-SZP of the fragment, BPS and zstd patches between two PAKs.
    const mod::Bytes szp = mod::szp::pack(fragment);
    add(cases_for(thin(hostile::variants(std::make_shared<const mod::Bytes>(szp), opts(16, 16, 0x20))), "in.szp",
                  {{"szp", "unpack", "IN", "OUT/u.bin"}, {"szp", "info", "IN"}}));
    const mod::Bytes layer = mod::sample::shred_layer_pak();
    const mod::Bytes src(pak.begin(), pak.begin() + 16384), dst(layer.begin(), layer.begin() + 16384);
    const auto bps = mod::bps::create(src, dst), zp = mod::zpatch::create(src, dst);
    add(cases_for(thin(hostile::variants(std::make_shared<const mod::Bytes>(mod::Bytes(bps)), opts(16, 16, 16))), "p.bps",
                  {{"patch", "apply", "IN", "DIR/src.bin", "OUT/t.bin"}, {"patch", "info", "IN"}},
                  {{"src.bin", src}}));
    add(cases_for(thin(hostile::variants(std::make_shared<const mod::Bytes>(mod::Bytes(zp)), opts(16, 16, 0x30, mod::Endian::little))),
                  "p.zpatch", {{"patch", "apply", "IN", "DIR/src.bin", "OUT/t.bin"}, {"patch", "info", "IN"}},
                  {{"src.bin", src}}));

    const char* cli = std::getenv("MODKIT_CLI");
    const std::string program = cli ? cli : (fs::path(MODKIT_BINARY_DIR) / "modkit").string();
    modtest::TempDir scratch;
    BOOST_TEST_MESSAGE("hostile catalogue: " << cases.size() << " runs");
    const auto outcomes = hostile::run_all(program, cases, scratch.path(), 2);

    std::map<int, std::size_t> by_exit;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        const auto& o = outcomes[i];
        ++by_exit[o.exit_code];
        std::string why;
        if (o.signal) why = cat({"killed by signal ", std::to_string(o.signal)});
        else if (o.exit_code < 0 || o.exit_code > 4) why = cat({"exit ", std::to_string(o.exit_code)});
        else if (o.err.find("internal error") != std::string::npos) why = "internal error";
        else if (o.err.find("out of memory") != std::string::npos)
            why = cat({"needed more than ", std::to_string(cases[i].memory_bound / MiB), " MiB"});
        else if (o.exit_code != 0 && error_lines(o.err) != 1) why = cat({std::to_string(error_lines(o.err)), " error lines on stderr"});
        else if (o.exit_code != 0 && !o.left.empty()) why = cat({"left ", o.left.front(), " in the output folder"});
        else if (!o.inputs_unchanged) why = "an input changed";
        if (why.empty()) continue;
        if (++bad <= 25) BOOST_ERROR(o.label << ": " << why << " (exit " << o.exit_code << "): " << o.err.substr(0, 400));
    }
    // Nothing may have been written beside the output folders (an escaping name): a worker
    // folder holds the inputs, stderr and out/ only, and no file anywhere is named *escape*.
    std::set<std::string> known = {"stderr", "out"};
    for (const auto& c : cases) {
        known.insert(c.input_name);
        for (const auto& o : c.others) known.insert(o.first);
    }
    for (const auto& w : fs::directory_iterator(scratch.path()))
        for (const auto& e : fs::directory_iterator(w.path()))
            BOOST_TEST(known.count(e.path().filename().string()), "written beside the output folder: " << e.path());
    for (const auto& e : fs::recursive_directory_iterator(scratch.path()))
        BOOST_TEST(e.path().filename().string().find("escape") == std::string::npos, "escaped: " << e.path());
    for (const char* stray : {"/tmp/escape.txt", "/abs/escape.txt", "/etc/escape"}) BOOST_TEST(!fs::exists(stray), stray);
    BOOST_TEST(bad == 0u, bad << " of " << outcomes.size() << " runs broke a rule");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::string exits;
    for (const auto& [code, n] : by_exit) exits += cat({" ", std::to_string(code), ":", std::to_string(n)});
    std::printf("hostile catalogue: %zu runs in %.1f s; exit codes%s\n", outcomes.size(), seconds, exits.c_str());
}

BOOST_AUTO_TEST_SUITE_END()
