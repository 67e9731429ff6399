// Import problems that used to pass silently or leave the user without a next step (issue 16):
// prefix rules in bone maps (Mixamo's "mixamorig:"), the unmapped-bone error kept to one line of
// bounded length with every bone as its own warning, and files Assimp refuses.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/import.hpp"

using namespace mod::scene;

namespace {

// One mesh of one vertex per source bone, each vertex fully weighted by its bone.
Scene one_vertex_per_bone(const std::vector<std::string>& names) {
    Scene s;
    s.source = "rig.fbx";
    Mesh m;
    m.name = "Body";
    std::vector<std::vector<Influence>> lists;
    for (std::size_t i = 0; i < names.size(); ++i) {
        s.skeleton.bones.push_back(Bone{names[i], i == 0 ? -1 : 0});
        m.positions.push_back({float(i), 0, 0});
        lists.push_back({{std::uint32_t(i), 1.0f}});
    }
    for (const auto& l : lists) m.influences.push_back(std::span(l.data(), l.size()));
    s.meshes.push_back(std::move(m));
    return s;
}

Skeleton named(const std::vector<std::string>& names) {
    Skeleton k;
    for (std::size_t i = 0; i < names.size(); ++i) k.bones.push_back(Bone{names[i], i == 0 ? -1 : 0});
    return k;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_import_checks)

BOOST_AUTO_TEST_CASE(bone_map_strip_rule_maps_mixamo_names) {
    const BoneMap map = parse_bone_map("# Mixamo\nstrip mixamorig:\nmixamorig:LeftHand = HandL\n", "map.txt");
    BOOST_TEST_REQUIRE(map.strip_prefixes.size() == 1u);
    BOOST_TEST(map.strip_prefixes[0] == "mixamorig:");
    Scene s = one_vertex_per_bone({"mixamorig:Hips", "mixamorig:Spine", "mixamorig:LeftHand"});
    RetargetReport r = retarget(s, named({"Hips", "Spine", "HandL"}), map);
    BOOST_TEST(r.mapped_by_prefix_rule == 2u);
    BOOST_TEST(r.mapped_explicitly == 1u);
    BOOST_TEST(r.source_to_target == (std::vector<std::int32_t>{0, 1, 2}));
    // A rule without a prefix is refused with its line.
    auto e = modtest::catch_error([] { parse_bone_map("strip   \n", "map.txt"); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(std::string(e->what()).find("'strip' needs a prefix") != std::string::npos, e->what());
}

BOOST_AUTO_TEST_CASE(unmapped_bones_error_is_one_bounded_line_and_every_bone_a_warning) {
    std::vector<std::string> names;
    for (int i = 0; i < 25; ++i) names.push_back("mixamorig:Finger" + std::to_string(i));
    Scene s = one_vertex_per_bone(names);
    auto e = modtest::catch_error([&] { retarget(s, named({"Root"})); });
    BOOST_TEST_REQUIRE(e.has_value());
    const std::string what = e->what();
    BOOST_TEST(what.find('\n') == std::string::npos);
    BOOST_TEST(what.find("25 bone(s) carry weight") != std::string::npos, what);
    BOOST_TEST(what.find("'mixamorig:Finger19'") != std::string::npos, what);
    BOOST_TEST(what.find("'mixamorig:Finger20'") == std::string::npos, what);
    BOOST_TEST(what.find("and 5 more") != std::string::npos, what);
    BOOST_TEST(what.find("strip PREFIX") != std::string::npos, what);
    BOOST_TEST(what.size() < 1500u);
    std::size_t lines = 0;
    for (const auto& w : s.warnings) lines += w.starts_with("unmapped bone 'mixamorig:Finger") ? 1 : 0;
    BOOST_TEST(lines == 25u);
}

BOOST_AUTO_TEST_CASE(files_assimp_refuses_say_what_to_do) {
    modtest::TempDir dir;
    const auto old_fbx = dir / "old.fbx";
    mod::write_file_atomic(old_fbx, std::string_view("; FBX 6.1.0 project file\nFBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n"
                                                     "\tFBXVersion: 6100\n}\nObjects:  {\n}\n"));
    auto e = modtest::catch_error([&] { import_file(old_fbx); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == mod::ErrorKind::format));
    BOOST_TEST(std::string(e->what()).find("re-export it as binary FBX 7.x") != std::string::npos, e->what());
    BOOST_TEST(std::string(e->what()).find("glTF 2.0 (.glb)") != std::string::npos, e->what());
    const auto bad_dae = dir / "bad.dae";
    mod::write_file_atomic(bad_dae, std::string_view("<?xml version=\"1.0\"?>\n<COLLADA version=\"1.4.1\"></COLLADA>\n"));
    e = modtest::catch_error([&] { import_file(bad_dae); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(std::string(e->what()).find("re-export it as glTF 2.0 (.glb)") != std::string::npos, e->what());
}

BOOST_AUTO_TEST_SUITE_END()
