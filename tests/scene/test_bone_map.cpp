// Bone maps, retargeting onto a target skeleton (never dropping weight) and exact welding.
#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/scene/weights.hpp"
#include "libmod/scene/weld.hpp"

#include <cmath>
#include <bit>
#include <algorithm>

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

BOOST_AUTO_TEST_CASE(a_utf8_byte_order_mark_is_not_part_of_the_first_line) {
    // Windows editors save text with a leading byte order mark: it is not part of the first
    // name, and a first comment line stays a comment (it was 'expected source = target').
    auto m = parse_bone_map("\xEF\xBB\xBF# exported by Notepad\nHips = pelvis\n", "map.txt");
    BOOST_TEST_REQUIRE(m.pairs.size() == 1u);
    BOOST_TEST(*m.target_for("Hips") == "pelvis");
    m = parse_bone_map("\xEF\xBB\xBFHips = pelvis\n", "map.txt");
    BOOST_TEST_REQUIRE(m.pairs.size() == 1u);
    BOOST_TEST(m.pairs[0].first == "Hips");
    // Only at the very start: elsewhere the bytes belong to a name.
    m = parse_bone_map("a = b\n\xEF\xBB\xBFHips = pelvis\n", "map.txt");
    BOOST_TEST_REQUIRE(m.pairs.size() == 2u);
    BOOST_TEST(m.pairs[1].first == "\xEF\xBB\xBFHips");
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

BOOST_AUTO_TEST_CASE(retargeted_lists_match_a_reference_merge) {
    // Random lists (bones repeated within a list, zero weights) against the rule written out
    // with nested vectors: each entry to its target, entries of one target summed in list order,
    // targets in first-seen order. One-to-one maps on small skeletons (mapped in place), a
    // many-to-one map, and a source skeleton of more than 64 bones.
    struct Case {
        std::size_t source_bones;
        bool many_to_one;
    };
    for (const Case c : {Case{14, false}, Case{64, false}, Case{14, true}, Case{70, false}})
        for (std::uint32_t seed = 1; seed <= 3; ++seed) {
            modtest::Rng rng(seed);
            Scene s;
            s.source = "lists.fbx";
            Skeleton target;
            for (std::size_t b = 0; b < c.source_bones; ++b) {
                s.skeleton.bones.push_back(Bone{"s" + std::to_string(b)});
                target.bones.push_back(Bone{"t" + std::to_string(b)});
            }
            BoneMap map;  // a permutation, or two sources per target
            std::vector<std::uint32_t> to(c.source_bones);
            for (std::size_t b = 0; b < c.source_bones; ++b) {
                to[b] = static_cast<std::uint32_t>(c.many_to_one ? b / 2 : (b * 5 + 3) % c.source_bones);
                map.pairs.emplace_back("s" + std::to_string(b), "t" + std::to_string(to[b]));
            }
            Mesh m;
            std::vector<std::vector<Influence>> expected;
            std::size_t expected_merges = 0;
            for (std::size_t v = 0; v < 300; ++v) {
                std::vector<Influence> list, merged;
                for (std::uint32_t k = rng.below(7); k > 0; --k) {
                    // A narrow range of bones now and then, so that lists repeat a bone.
                    std::uint32_t bone = rng.below(4) ? rng.below(static_cast<std::uint32_t>(c.source_bones)) : rng.below(3);
                    list.push_back({bone, float(rng.below(5)) * 0.125f});
                }
                for (const auto& inf : list) {
                    auto it = std::find_if(merged.begin(), merged.end(), [&](const Influence& e) { return e.bone == to[inf.bone]; });
                    if (it != merged.end()) it->weight += inf.weight, ++expected_merges;
                    else merged.push_back({to[inf.bone], inf.weight});
                }
                m.influences.push_back(list);
                m.positions.push_back({0, 0, 0});
                expected.push_back(merged);
            }
            s.meshes.push_back(m);
            const auto report = retarget(s, target, map);
            BOOST_TEST(report.merged_influences == expected_merges);
            const InfluenceLists& got = s.meshes[0].influences;
            BOOST_TEST_REQUIRE(got.size() == expected.size());
            for (std::size_t v = 0; v < expected.size(); ++v) {
                BOOST_TEST_REQUIRE(got[v].size() == expected[v].size());
                for (std::size_t i = 0; i < expected[v].size(); ++i) {
                    BOOST_TEST_REQUIRE(got[v][i].bone == expected[v][i].bone);
                    BOOST_TEST_REQUIRE(std::bit_cast<std::uint32_t>(got[v][i].weight) ==
                                       std::bit_cast<std::uint32_t>(expected[v][i].weight));
                }
            }
            // A bone outside the source skeleton is an error naming the file, in either path.
            Scene bad;
            bad.source = "bad.fbx";
            for (std::size_t b = 0; b < c.source_bones; ++b) bad.skeleton.bones.push_back(Bone{"s" + std::to_string(b)});
            Mesh wrong;
            wrong.positions = {{0, 0, 0}, {0, 0, 0}};
            wrong.influences = {{{0, 0.5f}}, {{1, 0.5f}, {static_cast<std::uint32_t>(c.source_bones), 0.5f}}};
            bad.meshes.push_back(wrong);
            auto e = modtest::catch_error([&] { retarget(bad, target, map); });
            BOOST_TEST_REQUIRE(e.has_value());
            BOOST_TEST(e->message().find("names bone " + std::to_string(c.source_bones)) != std::string::npos, e->message());
            BOOST_TEST(e->file() == "bad.fbx");
        }
}

// Issue 29 item 5: Blender keeps 63 bytes of a name. A source bone whose name is such a cut
// maps to the one target bone that starts with it (with a warning); when two targets start with
// it, or the name is shorter than 63 bytes, nothing is guessed.
BOOST_AUTO_TEST_CASE(names_cut_at_63_bytes_match_the_one_target_that_starts_with_them) {
    const std::string long_a = std::string(60, 'a') + "_upper_arm_left", long_b = std::string(60, 'b') + "_forearm_left";
    auto scene_with = [](std::vector<std::string> names) {
        Scene s;
        s.source = "blender.glb";
        for (auto& n : names) s.skeleton.bones.push_back(Bone{n});
        Mesh m;
        m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
        m.triangles = {{0, 1, 2}};
        for (std::uint32_t v = 0; v < 3; ++v) m.influences.push_back({Influence{v % 2, 1.0f}});
        s.meshes.push_back(std::move(m));
        return s;
    };
    Skeleton target;
    target.bones = {Bone{long_a}, Bone{long_b}};
    Scene s = scene_with({long_a.substr(0, 63), long_b.substr(0, 63)});
    const auto report = retarget(s, target);
    BOOST_TEST(report.mapped_by_truncated_name == 2u);
    BOOST_TEST(report.source_to_target[0] == 0);
    BOOST_TEST(report.source_to_target[1] == 1);
    BOOST_TEST(s.warnings.size() == 2u);
    BOOST_TEST(s.warnings[0].find("63 bytes") != std::string::npos, s.warnings[0]);
    // Two targets start with the cut name: unmapped, refused as any unmapped bone is.
    Skeleton twins;
    twins.bones = {Bone{long_a}, Bone{long_a.substr(0, 63) + "_2"}, Bone{long_b}};
    Scene t = scene_with({long_a.substr(0, 63), long_b.substr(0, 63)});
    BOOST_TEST(modtest::catch_error([&] { retarget(t, twins); }).has_value());
    // A short name that happens to start a target's is not a cut: unmapped.
    Skeleton one;
    one.bones = {Bone{"arm_left_twist"}, Bone{"leg"}};
    Scene u = scene_with({"arm_left", "leg"});
    BOOST_TEST(modtest::catch_error([&] { retarget(u, one); }).has_value());
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
