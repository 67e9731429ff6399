// Export for viewing: the scene built from a model (bones in bind pose, one mesh per material,
// per-vertex bone assignment) and the texture folder.
#include "stadium_test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/png.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/stadium/export.hpp"

#include <boost/test/unit_test.hpp>

using namespace mod::stadium;

BOOST_AUTO_TEST_SUITE(stadium_export)

BOOST_AUTO_TEST_CASE(scene_has_the_bind_pose_and_bone_assignment) {
    const Model m = read_model(stadiumtest::small_model());
    const mod::scene::Scene s = model_scene(m);
    BOOST_REQUIRE_EQUAL(s.skeleton.bones.size(), 2u);
    BOOST_TEST(s.skeleton.bones[1].parent == 0);
    // Bone 1 sits 40 units up its parent (translation in the bind matrix's last column).
    BOOST_TEST(s.skeleton.bones[1].bind[7] == 40.0f);
    BOOST_REQUIRE_EQUAL(s.meshes.size(), 2u);  // one per material
    std::size_t tris = 0;
    for (const auto& mesh : s.meshes) {
        tris += mesh.triangles.size();
        BOOST_TEST(mesh.positions.size() == mesh.influences.size());
        for (const auto& inf : mesh.influences) {
            BOOST_REQUIRE_EQUAL(inf.size(), 1u);
            BOOST_TEST(inf[0].weight == 1.0f);
        }
    }
    BOOST_TEST(tris == m.triangles.size());
    // Bone 1's triangle (0, 1, 8): slots 0, 1 from bone 0, slot 8 from bone 1 (rotated 90° about z
    // and raised by 40: vertex 8 = (24, 40) in bone space becomes (-40, 64)).
    const auto& mesh1 = s.meshes[1];
    bool found = false;
    for (std::size_t v = 0; v < mesh1.positions.size(); ++v)
        if (mesh1.influences[v][0].bone == 1 && std::abs(mesh1.positions[v][0] + 40.0f) < 1e-3f &&
            std::abs(mesh1.positions[v][1] - 64.0f) < 1e-3f)
            found = true;
    BOOST_TEST(found);
}

BOOST_AUTO_TEST_CASE(glb_and_texture_folder_are_written) {
    const Model m = read_model(stadiumtest::small_model());
    modtest::TempDir dir;
    export_model(m, dir / "m.glb");
    BOOST_TEST(std::filesystem::file_size(dir / "m.glb") > 0u);
    const auto back = mod::scene::import_file(dir / "m.glb");
    BOOST_TEST(back.skeleton.bones.size() == 2u);
    std::size_t tris = 0;
    for (const auto& mesh : back.meshes) tris += mesh.triangles.size();
    BOOST_TEST(tris == m.triangles.size());
    const auto tex = export_textures(m, dir / "tex");
    BOOST_TEST(tex.textures.size() == 2u);
    BOOST_TEST(tex.palettes.size() == 1u);
    BOOST_TEST(tex.warnings.empty());
    const auto png = mod::image::read_png(mod::read_file(dir / "tex" / "tex000.png"));
    BOOST_TEST(png.pixels == decode_texture_rgba(m, 0));
    const auto ci = mod::image::read_png_paletted(mod::read_file(dir / "tex" / "tex000_ci.png"));
    BOOST_REQUIRE(ci);
    BOOST_TEST(ci->palette.size() == 16u);
    BOOST_TEST(std::filesystem::exists(dir / "tex" / "textures.json"));
    BOOST_TEST(tex.textures[0].wrap_s == "repeat");
}

BOOST_AUTO_TEST_SUITE_END()
