// The CLI layer over the model library: show (text/json), palette set on a v64 ROM (output keeps
// the byte order and the new colour is there), texture replace, export, textures, error codes.
#include "stadium_test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/n64/rom.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <boost/test/unit_test.hpp>

using namespace mod::stadium;

BOOST_AUTO_TEST_SUITE(stadium_model_cli)

BOOST_AUTO_TEST_CASE(show_reports_the_model) {
    const auto rom = stadiumtest::sample_rom().string();
    auto r = modtest::run_cli({"stadium", "show", rom, "0"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find("2 bones") != std::string::npos);
    BOOST_TEST(r.out.find("relocations match") != std::string::npos);
    r = modtest::run_cli({"stadium", "show", rom, "2", "--json"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find("\"crosscheck_ok\": true") != std::string::npos);
    BOOST_TEST(r.out.find("\"ci8\"") != std::string::npos);
    r = modtest::run_cli({"stadium", "show", rom, "99"});
    BOOST_TEST(r.exit_code == 1);
}

BOOST_AUTO_TEST_CASE(palette_set_keeps_the_byte_order) {
    modtest::TempDir dir;
    const auto v64 = dir / "in.v64";
    mod::write_file_atomic(v64, mod::n64::from_z64(stadiumtest::sample_rom_bytes(), mod::n64::ByteOrder::v64));
    const auto out = dir / "out.v64";
    auto r = modtest::run_cli({"stadium", "palette", "set", v64.string(), "3", out.string(), "--palette", "0", "--set",
                               "4=00FF00"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const mod::Bytes bytes = mod::read_file(out);
    BOOST_CHECK((mod::n64::detect_order(mod::ByteReader(bytes, mod::Endian::big)) == mod::n64::ByteOrder::v64));
    const auto rom = load_rom_bytes(bytes);
    const Model m = read_archive_model(read_archive(rom), 3);
    BOOST_TEST(m.palettes[0].entries[4] == 0x07C1);
    // A locked slot is a conflict (exit 3); the hsv action reports JSON.
    r = modtest::run_cli({"stadium", "palette", "set", v64.string(), "3", (dir / "x.v64").string(), "--palette", "0",
                          "--set", "4=00FF00", "--lock", "4"});
    BOOST_TEST(r.exit_code == 3);
    r = modtest::run_cli({"stadium", "palette", "hsv", v64.string(), "3", (dir / "h.v64").string(), "--palette", "0",
                          "--hue", "45", "--json"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find("\"changes\"") != std::string::npos);
    // Several whole palettes at once (model 2 has a 16- and a 256-colour palette).
    r = modtest::run_cli({"stadium", "palette", "hsv", v64.string(), "2", (dir / "h2.v64").string(), "--palette", "0",
                          "--palette", "1", "--value", "0.5"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const Model before = read_archive_model(read_archive(load_rom(v64)), 2);
    const Model after = read_archive_model(read_archive(load_rom(dir / "h2.v64")), 2);
    BOOST_TEST(after.palettes[0].entries != before.palettes[0].entries);
    BOOST_TEST(after.palettes[1].entries != before.palettes[1].entries);
}

BOOST_AUTO_TEST_CASE(texture_export_and_textures_commands) {
    modtest::TempDir dir;
    const auto rom = stadiumtest::sample_rom().string();
    auto r = modtest::run_cli({"stadium", "textures", rom, "0", (dir / "tex").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(std::filesystem::exists(dir / "tex" / "tex000.png"));
    r = modtest::run_cli({"stadium", "texture", "replace", rom, "0", (dir / "fork.z64").string(), "--texture", "0",
                          "--png", (dir / "tex" / "tex000.png").string(), "--mode", "fork", "--json"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"palette_forked\": true") != std::string::npos);
    const Model m = read_archive_model(read_archive(load_rom(dir / "fork.z64")), 0);
    BOOST_TEST(m.palettes.size() == 3u);
    // Another size without --resize is a usage error.
    r = modtest::run_cli({"stadium", "texture", "replace", rom, "0", (dir / "bad.z64").string(), "--texture", "1",
                          "--png", (dir / "tex" / "tex000.png").string()});
    BOOST_TEST(r.exit_code == 1);
    r = modtest::run_cli({"stadium", "export", rom, "0", (dir / "m.gltf").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(std::filesystem::exists(dir / "m.gltf"));
    BOOST_TEST(std::filesystem::exists(dir / "m_textures" / "textures.json"));
}

BOOST_AUTO_TEST_SUITE_END()
