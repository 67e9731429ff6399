// scene::weld against a brute-force reference of its contract (weld.hpp), on meshes built
// the way FBX imports look: bitwise duplicate corners, near duplicates (float noise around the
// tolerance), and corners that differ only in their weights.
#include "libmod/scene/weights.hpp"
#include "libmod/scene/weld.hpp"

#include "test_support.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <algorithm>

using namespace mod::scene;

namespace {

// The rule of weld.hpp, vertex against vertex: exact bits for positions, tangent signs,
// colours and weights; the other components rounded to the tolerance grid (half away from
// zero), non-finite ones by bits.
bool same_under(const Mesh& m, std::size_t a, std::size_t b, float tolerance) {
    auto bits = [](float f) { return std::bit_cast<std::uint32_t>(f); };
    // std::round, not llround: a quotient beyond the 64-bit range (a tiny tolerance, a huge
    // UV) is already an integer and must keep its value, not become llround's one error value.
    auto grid = [&](float x, float y) {
        if (tolerance == 0 || !std::isfinite(x) || !std::isfinite(y)) return bits(x) == bits(y);
        return std::round(double(x) / double(tolerance)) == std::round(double(y) / double(tolerance));
    };
    // An absent attribute (empty array) compares equal.
    auto all = [](auto&& values, std::size_t a, std::size_t b, auto&& same) {
        if (values.empty()) return true;
        for (std::size_t i = 0; i < values[a].size(); ++i)
            if (!same(values[a][i], values[b][i])) return false;
        return true;
    };
    auto exact = [&](float x, float y) { return bits(x) == bits(y); };
    if (!all(m.positions, a, b, exact) || !all(m.normals, a, b, grid) || !all(m.uv0, a, b, grid) ||
        !all(m.uv1, a, b, grid) || !all(m.colours, a, b, exact))
        return false;
    if (!m.tangents.empty()) {
        for (int i = 0; i < 3; ++i)
            if (!grid(m.tangents[a][i], m.tangents[b][i])) return false;
        if (bits(m.tangents[a][3]) != bits(m.tangents[b][3])) return false;
    }
    if (!m.skin.empty()) return m.skin[a] == m.skin[b];
    if (m.influences.empty()) return true;
    auto x = m.influences[a], y = m.influences[b];
    return std::equal(x.begin(), x.end(), y.begin(), y.end(), [&](const Influence& p, const Influence& q) {
        return p.bone == q.bone && bits(p.weight) == bits(q.weight);
    });
}

bool same_under_normals(float x, float y, float tolerance) {
    return std::llround(double(x) / double(tolerance)) == std::llround(double(y) / double(tolerance));
}

// remap[v] = the new index of the first vertex v matches (new indices in first-occurrence order).
std::vector<std::uint32_t> reference_remap(const Mesh& m, float tolerance) {
    std::vector<std::uint32_t> remap(m.vertex_count());
    std::vector<std::size_t> firsts;
    for (std::size_t v = 0; v < m.vertex_count(); ++v) {
        std::size_t k = 0;
        while (k < firsts.size() && !same_under(m, firsts[k], v, tolerance)) ++k;
        if (k == firsts.size()) firsts.push_back(v);
        remap[v] = static_cast<std::uint32_t>(k);
    }
    return remap;
}

// `corners` vertices drawn from `bases` distinct ones: bitwise copies, copies with noise in the
// normal / UV, and copies with another influence list.
Mesh fbx_like_mesh(std::uint32_t seed, std::size_t bases, std::size_t corners) {
    modtest::Rng rng(seed);
    auto unit = [&] { return float(rng.below(2001)) / 1000.0f - 1.0f; };
    Mesh base;
    for (std::size_t i = 0; i < bases; ++i) {
        base.positions.push_back({unit(), unit(), float(rng.below(4))});
        base.normals.push_back({unit(), unit(), unit()});
        base.tangents.push_back({unit(), unit(), unit(), rng.below(2) ? 1.0f : -1.0f});
        base.uv0.push_back({unit(), unit()});
        base.uv1.push_back(rng.below(4) ? base.uv0.back() : Vec2{unit(), unit()});
        base.influences.push_back({{rng.below(3), 0.5f}, {3, 0.5f}});
    }
    Mesh m;
    for (std::size_t c = 0; c < corners; ++c) {
        std::size_t b = rng.below(static_cast<std::uint32_t>(bases));
        m.positions.push_back(base.positions[b]);
        m.normals.push_back(base.normals[b]);
        m.tangents.push_back(base.tangents[b]);
        m.uv0.push_back(base.uv0[b]);
        m.uv1.push_back(base.uv1[b]);
        std::vector<Influence> list(base.influences[b].begin(), base.influences[b].end());
        switch (rng.below(6)) {
            case 0: m.normals.back()[rng.below(3)] += 3e-6f * (float(rng.below(3)) - 1.0f); break;
            case 1: m.uv0.back()[rng.below(2)] = std::nextafter(m.uv0.back()[0], 2.0f); break;
            case 2: list[0].weight = 0.25f; break;
            default: break;  // a bitwise copy
        }
        m.influences.push_back(list);
    }
    for (std::size_t c = 0; c + 2 < corners; c += 3)
        m.triangles.push_back({std::uint32_t(c), std::uint32_t(c + 1), std::uint32_t(c + 2)});
    return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_weld)

BOOST_AUTO_TEST_CASE(matches_the_brute_force_rule_with_raw_and_processed_weights) {
    for (std::uint32_t seed = 1; seed <= 6; ++seed)
        for (float tolerance : {0.0f, 1e-5f, 1e-3f}) {
            Mesh m = fbx_like_mesh(seed, 40, 400);
            for (bool processed : {false, true}) {
                if (processed) process_weights(m);
                const auto expected = reference_remap(m, tolerance);
                const auto got = weld(m, {tolerance});
                BOOST_TEST_REQUIRE(got.remap == expected);
                // The kept vertex of each new index is its first occurrence, bits unchanged.
                std::vector<bool> seen(got.mesh.vertex_count(), false);
                for (std::size_t v = 0; v < m.vertex_count(); ++v) {
                    if (seen[got.remap[v]]) continue;
                    seen[got.remap[v]] = true;
                    BOOST_TEST_REQUIRE(std::memcmp(&got.mesh.normals[got.remap[v]], &m.normals[v], sizeof(Vec3)) == 0);
                    BOOST_TEST_REQUIRE((got.mesh.influences[got.remap[v]].size() == m.influences[v].size()));
                }
                for (std::size_t t = 0; t < m.triangles.size(); ++t)
                    for (int c = 0; c < 3; ++c)
                        BOOST_TEST_REQUIRE(got.mesh.triangles[t][c] == got.remap[m.triangles[t][c]]);
            }
        }
}

BOOST_AUTO_TEST_CASE(grid_rounding_near_half_steps_is_that_of_the_exact_quotient) {
    // Pairs of normals whose quotients by the tolerance lie within a few ulps of k + 1/2 (where
    // a multiplication by the inverse could round the other way): each pair merges exactly when
    // llround of the exact quotients agree.
    std::size_t checked = 0, merged = 0;
    for (float tolerance : {1e-5f, 0.1f, 0.25f, 3e-3f, 7.7e-4f})
        for (int k : {-301, -2, -1, 0, 1, 2, 97, 300})  // -1 and 0: x = -tol/2, +tol/2
            for (int a = -3; a <= 3; ++a)
                for (int b = -3; b <= 3; ++b) {
                    const double half = (k + 0.5) * double(tolerance);
                    float x = static_cast<float>(half), y = x;
                    for (int i = 0; i < std::abs(a); ++i) x = std::nextafter(x, a < 0 ? -1e30f : 1e30f);
                    for (int i = 0; i < std::abs(b); ++i) y = std::nextafter(y, b < 0 ? -1e30f : 1e30f);
                    Mesh m;
                    m.positions = {{0, 0, 0}, {0, 0, 0}};
                    m.normals = {{x, 0, 0}, {y, 0, 0}};
                    m.triangles = {{0, 1, 0}};
                    const bool expected = same_under_normals(x, y, tolerance);
                    const auto w = weld(m, {tolerance});
                    BOOST_TEST_REQUIRE((w.mesh.vertex_count() == 1) == expected);
                    ++checked;
                    merged += expected;
                }
    BOOST_TEST(checked > 1500u);
    BOOST_TEST(merged > 0u);
    BOOST_TEST(merged < checked);  // both outcomes occur near the half steps
}

BOOST_AUTO_TEST_CASE(large_and_non_finite_components_round_as_the_rule_says) {
    // Two vertices that differ in one rounded component only, the pair of values drawn from a
    // pool of small values, quotients on both sides of 2^31 (where the weld switches from its
    // two-lane path to the scalar one), far beyond it, and non-finite values; every slot of
    // every attribute, so each value is tried in either lane of a pair.
    const float inf = std::numeric_limits<float>::infinity();
    std::size_t checked = 0, merged = 0;
    for (float tolerance : {1e-5f, 1e-3f}) {
        const float edge = static_cast<float>(2147483648.0 * double(tolerance));
        const std::vector<float> pool = {0.25f, 0.25f + 2e-6f, -0.5f, edge, std::nextafter(edge, 0.0f),
                                         std::nextafter(edge, inf), -edge, std::nextafter(-edge, 0.0f),
                                         std::nextafter(-edge, -inf), 1.5f * edge, 1e13f, -1e13f, 1e15f,
                                         2e15f, -1e15f, -2e15f, inf, -inf,
                                         std::numeric_limits<float>::quiet_NaN()};
        for (int slot = 0; slot < 10; ++slot)
            for (float x : pool)
                for (float y : pool)
                    for (int variant = 0; variant < 6; ++variant) {
                        // 0, 1: every column, uv1 its own or a copy of uv0; 2: no tangents;
                        // 3: no normals; 4: no uv1; 5: colours and processed weights too.
                        const bool uv1_copies_uv0 = variant == 1;
                        Mesh m;
                        m.positions = {{0, 0, 0}, {0, 0, 0}};
                        m.normals = {{0.5f, -0.25f, 0.75f}, {0.5f, -0.25f, 0.75f}};
                        m.tangents = {{0.1f, 0.2f, 0.3f, 1.0f}, {0.1f, 0.2f, 0.3f, 1.0f}};
                        m.uv0 = {{0.125f, 0.375f}, {0.125f, 0.375f}};
                        m.uv1 = {{0.625f, 0.875f}, {0.625f, 0.875f}};
                        m.influences = {{}, {}};
                        m.triangles = {{0, 1, 0}};
                        const float values[2] = {x, y};
                        for (int v = 0; v < 2; ++v) {
                            if (slot < 3) m.normals[v][slot] = values[v];
                            else if (slot < 6) m.tangents[v][slot - 3] = values[v];
                            else if (slot < 8) m.uv0[v][slot - 6] = values[v];
                            else m.uv1[v][slot - 8] = values[v];
                            if (uv1_copies_uv0) m.uv1[v] = m.uv0[v];
                        }
                        if (variant == 2) m.tangents.clear();
                        if (variant == 3) m.normals.clear();
                        if (variant == 4) m.uv1.clear();
                        if (variant == 5) {
                            m.colours = {{1, 0.5f, 0.25f, 1}, {1, 0.5f, 0.25f, 1}};
                            m.skin = {SkinWeights{1, {2, 0, 0, 0}, {255, 0, 0, 0}}, SkinWeights{1, {2, 0, 0, 0}, {255, 0, 0, 0}}};
                        }
                        const bool expected = reference_remap(m, tolerance)[1] == 0;
                        BOOST_TEST_REQUIRE((weld(m, {tolerance}).remap[1] == 0) == expected);
                        ++checked;
                        merged += expected;
                    }
    }
    BOOST_TEST(merged > 0u);
    BOOST_TEST(merged < checked);
}

BOOST_AUTO_TEST_CASE(a_tolerance_finer_than_the_floats_keeps_different_values_apart) {
    // A finite positive tolerance so small that every quotient leaves the 64-bit range: the
    // grid is finer than the floats, so only equal values may merge (llround gave every such
    // quotient the same error value and merged different normals and UVs).
    Mesh m;
    m.positions = {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}};
    m.normals = {{0.6f, 0.8f, 0}, {0.8f, 0.6f, 0}, {0.6f, 0.8f, 0}};
    m.tangents = {{1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, 1}};
    m.uv0 = {{0.25f, 0.5f}, {0.75f, 0.5f}, {0.25f, 0.5f}};
    m.uv1 = m.uv0;
    m.influences = {{{0, 1.0f}}, {{0, 1.0f}}, {{0, 1.0f}}};
    m.triangles = {{0, 1, 2}};
    for (float tolerance : {1e-30f, std::numeric_limits<float>::denorm_min()}) {
        const WeldResult r = weld(m, {tolerance});
        BOOST_TEST((r.remap == std::vector<std::uint32_t>{0, 1, 0}));
        BOOST_TEST(r.mesh.vertex_count() == 2u);
    }
    // Only a UV component differs, far beyond the 64-bit range at the default tolerance.
    m.normals.assign(3, m.normals[0]);
    m.uv0 = {{1e15f, 0.5f}, {2e15f, 0.5f}, {1e15f, 0.5f}};
    m.uv1 = m.uv0;
    BOOST_TEST((weld(m, {1e-5f}).remap == std::vector<std::uint32_t>{0, 1, 0}));
}

BOOST_AUTO_TEST_CASE(a_copied_non_finite_uv_never_equals_a_rounded_one) {
    // Vertex 0's uv1 copies its NaN uv0 (the key copies uv0's words and their as-bits flags);
    // vertex 1's uv1 is the finite value whose grid integer at 1/1024 is the NaN's bit pattern
    // (0x7FC00000). Without the copied flags the two keys were equal and the vertices merged (a
    // mutant dropping the flag copy passed every other test).
    const float nan = std::bit_cast<float>(0x7FC00000u);
    const float on_grid = float(0x7FC00000u) / 1024.0f;  // exact: 2,093,056
    Mesh m;
    m.positions = {{0, 0, 0}, {0, 0, 0}};
    m.uv0 = {{nan, nan}, {nan, nan}};
    m.uv1 = {{nan, nan}, {on_grid, on_grid}};
    m.triangles = {{0, 1, 0}};
    BOOST_TEST((reference_remap(m, 1.0f / 1024)[1] == 1u));
    BOOST_TEST((weld(m, {1.0f / 1024}).remap == std::vector<std::uint32_t>{0, 1}));
}

BOOST_AUTO_TEST_CASE(bitwise_duplicates_with_other_raw_lists_stay_apart) {
    Mesh m = fbx_like_mesh(9, 1, 3);
    m.influences = {{{0, 0.5f}, {3, 0.5f}}, {{0, 0.5f}, {3, 0.5f}}, {{3, 0.5f}, {0, 0.5f}}};
    m.normals.assign(3, m.normals[0]);
    m.uv0.assign(3, m.uv0[0]);
    m.uv1.assign(3, m.uv1[0]);
    BOOST_TEST((weld(m).remap == std::vector<std::uint32_t>{0, 0, 1}));  // raw lists compare in order
    process_weights(m);
    BOOST_TEST((weld(m).remap == std::vector<std::uint32_t>{0, 0, 0}));  // processed: the same weights
}

BOOST_AUTO_TEST_SUITE_END()
