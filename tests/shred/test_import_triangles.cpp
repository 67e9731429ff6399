// Degenerate and duplicate source triangles (issue 16): counted and reported as a warning,
// kept by default, dropped with drop_degenerate (--drop-degenerate, "drop_degenerate": true).
#include "shred_util.hpp"
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/shred/import.hpp"

using namespace mod;

BOOST_AUTO_TEST_CASE(degenerate_and_duplicate_triangles_are_counted_and_dropped_on_request) {
    modtest::TempDir dir;
    const auto pak_path = shredtest::sample_dir() / "char_sample.pak";
    const shred::Pak pak = shred::read_pak(modtest::read(pak_path), pak_path.string());
    auto model = shred::read_pak_quartet(pak, "skater01");
    scene::Scene clean = shred::quartet_to_scene(model, 1);
    scene::export_file(clean, dir / "clean.glb");
    shred::SceneReplaceReport base;
    const Bytes same = shred::replace_from_scene(pak, "skater01", 1, scene::import_file(dir / "clean.glb"), {}, &base);
    BOOST_TEST_REQUIRE(base.degenerate_triangles == 0u);  // the sample mesh has none
    BOOST_TEST_REQUIRE(base.duplicate_triangles == 0u);
    BOOST_TEST_REQUIRE((same == pak.raw));

    scene::Scene s = clean;
    auto& tris = s.meshes[0].triangles;
    const auto first = tris.front();
    tris.push_back({first[0], first[0], first[1]});  // degenerate: one vertex twice
    tris.push_back({first[1], first[2], first[0]});  // duplicate of the first, rotated
    tris.push_back({first[2], first[1], first[0]});  // and reversed
    scene::export_file(s, dir / "bad.glb");

    shred::SceneReplaceReport kept;
    const Bytes with = shred::replace_from_scene(pak, "skater01", 1, scene::import_file(dir / "bad.glb"), {}, &kept);
    BOOST_TEST(kept.degenerate_triangles == 1u);
    BOOST_TEST(kept.duplicate_triangles == 2u);
    BOOST_TEST(!kept.dropped_degenerate);
    BOOST_TEST(kept.counts.new_triangles == base.counts.new_triangles + 3);
    bool warned = false;
    for (const auto& w : kept.warnings)
        warned = warned || (w.find("1 degenerate triangles") != std::string::npos &&
                            w.find("2 duplicate triangles") != std::string::npos &&
                            w.find("--drop-degenerate") != std::string::npos);
    BOOST_TEST(warned);

    shred::SceneReplaceOptions drop;
    drop.drop_degenerate = true;
    shred::SceneReplaceReport dropped;
    const Bytes out = shred::replace_from_scene(pak, "skater01", 1, scene::import_file(dir / "bad.glb"), drop, &dropped);
    BOOST_TEST(dropped.dropped_degenerate);
    BOOST_TEST((out == pak.raw));  // the three extra triangles are gone again

    // the CLI option
    const auto r = modtest::run_cli({"shred", "replace", pak_path.string(), "skater01", "1", (dir / "bad.glb").string(),
                                     (dir / "o.pak").string(), "--drop-degenerate"});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST((modtest::read(dir / "o.pak") == pak.raw));
    BOOST_TEST(r.err.find("dropped") != std::string::npos, r.err);
}
