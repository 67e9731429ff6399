// Issue 29 item 4: `totem bones` and `stadium bones` write the bone-map template `shred bones`
// writes, against a character's vertex groups and a model's bones; a source whose bones carry a
// rig prefix ("mixamorig:") replaces through it.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"

namespace fs = std::filesystem;
using modtest::run_cli;

namespace {

// `from` re-exported with every bone renamed "mixamorig:" + name.
void prefixed_copy(const fs::path& from, const fs::path& to) {
    mod::scene::Scene s = mod::scene::import_file(from);
    for (auto& b : s.skeleton.bones) b.name = "mixamorig:" + b.name;
    mod::scene::export_file(s, to);
}

// `from` re-exported with every bone renamed to a name that shares nothing with the target's.
void renamed_copy(const fs::path& from, const fs::path& to) {
    mod::scene::ImportOptions o;
    o.read_textures = true;  // a Stadium replacement draws them
    mod::scene::Scene s = mod::scene::import_file(from, o);
    for (std::size_t i = 0; i < s.skeleton.bones.size(); ++i) s.skeleton.bones[i].name = "j" + std::to_string(1000 + 7 * i);
    mod::scene::export_file(s, to);
}

std::string file_text(const fs::path& p) {
    const mod::Bytes b = mod::read_file(p);
    return std::string(b.begin(), b.end());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bones_commands)

BOOST_AUTO_TEST_CASE(totem_bones_lists_the_groups_and_its_template_replaces) {
    modtest::TempDir dir;
    auto r = run_cli({"sample", (dir / "game").string(), "--game", "totem", "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string dgc = (dir / "game/totem/SAMPLE.DGC").string(), ngc = (dir / "game/totem/SAMPLE.NGC").string();
    const std::string crate = "DB:>SAMPLE>PROPS>CRATE.TNODE";
    r = run_cli({"totem", "export", dgc, ngc, "DB:>SAMPLE>PROPS>CRATE.TSKIN", (dir / "crate.glb").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    prefixed_copy(dir / "crate.glb", dir / "rig.glb");
    // Without the template the prefixed bones match no group.
    r = run_cli({"totem", "replace", dgc, ngc, crate, (dir / "rig.glb").string(), (dir / "X.DGC").string()});
    BOOST_TEST(r.exit_code == 2, r.err);
    BOOST_TEST(r.err.find("mixamorig:CRATE_ROOT") != std::string::npos, r.err);
    r = run_cli({"totem", "bones", (dir / "rig.glb").string(), "--target", dgc, ngc, crate, "--out", (dir / "map.txt").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    // Every group of both SKINs that move CRATE.TMESH is listed, the lid's hinge too.
    BOOST_TEST(r.out.find("(3): CRATE_ROOT CRATE_LID CRATE_HINGE") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("mixamorig:CRATE_ROOT") != std::string::npos, r.out);
    const std::string map = file_text(dir / "map.txt");
    BOOST_TEST(map.find("strip mixamorig:") != std::string::npos, map);
    r = run_cli({"totem", "replace", dgc, ngc, crate, (dir / "rig.glb").string(), (dir / "X.DGC").string(), "--bone-map",
                 (dir / "map.txt").string()});
    BOOST_TEST(r.exit_code == 0, r.err);
    // --out without --target has nothing to map onto: usage.
    r = run_cli({"totem", "bones", (dir / "rig.glb").string(), "--out", (dir / "m2.txt").string()});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(!fs::exists(dir / "m2.txt"));
}

BOOST_AUTO_TEST_CASE(stadium_bones_lists_the_model_bones_and_its_template_replaces) {
    modtest::TempDir dir;
    auto r = run_cli({"sample", (dir / "game").string(), "--game", "stadium", "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string rom = (dir / "game/stadium/pokemon_stadium_sample.z64").string();
    r = run_cli({"stadium", "export", rom, "1", (dir / "body.glb").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    prefixed_copy(dir / "body.glb", dir / "rig.glb");
    r = run_cli({"stadium", "bones", (dir / "rig.glb").string(), "--target", rom, "1", "--out", (dir / "map.txt").string(),
                 "--json"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"target\": \"bone0_id0\"") != std::string::npos, r.out);
    BOOST_TEST(file_text(dir / "map.txt").find("strip mixamorig:") != std::string::npos);
    r = run_cli({"stadium", "replace", rom, "1", (dir / "rig.glb").string(), (dir / "new.z64").string(), "--bone-map",
                 (dir / "map.txt").string(), "--dry-run"});
    BOOST_TEST(r.exit_code == 0, r.err);
    // A model number past the archive: usage, naming it.
    r = run_cli({"stadium", "bones", (dir / "rig.glb").string(), "--target", rom, "99"});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(r.err.find("no entry 99") != std::string::npos, r.err);
}

// Issue 29 item 4: when the names share nothing, the template maps bones by where they are.
// A SHRED mesh, a Stadium model and a TotemTech character exported, every bone renamed, mapped
// by shape and replaced through that template give the very bytes the original export gives.
BOOST_AUTO_TEST_CASE(bones_named_unlike_the_target_map_by_shape) {
    modtest::TempDir dir;
    auto r = run_cli({"sample", (dir / "game").string(), "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string pak = (dir / "game/shred/char_sample.pak").string();
    const std::string rom = (dir / "game/stadium/pokemon_stadium_sample.z64").string();
    const std::string dgc = (dir / "game/totem/SAMPLE.DGC").string(), ngc = (dir / "game/totem/SAMPLE.NGC").string();
    const std::string hero = "DB:>SAMPLE>CHARACTERS>HERO>HERO.TNODE";
    struct Case {
        std::vector<std::string> exp, bones, target, replace;  // export args, bones command, --target, replace prefix
    };
    const fs::path orig = dir / "orig.glb", renamed = dir / "renamed.glb", map = dir / "map.txt";
    // SHRED and Stadium match bind-pose heads; TotemTech (no skeleton) weighted vertex centroids.
    const std::vector<Case> cases = {
        {{"shred", "export", pak, "skater01", "1"}, {"shred", "bones"}, {pak, "skater01"}, {"shred", "replace", pak, "skater01", "1"}},
        {{"stadium", "export", rom, "4"}, {"stadium", "bones"}, {rom, "4"}, {"stadium", "replace", rom, "4"}},
        {{"totem", "export", dgc, ngc, "DB:>SAMPLE>CHARACTERS>HERO>HERO.TSKIN"}, {"totem", "bones"}, {dgc, ngc, hero},
         {"totem", "replace", dgc, ngc, hero}},
    };
    for (const auto& c : cases) {
        auto args = c.exp;
        args.push_back(orig.string());
        r = run_cli(args);
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        renamed_copy(orig, renamed);
        args = c.bones;
        args.push_back(renamed.string());
        args.push_back("--target");
        args.insert(args.end(), c.target.begin(), c.target.end());
        args.insert(args.end(), {"--out", map.string()});
        r = run_cli(args);
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        BOOST_TEST(r.out.find("matched by skeleton shape") != std::string::npos, r.out);
        BOOST_TEST(file_text(map).find("# by shape (0% of the skeleton's size away), check:") != std::string::npos);
        // Without the template nothing maps; with it, the result is the original export's.
        args = c.replace;
        args.insert(args.end(), {renamed.string(), (dir / "x.out").string()});
        r = run_cli(args);
        BOOST_TEST(r.exit_code == 2, r.err);
        args = c.replace;
        args.insert(args.end(), {orig.string(), (dir / "want.out").string()});
        r = run_cli(args);
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        args = c.replace;
        args.insert(args.end(), {renamed.string(), (dir / "got.out").string(), "--bone-map", map.string()});
        r = run_cli(args);
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        BOOST_TEST((modtest::read(dir / "got.out") == modtest::read(dir / "want.out")), c.exp[0]);
    }
}

BOOST_AUTO_TEST_SUITE_END()
