// Issue 16, "Stadium recolouring": slot lists parsed in full (ranges and lists), colours with
// '#', texture replacement choosing its CI mode (auto) or naming a better one, and an export
// name with an extension modkit does not write refused instead of becoming a folder.
#include "stadium_test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/png.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include "libmod/core/rapidjson.hpp"

#include <boost/test/unit_test.hpp>

using namespace mod::stadium;
namespace fs = std::filesystem;

namespace {

rapidjson::Document json(const std::string& s) {
    rapidjson::Document d;
    d.Parse(s.c_str());
    BOOST_REQUIRE_MESSAGE(!d.HasParseError(), s);
    return d;
}

std::vector<std::uint16_t> palette_words(const fs::path& rom, std::size_t model, std::size_t palette) {
    return read_archive_model(read_archive(load_rom(rom)), model).palettes.at(palette).entries;
}

// A 16-colour RGBA5551 TLUT file of distinct saturated colours (every hue shift changes them).
mod::Bytes tlut16() {
    mod::Bytes b;
    for (unsigned i = 0; i < 16; ++i) {
        const std::uint16_t r = static_cast<std::uint16_t>((i * 2) & 31), g = static_cast<std::uint16_t>(31 - i), bl = 3;
        const std::uint16_t w = static_cast<std::uint16_t>(r << 11 | g << 6 | bl << 1 | 1);
        b.push_back(static_cast<std::uint8_t>(w >> 8));
        b.push_back(static_cast<std::uint8_t>(w));
    }
    return b;
}

std::vector<unsigned> changed_words(const mod::Bytes& a, const mod::Bytes& b) {
    std::vector<unsigned> out;
    for (unsigned i = 0; 2 * i + 1 < a.size(); ++i)
        if (a[2 * i] != b[2 * i] || a[2 * i + 1] != b[2 * i + 1]) out.push_back(i);
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_recolour_cli)

// `--lock 0-5` used to be refused or (before strict numbers) read as slot 0.
BOOST_AUTO_TEST_CASE(stadium_palette_slot_lists_take_ranges_and_lists_in_full) {
    modtest::TempDir dir;
    const auto rom = stadiumtest::sample_rom();
    const auto before = palette_words(rom, 0, 0);
    auto r = modtest::run_cli({"stadium", "palette", "hsv", rom.string(), "0", (dir / "a.z64").string(), "--palette", "0",
                               "--hue", "120", "--lock", "0-5", "--slots", "1,3,7-9,12"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto after = palette_words(dir / "a.z64", 0, 0);
    std::vector<unsigned> changed;
    for (unsigned i = 0; i < before.size(); ++i)
        if (before[i] != after[i]) changed.push_back(i);
    for (unsigned s : changed) BOOST_TEST((s == 7 || s == 8 || s == 9 || s == 12), "slot " << s << " changed");
    BOOST_TEST(changed.size() >= 2u);  // the sample's colours do shift
    for (const char* bad : {"0-", "-3", "5-0", "1,,2", "0-5x", "a", "1;2", "256", "0-300", ""}) {
        r = modtest::run_cli({"stadium", "palette", "hsv", rom.string(), "0", (dir / "b.z64").string(), "--palette", "0",
                              "--hue", "120", "--lock", bad});
        BOOST_TEST(r.exit_code == 1, "--lock '" << bad << "': " << r.err);
        BOOST_TEST(r.err.find("--lock") != std::string::npos, r.err);
    }
    BOOST_TEST(!fs::exists(dir / "b.z64"));
}

BOOST_AUTO_TEST_CASE(texture_palette_commands_take_ranges_and_hash_colours) {
    modtest::TempDir dir;
    mod::write_file_atomic(dir / "p.bin", tlut16());
    auto r = modtest::run_cli({"texture", "palette-hsv", (dir / "p.bin").string(), (dir / "h.bin").string(), "--hue", "90",
                               "--slots", "2-4,9", "--lock", "3"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST((changed_words(tlut16(), mod::read_file(dir / "h.bin")) == std::vector<unsigned>{2, 4, 9}));
    r = modtest::run_cli({"texture", "palette-set", (dir / "p.bin").string(), (dir / "s.bin").string(), "--set",
                          "1=#FF0000", "--set", "2=#00FF0080", "--lock", "3-15"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const mod::Bytes s = mod::read_file(dir / "s.bin");
    BOOST_TEST(s[2] == 0xF8);
    BOOST_TEST(s[3] == 0x01);
    r = modtest::run_cli({"texture", "palette-hsv", (dir / "p.bin").string(), (dir / "x.bin").string(), "--hue", "90",
                          "--slots", "4-2"});
    BOOST_TEST(r.exit_code == 1);
    r = modtest::run_cli({"texture", "palette-set", (dir / "p.bin").string(), (dir / "x.bin").string(), "--set", "1=#FF00"});
    BOOST_TEST(r.exit_code == 1);
    BOOST_TEST(!fs::exists(dir / "x.bin"));
}

BOOST_AUTO_TEST_CASE(stadium_palette_set_accepts_hash_colours) {
    modtest::TempDir dir;
    const auto rom = stadiumtest::sample_rom();
    auto r = modtest::run_cli({"stadium", "palette", "set", rom.string(), "3", (dir / "o.z64").string(), "--palette", "0",
                               "--set", "4=#00FF00"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(palette_words(dir / "o.z64", 3, 0).at(4) == 0x07C1);
}

// The default mode was reindex, which maps a new colour onto the old palette: a magenta
// texture came out 25 dE away with exit 0 and no hint that another mode does better.
BOOST_AUTO_TEST_CASE(texture_replace_picks_the_mode_with_the_lowest_delta_e_by_default) {
    modtest::TempDir dir;
    const auto rom = stadiumtest::sample_rom();
    mod::image::RgbaImage magenta;
    magenta.width = 64;
    magenta.height = 32;
    for (int i = 0; i < 64 * 32; ++i) magenta.pixels.insert(magenta.pixels.end(), {255, 0, 255, 255});
    mod::write_file_atomic(dir / "m.png", mod::image::write_png(magenta));
    auto r = modtest::run_cli({"stadium", "texture", "replace", rom.string(), "0", (dir / "a.z64").string(), "--texture",
                               "0", "--png", (dir / "m.png").string(), "--json"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    auto d = json(r.out);
    const auto& t = d["textures"][0];
    BOOST_TEST(std::string(d["mode"].GetString()) == "auto");
    BOOST_TEST(t["modes_tried"].MemberCount() == 3u);
    BOOST_TEST(t["modes_tried"]["reindex"].GetDouble() > 10.0);
    BOOST_TEST(std::string(t["mode_used"].GetString()) != "reindex");
    BOOST_TEST(t["mean_delta_e"].GetDouble() < 1.0);
    // The text output names the chosen mode and its dE.
    r = modtest::run_cli({"stadium", "texture", "replace", rom.string(), "0", (dir / "b.z64").string(), "--texture", "0",
                          "--png", (dir / "m.png").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("mode constrained") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("mean dE 0.00") != std::string::npos, r.out);
    // An explicit mode that does poorly is kept, with a warning naming the better one.
    r = modtest::run_cli({"stadium", "texture", "replace", rom.string(), "0", (dir / "c.z64").string(), "--texture", "0",
                          "--png", (dir / "m.png").string(), "--mode", "reindex"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("--mode constrained gives") != std::string::npos, r.err);
    BOOST_TEST((palette_words(dir / "c.z64", 0, 0) == palette_words(rom, 0, 0)));  // reindex: palette unchanged
    // --help says what each mode does.
    r = modtest::run_cli({"stadium", "texture", "--help"});
    BOOST_TEST(r.out.find("auto: try reindex, constrained and fork") != std::string::npos, r.out);
}

// `stadium export ROM MODEL x.fbx` created a folder named x.fbx holding model.glb.
BOOST_AUTO_TEST_CASE(export_refuses_an_extension_it_does_not_write) {
    modtest::TempDir dir;
    const auto rom = stadiumtest::sample_rom().string();
    auto r = modtest::run_cli({"stadium", "export", rom, "0", (dir / "x.fbx").string()});
    BOOST_TEST(r.exit_code == 1);
    BOOST_TEST(r.err.find(".glb") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(dir / "x.fbx"));
    // A folder (no extension) is still an export target.
    r = modtest::run_cli({"stadium", "export", rom, "0", (dir / "folder").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(fs::exists(dir / "folder" / "model.glb"));
}

BOOST_AUTO_TEST_SUITE_END()
