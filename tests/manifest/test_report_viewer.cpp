// The report page's 3D view models (report_page_viewer.hpp): the bones view.
#include "test_support.hpp"

#include "../../libmod/src/manifest/report_page_viewer.hpp"

#include <boost/test/unit_test.hpp>

namespace page = mod::manifest::detail::page;
namespace scene = mod::scene;

namespace {

// A two-bone chain: root at the origin, child 10 units up; one textured-less triangle.
scene::Scene chain() {
    scene::Scene sc;
    sc.skeleton.bones.resize(2);
    sc.skeleton.bones[0].name = "root";
    sc.skeleton.bones[1].name = "tip";
    sc.skeleton.bones[1].parent = 0;
    sc.skeleton.bones[1].bind[7] = 10;  // translation y = 10
    scene::Mesh m;
    m.name = "body";
    m.positions = {{-2, 0, 0}, {2, 0, 0}, {0, 12, 0}};
    m.normals.assign(3, {0, 0, 1});
    m.tangents.assign(3, {1, 0, 0, 1});
    m.uv0.assign(3, {0, 0});
    m.uv1.assign(3, {0, 0});
    m.triangles = {{0, 1, 2}};
    sc.meshes.push_back(m);
    sc.materials = {"skin"};
    return sc;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_viewer)

BOOST_AUTO_TEST_CASE(the_bones_view_draws_a_diamond_per_head_and_a_stick_per_child_inside_the_see_through_model) {
    const auto v = page::bones_view(chain());
    BOOST_REQUIRE(v);
    BOOST_REQUIRE_EQUAL(v->meshes.size(), 2u);
    const scene::Mesh& bones = v->meshes[1];
    BOOST_TEST(bones.name == "modkit_bones");
    BOOST_TEST(v->materials.back() == "modkit_bones");
    BOOST_TEST(bones.material == 1u);
    // Two diamonds and one stick, eight faces each, three corners per face.
    BOOST_TEST(bones.triangles.size() == 24u);
    BOOST_TEST(bones.vertex_count() == 72u);
    // The model is see-through (30 % alpha, blended); the bones are opaque and unlit.
    BOOST_REQUIRE_EQUAL(v->material_info.size(), 2u);
    BOOST_TEST((v->material_info[0].alpha == scene::AlphaMode::blend));
    BOOST_TEST(v->material_info[0].base_colour[3] == 0.3f);
    BOOST_TEST((v->material_info[1].alpha == scene::AlphaMode::opaque));
    BOOST_TEST(v->material_info[1].unlit);
    // The box around vertices and heads is 4 x 12: diagonal sqrt(160) = 12.649, joints 1.2 % of it.
    const float joint = float(0.012 * std::sqrt(160.0));
    float lo_y = 1e9f, hi_y = -1e9f, max_x = 0;
    for (const auto& p : bones.positions) {
        lo_y = std::min(lo_y, p[1]);
        hi_y = std::max(hi_y, p[1]);
        max_x = std::max(max_x, std::abs(p[0]));
    }
    BOOST_TEST(std::abs(lo_y + joint) < 1e-5f);        // the root's diamond reaches below its head
    BOOST_TEST(std::abs(hi_y - (10 + joint)) < 1e-5f);  // the tip's above its head
    BOOST_TEST(max_x <= 0.8f + 1e-5f);                  // the stick: 8 % of its 10 units wide
    // Every face is wound outwards: its normal points away from the centre of its solid.
    for (std::size_t t = 0; t < bones.triangles.size(); ++t) {
        const auto& tri = bones.triangles[t];
        const auto& a = bones.positions[tri[0]];
        const auto& b = bones.positions[tri[1]];
        const auto& c = bones.positions[tri[2]];
        const scene::Vec3 e1{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        const scene::Vec3 n{e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        // Solids in order: diamond of root (centre y 0), diamond of tip (y 10), the stick (y 5).
        const float centre_y = t < 8 ? 0.0f : (t < 16 ? 10.0f : 5.0f);
        const scene::Vec3 mid{(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3 - centre_y, (a[2] + b[2] + c[2]) / 3};
        BOOST_TEST(n[0] * mid[0] + n[1] * mid[1] + n[2] * mid[2] > 0.0f, "face " << t);
        BOOST_TEST(n[0] * bones.normals[tri[0]][0] + n[1] * bones.normals[tri[0]][1] + n[2] * bones.normals[tri[0]][2] > 0.0f);
    }
    // Skinned: the root's diamond and the stick to the root, the tip's diamond to the tip.
    for (std::size_t i = 0; i < bones.vertex_count(); ++i) {
        BOOST_TEST(bones.skin[i].count == 1u);
        BOOST_TEST(bones.skin[i].weights[0] == 255u);
        BOOST_TEST(bones.skin[i].bones[0] == (i >= 24 && i < 48 ? 1u : 0u), "vertex " << i);
    }
}

BOOST_AUTO_TEST_CASE(no_bones_no_bones_view_and_a_child_on_its_parent_gets_no_stick) {
    scene::Scene none = chain();
    none.skeleton.bones.clear();
    BOOST_TEST(!page::bones_view(none));
    scene::Scene close = chain();
    close.skeleton.bones[1].bind[7] = 0.1f;  // closer than two diamonds
    const auto v = page::bones_view(close);
    BOOST_REQUIRE(v);
    BOOST_TEST(v->meshes[1].triangles.size() == 16u);
}

BOOST_AUTO_TEST_SUITE_END()
