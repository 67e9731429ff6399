// Pre-encoding checks: index range, finite data, skin sums, bounding box, half-float UV range.
#include "test_support.hpp"

#include "libmod/scene/validate.hpp"

#include <cmath>
#include <limits>

using namespace mod::scene;

namespace {

Mesh small_mesh() {
    Mesh m;
    m.name = "m";
    m.positions = {{0, 0, 0}, {1, -2, 3}, {-1, 5, 0.5f}};
    m.normals.assign(3, {0, 0, 1});
    m.tangents.assign(3, {1, 0, 0, 1});
    m.uv0.assign(3, {0, 0});
    m.uv1.assign(3, {0, 0});
    m.skin.assign(3, SkinWeights{1, {0, 0, 0, 0}, {255, 0, 0, 0}});
    m.triangles = {{0, 1, 2}};
    return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_validate)

BOOST_AUTO_TEST_CASE(bounding_box_contains_every_position) {
    Mesh m = small_mesh();
    auto box = bounding_box(m);
    BOOST_TEST(!box.empty);
    BOOST_TEST((box.min == Vec3{-1, -2, 0}));
    BOOST_TEST((box.max == Vec3{1, 5, 3}));
    for (const auto& p : m.positions) BOOST_TEST(box.contains(p));
    BOOST_TEST(!box.contains({1.5f, 0, 0}));
    BOOST_TEST(bounding_box(std::span<const Vec3>{}).empty);
}

// One box for meshes, scenes and the renderer's fit: positions with a non-finite coordinate are
// left out (a NaN first position used to make the whole box NaN, an infinity made it infinite).
BOOST_AUTO_TEST_CASE(bounding_box_ignores_non_finite_positions_and_spans_a_scene) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    Mesh a;
    a.positions = {{nan, 0, 0}, {2, -1, 4}, {inf, 9, 9}, {-3, 1, -inf}, {0, 6, 1}};
    const auto box = bounding_box(a);
    BOOST_TEST(!box.empty);
    BOOST_TEST((box.min == Vec3{0, -1, 1}));
    BOOST_TEST((box.max == Vec3{2, 6, 4}));
    BOOST_TEST((box.size() == Vec3{2, 7, 3}));
    Mesh only_bad;
    only_bad.positions = {{nan, nan, nan}, {0, inf, 0}};
    BOOST_TEST(bounding_box(only_bad).empty);
    BOOST_TEST((bounding_box(only_bad) == BoundingBox{}));
    Mesh b;
    b.positions = {{-5, 3, 2}};
    Scene sc;
    sc.meshes = {only_bad, a, b};
    const auto all = bounding_box(sc);
    BOOST_TEST((all.min == Vec3{-5, -1, 1}));
    BOOST_TEST((all.max == Vec3{2, 6, 4}));
    BOOST_TEST(bounding_box(Scene{}).empty);
}

BOOST_AUTO_TEST_CASE(check_mesh_names_the_offending_element) {
    Mesh m = small_mesh();
    check_mesh(m, "m", {1, false});
    m.triangles.push_back({0, 1, 3});
    auto e = modtest::catch_error([&] { check_mesh(m, "m", {}); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->path() == "m.triangle[1]");
    m = small_mesh();
    m.skin[2].weights[0] = 254;
    e = modtest::catch_error([&] { check_mesh(m, "m", {}); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->path() == "m.vertex[2].skin");
    m = small_mesh();
    m.skin[1].bones[0] = 4;
    BOOST_TEST(modtest::catch_error([&] { check_mesh(m, "m", {4, false}); })->path() == "m.vertex[1].skin");
    m = small_mesh();
    m.normals[0][1] = std::numeric_limits<float>::quiet_NaN();
    BOOST_TEST(modtest::catch_error([&] { check_mesh(m, "m", {}); })->path() == "m.vertex[0].normal");
    check_mesh(m, "m", {SIZE_MAX, true});
    m.positions[1][2] = INFINITY;
    BOOST_TEST(modtest::catch_error([&] { check_mesh(m, "m", {SIZE_MAX, true}); })->path() == "m.vertex[1].position");
    m = small_mesh();
    m.uv1.pop_back();
    BOOST_TEST(modtest::catch_error([&] { check_mesh(m, "m", {}); }).has_value());
}

BOOST_AUTO_TEST_CASE(half_float_uv_range) {
    Mesh m = small_mesh();
    m.uv0[1] = {65504.0f, -65504.0f};
    check_uv_f16_range(m, "m");
    m.uv1[2] = {0, 70000.0f};
    auto e = modtest::catch_error([&] { check_uv_f16_range(m, "m"); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == mod::ErrorKind::limit));
    BOOST_TEST(e->path() == "m.vertex[2].uv1");
    BOOST_TEST(e->message().find("70000") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_first_non_finite_component_is_the_one_named) {
    // Two bad components in a 40-vertex mesh: the error names the earlier vertex, and at one
    // vertex the attribute order position, normal, tangent, uv0, uv1.
    const char* names[] = {"position", "normal", "tangent", "uv0", "uv1"};
    auto spoil = [](Mesh& m, int attribute, std::size_t v, int component, float bad) {
        switch (attribute) {
            case 0: m.positions[v][component % 3] = bad; break;
            case 1: m.normals[v][component % 3] = bad; break;
            case 2: m.tangents[v][component % 4] = bad; break;
            case 3: m.uv0[v][component % 2] = bad; break;
            default: m.uv1[v][component % 2] = bad; break;
        }
    };
    const float inf = std::numeric_limits<float>::infinity();
    for (float bad : {std::numeric_limits<float>::quiet_NaN(), inf, -inf})
        for (int first = 0; first < 5; ++first)
            for (int second = 0; second < 5; ++second)
                for (std::size_t v : {std::size_t{0}, std::size_t{17}, std::size_t{39}})
                    for (std::size_t w : {v, std::size_t{39}}) {
                        Mesh m;
                        m.positions.assign(40, {1, 2, 3});
                        m.normals.assign(40, {0, 0, 1});
                        m.tangents.assign(40, {1, 0, 0, 1});
                        m.uv0.assign(40, {0.5f, 0.5f});
                        m.uv1.assign(40, {0.5f, 0.5f});
                        m.triangles = {{0, 1, 39}};
                        spoil(m, first, v, first + int(v), bad);
                        spoil(m, second, w, second + 1, bad);
                        const int named = w > v ? first : std::min(first, second);
                        auto e = modtest::catch_error([&] { check_mesh(m, "m", {}); });
                        BOOST_TEST_REQUIRE(e.has_value());
                        BOOST_TEST_REQUIRE(e->path() == "m.vertex[" + std::to_string(v) + "]." + names[named]);
                    }
}

BOOST_AUTO_TEST_CASE(an_out_of_range_index_in_any_corner_of_any_triangle_is_named) {
    for (std::size_t bad_triangle : {0u, 1u, 2u})
        for (int corner = 0; corner < 3; ++corner)
            for (std::uint32_t value : {3u, 4u, 0xFFFFFFFFu}) {  // n, n + 1, the largest
                Mesh m = small_mesh();
                m.triangles = {{0, 1, 2}, {2, 1, 0}, {1, 2, 0}};
                m.triangles[bad_triangle][corner] = value;
                auto e = modtest::catch_error([&] { check_mesh(m, "m", {}); });
                BOOST_TEST_REQUIRE(e.has_value());
                BOOST_TEST_REQUIRE(e->path() == "m.triangle[" + std::to_string(bad_triangle) + "]");
                BOOST_TEST(e->message().find("index " + std::to_string(value)) != std::string::npos);
            }
}

BOOST_AUTO_TEST_CASE(half_float_uv_range_edges) {
    const float inf = std::numeric_limits<float>::infinity();
    const float above = std::nextafter(f16_max, inf);
    Mesh m = small_mesh();
    m.uv0 = {{f16_max, -f16_max}, {0, -0.0f}, {1e-40f, -1e-40f}};  // largest half, zeros, denormals
    m.uv1 = m.uv0;
    check_uv_f16_range(m, "m");
    for (float bad : {above, -above, inf, -inf, std::numeric_limits<float>::quiet_NaN()})
        for (int set = 0; set < 2; ++set) {
            Mesh b = small_mesh();
            (set == 0 ? b.uv0 : b.uv1)[1][1] = bad;
            (set == 0 ? b.uv1 : b.uv0)[2][0] = bad;  // a later offender in the other set
            auto e = modtest::catch_error([&] { check_uv_f16_range(b, "m"); });
            BOOST_TEST_REQUIRE(e.has_value());
            BOOST_TEST_REQUIRE(e->path() == (set == 0 ? "m.vertex[1].uv0" : "m.vertex[2].uv0"));
        }
}

BOOST_AUTO_TEST_SUITE_END()
