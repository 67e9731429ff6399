// The preprocessor: quantisation, the ordering rule and its variants, batching, idempotence,
// conformance identification.
#include "shred_util.hpp"

#include "libmod/shred/preprocess.hpp"

#include <cmath>
#include <limits>
#include <set>

using namespace mod::shred;

BOOST_AUTO_TEST_SUITE(shred_preprocess)

BOOST_AUTO_TEST_CASE(quantise_sums_to_255_and_is_exact_for_bytes) {
    modtest::Rng rng(11);
    for (int t = 0; t < 20000; ++t) {
        std::uint32_t n = 1 + rng.below(4);
        std::array<Influence, 4> in{};
        // exact bytes summing to 255
        std::uint32_t left = 255;
        std::array<std::uint8_t, 4> want{};
        for (std::uint32_t k = 0; k < n; ++k) {
            std::uint32_t w = k + 1 == n ? left : rng.below(left + 1);
            want[k] = static_cast<std::uint8_t>(w);
            left -= w;
            in[k] = {k * 7, float(w) / 255.0f};
        }
        if (std::all_of(want.begin(), want.begin() + n, [](auto w) { return w == 0; })) continue;
        auto q = quantise_weights(std::span<const Influence>(in.data(), n));
        for (std::uint32_t k = 0; k < n; ++k) BOOST_REQUIRE_EQUAL(int(q[k]), int(want[k]));
    }
    for (int t = 0; t < 20000; ++t) {
        std::uint32_t n = 1 + rng.below(4);
        std::array<Influence, 4> in{};
        for (std::uint32_t k = 0; k < n; ++k) in[k] = {k, float(1 + rng.below(100000)) / 997.0f};
        auto q = quantise_weights(std::span<const Influence>(in.data(), n));
        int sum = 0;
        for (std::uint32_t k = 0; k < n; ++k) sum += q[k];
        BOOST_REQUIRE_EQUAL(sum, 255);
    }
    // Largest remainder with ties to the lower bone: thirds give 85 each; 1/2,1/2 -> 128/127.
    std::array<Influence, 2> halves = {Influence{9, 1.0f}, Influence{4, 1.0f}};
    auto q = quantise_weights(halves);
    BOOST_CHECK_EQUAL(int(q[0]), 127);
    BOOST_CHECK_EQUAL(int(q[1]), 128);
    std::array<Influence, 1> bad = {Influence{0, -1.0f}};
    BOOST_CHECK(modtest::catch_error([&] { quantise_weights(bad); }));
}

BOOST_AUTO_TEST_CASE(the_seed_sample_palette) {
    // Input order 82, 83, 84 with weights 3, 139, 113 -> palette 83, 84, 82 (weight order).
    SkinnedMesh m;
    SkinnedVertex v;
    v.influence_count = 3;
    v.influences[0] = {82, 3 / 255.0f};
    v.influences[1] = {83, 139 / 255.0f};
    v.influences[2] = {84, 113 / 255.0f};
    m.vertices.push_back(v);
    v.influences[0].bone = 88, v.influences[1].bone = 89, v.influences[2].bone = 90;
    m.vertices.insert(m.vertices.begin(), v);  // input order: 89-batch vertex first
    auto r = preprocess(m);
    BOOST_REQUIRE_EQUAL(r.stream.batches.size(), 2u);
    BOOST_CHECK(r.stream.batches[0].header.bones() == (std::array<std::uint8_t, 4>{83, 84, 82, 255}));
    BOOST_CHECK(r.stream.batches[1].header.bones() == (std::array<std::uint8_t, 4>{89, 90, 88, 255}));
    BOOST_CHECK(r.stream.vertices[0].weights() == (std::array<std::uint8_t, 4>{139, 113, 3, 0}));
    BOOST_CHECK(r.order == (std::vector<std::uint32_t>{1, 0}));
    // bone-sorted palette
    PreprocessOptions o;
    o.rule = OrderingRule::bone_sorted;
    auto b = preprocess(m, o);
    BOOST_CHECK(b.stream.batches[0].header.bones() == (std::array<std::uint8_t, 4>{82, 83, 84, 255}));
    BOOST_CHECK(b.stream.vertices[0].weights() == (std::array<std::uint8_t, 4>{3, 139, 113, 0}));
}

BOOST_AUTO_TEST_CASE(sorting_batching_and_index_remap) {
    auto m = shredtest::random_mesh(3000, 40, 5);
    for (auto rule : all_ordering_rules) {
        PreprocessOptions o;
        o.rule = rule;
        auto r = preprocess(m, o);
        const auto& s = r.stream;
        validate_stream(s, {3000, 40});
        // Batches: ordered by (count asc/desc, palette), adjacent batches differ.
        for (std::size_t b = 1; b < s.batches.size(); ++b) {
            auto c0 = s.batches[b - 1].header.influence_count(), c1 = s.batches[b].header.influence_count();
            if (rule == OrderingRule::count_desc) BOOST_REQUIRE(c0 >= c1);
            else BOOST_REQUIRE(c0 <= c1);
            if (c0 == c1) BOOST_REQUIRE(s.batches[b - 1].header.bones() < s.batches[b].header.bones());
        }
        for (const auto& b : s.batches) {
            auto bones = b.header.bones();
            if (rule == OrderingRule::bone_sorted)
                BOOST_REQUIRE(std::is_sorted(bones.begin(), bones.begin() + b.header.influence_count()));
            else
                for (std::uint32_t v = b.first_vertex; v < b.first_vertex + b.vertex_count; ++v) {
                    auto w = s.vertices[v].weights();
                    for (int k = 1; k < b.header.influence_count(); ++k)
                        BOOST_REQUIRE(w[k - 1] > w[k] || (w[k - 1] == w[k] && bones[k - 1] < bones[k]));
                }
        }
        // Same triangles, renumbered: positions match through the order.
        BOOST_REQUIRE_EQUAL(r.triangles.size(), m.triangles.size());
        for (std::size_t t = 0; t < m.triangles.size(); ++t)
            for (int c = 0; c < 3; ++c) {
                auto nv = r.triangles[t][c];
                BOOST_REQUIRE_EQUAL(r.order[nv], m.triangles[t][c]);
                BOOST_REQUIRE(s.vertices[nv].position() == m.vertices[m.triangles[t][c]].position);
            }
        // Stability: within a batch, input order is kept.
        for (const auto& b : s.batches)
            for (std::uint32_t v = b.first_vertex + 1; v < b.first_vertex + b.vertex_count; ++v)
                BOOST_REQUIRE(r.order[v - 1] < r.order[v]);
    }
}

BOOST_AUTO_TEST_CASE(batches_split_at_65535) {
    SkinnedMesh m;
    SkinnedVertex v;
    v.influence_count = 1;
    v.influences[0] = {3, 1.0f};
    m.vertices.assign(70000, v);
    auto r = preprocess(m);
    BOOST_REQUIRE_EQUAL(r.stream.batches.size(), 2u);
    BOOST_CHECK_EQUAL(r.stream.batches[0].vertex_count, 65535u);
    BOOST_CHECK_EQUAL(r.stream.batches[1].vertex_count, 70000u - 65535u);
    auto bytes = encode_stream(r.stream);
    auto back = shredtest::decode(bytes, {70000, std::nullopt});
    BOOST_CHECK(encode_stream(back) == bytes);
}

BOOST_AUTO_TEST_CASE(idempotent_and_never_resorts) {
    for (auto rule : all_ordering_rules) {
        auto bytes = shredtest::make_stream(shredtest::random_mesh(2000, 60, 9), rule);
        auto s = shredtest::decode(bytes);
        BOOST_CHECK(encode_stream(s) == bytes);  // re-encoding never re-sorts
        PreprocessOptions o;
        o.rule = rule;
        auto again = preprocess(mesh_from_stream(s), o);
        BOOST_CHECK(encode_stream(again.stream) == bytes);
        for (std::size_t i = 0; i < again.order.size(); ++i) BOOST_REQUIRE_EQUAL(again.order[i], i);
    }
}

BOOST_AUTO_TEST_CASE(conformance_identifies_each_variant) {
    auto mesh = shredtest::random_mesh(1500, 50, 21);
    for (std::size_t k = 0; k < all_ordering_rules.size(); ++k) {
        auto bytes = shredtest::make_stream(mesh, all_ordering_rules[k]);
        auto r = check_conformance(shredtest::decode(bytes));
        for (std::size_t j = 0; j < all_ordering_rules.size(); ++j) {
            BOOST_CHECK_MESSAGE(r.reproduces[j] == (j == k), std::string("stream by ") + to_string(all_ordering_rules[k]) +
                                                                 " vs rule " + to_string(all_ordering_rules[j]));
            if (j != k) BOOST_CHECK_GT(r.first_difference[j], 0u);
        }
    }
    // Unknown envelope/terminal words are templates, not part of the rule.
    auto bytes = shredtest::make_stream(mesh);
    bytes[bytes.size() - 64] = 0;
    bytes[bytes.size() - 1] = 0x11;
    auto r = check_conformance(shredtest::decode(bytes));
    BOOST_CHECK(r.reproduces[0]);
}

BOOST_AUTO_TEST_CASE(bad_meshes_are_refused_with_a_path) {
    auto m = shredtest::random_mesh(10, 40, 1);
    auto bad = m;
    bad.vertices[4].influence_count = 0;
    auto e = modtest::catch_error([&] { preprocess(bad); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_EQUAL(e->path(), "mesh.vertex[4]");
    bad = m;
    bad.vertices[2].influences[0].bone = 255;
    BOOST_CHECK(modtest::catch_error([&] { preprocess(bad); }));
    PreprocessOptions o;
    o.bone_count = 5;
    BOOST_CHECK(modtest::catch_error([&] { preprocess(m, o); }));
    bad = m;
    bad.triangles[0][1] = 10;
    e = modtest::catch_error([&] { preprocess(bad); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_EQUAL(e->path(), "mesh.triangle[0]");
    bad = m;
    bad.vertices[3].uv0[0] = 1e6f;  // infinite as a half
    e = modtest::catch_error([&] { preprocess(bad); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_NE(e->message().find("uv-finite"), std::string::npos);
}

// The value checks test several fields per instruction (preprocess.cpp, values_ok): each
// component must still be refused on its own, and the half range exactly at its limit.
BOOST_AUTO_TEST_CASE(every_value_is_checked_on_its_own) {
    const auto m = shredtest::random_mesh(12, 40, 3);
    auto refused = [&](auto edit, const char* code) {
        for (std::size_t v : {0u, 5u, 11u}) {
            auto bad = m;
            edit(bad.vertices[v]);
            auto e = modtest::catch_error([&] { preprocess(bad); });
            BOOST_REQUIRE(e);
            BOOST_CHECK_EQUAL(e->path(), "mesh.vertex[" + std::to_string(v) + "]");
            BOOST_CHECK_MESSAGE(e->message().rfind(code, 0) == 0, e->message());
        }
    };
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    for (std::size_t k = 0; k < 3; ++k)
        for (float f : {inf, -inf, nan}) {
            refused([&](SkinnedVertex& v) { v.position[k] = f; }, "position-finite");
            refused([&](SkinnedVertex& v) { v.tangent[k] = f; }, "tangent-finite");
        }
    const float below = std::nextafter(65520.0f, 0.0f);  // rounds to the largest half, 65504
    for (std::size_t k = 0; k < 4; ++k) {
        auto uv = [k](SkinnedVertex& v) -> float& { return k < 2 ? v.uv0[k] : v.uv1[k - 2]; };
        for (float f : {inf, -inf, nan, 65520.0f, -65520.0f, 1e6f})
            refused([&](SkinnedVertex& v) { uv(v) = f; }, "uv-finite");
        auto fine = m;
        uv(fine.vertices[4]) = k % 2 ? below : -below;
        BOOST_CHECK_NO_THROW(preprocess(fine));
    }
    // Normals and tangent signs are copied whatever they hold.
    auto odd = m;
    odd.vertices[2].normal = {nan, inf, -inf};
    odd.vertices[2].tangent_sign = nan;
    BOOST_CHECK_NO_THROW(preprocess(odd));
}

// The records are written several fields per instruction (preprocess.cpp, write_vertex):
// every field must hold exactly the input's bits, UVs exactly float_to_half's, whichever path
// (normal halves four at a time, or the general conversion) each vertex takes.
BOOST_AUTO_TEST_CASE(records_hold_the_exact_bits) {
    modtest::Rng rng(77);
    auto any_finite = [&] {
        std::uint32_t b = (rng.below(0xFF) << 23) | rng.below(1u << 23) | (rng.below(2) << 31);
        return std::bit_cast<float>(b);
    };
    auto any_bits = [&] { return std::bit_cast<float>(std::uint32_t(rng.below(1u << 16) << 16 | rng.below(1u << 16))); };
    const float below_limit = std::nextafter(65520.0f, 0.0f);
    const float min_normal = std::bit_cast<float>(0x38800000u), below_normal = std::bit_cast<float>(0x387FFFFFu);
    const std::vector<float> edges = {0.0f,       -0.0f,        1e-10f,       -3e-8f,      6e-5f,      min_normal,
                                      below_normal, -min_normal, 1.0f,         -2.5f,       65504.0f,   below_limit,
                                      -below_limit, 0.000123f,   std::bit_cast<float>(0x3F801000u), std::bit_cast<float>(0x3F803000u)};
    auto any_uv = [&] {
        if (rng.below(3) == 0) return edges[rng.below(static_cast<std::uint32_t>(edges.size()))];
        return float(int(rng.below(2000000)) - 1000000) / float(16 + rng.below(4000));  // below 62,500
    };
    auto m = shredtest::random_mesh(3000, 40, 13);
    for (auto& v : m.vertices) {
        for (auto& f : v.position) f = any_finite();
        for (auto& f : v.tangent) f = any_finite();
        for (auto& f : v.normal) f = any_bits();
        v.tangent_sign = any_bits();
        v.uv0 = {any_uv(), any_uv()};
        v.uv1 = {any_uv(), any_uv()};
        v.extra = rng.below(1u << 16) << 16 | rng.below(1u << 16);
        for (auto& b : v.trailing) b = static_cast<std::uint8_t>(rng.below(256));
    }
    auto r = preprocess(m);
    auto be32_of = [](float f) { return std::bit_cast<std::uint32_t>(f); };
    for (std::size_t k = 0; k < r.order.size(); ++k) {
        const auto& rec = r.stream.vertices[k];
        const auto& v = m.vertices[r.order[k]];
        for (std::size_t c = 0; c < 3; ++c) {
            BOOST_REQUIRE_EQUAL(rec.word(vertex_field::position + 4 * c), be32_of(v.position[c]));
            BOOST_REQUIRE_EQUAL(rec.word(vertex_field::normal + 4 * c), be32_of(v.normal[c]));
            BOOST_REQUIRE_EQUAL(rec.word(vertex_field::tangent + 4 * c), be32_of(v.tangent[c]));
        }
        BOOST_REQUIRE_EQUAL(rec.word(vertex_field::tangent_sign), be32_of(v.tangent_sign));
        BOOST_REQUIRE_EQUAL(rec.word(vertex_field::extra), v.extra);
        BOOST_REQUIRE(rec.halves(vertex_field::uv0) ==
                      (std::array<std::uint16_t, 2>{float_to_half(v.uv0[0]), float_to_half(v.uv0[1])}));
        BOOST_REQUIRE(rec.halves(vertex_field::uv1) ==
                      (std::array<std::uint16_t, 2>{float_to_half(v.uv1[0]), float_to_half(v.uv1[1])}));
        BOOST_REQUIRE(std::equal(v.trailing.begin(), v.trailing.end(), rec.raw.begin() + vertex_field::trailing));
        auto w = rec.weights();
        BOOST_REQUIRE_EQUAL(int(w[0]) + w[1] + w[2] + w[3], 255);
    }
}

BOOST_AUTO_TEST_CASE(duplicate_bones_are_merged) {
    SkinnedMesh m;
    SkinnedVertex v;
    v.influence_count = 3;
    v.influences[0] = {5, 0.25f};
    v.influences[1] = {7, 0.5f};
    v.influences[2] = {5, 0.25f};
    m.vertices.push_back(v);
    auto r = preprocess(m);
    BOOST_CHECK_EQUAL(r.stream.batches[0].header.influence_count(), 2);
    BOOST_CHECK(r.stream.batches[0].header.bones() == (std::array<std::uint8_t, 4>{5, 7, 255, 255}));
    BOOST_CHECK(r.stream.vertices[0].weights() == (std::array<std::uint8_t, 4>{128, 127, 0, 0}));
}

BOOST_AUTO_TEST_SUITE_END()
