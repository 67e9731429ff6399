#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/totem/scene_bridge.hpp"

#include <array>
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
    // Strip corners (0, 1, 2) (tri_order 1) are written (0, 2, 1), as Chum World's export.
    BOOST_TEST((m.triangles[0] == std::array<std::uint32_t, 3>{0, 2, 1}));
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

BOOST_AUTO_TEST_CASE(weight_sources_are_the_meshes_named_after_the_mesh_or_its_materials) {
    mod::scene::Scene sc;
    sc.skeleton.bones.resize(1);
    sc.skeleton.bones[0].name = "BONE_A";
    for (const char* n : {"MESH_A", "MESH_AB", "MESH_A/MAT_A", "MESH_A_", "OTHER/MESH_A"}) {
        mod::scene::Mesh m;
        m.name = n;
        m.positions = {{0, 0, 0}};
        m.influences = {{{0, 1.0f}}};
        sc.meshes.push_back(std::move(m));
    }
    BOOST_TEST(weight_source_from_scene(sc, "MESH_A").size() == 2u);  // MESH_A and MESH_A/MAT_A
    BOOST_TEST(weight_source_from_scene(sc).size() == 5u);
}

namespace {

// Two source meshes with fixture_mesh's positions: "ELSE" (all BONE_A) and "MESH_A"
// (BONE_A `a`, BONE_B 1 - a).
mod::scene::Scene two_sources(float a) {
    mod::scene::Scene sc;
    sc.skeleton.bones.resize(2);
    sc.skeleton.bones[0].name = "BONE_A";
    sc.skeleton.bones[1].name = "BONE_B";
    const Mesh mesh = fixture_mesh();
    for (const char* name : {"ELSE", "MESH_A"}) {
        mod::scene::Mesh m;
        m.name = name;
        for (const auto& p : mesh.positions) {
            m.positions.push_back({p[0].value(), p[1].value(), p[2].value()});
            if (name == std::string("ELSE")) m.influences.push_back({{0, 1.0f}});
            else if (a == 0) m.influences.push_back({{1, 1.0f}});
            else m.influences.push_back({{0, a}, {1, 1.0f - a}});
        }
        sc.meshes.push_back(std::move(m));
    }
    return sc;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_skin_record_is_reweighted_from_the_meshes_named_after_its_target) {
    // The source mesh named after the MESH is the source; the other is not consulted.
    Skin skin = fixture_skin();
    auto archive_bytes_ = archive_bytes(Endian::big, 0x2000,
                                        {{{"SKIN", "THE_SKIN", "L", encode_skin(skin, Endian::big)},
                                          {"MESH", "MESH_A", "L", mesh_payload(Endian::big)}}});
    mod::ByteReader dgc(archive_bytes_, Endian::big, "t.DGC", "dgc");
    Archive a = decode_archive(dgc);
    NameTable names = fixture_names();
    ArchiveReweightReport report;
    Bytes payload = reweight_skin_record(dgc, a, 0, names, two_sources(0.25f), std::nullopt, {}, &report);
    Skin out = decode_skin(mod::ByteReader(payload, Endian::big));
    BOOST_REQUIRE(report.meshes.size() == 1u);
    BOOST_TEST(report.meshes[0].second.conflicting == 0u);
    BOOST_REQUIRE(out.sections[0].subsections[0].vertices.size() == 4u);  // BONE_A: every position, 0.25
    BOOST_TEST(out.sections[0].subsections[0].vertices[3].weight.value() == 0.25f);
    BOOST_REQUIRE(out.sections[1].subsections[0].vertices.size() == 4u);  // BONE_B: every position, 0.75
    BOOST_TEST(out.sections[1].subsections[0].vertices[3].weight.value() == 0.75f);
    BOOST_TEST((report.skipped_targets == std::vector<std::string>{hash_text(name_id("OTHER"))}));
}

// Issue 16: moving every position to BONE_B used to write a SKIN whose BONE_A moves nothing
// (exit 0); it is refused, and the error names the MESH and the group as the table does.
BOOST_AUTO_TEST_CASE(a_skin_record_reweight_that_empties_a_group_is_refused_with_names) {
    Skin skin = fixture_skin();
    auto archive_bytes_ = archive_bytes(Endian::big, 0x2000,
                                        {{{"SKIN", "THE_SKIN", "L", encode_skin(skin, Endian::big)},
                                          {"MESH", "MESH_A", "L", mesh_payload(Endian::big)}}});
    mod::ByteReader dgc(archive_bytes_, Endian::big, "t.DGC", "dgc");
    Archive a = decode_archive(dgc);
    NameTable names = fixture_names();
    auto err = modtest::catch_error([&] { reweight_skin_record(dgc, a, 0, names, two_sources(0), std::nullopt, {}); });
    BOOST_REQUIRE(err);
    BOOST_TEST((err->kind() == mod::ErrorKind::format));
    BOOST_TEST(err->path() == "mesh[MESH_A].groups[BONE_A]");
    BOOST_TEST(err->message().find("group BONE_A would lose") != std::string::npos, err->message());
}

BOOST_AUTO_TEST_SUITE_END()
