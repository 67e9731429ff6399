// scene::draws_alike (draw_compare.hpp): order does not matter, every drawn value does. And
// vertex colours survive an export -> import round trip (the importer read none before, so a
// Stadium replacement dropped them).
#include "test_support.hpp"

#include "libmod/scene/draw_compare.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"

#include <algorithm>

using namespace mod::scene;

namespace {

Scene quad() {
    Scene s;
    Bone root;
    root.name = "root";
    s.skeleton.bones = {root};
    Bone arm;
    arm.name = "arm";
    arm.parent = 0;
    s.skeleton.bones.push_back(arm);
    derive_bone_matrices(s.skeleton);
    s.materials = {"look"};
    MaterialInfo info;
    MaterialTexture t;
    t.width = t.height = 2;
    t.rgba = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    info.texture = t;
    s.material_info = {info};
    Mesh m;
    m.name = "quad";
    m.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    m.normals.assign(4, Vec3{0, 0, 1});
    m.uv0 = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    m.uv1 = m.uv0;
    m.tangents.assign(4, Vec4{1, 0, 0, 1});
    for (int v = 0; v < 4; ++v) m.influences.push_back({{std::uint32_t(v < 2 ? 0 : 1), 1.0f}});
    m.triangles = {{0, 1, 2}, {0, 2, 3}};
    s.meshes = {m};
    return s;
}

// The same drawing: vertices reversed, triangles rotated and reordered, the mesh split in two.
Scene shuffled(const Scene& in) {
    Scene s = in;
    const Mesh& m = in.meshes[0];
    Mesh a = m, b = m;
    const auto rev = [](std::uint32_t v) { return 3 - v; };
    for (Mesh* x : {&a, &b}) {
        std::reverse(x->positions.begin(), x->positions.end());
        std::reverse(x->normals.begin(), x->normals.end());
        std::reverse(x->uv0.begin(), x->uv0.end());
        x->influences = {};
        for (int v = 3; v >= 0; --v) x->influences.push_back(m.influences[std::size_t(v)]);
    }
    a.triangles = {{rev(1), rev(2), rev(0)}};  // triangle 0, rotated
    b.triangles = {{rev(3), rev(0), rev(2)}};  // triangle 1, rotated
    s.meshes = {b, a};
    s.materials = {"renamed"};
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_draw_compare)

BOOST_AUTO_TEST_CASE(order_and_names_do_not_matter) {
    const Scene s = quad();
    BOOST_TEST(draws_alike(s, s));
    BOOST_TEST(draws_alike(s, shuffled(s)));
    // No colours draws like white colours (glTF reads an absent COLOR_0 as white).
    Scene white = s;
    white.meshes[0].colours.assign(4, Vec4{1, 1, 1, 1});
    BOOST_TEST(draws_alike(s, white));
}

BOOST_AUTO_TEST_CASE(every_drawn_value_matters) {
    const Scene s = quad();
    Scene moved = s;
    moved.meshes[0].positions[2][0] += 1e-3f;
    BOOST_TEST(!draws_alike(s, moved));
    Scene flipped = s;
    std::swap(flipped.meshes[0].triangles[0][1], flipped.meshes[0].triangles[0][2]);
    BOOST_TEST(!draws_alike(s, flipped));
    Scene uv = s;
    uv.meshes[0].uv0[1][0] = 0.5f;
    BOOST_TEST(!draws_alike(s, uv));
    Scene texel = s;
    texel.material_info[0].texture->rgba[0] = 254;
    BOOST_TEST(!draws_alike(s, texel));
    Scene wrap = s;
    wrap.material_info[0].texture->wrap_s = TextureWrap::clamp_to_edge;
    BOOST_TEST(!draws_alike(s, wrap));
    Scene tinted = s;
    tinted.meshes[0].colours.assign(4, Vec4{1, 0.5f, 1, 1});
    BOOST_TEST(!draws_alike(s, tinted));
    Scene weight = s;
    weight.meshes[0].influences[2][0].bone = 0;
    BOOST_TEST(!draws_alike(s, weight));
    Scene bones = s;
    bones.skeleton.bones[1].name = "other";
    BOOST_TEST(!draws_alike(s, bones));
}

BOOST_AUTO_TEST_CASE(vertex_colours_survive_export_and_import) {
    modtest::TempDir dir;
    Scene s = quad();
    s.meshes[0].colours = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 0.5f}, {0.25f, 0.5f, 0.75f, 1}};
    const auto path = dir / "quad.glb";
    export_file(s, path);
    ImportOptions o;
    o.contained = false;
    const Scene back = import_file(path, o);
    BOOST_REQUIRE_EQUAL(back.meshes.size(), 1u);
    const auto& m = back.meshes[0];
    BOOST_REQUIRE_EQUAL(m.colours.size(), m.positions.size());
    for (std::size_t v = 0; v < m.positions.size(); ++v) {
        const auto it = std::find(s.meshes[0].positions.begin(), s.meshes[0].positions.end(), m.positions[v]);
        BOOST_REQUIRE(it != s.meshes[0].positions.end());
        const auto& want = s.meshes[0].colours[std::size_t(it - s.meshes[0].positions.begin())];
        for (int c = 0; c < 4; ++c) BOOST_TEST(std::abs(m.colours[v][c] - want[c]) < 1e-6f);
    }
}

BOOST_AUTO_TEST_SUITE_END()
