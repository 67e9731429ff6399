#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/totem/reweight.hpp"

#include <limits>

using namespace mod::totem;
using namespace totemtest;

namespace {

Skin fixture_skin() {
    Skin s;
    s.header.item_type = item_skin;
    s.mesh_ids = {name_id("OTHER"), name_id("MESH_A")};
    s.sections = {{name_id("BONE_A"), {{1, {w(0, 1), w(1, 1), w(2, 0.5f)}, {w(0, 1), w(1, 1)}},
                                       {0, {w(7, 1)}, {}}}},
                  {name_id("BONE_B"), {{1, {w(2, 0.5f), w(3, 1)}, {}}}},
                  {name_id("BONE_D"), {{0, {w(1, 1)}, {}}}}};
    s.has_anims = 1;
    s.reading = Zero2Reading::seed;
    s.anims = {{3, name_id("ANIM")}};
    s.unknown = {{{1, 0}, {0, 0}}, {{1}, {0}}, {{0}, {0}}};
    return s;
}

WeightSourceVertex src(float x, float y, float z, std::vector<NamedWeight> weights) {
    return {{x, y, z}, std::move(weights)};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_reweight)

BOOST_AUTO_TEST_CASE(matched_vertices_take_the_source_weights_and_everything_else_stays) {
    const Mesh mesh = fixture_mesh();
    const Skin before = fixture_skin();
    const std::vector<WeightSourceVertex> source = {
        src(0, 0, 0, {{"BONE_A", 0.25f}, {"BONE_B", 0.75f}}),
        src(1, 1, -1.00001f, {{"BONE_B", 0.5f}, {"BONE_C", 0.5f}}),  // within 1e-4; BONE_C unknown
        src(2, 0, -2, {{"BONE_A", 1.0f}}),
        src(50, 50, 50, {{"BONE_B", 1.0f}}),  // matches nothing
    };
    ReweightReport report;
    Skin after = reweight_skin(before, name_id("MESH_A"), mesh, source, {}, &report);
    BOOST_TEST(report.matched == 3u);
    BOOST_TEST(report.unmatched == std::vector<std::uint32_t>{3});
    BOOST_TEST(report.unknown_groups == std::vector<std::string>{"BONE_C"});
    BOOST_TEST(report.groups_without_subsection.empty());
    BOOST_TEST(report.normals_rewritten == 3u);

    const auto& a = after.sections[0].subsections[0];
    BOOST_TEST((a.vertices == std::vector<SkinWeight>{w(0, 0.25f), w(2, 1.0f)}));
    BOOST_TEST((a.normals == std::vector<SkinWeight>{w(0, 0.25f)}));
    const auto& b = after.sections[1].subsections[0];
    BOOST_TEST((b.vertices == std::vector<SkinWeight>{w(0, 0.75f), w(1, 0.5f), w(3, 1.0f)}));  // 3 kept
    BOOST_TEST((b.normals == std::vector<SkinWeight>{w(0, 0.75f), w(1, 0.5f)}));
    // Other meshes' subsections, group ids, order, anims and unknown entries untouched.
    BOOST_TEST((after.sections[0].subsections[1] == before.sections[0].subsections[1]));
    BOOST_TEST((after.sections[2] == before.sections[2]));
    for (std::size_t i = 0; i < 3; ++i) BOOST_TEST(after.sections[i].group_id == before.sections[i].group_id);
    BOOST_TEST((after.unknown == before.unknown));
    BOOST_TEST((after.anims == before.anims));
    BOOST_TEST((after.reading == before.reading));
    // The result still encodes and decodes to itself.
    auto bytes = encode_skin(after, Endian::little);
    BOOST_TEST((decode_skin(mod::ByteReader(bytes, Endian::little)) == after));
}

BOOST_AUTO_TEST_CASE(groups_without_a_subsection_for_the_mesh_are_reported) {
    const std::vector<WeightSourceVertex> source = {src(0, 0, 0, {{"BONE_D", 1.0f}})};
    ReweightReport report;
    Skin after = reweight_skin(fixture_skin(), name_id("MESH_A"), fixture_mesh(), source, {}, &report);
    BOOST_TEST(report.groups_without_subsection == std::vector<std::string>{"BONE_D"});
    // Vertex 0 matched with no weight for A or B: it leaves their lists.
    BOOST_TEST(after.sections[0].subsections[0].vertices.front().id == 1u);
}

BOOST_AUTO_TEST_CASE(tolerance_decides_matches_and_hash_names_resolve) {
    const std::vector<WeightSourceVertex> source = {src(0, 0, 0.01f, {{hash_text(name_id("BONE_B")), 1.0f}})};
    ReweightReport report;
    Skin same = reweight_skin(fixture_skin(), name_id("MESH_A"), fixture_mesh(), source, {}, &report);
    BOOST_TEST(report.matched == 0u);
    BOOST_TEST((same == fixture_skin()));
    ReweightOptions wide;
    wide.tolerance = 0.05f;
    Skin moved = reweight_skin(fixture_skin(), name_id("MESH_A"), fixture_mesh(), source, wide, &report);
    BOOST_TEST(report.matched == 1u);
    BOOST_TEST(moved.sections[1].subsections[0].vertices.front().id == 0u);
    BOOST_TEST(group_id_of("0x0000002A") == 42);
    BOOST_TEST(group_id_of("BONE_B") == name_id("BONE_B"));
}

BOOST_AUTO_TEST_CASE(bad_inputs_are_refused) {
    const std::vector<WeightSourceVertex> negative = {src(0, 0, 0, {{"BONE_A", -1.0f}})};
    BOOST_CHECK_THROW(reweight_skin(fixture_skin(), name_id("MESH_A"), fixture_mesh(), negative), mod::Error);
    auto err = modtest::catch_error([&] { reweight_skin(fixture_skin(), name_id("NOPE"), fixture_mesh(), {}); });
    BOOST_REQUIRE(err);
    BOOST_TEST((err->kind() == mod::ErrorKind::usage));
}

BOOST_AUTO_TEST_CASE(invariant_breaks_are_reported_after_reweighting) {
    // BONE_B's unknown entry says 1 for its subsection; emptying that list breaks "<= count".
    Skin s = fixture_skin();
    s.unknown[1].vertices = {2};
    const std::vector<WeightSourceVertex> source = {src(2, 0, -2, {{"BONE_A", 1.0f}}), src(3, 1, -3, {{"BONE_A", 1.0f}})};
    ReweightReport report;
    reweight_skin(s, name_id("MESH_A"), fixture_mesh(), source, {}, &report);
    bool found = false;
    for (const auto& f : report.findings) found |= f.path == "skin.unknown[1].vertices[0]";
    BOOST_TEST(found);
}

BOOST_AUTO_TEST_CASE(a_mesh_id_past_index_65535_does_not_alias_another_mesh) {
    // decode_skin accepts any mesh count the bytes hold, but a subsection names its mesh with
    // a u16: MESH_A listed again at index 0x10000 must not make mesh 0 (OTHER) a target.
    Skin s = fixture_skin();
    s.mesh_ids.resize(0x10001, name_id("FILLER"));
    s.mesh_ids[0x10000] = name_id("MESH_A");
    s.sections[2].subsections[0].vertices = {w(0, 1)};  // mesh 0, a position the source matches
    const std::vector<WeightSourceVertex> source = {src(0, 0, 0, {{"BONE_A", 0.25f}})};
    Skin after = reweight_skin(s, name_id("MESH_A"), fixture_mesh(), source);
    BOOST_TEST((after.sections[0].subsections[1] == s.sections[0].subsections[1]));  // mesh 0: OTHER
    BOOST_TEST((after.sections[2] == s.sections[2]));
    BOOST_TEST(after.sections[0].subsections[0].vertices.front().weight.value() == 0.25f);
    // Listed only past 0xFFFF: nothing can target it.
    s.mesh_ids[1] = name_id("FILLER");
    auto err = modtest::catch_error([&] { reweight_skin(s, name_id("MESH_A"), fixture_mesh(), source); });
    BOOST_REQUIRE(err);
    BOOST_TEST((err->kind() == mod::ErrorKind::usage));
}

BOOST_AUTO_TEST_CASE(non_finite_positions_and_tolerance_match_nothing_they_should_not) {
    // MESH positions are raw bits: a NaN or infinite coordinate must simply not match (its
    // grid cell used to come from converting NaN to an integer, which is undefined).
    Mesh mesh = fixture_mesh();
    mesh.positions[3][0] = F32{0x7FC00000u};  // NaN
    mesh.positions[2][1] = F32::of(std::numeric_limits<float>::infinity());
    std::vector<WeightSourceVertex> source = {src(0, 0, 0, {{"BONE_A", 0.25f}}),
                                              src(std::numeric_limits<float>::quiet_NaN(), 1, -3, {{"BONE_A", 1.0f}})};
    ReweightReport report;
    reweight_skin(fixture_skin(), name_id("MESH_A"), mesh, source, {}, &report);
    BOOST_TEST(report.matched == 1u);
    BOOST_TEST((report.unmatched == std::vector<std::uint32_t>{1, 2, 3}));
    // An infinite tolerance puts every point within reach (an infinite distance included,
    // inf <= inf); only the NaN position matches nothing.
    ReweightOptions wide;
    wide.tolerance = std::numeric_limits<float>::infinity();
    reweight_skin(fixture_skin(), name_id("MESH_A"), mesh, source, wide, &report);
    BOOST_TEST((report.unmatched == std::vector<std::uint32_t>{3}));
}

BOOST_AUTO_TEST_CASE(a_tolerance_finer_than_the_grid_floor_still_matches_exact_positions) {
    // Issue 22: with a tolerance of 1e-30 the grid cell is 1e-12, so a position of 3 is cell
    // 3e12 and the cell hash multiplied it into a signed overflow (undefined behaviour: the
    // ASan+UBSan build stops here on the old code; a plain build happened to work).
    const Mesh mesh = fixture_mesh();
    std::vector<WeightSourceVertex> source;
    for (const auto& p : mesh.positions) source.push_back(src(p[0].value(), p[1].value(), p[2].value(), {{"BONE_A", 0.5f}}));
    ReweightOptions fine;
    fine.tolerance = 1e-30f;
    ReweightReport report;
    reweight_skin(fixture_skin(), name_id("MESH_A"), mesh, source, fine, &report);
    BOOST_TEST(report.matched == mesh.positions.size());
    BOOST_TEST(report.unmatched.empty());
}

BOOST_AUTO_TEST_SUITE_END()
