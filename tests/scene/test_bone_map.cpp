// Bone maps, retargeting onto a target skeleton (never dropping weight) and exact welding.
#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/scene/weights.hpp"
#include "libmod/scene/weld.hpp"

#include <cmath>

using namespace mod::scene;

namespace {

Skeleton named(std::initializer_list<const char*> names) {
    Skeleton s;
    for (const char* n : names) s.bones.push_back(Bone{n});
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_bone_map)

BOOST_AUTO_TEST_CASE(parse_bone_map_text) {
    auto m = parse_bone_map("# comment\n\n  Upper Arm.L = LeftArm \r\nBone.001=Spine\n", "map.txt");
    BOOST_TEST_REQUIRE(m.pairs.size() == 2u);
    BOOST_TEST(*m.target_for("Upper Arm.L") == "LeftArm");
    BOOST_TEST(*m.target_for("Bone.001") == "Spine");
    BOOST_TEST(m.target_for("Spine") == nullptr);
    auto e = modtest::catch_error([] { parse_bone_map("a = b\nno equals here\n", "map.txt"); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->path() == "line[2]");
    BOOST_TEST(e->file() == "map.txt");
    BOOST_TEST(modtest::catch_error([] { parse_bone_map("a = b\na = c\n"); })->message().find("twice") != std::string::npos);
    BOOST_TEST(modtest::catch_error([] { parse_bone_map(" = c\n"); }).has_value());
}

BOOST_AUTO_TEST_CASE(unmapped_weighted_bones_are_listed_and_a_map_fixes_them) {
    modtest::TempDir dir;
    scenetest::FixtureSpec spec;
    spec.unmapped_bone = true;
    auto f = scenetest::make_fixture(spec);
    scenetest::write_fixture(f, spec, dir / "extra.fbx");
    Scene s = import_file(dir / "extra.fbx");
    // The target knows Bone0..Bone6 under other names for two of them, and no "Extra".
    Skeleton target = named({"Root", "Bone1", "Bone2", "Bone3", "Bone4", "Bone5", "Bone6", "Spare"});
    Scene copy = s;
    auto e = modtest::catch_error([&] { retarget(copy, target); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->message().find("2 bone(s) carry weight") != std::string::npos, e->message());
    BOOST_TEST(e->message().find("'Bone0' (") != std::string::npos);
    BOOST_TEST(e->message().find("'Extra' (") != std::string::npos);
    BOOST_TEST(e->message().find("'Idle'") == std::string::npos);  // no weight, no complaint
    BOOST_TEST(e->file() == (dir / "extra.fbx").string());

    mod::write_file_atomic(dir / "map.txt", std::string_view("Bone0 = Root\nExtra = Root\nGhost = Spare\n"));
    BoneMap map = read_bone_map(dir / "map.txt");
    double before = 0;
    for (const auto& list : s.meshes[0].influences)
        for (const auto& inf : list) before += inf.weight;
    auto report = retarget(s, target, map);
    BOOST_TEST(report.mapped_explicitly == 2u);
    BOOST_TEST(report.mapped_by_name == 6u);
    BOOST_TEST(report.merged_influences > 0u);  // Extra lands on Root where Bone0 already was
    BOOST_TEST(s.skeleton.bones.size() == target.bones.size());
    BOOST_TEST(!s.warnings.empty());  // "Ghost" is not a source bone
    double after = 0;
    for (const auto& list : s.meshes[0].influences)
        for (const auto& inf : list) {
            after += inf.weight;
            BOOST_TEST_REQUIRE(inf.bone < target.bones.size());
        }
    BOOST_TEST(std::abs(before - after) < 1e-3);  // no weight dropped
    // Process: every vertex sums to 255 over target bones.
    process_weights(s);
    for (const auto& sw : s.meshes[0].skin) {
        unsigned sum = 0;
        for (int k = 0; k < sw.count; ++k) sum += sw.weights[k];
        BOOST_TEST_REQUIRE(sum == 255u);
    }
}

BOOST_AUTO_TEST_CASE(a_map_naming_a_missing_target_is_an_error) {
    Scene s;
    s.source = "x.fbx";
    s.skeleton = named({"A"});
    BoneMap map;
    map.pairs.emplace_back("A", "Nope");
    auto e = modtest::catch_error([&] { retarget(s, named({"B"}), map); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->message().find("'Nope'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(weld_keeps_vertices_that_differ_only_in_weights) {
    Mesh m;
    m.name = "w";
    for (int i = 0; i < 4; ++i) {
        m.positions.push_back({1, 2, 3});
        m.normals.push_back({0, 1, 0});
        m.tangents.push_back({1, 0, 0, 1});
        m.uv0.push_back({0.5f, 0.5f});
        m.uv1.push_back({0.5f, 0.5f});
    }
    m.influences = {{{0, 1}}, {{0, 1}}, {{1, 1}}, {{0, 1}}};
    m.triangles = {{0, 1, 2}, {3, 2, 1}};
    auto w = weld(m);
    BOOST_TEST(w.mesh.vertex_count() == 2u);  // 0, 1, 3 merge; 2 has other weights
    BOOST_TEST(w.remap == (std::vector<std::uint32_t>{0, 0, 1, 0}));
    BOOST_TEST((w.mesh.triangles[0] == std::array<std::uint32_t, 3>{0, 0, 1}));
    // With processed weights in the key the same holds, and welding twice changes nothing.
    process_weights(m);
    auto w2 = weld(m);
    BOOST_TEST(w2.mesh.vertex_count() == 2u);
    auto again = weld(w2.mesh);
    BOOST_TEST(again.mesh.vertex_count() == 2u);
    BOOST_TEST(again.mesh.triangles == w2.mesh.triangles);
    // A one-ulp difference in a UV keeps vertices apart (exact key, no tolerance).
    m.uv1[1][0] = std::nextafter(0.5f, 1.0f);
    BOOST_TEST(weld(m).mesh.vertex_count() == 3u);
}

BOOST_AUTO_TEST_SUITE_END()
