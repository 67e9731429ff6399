// scene::InfluenceLists (influence_lists.hpp): flat per-vertex lists, checked against a plain
// vector of vectors doing the same operations.
#include "libmod/scene/influence_lists.hpp"

#include "test_support.hpp"

#include <stdexcept>

using namespace mod::scene;

namespace {

using Plain = std::vector<std::vector<Influence>>;

bool same(const InfluenceLists& flat, const Plain& plain) {
    if (flat.size() != plain.size() || flat.empty() != plain.empty()) return false;
    std::size_t v = 0, entries = 0;
    for (auto list : flat) {  // the iterator and operator[] agree
        auto indexed = flat[v];
        if (list.data() != indexed.data() || list.size() != plain[v].size()) return false;
        for (std::size_t i = 0; i < list.size(); ++i)
            if (list[i].bone != plain[v][i].bone || list[i].weight != plain[v][i].weight) return false;
        entries += list.size();
        ++v;
    }
    return flat.entries().size() == entries && (flat.empty() || flat.offsets().size() == flat.size() + 1);
}

Plain random_lists(modtest::Rng& rng, std::size_t vertices) {
    Plain plain(vertices);
    for (auto& list : plain)
        for (std::uint32_t k = rng.below(5); k > 0; --k) list.push_back({rng.below(9), float(rng.below(100)) / 10.0f});
    return plain;
}

InfluenceLists flat_of(const Plain& plain) {
    InfluenceLists flat;
    for (const auto& list : plain) flat.push_back(list);
    return flat;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_influence_lists)

BOOST_AUTO_TEST_CASE(push_back_append_and_literal_lists_agree_with_nested_vectors) {
    InfluenceLists none;
    BOOST_TEST(none.empty());
    BOOST_TEST(none.size() == 0u);
    BOOST_TEST((none.begin() == none.end()));
    InfluenceLists literal{{{0, 1.0f}}, {}, {{2, 0.5f}, {1, 0.5f}}};
    BOOST_TEST(same(literal, Plain{{{0, 1.0f}}, {}, {{2, 0.5f}, {1, 0.5f}}}));
    modtest::Rng rng(7);
    Plain a = random_lists(rng, 50), b = random_lists(rng, 30);
    InfluenceLists flat = flat_of(a);
    BOOST_TEST(same(flat, a));
    flat.append(flat_of(b));
    flat.append(InfluenceLists{});
    a.insert(a.end(), b.begin(), b.end());
    BOOST_TEST(same(flat, a));
    BOOST_TEST((flat == flat_of(a)));
    a[3].push_back({1, 1});
    BOOST_TEST(!(flat == flat_of(a)));
}

BOOST_AUTO_TEST_CASE(with_sizes_gives_zeroed_lists_to_fill_in_place) {
    const std::vector<std::uint32_t> counts{2, 0, 3};
    InfluenceLists flat = InfluenceLists::with_sizes(counts);
    BOOST_TEST(same(flat, Plain{{{}, {}}, {}, {{}, {}, {}}}));
    flat[2][1] = {4, 0.25f};
    BOOST_TEST(same(flat, Plain{{{}, {}}, {}, {{}, {4, 0.25f}, {}}}));
}

BOOST_AUTO_TEST_CASE(set_replaces_one_list_with_longer_shorter_or_its_own_entries) {
    modtest::Rng rng(11);
    Plain plain = random_lists(rng, 40);
    InfluenceLists flat = flat_of(plain);
    for (int round = 0; round < 200; ++round) {
        std::size_t v = rng.below(40);
        Plain fresh = random_lists(rng, 1);
        if (rng.below(4) == 0) {
            std::size_t u = rng.below(40);  // a list taken from the object itself
            fresh[0] = plain[u];
            flat.set(v, flat[u]);
        } else {
            flat.set(v, fresh[0]);
        }
        plain[v] = fresh[0];
        BOOST_TEST_REQUIRE(same(flat, plain));
    }
}

BOOST_AUTO_TEST_CASE(rewrite_each_shortens_in_place_and_stays_valid_when_interrupted) {
    modtest::Rng rng(5);
    Plain plain = random_lists(rng, 60);
    InfluenceLists flat = flat_of(plain);
    // Keep the entries with an even bone, doubled weights.
    auto keep_even = [](auto& list) {
        std::size_t kept = 0;
        for (std::size_t i = 0; i < list.size(); ++i)
            if (list[i].bone % 2 == 0) list[kept++] = {list[i].bone, 2 * list[i].weight};
        return kept;
    };
    Plain expected = plain;
    for (auto& list : expected) list.resize(keep_even(list));
    InfluenceLists copy = flat;
    copy.rewrite_each([&](std::span<Influence> list) { return keep_even(list); });
    BOOST_TEST(same(copy, expected));
    // A throw at vertex 30: lists before it rewritten, it and the rest untouched, still usable.
    std::size_t v = 0;
    BOOST_CHECK_THROW(flat.rewrite_each([&](std::span<Influence> list) {
        if (v++ == 30) throw std::runtime_error("stop");
        return keep_even(list);
    }),
                      std::runtime_error);
    Plain half(expected.begin(), expected.begin() + 30);
    half.insert(half.end(), plain.begin() + 30, plain.end());
    BOOST_TEST(same(flat, half));
    flat.push_back({{1, 1}});
    half.push_back({{1, 1}});
    BOOST_TEST(same(flat, half));
}

BOOST_AUTO_TEST_CASE(own_lists_can_be_appended_and_pushed_again) {
    modtest::Rng rng(13);
    Plain plain = random_lists(rng, 20);
    InfluenceLists flat = flat_of(plain);
    flat.append(flat);
    Plain twice = plain;
    twice.insert(twice.end(), plain.begin(), plain.end());
    BOOST_TEST_REQUIRE(same(flat, twice));
    for (std::size_t v : {0u, 7u, 39u}) {
        flat.push_back(flat[v]);  // may reallocate the entries the span points into
        twice.push_back(twice[v]);
        BOOST_TEST_REQUIRE(same(flat, twice));
    }
}

BOOST_AUTO_TEST_CASE(a_rewrite_keeping_more_than_the_list_is_refused) {
    InfluenceLists flat{{{0, 1}}, {{1, 1}, {2, 1}}, {{3, 1}}};
    auto e = modtest::catch_error([&] { flat.rewrite_each([](std::span<Influence> list) { return list.size() + 1; }); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == mod::ErrorKind::usage));
    BOOST_TEST(same(flat, Plain{{{0, 1}}, {{1, 1}, {2, 1}}, {{3, 1}}}));  // refused at the first list
}

BOOST_AUTO_TEST_CASE(keep_only_gathers_increasing_vertices) {
    modtest::Rng rng(3);
    Plain plain = random_lists(rng, 50);
    InfluenceLists flat = flat_of(plain);
    std::vector<std::uint32_t> which;
    Plain expected;
    for (std::uint32_t v = 0; v < 50; ++v)
        if (rng.below(3) == 0) {
            which.push_back(v);
            expected.push_back(plain[v]);
        }
    flat.keep_only(which);
    BOOST_TEST(same(flat, expected));
    InfluenceLists none;
    none.keep_only(which);  // no lists at all: nothing to gather
    BOOST_TEST(none.empty());
    // No lists, in the other form a producer can leave (one boundary, zero lists).
    InfluenceLists zero = InfluenceLists::with_sizes({});
    BOOST_TEST(zero.empty());
    zero.keep_only(which);
    BOOST_TEST(zero.empty());
    BOOST_TEST(zero.entries().empty());
}

BOOST_AUTO_TEST_SUITE_END()
