#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/totem/scene_bridge.hpp"

#include <cmath>

using namespace mod::totem;
using namespace totemtest;

namespace {

Skin fixture_skin() {
    Skin s;
    s.header.item_type = item_skin;
    s.mesh_ids = {name_id("OTHER"), name_id("MESH_A")};
    s.sections = {{name_id("BONE_A"), {{1, {w(0, 1), w(1, 1), w(2, 0.5f)}, {w(0, 1), w(1, 1)}}}},
                  {name_id("BONE_B"), {{1, {w(2, 0.5f), w(3, 1)}, {w(1, 1)}}}}};
    s.unknown = {{{1}, {1}}, {{1}, {0}}};
    return s;
}

NameTable fixture_names() {
    NameTable t;
    for (const char* n : {"BONE_A", "MESH_A", "MAT_A"}) t.add(n);  // BONE_B stays unnamed
    return t;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_scene_bridge)

BOOST_AUTO_TEST_CASE(skin_to_scene_unwelds_corners_and_places_joints_at_weighted_centres) {
    SkinExportReport report;
    auto sc = skin_to_scene(fixture_skin(), {{name_id("MESH_A"), fixture_mesh()}}, fixture_names(), &report);
    BOOST_TEST(report.skipped_targets == std::vector<std::string>{hash_text(name_id("OTHER"))});
    BOOST_REQUIRE(sc.skeleton.bones.size() == 2u);
    BOOST_TEST(sc.skeleton.bones[0].name == "BONE_A");
    BOOST_TEST(sc.skeleton.bones[1].name == hash_text(name_id("BONE_B")));
    // BONE_A: (1·(0,0,0) + 1·(1,1,-1) + 0.5·(2,0,-2)) / 2.5.
    BOOST_TEST(std::fabs(sc.skeleton.bones[0].bind[3] - 0.8f) < 1e-6f);
    BOOST_TEST(std::fabs(sc.skeleton.bones[0].bind[7] - 0.4f) < 1e-6f);
    BOOST_TEST(std::fabs(sc.skeleton.bones[0].bind[11] + 0.8f) < 1e-6f);
    BOOST_REQUIRE(sc.meshes.size() == 1u);
    const auto& m = sc.meshes[0];
    BOOST_TEST(m.positions.size() == 5u);  // five distinct (position, UV, normal) corners
    BOOST_TEST(m.triangles.size() == 3u);
    BOOST_TEST(report.triangles == 3u);
    // Position 2 (third distinct corner) carries both groups at 0.5.
    BOOST_TEST(m.influences[2].size() == 2u);
    BOOST_TEST(sc.materials == std::vector<std::string>{"MAT_A"});
    BOOST_TEST(sc.warnings.at(0) == synthetic_bind_pose_note);
}

BOOST_AUTO_TEST_CASE(reweight_from_a_generated_gltf) {
    const Mesh mesh = fixture_mesh();
    auto sc = skin_to_scene(fixture_skin(), {{name_id("MESH_A"), mesh}}, fixture_names());
    // The new weights: position 0 moves entirely to BONE_B.
    auto& m = sc.meshes[0];
    for (std::size_t v = 0; v < m.positions.size(); ++v)
        if (m.positions[v] == mod::scene::Vec3{0, 0, 0}) m.influences.set(v, {{1, 1.0f}});
    modtest::TempDir tmp;
    mod::scene::export_file(sc, tmp / "w.glb");
    auto imported = mod::scene::import_file(tmp / "w.glb");
    auto source = weight_source_from_scene(imported, "MESH_A");
    BOOST_TEST(source.size() == 5u);
    ReweightReport report;
    Skin out = reweight_skin(fixture_skin(), name_id("MESH_A"), mesh, source, {}, &report);
    BOOST_TEST(report.matched == 4u);
    BOOST_TEST(report.unmatched.empty());
    BOOST_TEST(report.findings.empty());
    const auto& a = out.sections[0].subsections[0].vertices;
    const auto& b = out.sections[1].subsections[0].vertices;
    BOOST_REQUIRE(a.size() == 2u);
    BOOST_TEST(a[0].id == 1u);
    BOOST_REQUIRE(b.size() == 3u);
    BOOST_TEST(b[0].id == 0u);
    BOOST_TEST(b[0].weight.value() == 1.0f);
    // The scene export keeps weights to 1/255: 0.5 comes back within that precision.
    BOOST_TEST(std::fabs(b[1].weight.value() - 0.5f) <= 1.0f / 255.0f);
    // Normal 0 pairs with position 0: it follows it to BONE_B.
    BOOST_TEST(out.sections[1].subsections[0].normals.at(0).id == 0u);
    BOOST_TEST(out.sections[0].subsections[0].normals.at(0).id == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
