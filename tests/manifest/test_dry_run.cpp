// Issue 30 item 2: `apply --dry-run` runs every check `apply` would: assets are read and every
// edit runs in memory, so a PNG of the wrong size or a bone map that does not parse fails the
// dry run (it used to pass it and fail only in apply). Nothing is written either way.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/png.hpp"

namespace fs = std::filesystem;
using modtest::run_cli;

namespace {

struct Mod {
    modtest::TempDir tmp;
    fs::path dir = tmp / "mod";
    Mod() {
        auto r = run_cli({"sample", (dir / "base").string(), "--game", "stadium", "--quiet"});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    }
    modtest::CliResult both(const std::string& edit, bool dry) const {
        mod::write_file_atomic(dir / "mod.json", R"({"modkit": 1, "name": "t", "game": "pokemon-stadium",
 "inputs": {"rom": {"path": "base/stadium/pokemon_stadium_sample.z64"}},
 "outputs": {"rom": "out/mod.z64"}, "edits": [)" + edit + "]}");
        std::vector<std::string> args{"apply", (dir / "mod.json").string(), "-q"};
        if (dry) args.push_back("--dry-run");
        return run_cli(args);
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(dry_run)

BOOST_AUTO_TEST_CASE(a_png_of_the_wrong_size_fails_the_dry_run_as_apply) {
    Mod m;
    mod::image::RgbaImage img;
    img.width = 3;
    img.height = 5;
    img.pixels.assign(3 * 5 * 4, 200);
    mod::write_file_atomic(m.dir / "odd.png", mod::image::write_png(img));
    const std::string edit = R"({"op": "texture.replace", "model": 1, "texture": 1, "png": "odd.png"})";
    const auto dry = m.both(edit, true);
    BOOST_TEST(dry.exit_code != 0, dry.err);
    BOOST_TEST(dry.err.find("3") != std::string::npos, dry.err);
    BOOST_TEST(!fs::exists(m.dir / "out"));
    const auto real = m.both(edit, false);
    BOOST_TEST(real.exit_code == dry.exit_code, real.err);
    BOOST_TEST(!fs::exists(m.dir / "out"));
}

BOOST_AUTO_TEST_CASE(a_bone_map_that_does_not_parse_fails_the_dry_run) {
    Mod m;
    auto r = run_cli({"stadium", "export", (m.dir / "base/stadium/pokemon_stadium_sample.z64").string(), "1",
                      (m.dir / "body.glb").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    mod::write_file_atomic(m.dir / "bones.txt", std::string_view("this line has no equals sign\n"));
    const std::string edit = R"({"op": "mesh.replace", "model": 1, "source": "body.glb", "bone_map": "bones.txt"})";
    const auto dry = m.both(edit, true);
    BOOST_TEST(dry.exit_code == 2, dry.err);
    BOOST_TEST(dry.err.find("bones.txt") != std::string::npos, dry.err);
    BOOST_TEST(!fs::exists(m.dir / "out"));
    // And a good edit passes both, the dry run writing nothing.
    const std::string good = R"({"op": "mesh.replace", "model": 1, "source": "body.glb"})";
    BOOST_TEST(m.both(good, true).exit_code == 0);
    BOOST_TEST(!fs::exists(m.dir / "out"));
    BOOST_TEST(m.both(good, false).exit_code == 0);
    BOOST_TEST(fs::exists(m.dir / "out/mod.z64"));
}

BOOST_AUTO_TEST_SUITE_END()
