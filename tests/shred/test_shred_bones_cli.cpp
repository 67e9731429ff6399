// `modkit shred bones SOURCE --target PAK QUARTET --out MAP` (issue 16): a source whose bones
// carry a Mixamo-style prefix and one upper-cased name gets a template with the strip rule and
// the one pair, and `shred replace --bone-map` with that template succeeds.
#include "shred_util.hpp"
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/shred/import.hpp"

#include <algorithm>
#include <cctype>

using namespace mod;

BOOST_AUTO_TEST_CASE(shred_bones_writes_a_template_that_replace_accepts) {
    modtest::TempDir dir;
    const auto pak_path = shredtest::sample_dir() / "char_sample.pak";
    const shred::Pak pak = shred::read_pak(modtest::read(pak_path), pak_path.string());
    auto model = shred::read_pak_quartet(pak, "skater01");
    scene::Scene s = shred::quartet_to_scene(model, 1);
    for (auto& b : s.skeleton.bones) b.name = "mixamorig:" + b.name;
    std::string& odd = s.skeleton.bones.back().name;  // one name in other case: a pair, not the rule
    const std::string odd_target = odd.substr(10);
    std::transform(odd.begin() + 10, odd.end(), odd.begin() + 10, [](char c) { return char(std::toupper(c)); });
    const std::string odd_source = odd;
    scene::export_file(s, dir / "mixamo.glb");

    const auto listing = modtest::run_cli({"shred", "bones", (dir / "mixamo.glb").string()});
    BOOST_TEST_REQUIRE(listing.exit_code == 0, listing.err);
    BOOST_TEST(listing.out.find(odd_source) != std::string::npos, listing.out);

    const auto r = modtest::run_cli({"shred", "bones", (dir / "mixamo.glb").string(), "--target", pak_path.string(),
                                     "skater01", "--out", (dir / "map.txt").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("prefix rule: strip mixamorig:") != std::string::npos, r.out);
    const Bytes map = modtest::read(dir / "map.txt");
    const std::string text(map.begin(), map.end());
    BOOST_TEST(text.find("strip mixamorig:\n") != std::string::npos, text);
    BOOST_TEST(text.find(odd_source + " = " + odd_target + "\n") != std::string::npos, text);

    // Without the map the replacement refuses the prefixed bones; with it, it succeeds.
    const auto refused = modtest::run_cli({"shred", "replace", pak_path.string(), "skater01", "1",
                                           (dir / "mixamo.glb").string(), (dir / "a.pak").string()});
    BOOST_TEST(refused.exit_code != 0);
    const auto done = modtest::run_cli({"shred", "replace", pak_path.string(), "skater01", "1",
                                        (dir / "mixamo.glb").string(), (dir / "b.pak").string(), "--bone-map",
                                        (dir / "map.txt").string()});
    BOOST_TEST(done.exit_code == 0, done.err);
    // --out without --target is a usage error
    BOOST_TEST(modtest::run_cli({"shred", "bones", (dir / "mixamo.glb").string(), "--out", (dir / "x.txt").string()})
                   .exit_code == 1);
}
