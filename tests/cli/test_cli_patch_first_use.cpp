// Issue 16: `patch apply` without OUT writes beside the source (as Flips does), a byte-swapped
// dump of the right ROM is named as such instead of "wrong source", `patch info` prints the
// metadata text.
#include "test_support.hpp"

#include "libmod/core/file.hpp"

namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(cli_patch_first_use)

BOOST_AUTO_TEST_CASE(apply_defaults_its_output_names_swapped_dumps_and_info_shows_metadata) {
    modtest::TempDir dir;
    auto r = modtest::run_cli({"sample", (dir / "game").string(), "--game", "stadium", "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const fs::path rom = dir / "game/stadium/pokemon_stadium_sample.z64";
    r = modtest::run_cli({"stadium", "palette", "hsv", rom.string(), "0", (dir / "blue.z64").string(), "--palette", "0",
                          "--hue", "200"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const fs::path bps = dir / "blue.bps";
    r = modtest::run_cli({"patch", "create", rom.string(), (dir / "blue.z64").string(), bps.string(), "--metadata",
                          "Blue model 0"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    r = modtest::run_cli({"patch", "info", bps.string()});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find("Blue model 0") != std::string::npos, r.out);
    // No OUT: beside the source, named after the patch.
    r = modtest::run_cli({"patch", "apply", bps.string(), rom.string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST((mod::read_file(dir / "game/stadium/blue.z64") == mod::read_file(dir / "blue.z64")));
    // The same ROM byte-swapped: still refused (conflict), but named for what it is.
    r = modtest::run_cli({"rom", "normalize", rom.string(), (dir / "swapped.v64").string(), "--order", "v64"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    r = modtest::run_cli({"patch", "apply", bps.string(), (dir / "swapped.v64").string(), (dir / "x.v64").string()});
    BOOST_TEST(r.exit_code == 3);
    BOOST_TEST(r.err.find("byte-swapped (v64) dump of the ROM this patch was made for (z64)") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("rom normalize") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(dir / "x.v64"));
}

BOOST_AUTO_TEST_SUITE_END()
