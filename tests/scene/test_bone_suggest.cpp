// Bone-map templates for `modkit shred bones` (issue 16): names matched case-insensitively
// after the prefixes producers add, strip rules for namespace prefixes, the unmatched left as
// comments, and the template read back by read_bone_map maps what it promised.
#include "test_support.hpp"

#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/bone_suggest.hpp"

using namespace mod::scene;

BOOST_AUTO_TEST_SUITE(bone_suggest)

BOOST_AUTO_TEST_CASE(normalised_names_drop_producer_prefixes_and_case) {
    BOOST_TEST(normalised_bone_name("mixamorig:LeftArm") == "leftarm");
    BOOST_TEST(normalised_bone_name("Armature|Left_Arm") == "leftarm");
    BOOST_TEST(normalised_bone_name("Bip01 L Forearm") == "lforearm");
    BOOST_TEST(normalised_bone_name("DEF-spine.001") == "spine001");
    BOOST_TEST(normalised_bone_name("b_") == "b");  // a prefix alone is a name
}

BOOST_AUTO_TEST_CASE(a_mixamo_skeleton_gets_a_strip_rule_pairs_and_comments) {
    const std::vector<std::string> target = {"Root", "Hips", "Spine", "LeftArm", "L_Forearm", "Head", "Neck"};
    std::vector<BoneUsage> source = {{"mixamorig:Hips", 10, 5},      {"mixamorig:Spine", 4, 3},
                                     {"mixamorig:LeftArm", 2, 2},    {"mixamorig:LeftForeArm", 1.5, 2},
                                     {"mixamorig:HEAD", 1, 1},       {"mixamorig:LeftHandThumb1", 0.25, 1},
                                     {"Root", 0, 0}};
    const BoneMapTemplate t = suggest_bone_map(source, target);
    BOOST_TEST_REQUIRE(t.strip_prefixes.size() == 1u);
    BOOST_TEST(t.strip_prefixes[0] == "mixamorig:");
    BOOST_TEST(t.bones[0].target == "Hips");
    BOOST_TEST(t.bones[0].by_strip);
    BOOST_TEST(t.bones[4].target == "Head");  // case-insensitive
    BOOST_TEST(!t.bones[4].by_strip);
    BOOST_TEST(t.bones[5].target.empty());
    BOOST_TEST(t.bones[6].same_name);
    BOOST_TEST(t.text.find("strip mixamorig:\n") != std::string::npos, t.text);
    BOOST_TEST(t.text.find("mixamorig:HEAD = Head\n") != std::string::npos, t.text);
    BOOST_TEST(t.text.find("mixamorig:Hips = ") == std::string::npos, t.text);  // the strip rule does it
    BOOST_TEST(t.text.find("# mixamorig:LeftHandThumb1 = ?") != std::string::npos, t.text);
    // LeftForeArm vs L_Forearm: different keys ("leftforearm" / "lforearm"): unmatched
    BOOST_TEST(t.bones[3].target.empty());

    // The template is a bone map: read back, it maps every suggested bone to its target.
    const BoneMap map = parse_bone_map(t.text, "template.txt");
    BOOST_TEST(map.strip_prefixes == t.strip_prefixes);
    const std::string* head = map.target_for("mixamorig:HEAD");
    BOOST_TEST_REQUIRE(head != nullptr);
    BOOST_TEST(*head == "Head");
}

BOOST_AUTO_TEST_CASE(two_targets_alike_are_not_guessed) {
    const BoneMapTemplate t = suggest_bone_map({{"spine", 1, 1}}, {"Spine", "SPINE"});
    BOOST_TEST(t.bones[0].target.empty());
    BOOST_TEST(t.bones[0].candidates == 2u);
    BOOST_TEST(t.text.find("2 targets match") != std::string::npos, t.text);
}

BOOST_AUTO_TEST_CASE(usage_sums_the_raw_weights_per_bone) {
    Scene s;
    s.skeleton.bones.resize(2);
    s.skeleton.bones[0].name = "a";
    s.skeleton.bones[1].name = "b";
    Mesh m;
    m.influences = InfluenceLists{{{0, 0.5f}, {1, 0.5f}}, {{0, 1.0f}}, {{1, 0.0f}}};
    s.meshes.push_back(m);
    const auto u = bone_usage(s);
    BOOST_TEST(u[0].total_weight == 1.5);
    BOOST_TEST(u[0].vertices == 2u);
    BOOST_TEST(u[1].total_weight == 0.5);
    BOOST_TEST(u[1].vertices == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
