// Checks of the SHRED replacement that used to pass silently (issue 16): a new mesh at another
// scale than the one it replaces, several source meshes merged without a word, and picking a
// source mesh by name.
#include "shred_util.hpp"
#include "test_support.hpp"

#include "libmod/shred/import.hpp"

using namespace mod;

namespace {

shred::Pak sample_pak() {
    auto path = shredtest::sample_dir() / "char_sample.pak";
    return shred::read_pak(modtest::read(path), path.string());
}

// Mesh 1 of skater01 as a source scene (its own geometry and weights, bones by SCP name).
scene::Scene own_mesh(const shred::Pak& pak, float scale) {
    scene::Scene s = shred::quartet_to_scene(shred::read_pak_quartet(pak, "skater01"), 1);
    s.source = "own.glb";
    for (auto& m : s.meshes) {
        m.skin.clear();
        for (auto& p : m.positions)
            for (auto& c : p) c *= scale;
    }
    return s;
}

// Two one-triangle meshes on the sample bones Pelvis and Spine, named `a` and `b`.
scene::Scene two_meshes(const std::string& a, const std::string& b) {
    scene::Scene s;
    s.source = "two.fbx";
    s.skeleton.bones.resize(2);
    s.skeleton.bones[0].name = "Pelvis";
    s.skeleton.bones[1].name = "Spine";
    s.skeleton.bones[1].parent = 0;
    for (const std::string& name : {a, b}) {
        scene::Mesh m;
        m.name = name;
        const float x = float(s.meshes.size());
        m.positions = {{x, 0, 0}, {x + 1, 0, 0}, {x, 1, 0}};
        if (s.meshes.size() == 1) m.positions.push_back({x + 1, 1, 0});
        m.normals.assign(m.positions.size(), {0, 0, 1});
        m.tangents.assign(m.positions.size(), {1, 0, 0, 1});
        m.uv0.assign(m.positions.size(), {0, 0});
        m.uv1 = m.uv0;
        std::vector<std::vector<scene::Influence>> lists(m.positions.size(), {{0, 1.0f}});
        for (const auto& l : lists) m.influences.push_back(std::span(l.data(), l.size()));
        m.triangles = {{0, 1, 2}};
        s.meshes.push_back(std::move(m));
    }
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shred_import_checks)

// The size rule every game shares (scene/scale_check.hpp): beyond 10x either way refused
// (limit) unless allowed; an extent more than 4x off along an axis is a warning.
BOOST_AUTO_TEST_CASE(a_mesh_100_times_larger_than_the_one_it_replaces_is_refused_unless_allowed) {
    const shred::Pak pak = sample_pak();
    {
        shred::SceneReplaceReport r;
        shred::replace_from_scene(pak, "skater01", 1, own_mesh(pak, 1.0f), {}, &r);
        BOOST_TEST(r.scale_mismatch.empty(), r.scale_mismatch);
        BOOST_TEST(r.scale_change.empty(), r.scale_change);
        BOOST_TEST(r.old_box == r.new_box);
    }
    // Blender's FBX numbers (centimetres) read without the unit: 100x, refused by default.
    auto e = modtest::catch_error([&] { shred::replace_from_scene(pak, "skater01", 1, own_mesh(pak, 100.0f), {}); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == ErrorKind::limit));
    for (const char* word : {"100 times larger", "--scale 0.01", "--allow-scale-change", "\"allow_scale_change\": true"})
        BOOST_TEST(std::string(e->what()).find(word) != std::string::npos, word << " in " << e->what());
    // 20x smaller: refused too (either way).
    e = modtest::catch_error([&] { shred::replace_from_scene(pak, "skater01", 1, own_mesh(pak, 0.05f), {}); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(std::string(e->what()).find("20 times smaller") != std::string::npos, e->what());
    BOOST_TEST(std::string(e->what()).find("--scale 20") != std::string::npos, e->what());
    // Allowed: the same text is one warning and the mesh is written 100x.
    shred::SceneReplaceOptions allowed;
    allowed.scale_check = shred::ScaleCheck::warn;
    shred::SceneReplaceReport r;
    shred::replace_from_scene(pak, "skater01", 1, own_mesh(pak, 100.0f), allowed, &r);
    BOOST_TEST(r.scale_change.find("100 times larger") != std::string::npos, r.scale_change);
    BOOST_TEST(std::count(r.warnings.begin(), r.warnings.end(), r.scale_change) == 1);
    for (int i = 0; i < 6; ++i) BOOST_TEST(r.new_box[i] == r.old_box[i] * 100.0f);
    // 5x smaller is within the rule: the per-axis warning names the options; 3x says nothing.
    shred::replace_from_scene(pak, "skater01", 1, own_mesh(pak, 0.2f), {}, &r);
    BOOST_TEST(r.scale_change.empty(), r.scale_change);
    BOOST_TEST(r.scale_mismatch.find("5 times smaller") != std::string::npos, r.scale_mismatch);
    BOOST_TEST(r.scale_mismatch.find("--axis") != std::string::npos, r.scale_mismatch);
    BOOST_TEST(std::count(r.warnings.begin(), r.warnings.end(), r.scale_mismatch) == 1);
    shred::replace_from_scene(pak, "skater01", 1, own_mesh(pak, 3.0f), {}, &r);
    BOOST_TEST(r.scale_mismatch.empty(), r.scale_mismatch);
}

BOOST_AUTO_TEST_CASE(merged_source_meshes_are_named_and_one_can_be_picked_by_name) {
    const shred::Pak pak = sample_pak();
    shred::SceneReplaceReport r;
    shred::replace_from_scene(pak, "skater01", 1, two_meshes("Body", "Hat"), {}, &r);
    BOOST_TEST_REQUIRE(r.merged_meshes.size() == 2u);
    BOOST_TEST(r.merged_meshes[0].first == "Body");
    BOOST_TEST(r.merged_meshes[0].second == 3u);
    BOOST_TEST(r.merged_meshes[1].first == "Hat");
    BOOST_TEST(r.merged_meshes[1].second == 4u);
    bool told = false;
    for (const auto& w : r.warnings)
        told = told || (w.find("2 source meshes were merged") != std::string::npos &&
                        w.find("'Body' (3 vertices), 'Hat' (4 vertices)") != std::string::npos);
    BOOST_TEST(told);

    shred::SceneReplaceOptions by_name;
    by_name.source_mesh_name = "hat";  // case-insensitive when no exact match
    shred::replace_from_scene(pak, "skater01", 1, two_meshes("Body", "Hat"), by_name, &r);
    BOOST_TEST_REQUIRE(r.merged_meshes.size() == 1u);
    BOOST_TEST(r.merged_meshes[0].first == "Hat");
    BOOST_TEST(r.source_vertices == 4u);

    by_name.source_mesh_name = "Boots";
    auto e = modtest::catch_error([&] { shred::replace_from_scene(pak, "skater01", 1, two_meshes("Body", "Hat"), by_name); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == ErrorKind::usage));
    BOOST_TEST(std::string(e->what()).find("0 'Body' (3 vertices), 1 'Hat' (4 vertices)") != std::string::npos, e->what());
    // Two meshes of one name: ambiguous, pick by index.
    by_name.source_mesh_name = "Body";
    shred::replace_from_scene(pak, "skater01", 1, two_meshes("Body", "body"), by_name, &r);  // the exact match wins
    BOOST_TEST(r.source_vertices == 3u);
    e = modtest::catch_error([&] { shred::replace_from_scene(pak, "skater01", 1, two_meshes("Body", "Body"), by_name); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(std::string(e->what()).find("more than one") != std::string::npos, e->what());
}

BOOST_AUTO_TEST_SUITE_END()
