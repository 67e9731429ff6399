// Building MESH records from triangle meshes: strips (orientation), de-duplication, materials,
// bounding shapes, the u16 limit, and the SKIN rebuild by group.
#include "test_support.hpp"

#include "libmod/totem/mesh_build.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/replace.hpp"
#include "libmod/totem/strips.hpp"

#include <algorithm>
#include <cmath>
#include <set>

using namespace mod::totem;
using namespace modtest;
using Tri = std::array<std::uint32_t, 3>;

namespace {

Tri canonical(const Tri& t) {
    const int m = t[0] <= t[1] && t[0] <= t[2] ? 0 : (t[1] <= t[2] ? 1 : 2);
    return {t[m], t[(m + 1) % 3], t[(m + 2) % 3]};
}

// An n × n grid of quads, two triangles each, counter-clockwise seen from +z.
std::vector<Tri> grid(std::uint32_t n) {
    std::vector<Tri> out;
    for (std::uint32_t y = 0; y < n; ++y)
        for (std::uint32_t x = 0; x < n; ++x) {
            const std::uint32_t a = y * (n + 1) + x, b = a + 1, c = a + n + 1, d = c + 1;
            out.push_back({a, b, d});
            out.push_back({a, d, c});
        }
    return out;
}

MeshSourcePart grid_part(std::uint32_t n, std::int32_t material) {
    MeshSourcePart p;
    p.name = "grid";
    p.material = material;
    for (std::uint32_t y = 0; y <= n; ++y)
        for (std::uint32_t x = 0; x <= n; ++x) {
            p.positions.push_back({float(x), float(y), 0.0f});
            p.normals.push_back({0, 0, 1});
            p.uvs.push_back({float(x) / float(n), float(y) / float(n)});
        }
    p.triangles = grid(n);
    return p;
}

Mesh old_mesh(bool corners = true) {
    Mesh m;
    m.header.item_type = item_mesh;
    m.materials = {name_id("MAT_OLD")};
    if (!corners) {  // strips without corner lists (the PS2 case)
        m.positions = {{F32::of(0), F32::of(0), F32::of(0)}};
        m.strips = {{{0, 0, 0}, 0, 1}};
    }
    return m;
}

std::array<double, 3> cross_z(const Mesh& m, const MeshTriangle& t) {
    auto p = [&](int c) { return m.positions[t.corners[c].position]; };
    const double ux = p(1)[0].value() - p(0)[0].value(), uy = p(1)[1].value() - p(0)[1].value();
    const double vx = p(2)[0].value() - p(0)[0].value(), vy = p(2)[1].value() - p(0)[1].value();
    return {0, 0, ux * vy - uy * vx};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_replace_build)

BOOST_AUTO_TEST_CASE(strips_decode_to_exactly_the_source_triangles_without_degenerate_windows) {
    for (std::uint32_t n : {1u, 2u, 7u, 20u}) {
        const auto tris = grid(n);
        StripStats st;
        const auto strips = make_strips(tris, (n + 1) * (n + 1), &st);
        std::multiset<Tri> want, got;
        for (const auto& t : tris) want.insert(canonical(t));
        for (const auto& s : strips) {
            BOOST_TEST((s.tri_order == 1 || s.tri_order == 2));
            for (const auto& t : strip_triangles(s)) {
                BOOST_TEST((t[0] != t[1] && t[1] != t[2] && t[0] != t[2]));
                got.insert(canonical(t));
            }
        }
        BOOST_TEST((want == got), "n = " << n);
        BOOST_TEST(st.triangles == tris.size());
        BOOST_TEST(st.strips == strips.size());
    }
    // A degenerate source triangle is counted and not stored.
    StripStats st;
    const std::vector<Tri> with_degenerate = {{0, 1, 2}, {2, 2, 3}};
    const auto strips = make_strips(with_degenerate, 4, &st);
    BOOST_TEST(st.degenerate_dropped == 1u);
    BOOST_REQUIRE(strips.size() == 1u);
    BOOST_TEST(canonical(strip_triangles(strips[0]).at(0)) == (Tri{0, 1, 2}));
}

BOOST_AUTO_TEST_CASE(strip_decoding_rule_by_hand) {
    // tri_order 1: windows (0,1,2), (1,3,2); tri_order 2: (0,2,1), (1,2,3).
    BuiltStrip s{{10, 11, 12, 13}, 1};
    BOOST_TEST((strip_triangles(s) == std::vector<Tri>{{10, 11, 12}, {11, 13, 12}}));
    s.tri_order = 2;
    BOOST_TEST((strip_triangles(s) == std::vector<Tri>{{10, 12, 11}, {11, 12, 13}}));
}

BOOST_AUTO_TEST_CASE(every_decoded_triangle_has_the_source_orientation) {
    // Source triangles are counter-clockwise seen from +z. MESH triangles are stored reversed
    // (totem export writes corners (0, 2, 1)), so each decoded MESH triangle must be clockwise
    // seen from +z, and its (0, 2, 1) counter-clockwise.
    const auto part = grid_part(6, name_id("MAT_OLD"));
    const BuiltMesh b = build_mesh(old_mesh(), std::span(&part, 1), "GRID");
    const auto tris = build_triangles(b.mesh);
    BOOST_TEST(tris.size() == 72u);
    for (const auto& t : tris) BOOST_TEST(cross_z(b.mesh, t)[2] < 0);
    BOOST_TEST(check_mesh(b.mesh).empty());
    // 49 positions / UVs, one normal, one corner list per strip.
    BOOST_TEST(b.mesh.positions.size() == 49u);
    BOOST_TEST(b.mesh.texcoords.size() == 49u);
    BOOST_TEST(b.mesh.normals.size() == 1u);
    BOOST_TEST(b.mesh.strip_corners.size() == b.mesh.strips.size());
    for (std::size_t i = 0; i < b.mesh.strip_order.size(); ++i) BOOST_TEST(b.mesh.strip_order[i] == i);
}

BOOST_AUTO_TEST_CASE(without_corner_lists_the_arrays_are_parallel) {
    const auto part = grid_part(2, name_id("MAT_OLD"));
    MeshBuildReport r;
    const BuiltMesh b = build_mesh(old_mesh(false), std::span(&part, 1), "GRID", &r);
    BOOST_TEST(b.mesh.strip_corners.empty());
    BOOST_TEST(b.mesh.positions.size() == 9u);
    BOOST_TEST(b.mesh.texcoords.size() == 9u);
    BOOST_TEST(b.mesh.normals.size() == 9u);
    BOOST_TEST(std::any_of(r.notes.begin(), r.notes.end(), [](auto& n) { return n.find("totem-ps2-corners/1") != n.npos; }));
}

BOOST_AUTO_TEST_CASE(materials_keep_the_old_order_and_append_new_ones_in_order_of_use) {
    std::vector<MeshSourcePart> parts = {grid_part(1, name_id("MAT_NEW_B")), grid_part(1, name_id("MAT_OLD")),
                                         grid_part(1, name_id("MAT_NEW_A"))};
    for (std::size_t i = 0; i < parts.size(); ++i)
        for (auto& p : parts[i].positions) p[2] = float(i);  // three separate quads
    const BuiltMesh b = build_mesh(old_mesh(), parts, "M");
    BOOST_TEST((b.mesh.materials == std::vector<std::int32_t>{name_id("MAT_OLD"), name_id("MAT_NEW_B"), name_id("MAT_NEW_A")}));
    // Each quad's strips name its material, and the same inputs give the same bytes.
    for (const auto& t : build_triangles(b.mesh)) {
        const float z = b.mesh.positions[t.corners[0].position][2].value();
        const std::uint32_t want = z == 0 ? 1 : z == 1 ? 0 : 2;
        BOOST_TEST(t.material_index == want);
    }
    BOOST_TEST(encode_mesh(build_mesh(old_mesh(), parts, "M").mesh, mod::Endian::big) == encode_mesh(b.mesh, mod::Endian::big));
}

BOOST_AUTO_TEST_CASE(bounding_shapes_by_hand) {
    // Corners of the box x -1..3, y 0..4, z -2..2.
    Mesh m;
    for (float x : {-1.0f, 3.0f})
        for (float y : {0.0f, 4.0f})
            for (float z : {-2.0f, 2.0f}) m.positions.push_back({F32::of(x), F32::of(y), F32::of(z)});
    m.spheres.push_back({});
    MeshCuboid cub;
    cub.trailing[3] = 7;
    m.cuboids = {cub, cub};
    m.cylinders.push_back({{}, F32::of(0), {F32::of(0), F32::of(2), F32::of(0)}, 0xABCD, F32::of(0)});
    recompute_shapes(m);
    BOOST_REQUIRE(m.spheres.size() == 1u);
    // Centre (1, 2, 0); radius sqrt(2² + 2² + 2²) = sqrt(12), rounded up.
    BOOST_TEST(m.spheres[0].centre[0].value() == 1.0f);
    BOOST_TEST(m.spheres[0].centre[1].value() == 2.0f);
    BOOST_TEST(m.spheres[0].centre[2].value() == 0.0f);
    BOOST_TEST(m.spheres[0].radius.value() >= float(std::sqrt(12.0)));
    BOOST_TEST(m.spheres[0].radius.value() - std::sqrt(12.0) < 1e-6);
    // Cuboid: diag(2, 2, 2, 1), centre in floats 12..14; one cuboid; trailing bytes kept.
    BOOST_REQUIRE(m.cuboids.size() == 1u);
    const auto& c = m.cuboids[0].matrix;
    for (int i = 0; i < 16; ++i) {
        const float want = i == 0 || i == 5 || i == 10 ? 2.0f : i == 15 ? 1.0f : i == 12 ? 1.0f : i == 13 ? 2.0f : 0.0f;
        BOOST_TEST(c[i].value() >= want);
        BOOST_TEST(c[i].value() - want <= 1e-6f);
    }
    BOOST_TEST(m.cuboids[0].trailing[3] == 7);
    // Cylinder along y (the old axis, normalised): base (1, 0, 0), height 4, radius sqrt(8).
    const auto& cyl = m.cylinders[0];
    BOOST_TEST(cyl.position[0].value() == 1.0f);
    BOOST_TEST(cyl.position[1].value() == 0.0f);
    BOOST_TEST(cyl.position[2].value() == 0.0f);
    BOOST_TEST(cyl.axis[1].value() == 1.0f);
    BOOST_TEST(cyl.height.value() >= 4.0f);
    BOOST_TEST(cyl.height.value() - 4.0f < 1e-6f);
    BOOST_TEST(cyl.radius.value() >= float(std::sqrt(8.0)));
    BOOST_TEST(cyl.radius.value() - std::sqrt(8.0) < 1e-6);
    BOOST_TEST(cyl.junk == 0xABCDu);
}

BOOST_AUTO_TEST_CASE(header_sphere_is_recomputed_only_when_it_was_one) {
    Mesh old = old_mesh();
    old.positions = {{F32::of(0), F32::of(0), F32::of(0)}, {F32::of(2), F32::of(0), F32::of(0)}};
    old.header.unknown = {F32::of(1), F32::of(0), F32::of(0), F32::of(1)};  // bounds the old geometry
    const auto part = grid_part(2, name_id("MAT_OLD"));  // x, y in 0..2
    const BuiltMesh b = build_mesh(old, std::span(&part, 1), "G");
    BOOST_TEST(b.mesh.header.unknown[0].value() == 1.0f);
    BOOST_TEST(b.mesh.header.unknown[1].value() == 1.0f);
    BOOST_TEST(b.mesh.header.unknown[2].value() == 0.0f);
    BOOST_TEST(std::fabs(b.mesh.header.unknown[3].value() - std::sqrt(2.0)) < 1e-6);
    old.header.unknown = {F32::of(5), F32::of(0.5f), F32::of(0), F32::of(1)};  // not a bounding sphere
    const BuiltMesh kept = build_mesh(old, std::span(&part, 1), "G");
    BOOST_TEST((kept.mesh.header.unknown == old.header.unknown));
}

BOOST_AUTO_TEST_CASE(more_than_65536_positions_are_refused) {
    MeshSourcePart p;
    p.name = "big";
    p.material = name_id("MAT_OLD");
    for (std::uint32_t t = 0; t < 21846; ++t) {  // 65,538 distinct vertices
        for (int c = 0; c < 3; ++c) {
            p.positions.push_back({float(t), float(c), 0.0f});
            p.normals.push_back({0, 0, 1});
            p.uvs.push_back({0, 0});
        }
        p.triangles.push_back({3 * t, 3 * t + 1, 3 * t + 2});
    }
    auto e = catch_error([&] { build_mesh(old_mesh(), std::span(&p, 1), "BIG"); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::limit);
    BOOST_TEST(e->message().find("65,536") != std::string::npos);
    BOOST_TEST(e->message().find("MESH BIG") != std::string::npos);
    // 65,536 exactly fits (ids 0..65535).
    p.positions.resize(65536 - 1);
    p.normals.resize(p.positions.size());
    p.uvs.resize(p.positions.size());
    p.triangles.resize(21845);
    p.positions.push_back({-1, -1, 0});
    p.normals.push_back({0, 0, 1});
    p.uvs.push_back({0, 0});
    p.triangles.push_back({65535, 0, 1});
    const BuiltMesh b = build_mesh(old_mesh(), std::span(&p, 1), "BIG");
    BOOST_TEST(b.mesh.positions.size() == 65536u);
}

BOOST_AUTO_TEST_CASE(skin_rebuild_by_group) {
    // Two triangles; vertices 0-2 on group A, vertex 3 half A half B.
    MeshSourcePart p = grid_part(1, name_id("MAT_OLD"));
    const std::int32_t A = name_id("GROUP_A"), B = name_id("GROUP_B"), C = name_id("GROUP_C");
    p.weights = {{{A, 1.0f}}, {{A, 1.0f}}, {{A, 1.0f}}, {{A, 0.5f}, {B, 0.5f}}};
    std::sort(p.weights[3].begin(), p.weights[3].end());
    const BuiltMesh b = build_mesh(old_mesh(), std::span(&p, 1), "Q");
    Skin s;
    s.header.item_type = item_skin;
    s.mesh_ids = {name_id("Q")};
    s.sections = {{A, {{0, {{0, F32::of(1)}}, {{0, F32::of(1)}}}}}, {B, {}}, {C, {{0, {{0, F32::of(1)}}, {}}}}};
    s.unknown = {{{1}, {1}}, {{}, {}}, {{1}, {0}}};
    NameTable names;
    SkinRebuildReport r;
    const Skin out = rebuild_skin(s, name_id("Q"), b, names, &r);
    // A: all four positions; B: the position of vertex 3 at 0.5; C: emptied (kept, counts kept).
    std::uint32_t p3 = 99;
    for (std::uint32_t i = 0; i < b.mesh.positions.size(); ++i)
        if (b.mesh.positions[i][0].value() == 1 && b.mesh.positions[i][1].value() == 1) p3 = i;
    BOOST_REQUIRE(p3 < 4u);
    BOOST_TEST(out.sections[0].subsections[0].vertices.size() == 4u);
    BOOST_REQUIRE(out.sections[1].subsections.size() == 1u);
    BOOST_TEST(out.sections[1].subsections[0].vertices.size() == 1u);
    BOOST_TEST(out.sections[1].subsections[0].vertices[0].id == p3);
    BOOST_TEST(out.sections[1].subsections[0].vertices[0].weight.value() == 0.5f);
    BOOST_TEST((out.unknown[1].vertices == std::vector<std::uint32_t>{0}));  // added subsection: 0
    BOOST_TEST(out.sections[2].subsections[0].vertices.empty());
    BOOST_TEST((out.unknown[2].vertices == std::vector<std::uint32_t>{0}));  // clamped to the empty list
    BOOST_TEST(r.subsections_added == 1u);
    BOOST_TEST(r.unknown_values_clamped == 1u);
    // Normal weights follow the position the normal is paired with: the one normal (0, 0, 1)
    // is keyed with its position's weights, so it exists once per distinct weight set.
    BOOST_TEST(b.mesh.normals.size() == 2u);
    // A group the SKIN has no section for is an error naming it.
    p.weights[0] = {{name_id("GROUP_Z"), 1.0f}};
    NameTable named;
    named.add("GROUP_Z");
    const BuiltMesh bz = build_mesh(old_mesh(), std::span(&p, 1), "Q");
    auto e = catch_error([&] { rebuild_skin(s, name_id("Q"), bz, named, nullptr); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->message().find("GROUP_Z") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
