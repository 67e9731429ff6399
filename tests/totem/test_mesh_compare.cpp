// same_drawn_triangles and same_weights (mesh_compare.hpp): what replace_meshes uses to keep a
// character replaced from its own unedited export byte for byte (issue 30 item 4).
#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/totem/mesh_compare.hpp"

#include <algorithm>

using namespace mod::totem;
using namespace totemtest;

namespace {

// fixture_mesh with every V replaced by what an export -> import gives back (1 - (1 - v)).
Mesh as_exported(Mesh m) {
    for (auto& uv : m.texcoords) uv[1] = F32::of(1.0f - (1.0f - uv[1].value()));
    return m;
}

// The same triangles with every array reversed and the ids renumbered to match.
Mesh renumbered(const Mesh& m) {
    Mesh r = m;
    const auto flip = [](auto& v) { std::reverse(v.begin(), v.end()); };
    flip(r.positions), flip(r.texcoords), flip(r.normals);
    for (auto& s : r.strips)
        for (auto& id : s.vertex_ids) id = static_cast<std::remove_reference_t<decltype(id)>>(m.positions.size() - 1 - id);
    for (auto& list : r.strip_corners)
        for (auto& c : list) {
            c.texcoord_id = static_cast<std::uint16_t>(m.texcoords.size() - 1 - c.texcoord_id);
            c.normal_id = static_cast<std::uint16_t>(m.normals.size() - 1 - c.normal_id);
        }
    return r;
}

Skin skin_on(std::int32_t mesh, std::vector<SkinWeight> a, std::vector<SkinWeight> b) {
    Skin s;
    s.mesh_ids = {mesh};
    s.sections = {{name_id("A"), {{0, std::move(a), {}}}}, {name_id("B"), {{0, std::move(b), {}}}}};
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_mesh_compare)

BOOST_AUTO_TEST_CASE(the_same_triangles_in_another_order_draw_the_same) {
    const Mesh m = fixture_mesh();
    const Mesh back = as_exported(m);
    BOOST_TEST(same_drawn_triangles(m, back));
    BOOST_TEST(same_drawn_triangles(m, renumbered(back)));
}

BOOST_AUTO_TEST_CASE(a_moved_position_a_flipped_winding_or_another_material_do_not) {
    const Mesh m = fixture_mesh();
    Mesh moved = as_exported(m);
    moved.positions[1][0] = F32::of(moved.positions[1][0].value() + 0.001f);
    BOOST_TEST(!same_drawn_triangles(m, moved));
    Mesh material = as_exported(m);
    BOOST_REQUIRE(!material.materials.empty());
    material.materials[0] = name_id("OTHER.TMAT");
    BOOST_TEST(!same_drawn_triangles(m, material));
    Mesh dropped = as_exported(m);
    BOOST_REQUIRE(!dropped.strips.empty());
    dropped.strips.pop_back();
    dropped.strip_corners.pop_back();
    BOOST_TEST(!same_drawn_triangles(m, dropped));
}

BOOST_AUTO_TEST_CASE(weights_compare_by_position_value_at_export_precision) {
    const Mesh m = fixture_mesh();
    const Mesh r = renumbered(m);
    const std::int32_t id = 0x1234;
    const auto n = static_cast<std::uint32_t>(m.positions.size());
    // Position 0: A 0.5, B 0.5 (the export stores 128/127); the rest A 1.
    std::vector<SkinWeight> a0, b0, a1, b1;
    for (std::uint32_t p = 0; p < n; ++p) a0.push_back(w(p, p == 0 ? 0.5f : 1.0f));
    b0.push_back(w(0, 0.5f));
    for (std::uint32_t p = 0; p < n; ++p) a1.push_back(w(n - 1 - p, p == 0 ? 128 / 255.0f : 1.0f));
    b1.push_back(w(n - 1, 127 / 255.0f));
    BOOST_TEST(same_weights(skin_on(id, a0, b0), m, skin_on(id, a1, b1), r, id));
    // One step moved from A to B is a change.
    a1[0] = w(n - 1, 127 / 255.0f);
    b1[0] = w(n - 1, 128 / 255.0f);
    BOOST_TEST(!same_weights(skin_on(id, a0, b0), m, skin_on(id, a1, b1), r, id));
}

BOOST_AUTO_TEST_SUITE_END()
