// Our weight processing: top 4, renormalise every vertex, bytes summing to 255, deterministic.
#include "test_support.hpp"

#include "libmod/scene/weights.hpp"

#include <algorithm>
#include <numeric>

using namespace mod::scene;

namespace {

unsigned byte_sum(const SkinWeights& s) {
    unsigned sum = 0;
    for (int k = 0; k < s.count; ++k) sum += s.weights[k];
    return sum;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_weights)

BOOST_AUTO_TEST_CASE(largest_remainder_example) {
    // 0.5 / 0.25 / 0.25 of 255 = 127.5 / 63.75 / 63.75: floors 127 + 63 + 63 = 253; the two
    // missing units go to the two largest remainders (0.75, 0.75), not to 0.5.
    std::vector<Influence> in{{7, 0.25f}, {2, 0.5f}, {9, 0.25f}};
    auto s = quantise_influences(in);
    BOOST_TEST(s.count == 3);
    BOOST_TEST(s.bones == (std::array<std::uint32_t, 4>{2, 7, 9, 0}));
    BOOST_TEST(s.weights == (std::array<std::uint8_t, 4>{127, 64, 64, 0}));
    // Two equal weights: 127.5 each; the unit goes to the earlier slot, the lower bone.
    std::vector<Influence> pair{{5, 1}, {3, 1}};
    auto p = quantise_influences(pair);
    BOOST_TEST(p.bones == (std::array<std::uint32_t, 4>{3, 5, 0, 0}));
    BOOST_TEST(p.weights == (std::array<std::uint8_t, 4>{128, 127, 0, 0}));
}

BOOST_AUTO_TEST_CASE(keeps_four_largest_and_renormalises_unnormalised_input) {
    // Six influences summing to 2.1: the two smallest go, the rest are renormalised.
    std::vector<Influence> in{{0, 0.1f}, {1, 0.6f}, {2, 0.5f}, {3, 0.4f}, {4, 0.3f}, {5, 0.2f}};
    WeightReport report;
    Mesh m;
    m.positions.resize(1);
    m.influences = {in};
    process_weights(m, {}, &report);
    const auto& s = m.skin[0];
    BOOST_TEST(s.count == 4);
    BOOST_TEST(byte_sum(s) == 255u);
    // 0.6/1.8*255 = 85, 0.5/1.8*255 = 70.83, 0.4/1.8*255 = 56.67, 0.3/1.8*255 = 42.5
    // floors 85+70+56+42 = 253; remainders .83, .67, .5 -> +1 to bones 2 and 3.
    BOOST_TEST(s.bones == (std::array<std::uint32_t, 4>{1, 2, 3, 4}));
    BOOST_TEST(s.weights == (std::array<std::uint8_t, 4>{85, 71, 57, 42}));
    BOOST_TEST(report.trimmed_vertices == 1u);
    BOOST_TEST(report.renormalised_vertices == 1u);
    BOOST_TEST(report.source_histogram[6] == 1u);
    BOOST_TEST(report.histogram[4] == 1u);
}

BOOST_AUTO_TEST_CASE(ties_go_to_the_lower_bone_and_equal_inputs_split_deterministically) {
    std::vector<Influence> a{{5, 1}, {3, 1}, {4, 1}};
    std::vector<Influence> b{{4, 1}, {5, 1}, {3, 1}};
    auto sa = quantise_influences(a), sb = quantise_influences(b);
    BOOST_TEST((sa == sb));
    // 85 each exactly.
    BOOST_TEST(sa.bones == (std::array<std::uint32_t, 4>{3, 4, 5, 0}));
    BOOST_TEST(sa.weights == (std::array<std::uint8_t, 4>{85, 85, 85, 0}));
    // Five equal weights: the four lowest bones, 64/64/64/63 (the unit goes to earlier slots).
    std::vector<Influence> five{{9, 1}, {8, 1}, {7, 1}, {6, 1}, {5, 1}};
    auto s5 = quantise_influences(five);
    BOOST_TEST(s5.bones == (std::array<std::uint32_t, 4>{5, 6, 7, 8}));
    BOOST_TEST(s5.weights == (std::array<std::uint8_t, 4>{64, 64, 64, 63}));
}

BOOST_AUTO_TEST_CASE(duplicates_merge_zero_weights_drop_and_tiny_weights_round_away) {
    std::vector<Influence> in{{2, 0.25f}, {1, 0}, {2, 0.25f}, {3, 0.5f}, {4, 0.0001f}};
    auto s = quantise_influences(in);
    BOOST_TEST(s.count == 2);  // bone 4 quantises to 0 and is dropped, bone 1 had weight 0
    BOOST_TEST(byte_sum(s) == 255u);
    BOOST_TEST(s.bones[0] == 2u);  // 0.5 vs 0.5: tie -> lower bone first
    BOOST_TEST(s.bones[1] == 3u);
    BOOST_TEST(s.weights[2] == 0);
    BOOST_TEST(s.bones[2] == 0u);
}

BOOST_AUTO_TEST_CASE(bytes_over_255_come_back_exactly) {
    // What the glTF export writes (w / 255 as float) must quantise back to w.
    modtest::Rng rng(7);
    for (int i = 0; i < 20000; ++i) {
        unsigned n = 1 + rng.below(4);
        std::vector<unsigned> w(n, 0);
        unsigned left = 255;
        for (unsigned k = 0; k + 1 < n; ++k) {
            w[k] = 1 + rng.below(left - (n - 1 - k));
            left -= w[k];
        }
        w[n - 1] = left;
        std::vector<Influence> in;
        for (unsigned k = 0; k < n; ++k) in.push_back({k * 3, float(w[k]) / 255.0f});
        auto s = quantise_influences(in);
        BOOST_TEST_REQUIRE(s.count == n);
        std::vector<unsigned> got, want = w;
        for (unsigned k = 0; k < n; ++k) got.push_back(s.weights[k]);
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        BOOST_TEST_REQUIRE(got == want);
    }
}

BOOST_AUTO_TEST_CASE(random_influences_always_sum_to_255_without_zero_slots) {
    modtest::Rng rng(11);
    for (int i = 0; i < 20000; ++i) {
        std::vector<Influence> in;
        unsigned n = 1 + rng.below(8);
        for (unsigned k = 0; k < n; ++k) in.push_back({rng.below(40), float(rng.below(1000)) / 97.0f + 1e-3f});
        auto s = quantise_influences(in);
        BOOST_TEST_REQUIRE(s.count >= 1);
        BOOST_TEST_REQUIRE(s.count <= 4);
        BOOST_TEST_REQUIRE(byte_sum(s) == 255u);
        for (int k = 0; k < 4; ++k) {
            if (k < s.count) BOOST_TEST_REQUIRE(s.weights[k] > 0);
            else BOOST_TEST_REQUIRE((s.weights[k] == 0 && s.bones[k] == 0u));
            if (k > 0 && k < s.count) BOOST_TEST_REQUIRE(s.weights[k - 1] >= s.weights[k]);
        }
    }
}

BOOST_AUTO_TEST_CASE(bad_weights_are_errors_naming_the_vertex) {
    Mesh m;
    m.name = "Body";
    m.positions.resize(3);
    m.influences = {{{0, 1}}, {{0, -0.5f}}, {}};
    auto e = modtest::catch_error([&] { process_weights(m); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == mod::ErrorKind::format));
    BOOST_TEST(e->message().find("mesh 'Body' vertex 1") != std::string::npos);
    m.influences.set(1, {{0, std::numeric_limits<float>::quiet_NaN()}});
    BOOST_TEST(modtest::catch_error([&] { process_weights(m); }).has_value());
    m.influences.set(1, {{0, 1}});
    auto none = modtest::catch_error([&] { process_weights(m); });
    BOOST_TEST_REQUIRE(none.has_value());
    BOOST_TEST(none->message().find("vertex 2 has no positive bone weight") != std::string::npos);
    WeightOptions allow;
    allow.allow_unweighted = true;
    process_weights(m, allow);
    BOOST_TEST(m.skin[2].count == 0);
    WeightOptions bad;
    bad.max_influences = 5;
    BOOST_TEST((modtest::catch_error([&] { process_weights(m, bad); })->kind() == mod::ErrorKind::usage));
}

// Files with one vertex per triangle corner repeat each control point's list; process_weights
// handles each distinct list once and must give what a vertex-by-vertex pass gives.
BOOST_AUTO_TEST_CASE(repeated_lists_give_what_each_vertex_gives_alone) {
    modtest::Rng rng(5);
    std::vector<std::vector<Influence>> lists;
    for (int i = 0; i < 60; ++i) {
        std::vector<Influence> in;
        unsigned n = 1 + rng.below(7);
        for (unsigned k = 0; k < n; ++k) in.push_back({rng.below(12), float(rng.below(6)) / 5.0f});
        if (std::none_of(in.begin(), in.end(), [](const Influence& x) { return x.weight > 0; })) in[0].weight = 0.5f;
        lists.push_back(in);
        // The same entries in another order: another list (same result, counted apart).
        std::reverse(in.begin(), in.end());
        lists.push_back(in);
    }
    Mesh m;
    m.name = "Body";
    for (int v = 0; v < 3000; ++v) m.influences.push_back(lists[rng.below(unsigned(lists.size()))]);
    m.positions.resize(m.influences.size());
    WeightReport report, expected;
    process_weights(m, {}, &report);
    for (std::size_t v = 0; v < m.influences.size(); ++v) {
        BOOST_TEST_REQUIRE((m.skin[v] == quantise_influences(m.influences[v])));
        Mesh one;
        one.positions.resize(1);
        one.influences.push_back(m.influences[v]);
        process_weights(one, {}, &expected);
    }
    BOOST_TEST((report.histogram == expected.histogram));
    BOOST_TEST((report.source_histogram == expected.source_histogram));
    BOOST_TEST(report.trimmed_vertices == expected.trimmed_vertices);
    BOOST_TEST(report.renormalised_vertices == expected.renormalised_vertices);
    BOOST_TEST(report.dropped_by_rounding == expected.dropped_by_rounding);
    BOOST_TEST(report.trimmed_vertices > 0u);
    BOOST_TEST(report.dropped_by_rounding + report.renormalised_vertices > 0u);
    // A bad list seen again later: the error names its first vertex.
    m.influences = {{{0, 1}}, {{0, 1}}, {{1, -1}}, {{0, 1}}, {{1, -1}}};
    m.positions.resize(5);
    auto e = modtest::catch_error([&] { process_weights(m); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->message().find("mesh 'Body' vertex 2:") != std::string::npos, e->message());
}

BOOST_AUTO_TEST_CASE(max_influences_option_limits_further) {
    std::vector<Influence> in{{0, 0.4f}, {1, 0.35f}, {2, 0.25f}};
    WeightOptions two;
    two.max_influences = 2;
    auto s = quantise_influences(in, two);
    BOOST_TEST(s.count == 2);
    BOOST_TEST(byte_sum(s) == 255u);
    BOOST_TEST(s.weights[0] == 136);  // 0.4/0.75*255 = 136
    BOOST_TEST(s.weights[1] == 119);
}

BOOST_AUTO_TEST_CASE(renormalised_counts_the_sum_of_every_positive_weight_not_of_the_kept_ones) {
    // weights.hpp: renormalised_vertices = positive weight sum not within 1e-6 of 1. Five
    // weights summing to 1 are trimmed (kept sum 0.8) but were normalised; five summing to 1.25
    // whose four largest sum to exactly 1 were not. (A count of the kept sum passed every other
    // test.)
    Mesh m;
    m.positions.resize(3);
    m.influences = {{{0, 0.25f}, {1, 0.25f}, {2, 0.125f}, {3, 0.125f}, {4, 0.25f}},
                    {{0, 0.25f}, {1, 0.25f}, {2, 0.25f}, {3, 0.25f}, {4, 0.25f}},
                    {{0, 0.5f}, {1, 0.5f}}};
    WeightReport report;
    process_weights(m, {}, &report);
    BOOST_TEST(report.trimmed_vertices == 2u);
    BOOST_TEST(report.renormalised_vertices == 1u);
    // Alone: the first is not renormalised, the second is.
    for (std::size_t v = 0; v < 2; ++v) {
        Mesh one;
        one.positions.resize(1);
        one.influences.push_back(m.influences[v]);
        WeightReport r;
        process_weights(one, {}, &r);
        BOOST_TEST(r.renormalised_vertices == v, "vertex " << v);
    }
}

BOOST_AUTO_TEST_SUITE_END()
