// suggest_by_shape (bone_shape.hpp): a skeleton whose names share nothing with the target's,
// in other units and Z-up, gets every weighted bone mapped to the bone at the same place; left
// stays left; a bone on top of another (a roll bone) is told apart by its depth.
#include "test_support.hpp"

#include "libmod/scene/bone_shape.hpp"

using namespace mod::scene;

namespace {

struct Spec {
    const char* name;
    int parent;
    float x, y, z;
};

// A small humanoid (Y up): root, spine, head, two arms with a roll bone on each upper arm, legs.
const Spec humanoid[] = {
    {"Root", -1, 0, 0, 0},        {"Spine", 0, 0, 1, 0},         {"Head", 1, 0, 2, 0},
    {"LeftArm", 1, 1, 1.5f, 0},   {"LeftArmRoll", 3, 1, 1.5f, 0}, {"LeftHand", 4, 2, 1.5f, 0},
    {"RightArm", 1, -1, 1.5f, 0}, {"RightArmRoll", 6, -1, 1.5f, 0}, {"RightHand", 7, -2, 1.5f, 0},
    {"LeftLeg", 0, 0.5f, -1, 0},  {"LeftFoot", 9, 0.5f, -2, 0.3f}, {"RightLeg", 0, -0.5f, -1, 0},
    {"RightFoot", 11, -0.5f, -2, 0.3f},
};

Skeleton skeleton(float scale, bool z_up, bool renamed) {
    Skeleton s;
    int i = 0;
    for (const auto& b : humanoid) {
        Bone bone;
        bone.name = renamed ? "joint" + std::to_string(100 + 7 * i) : b.name;
        bone.parent = b.parent;
        bone.bind = identity_matrix;
        // Z-up: the source's z is the target's y, its y the target's -z.
        bone.bind[3] = scale * b.x;
        bone.bind[7] = scale * (z_up ? -b.z : b.y);
        bone.bind[11] = scale * (z_up ? b.y : b.z);
        s.bones.push_back(bone);
        ++i;
    }
    return s;
}

std::vector<BoneUsage> weighted(const Skeleton& s) {
    std::vector<BoneUsage> u;
    for (const auto& b : s.bones) u.push_back({b.name, 1.0, 10});
    return u;
}

std::vector<std::string> names(const Skeleton& s) {
    std::vector<std::string> out;
    for (const auto& b : s.bones) out.push_back(b.name);
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_bone_shape)

BOOST_AUTO_TEST_CASE(names_that_share_nothing_map_by_place_in_any_unit_and_up_axis) {
    const Skeleton target = skeleton(1, false, false);
    for (const bool z_up : {false, true}) {
        const Skeleton source = skeleton(100, z_up, true);
        const auto usage = weighted(source);
        BoneMapTemplate t = suggest_bone_map(usage, names(target));
        for (const auto& b : t.bones) BOOST_TEST(b.target.empty());  // no name in common
        const ShapeReport r = suggest_by_shape(t, usage, source, target);
        BOOST_TEST(r.matched == std::size(humanoid));
        BOOST_TEST(r.orientation == (z_up ? "Z-up read as Y-up" : "as it is"));
        for (std::size_t i = 0; i < t.bones.size(); ++i) {
            BOOST_TEST(t.bones[i].target == humanoid[i].name, "z_up " << z_up << ": " << t.bones[i].source);
            BOOST_TEST(t.bones[i].by_shape);
            BOOST_TEST(t.bones[i].shape_distance < 1e-6);
        }
        BOOST_TEST(t.text.find("check:\n" + source.bones[3].name + " = LeftArm\n") != std::string::npos, t.text);
    }
}

BOOST_AUTO_TEST_CASE(name_matches_stay_and_far_or_unweighted_bones_are_left_alone) {
    const Skeleton target = skeleton(1, false, false);
    Skeleton source = skeleton(1, false, true);
    source.bones[2].name = "Head";  // one name in common: kept as a name match
    source.bones[5].bind[3] = 40;   // a hand far outside the target's shape
    auto usage = weighted(source);
    usage[8].vertices = 0, usage[8].total_weight = 0;  // an unweighted bone: needs no target
    BoneMapTemplate t = suggest_bone_map(usage, names(target));
    const ShapeReport r = suggest_by_shape(t, usage, source, target);
    BOOST_TEST(t.bones[2].target == "Head");
    BOOST_TEST(!t.bones[2].by_shape);
    BOOST_TEST(t.bones[5].target.empty());
    BOOST_TEST(t.bones[8].target.empty());
    BOOST_TEST(r.too_far == 1u);
    BOOST_TEST(r.matched == std::size(humanoid) - 3);
    BOOST_TEST(t.text.find("# " + source.bones[5].name + " = ?") != std::string::npos, t.text);
}

BOOST_AUTO_TEST_SUITE_END()
