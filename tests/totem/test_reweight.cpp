#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/totem/reweight.hpp"

#include <cmath>
#include <limits>
#include <map>

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
    BOOST_TEST(report.normalised == 1u);  // vertex 1: BONE_C's half is dropped, BONE_B takes all

    const auto& a = after.sections[0].subsections[0];
    BOOST_TEST((a.vertices == std::vector<SkinWeight>{w(0, 0.25f), w(2, 1.0f)}));
    BOOST_TEST((a.normals == std::vector<SkinWeight>{w(0, 0.25f)}));
    const auto& b = after.sections[1].subsections[0];
    BOOST_TEST((b.vertices == std::vector<SkinWeight>{w(0, 0.75f), w(1, 1.0f), w(3, 1.0f)}));  // 3 kept
    BOOST_TEST((b.normals == std::vector<SkinWeight>{w(0, 0.75f), w(1, 1.0f)}));
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
    const std::vector<WeightSourceVertex> source = {src(0, 0, 0, {{"BONE_D", 0.5f}, {"BONE_B", 0.5f}})};
    ReweightReport report;
    Skin after = reweight_skin(fixture_skin(), name_id("MESH_A"), fixture_mesh(), source, {}, &report);
    BOOST_TEST(report.groups_without_subsection == std::vector<std::string>{"BONE_D"});
    // Vertex 0 matched with no weight for A: it leaves A's list; B (the only group stored) takes 1.
    BOOST_TEST(after.sections[0].subsections[0].vertices.front().id == 1u);
    BOOST_TEST((after.sections[1].subsections[0].vertices.front() == w(0, 1.0f)));
}

// Issue 16: a matched position whose model weights are all in groups the SKIN cannot store
// here used to leave every list and stay unweighted (exit 0).
BOOST_AUTO_TEST_CASE(a_position_left_without_any_weight_is_refused) {
    const std::vector<WeightSourceVertex> source = {src(0, 0, 0, {{"BONE_D", 1.0f}})};
    auto err = modtest::catch_error([&] { reweight_skin(fixture_skin(), name_id("MESH_A"), fixture_mesh(), source); });
    BOOST_REQUIRE(err);
    BOOST_TEST((err->kind() == mod::ErrorKind::format));
    BOOST_TEST(err->path() == "positions[0]");
    BOOST_TEST(err->message().find("BONE_D") != std::string::npos);
    // No weight at all (a rigid model): refused too.
    const std::vector<WeightSourceVertex> rigid = {src(0, 0, 0, {})};
    BOOST_CHECK_THROW(reweight_skin(fixture_skin(), name_id("MESH_A"), fixture_mesh(), rigid), mod::Error);
}

// Issue 16: weights were stored as the model gave them, so a SKIN could hold sums of 0.4.
BOOST_AUTO_TEST_CASE(stored_weights_sum_to_one_per_position) {
    const std::vector<WeightSourceVertex> source = {
        src(0, 0, 0, {{"BONE_A", 0.1f}, {"BONE_B", 0.3f}}),
        src(1, 1, -1, {{"BONE_A", 2.0f}, {"BONE_B", 2.0f}}),
        src(2, 0, -2, {{"BONE_A", 0.3f}, {"BONE_B", 0.7f}}),  // sums to 1 (within float): kept as given
        src(3, 1, -3, {{"BONE_B", 0.5f}}),
    };
    ReweightReport report;
    const Skin after = reweight_skin(fixture_skin(), name_id("MESH_A"), fixture_mesh(), source, {}, &report);
    BOOST_TEST(report.normalised == 3u);
    std::map<std::uint32_t, double> sums;
    for (const auto& sec : after.sections)
        for (const auto& sub : sec.subsections)
            if (sub.mesh_index == 1)
                for (const auto& e : sub.vertices) sums[e.id] += e.weight.value();
    BOOST_TEST(sums.size() == 4u);
    for (const auto& [id, sum] : sums) BOOST_TEST(std::abs(sum - 1.0) < 1e-6, "position " << id << " sums to " << sum);
    BOOST_TEST((after.sections[0].subsections[0].vertices[0] == w(0, 0.25f)));
    BOOST_TEST((after.sections[0].subsections[0].vertices[2] == w(2, 0.3f)));  // bits kept
}

// Issue 30 item 4: reweighting from an unedited export rewrote every weight as n/255 (820
// bytes of the sample). Positions whose weights quantise as the stored ones keep them.
BOOST_AUTO_TEST_CASE(weights_an_export_gives_back_keep_the_stored_entries) {
    const Skin before = fixture_skin();
    // Stored: v0 A 1; v1 A 1; v2 A 0.5 B 0.5; v3 B 1. An export quantises v2 to 128/127 (the
    // tie's extra unit goes to the first group: weight descending, then section order).
    const std::vector<WeightSourceVertex> exported = {
        src(0, 0, 0, {{"BONE_A", 1.0f}}),
        src(1, 1, -1, {{"BONE_A", 1.0f}}),
        src(2, 0, -2, {{"BONE_A", 128 / 255.0f}, {"BONE_B", 127 / 255.0f}}),
        src(3, 1, -3, {{"BONE_B", 1.0f}}),
    };
    ReweightReport report;
    const Skin after = reweight_skin(before, name_id("MESH_A"), fixture_mesh(), exported, {}, &report);
    BOOST_TEST(report.matched == 4u);
    BOOST_TEST(report.unchanged == 4u);
    BOOST_TEST(report.normals_rewritten == 0u);
    BOOST_TEST((after == before));
    BOOST_TEST((encode_skin(after, Endian::big) == encode_skin(before, Endian::big)));

    // One unit moved from A to B on v2 is an edit: v2 is rewritten, the rest stay.
    auto edited = exported;
    edited[2].weights = {{"BONE_A", 127 / 255.0f}, {"BONE_B", 128 / 255.0f}};
    const Skin changed = reweight_skin(before, name_id("MESH_A"), fixture_mesh(), edited, {}, &report);
    BOOST_TEST(report.unchanged == 3u);
    BOOST_TEST((changed.sections[0].subsections[0].vertices ==
                std::vector<SkinWeight>{w(0, 1), w(1, 1), w(2, 127 / 255.0f)}));
    BOOST_TEST((changed.sections[1].subsections[0].vertices == std::vector<SkinWeight>{w(2, 128 / 255.0f), w(3, 1)}));
}

// Issue 16: 0 matched positions left the SKIN as it was and exited 0.
BOOST_AUTO_TEST_CASE(no_matched_position_is_an_error_naming_the_fix) {
    std::vector<WeightSourceVertex> source;  // the MESH 100x larger and moved: a unit mistake
    for (const auto& p : fixture_mesh().positions)
        source.push_back(src(p[0].value() * 100 + 1000, p[1].value() * 100, p[2].value() * 100, {{"BONE_A", 1.0f}}));
    ReweightOptions options;
    options.no_match_hint = "try --units";
    auto err = modtest::catch_error([&] { reweight_skin(fixture_skin(), name_id("MESH_A"), fixture_mesh(), source, options); });
    BOOST_REQUIRE(err);
    BOOST_TEST((err->kind() == mod::ErrorKind::format));
    BOOST_TEST(err->message().find("tolerance") != std::string::npos);
    BOOST_TEST(err->message().find("try --units") != std::string::npos);
    BOOST_TEST(err->message().find("[1000, 0, -300] to [1300, 100, 0]") != std::string::npos, err->message());
}

BOOST_AUTO_TEST_CASE(a_partial_match_below_the_threshold_is_a_warning_with_the_count) {
    ReweightReport r;
    r.mesh_positions = 10;
    r.matched = 9;
    BOOST_TEST(partial_match_warning(r).empty());
    r.matched = 8;
    r.unmatched = {1, 2};
    BOOST_TEST(partial_match_warning(r).find("8 of 10") != std::string::npos);
}

// Issue 16: a reweight that moved every position of a group elsewhere wrote a SKIN whose
// group moves nothing.
BOOST_AUTO_TEST_CASE(an_edit_that_empties_a_group_is_refused) {
    // BONE_B moves positions 2 and 3 only; the model gives both to BONE_A.
    const std::vector<WeightSourceVertex> source = {src(2, 0, -2, {{"BONE_A", 1.0f}}), src(3, 1, -3, {{"BONE_A", 1.0f}})};
    auto err = modtest::catch_error([&] { reweight_skin(fixture_skin(), name_id("MESH_A"), fixture_mesh(), source); });
    BOOST_REQUIRE(err);
    BOOST_TEST((err->kind() == mod::ErrorKind::format));
    BOOST_TEST(err->path() == "groups[" + hash_text(name_id("BONE_B")) + "]");  // no name table here
}

BOOST_AUTO_TEST_CASE(tolerance_decides_matches_and_hash_names_resolve) {
    const std::vector<WeightSourceVertex> source = {src(0, 0, 0.01f, {{hash_text(name_id("BONE_B")), 1.0f}})};
    ReweightReport report;
    BOOST_CHECK_THROW(reweight_skin(fixture_skin(), name_id("MESH_A"), fixture_mesh(), source, {}, &report), mod::Error);
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

BOOST_AUTO_TEST_CASE(invariant_breaks_are_refused_before_anything_is_written) {
    // BONE_B's unknown entry says 2 for its subsection; shrinking that list to 1 breaks "<= count",
    // which `totem verify` flags: refused (it used to be only reported).
    Skin s = fixture_skin();
    s.unknown[1].vertices = {2};
    const std::vector<WeightSourceVertex> source = {src(2, 0, -2, {{"BONE_A", 1.0f}})};
    auto err = modtest::catch_error([&] { reweight_skin(s, name_id("MESH_A"), fixture_mesh(), source); });
    BOOST_REQUIRE(err);
    BOOST_TEST((err->kind() == mod::ErrorKind::format));
    BOOST_TEST(err->path() == "skin.unknown[1].vertices[0]");
    // Said in the SKIN's terms, with what to do (ux-review D6: "value 2 exceeds the subsection's
    // 1 vertices" said neither which group nor the fix).
    const std::string bone_b = hash_text(name_id("BONE_B")), mesh_a = hash_text(name_id("MESH_A"));
    BOOST_TEST(err->message().find("group " + bone_b + " would weight 1 vertices of MESH " + mesh_a) != std::string::npos,
               err->message());
    BOOST_TEST(err->message().find("weight at least 2 vertices of that MESH to " + bone_b) != std::string::npos, err->message());
    // A mismatch the input already had is no reason to refuse; it stays reported.
    s.unknown[1].vertices = {3};
    ReweightReport report;
    reweight_skin(s, name_id("MESH_A"), fixture_mesh(), std::vector<WeightSourceVertex>{src(0, 0, 0, {{"BONE_A", 1.0f}})}, {},
                  &report);
    BOOST_TEST(report.findings.size() == 1u);
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
    BOOST_TEST(after.sections[0].subsections[0].vertices.front().weight.value() == 1.0f);  // 0.25 alone: normalised
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
    for (const auto& p : mesh.positions) source.push_back(src(p[0].value(), p[1].value(), p[2].value(), {{"BONE_A", 0.5f}, {"BONE_B", 0.5f}}));
    ReweightOptions fine;
    fine.tolerance = 1e-30f;
    ReweightReport report;
    reweight_skin(fixture_skin(), name_id("MESH_A"), mesh, source, fine, &report);
    BOOST_TEST(report.matched == mesh.positions.size());
    BOOST_TEST(report.unmatched.empty());
}

BOOST_AUTO_TEST_SUITE_END()
