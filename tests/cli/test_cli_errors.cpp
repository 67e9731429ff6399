// Errors that say what happened (issue 22): file-system failures are io errors (exit 4) naming
// the path, never exit 70; numbers on the command line are parsed in full and range-checked;
// reporting commands say on stderr why they failed; `patch info` checks the zstd frame.
#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/shred/quartet.hpp"

#include "test_support.hpp"

#include <algorithm>

using modtest::run_cli;
namespace fs = std::filesystem;

namespace {

// `modkit sample` once per run: stadium/, shred/ and totem/.
const fs::path& samples() {
    static modtest::TempDir dir;
    static bool made = [] {
        auto r = run_cli({"sample", dir.path().string(), "--quiet"});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, "modkit sample failed: " + r.err);
        return true;
    }();
    (void)made;
    return dir.path();
}

std::string rom() { return (samples() / "stadium" / "pokemon_stadium_sample.z64").string(); }
std::string pak() { return (samples() / "shred" / "char_sample.pak").string(); }
std::string dgc() { return (samples() / "totem" / "SAMPLE.DGC").string(); }
std::string ngc() { return (samples() / "totem" / "SAMPLE.NGC").string(); }

// Every command that creates an output folder, writing under `out`.
std::vector<std::vector<std::string>> folder_writers(const fs::path& out) {
    const std::string o = out.string();
    return {
        {"sample", o, "--game", "stadium"},
        {"demo", o},
        {"stadium", "extract", rom(), o},
        {"stadium", "textures", rom(), "0", o},
        {"stadium", "export", rom(), "0", o},
        {"stadium", "export", rom(), "0", (out / "m.glb").string()},
        {"shred", "pak", "extract", pak(), o},
        {"totem", "extract", dgc(), ngc(), o},
    };
}

std::string joined(const std::vector<std::string>& args) {
    std::string s;
    for (const auto& a : args) s += a + " ";
    return s;
}

// `reasons`: the message says one of them (the system's wording or ours).
void expect_io_error_naming(const std::vector<std::string>& args, const std::string& path,
                            const std::vector<std::string>& reasons) {
    auto r = run_cli(args);
    BOOST_TEST(r.exit_code == 4, joined(args) << "-> " << r.exit_code << ": " << r.err);
    BOOST_TEST(r.err.find("internal error") == std::string::npos, r.err);
    BOOST_TEST(r.err.find(path) != std::string::npos, joined(args) << ": " << r.err);
    BOOST_TEST(std::any_of(reasons.begin(), reasons.end(), [&](const std::string& reason) {
                   return r.err.find(reason) != std::string::npos;
               }), joined(args) << ": " << r.err);
    BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_errors)

BOOST_AUTO_TEST_CASE(an_output_folder_inside_a_file_is_an_io_error_naming_it) {
    modtest::TempDir dir;
    mod::write_file_atomic(dir / "file", std::string_view("x"));
    for (const auto& args : folder_writers(dir / "file" / "out"))
        expect_io_error_naming(args, (dir / "file").string(), {"not a folder", "Not a directory"});
}

BOOST_AUTO_TEST_CASE(an_output_folder_that_is_a_file_is_an_io_error_naming_it) {
    modtest::TempDir dir;
    mod::write_file_atomic(dir / "file", std::string_view("x"));
    for (auto args : folder_writers(dir / "file")) {
        if (args[1] == "export" && args.back().ends_with(".glb")) continue;  // file/m.glb: the case above
        expect_io_error_naming(args, (dir / "file").string(), {"not a folder", "Not a directory", "File exists"});
    }
}

BOOST_AUTO_TEST_CASE(an_over_long_output_name_is_an_io_error_naming_it) {
    modtest::TempDir dir;
    const fs::path longer = dir / std::string(300, 'n');
    for (const auto& args : folder_writers(longer)) expect_io_error_naming(args, longer.string(), {"too long"});
}

BOOST_AUTO_TEST_CASE(palette_slots_and_colours_are_parsed_in_full) {
    modtest::TempDir dir;
    const std::string out = (dir / "out.z64").string();
    auto set = [&](const std::string& request) {
        return run_cli({"stadium", "palette", "set", rom(), "0", out, "--palette", "0", "--set", request});
    };
    BOOST_TEST_REQUIRE(set("1=FF0000").exit_code == 0);  // the valid form still works
    fs::remove(out);
    // 4294967297 = 2^32 + 1 is not slot 1; "1x" is not slot 1; FF00ZZ is not FF00.
    for (const std::string bad : {"4294967297=FF0000", "1x=FF0000", "-1=FF0000", " 1=FF0000", "1=FF00ZZ", "1=-F0000",
                                  "1=FF00FF0", "1=0xFF00"}) {
        auto r = set(bad);
        BOOST_TEST(r.exit_code == 1, bad << " -> " << r.exit_code << " " << r.err);
        BOOST_TEST(!fs::exists(out), bad);
    }
    auto r = set("4294967297=FF0000");
    BOOST_TEST(r.err.find("got '4294967297=FF0000': the slot is not a number 0-255") != std::string::npos, r.err);
    r = set("1=FF00ZZ");
    BOOST_TEST(r.err.find("got '1=FF00ZZ': the colour is not RRGGBB or RRGGBBAA") != std::string::npos, r.err);
    r = run_cli({"stadium", "palette", "hsv", rom(), "0", out, "--palette", "0", "--slots", "1,4294967297"});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(!fs::exists(out));
}

BOOST_AUTO_TEST_CASE(floating_options_must_be_finite_numbers) {
    modtest::TempDir dir;
    const std::string out = (dir / "out.z64").string();
    auto hsv = [&](const std::string& option, const std::string& value) {
        return run_cli({"stadium", "palette", "hsv", rom(), "0", out, "--palette", "0", option + "=" + value});
    };
    BOOST_TEST_REQUIRE(hsv("--hue", "30").exit_code == 0);
    fs::remove(out);
    for (const char* option : {"--hue", "--saturation", "--value"})
        for (const char* bad : {"nan", "NaN", "inf", "-inf", "1e400", "30deg", "", "0x1p3"}) {
            auto r = hsv(option, bad);
            BOOST_TEST(r.exit_code == 1, option << "=" << bad << " -> " << r.exit_code << " " << r.err);
            BOOST_TEST(!fs::exists(out));
        }
    auto r = hsv("--hue", "nan");
    BOOST_TEST(r.err.find("'nan'") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("hue") != std::string::npos, r.err);
    // float options: finite once rounded to float.
    r = run_cli({"shred", "replace", pak(), "skater01", "0", (dir / "x.fbx").string(), (dir / "o.pak").string(),
                 "--scale=1e39"});
    BOOST_TEST(r.exit_code == 1, r.err);
}

BOOST_AUTO_TEST_CASE(unsigned_options_do_not_wrap_or_stop_early) {
    modtest::TempDir dir;
    const std::string out = (dir / "out.z64").string();
    // Boost's own parsing turns "-1" into 4294967295 and accepted it for --threads.
    for (const char* bad : {"--threads=-1", "--threads=4294967296", "--threads=2x", "--threads= 2"}) {
        auto r = run_cli({"stadium", "palette", "set", rom(), "0", out, "--palette", "0", "--set", "1=FF0000", bad});
        BOOST_TEST(r.exit_code == 1, bad << " -> " << r.exit_code << " " << r.err);
        BOOST_TEST(!fs::exists(out), bad);
    }
    auto r = run_cli({"stadium", "palette", "set", rom(), "0", out, "--palette=-1", "--set", "1=FF0000"});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(r.err.find("'-1'") != std::string::npos, r.err);
    // A TLUT palette edit: the slot list and the --set slot are strict too.
    mod::write_file_atomic(dir / "t.tlut", mod::Bytes(32, 0));
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{"--set", "1x=FF0000"}, std::vector<std::string>{"--set", "4294967297=FF0000"},
          std::vector<std::string>{"--set", "1=FF0000", "--lock", "0,2junk"}}) {
        std::vector<std::string> args{"texture", "palette-set", (dir / "t.tlut").string(), (dir / "o.tlut").string()};
        args.insert(args.end(), extra.begin(), extra.end());
        r = run_cli(args);
        BOOST_TEST(r.exit_code == 1, joined(args) << "-> " << r.err);
        BOOST_TEST(!fs::exists(dir / "o.tlut"));
    }
}

BOOST_AUTO_TEST_CASE(patch_info_refuses_a_damaged_zstd_frame) {
    modtest::TempDir dir;
    mod::Bytes a(4096), b(4096);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::uint8_t>(i * 7), b[i] = static_cast<std::uint8_t>(i * 7 + (i % 97 == 0));
    mod::write_file_atomic(dir / "a", a);
    mod::write_file_atomic(dir / "b", b);
    BOOST_TEST_REQUIRE(run_cli({"patch", "create", (dir / "a").string(), (dir / "b").string(), (dir / "p.zpatch").string()})
                           .exit_code == 0);
    BOOST_TEST(run_cli({"patch", "info", (dir / "p.zpatch").string()}).exit_code == 0);
    mod::Bytes patch = modtest::read(dir / "p.zpatch");
    patch[0x58] ^= 0xFF;  // the zstd frame's magic
    mod::write_file_atomic(dir / "bad.zpatch", patch);
    auto r = run_cli({"patch", "info", (dir / "bad.zpatch").string()});
    BOOST_TEST(r.exit_code == 2, r.out << r.err);
    BOOST_TEST(r.err.find("bad.zpatch: offset 0x58: zpatch.frame:") != std::string::npos, r.err);
    // A frame cut short in its last block is found without the source, too.
    patch = modtest::read(dir / "p.zpatch");
    patch.resize(patch.size() - 3);
    const std::uint32_t frame = static_cast<std::uint32_t>(patch.size() - 0x58);
    for (int k = 0; k < 4; ++k) patch[0x4C + k] = static_cast<std::uint8_t>(frame >> (8 * k));
    const std::uint32_t crc = mod::crc32(mod::ByteView(patch.data(), 0x54));
    for (int k = 0; k < 4; ++k) patch[0x54 + k] = static_cast<std::uint8_t>(crc >> (8 * k));
    mod::write_file_atomic(dir / "cut.zpatch", patch);
    r = run_cli({"patch", "info", (dir / "cut.zpatch").string()});
    BOOST_TEST(r.exit_code == 2, r.out << r.err);
}

BOOST_AUTO_TEST_CASE(shred_scan_and_show_say_why_on_stderr) {
    // Palettes checked against a 1-bone skeleton: every mesh using bone 1+ is invalid.
    auto r = run_cli({"shred", "scan", pak(), "--bones", "1"});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.err.find("modkit: " + pak() + ": offset ") == 0u, r.err);
    BOOST_TEST(r.err.find("stream") != std::string::npos, r.err);

    // A quartet whose skeleton (.scp) is overwritten with 0xFF does not fit.
    modtest::TempDir dir;
    auto parsed = mod::shred::read_pak(modtest::read(pak()), pak());
    const auto quartets = mod::shred::find_quartets(parsed);
    BOOST_REQUIRE(!quartets.empty());
    const auto& scp = parsed.entries[quartets[0].scp];
    mod::Bytes bytes = parsed.raw;
    std::fill_n(bytes.begin() + scp.data_offset, scp.size, std::uint8_t(0xFF));
    mod::write_file_atomic(dir / "bad.pak", bytes);
    r = run_cli({"shred", "show", (dir / "bad.pak").string()});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.err.find("modkit: quartet '" + quartets[0].base + "' does not fit: ") == 0u, r.err);
    BOOST_TEST(r.err.find((dir / "bad.pak").string()) != std::string::npos, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
