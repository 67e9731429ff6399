#include "libmod/core/parallel.hpp"

#include "libmod/core/error.hpp"

#include "test_support.hpp"

#include <atomic>

using namespace mod;

BOOST_AUTO_TEST_SUITE(parallel)

BOOST_AUTO_TEST_CASE(results_are_in_index_order_for_any_thread_count) {
    auto square = [](std::size_t i) { return i * i; };
    auto one = parallel_map(1000, square, 1);
    for (unsigned threads : {2u, 3u, 8u, 0u}) BOOST_TEST(parallel_map(1000, square, threads) == one);
    BOOST_TEST(one[999] == 999u * 999u);
    BOOST_TEST(parallel_map(0, square, 4).empty());
}

BOOST_AUTO_TEST_CASE(every_index_runs_exactly_once) {
    std::vector<std::atomic<int>> hits(500);
    parallel_for(hits.size(), [&](std::size_t i) { hits[i].fetch_add(1); }, 4);
    for (auto& h : hits) BOOST_TEST(h.load() == 1);
}

BOOST_AUTO_TEST_CASE(the_lowest_failing_index_is_reported) {
    for (unsigned threads : {1u, 2u, 4u}) {
        auto e = modtest::catch_error([&] {
            parallel_map(200, [](std::size_t i) -> int {
                if (i == 37 || i == 150) throw Error(ErrorKind::format, "entry " + std::to_string(i));
                return 0;
            }, threads);
        });
        BOOST_REQUIRE(e);
        BOOST_TEST(e->message() == "entry 37");
    }
}

BOOST_AUTO_TEST_CASE(thread_count_resolution) {
    BOOST_TEST(resolve_thread_count(4, 2) == 2u);
    BOOST_TEST(resolve_thread_count(4, 0) == 1u);
    BOOST_TEST(resolve_thread_count(3, 100) == 3u);
    BOOST_TEST(resolve_thread_count(0, 100) >= 1u);
}

BOOST_AUTO_TEST_CASE(default_threads_are_the_idle_cores) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    BOOST_TEST(mod::idle_cores() >= 1u);
    BOOST_TEST(mod::idle_cores() <= cores);
    BOOST_TEST(mod::resolve_thread_count(0, 1000) == mod::idle_cores());
    BOOST_TEST(mod::idle_cores() == mod::idle_cores());  // decided once
}

BOOST_AUTO_TEST_SUITE_END()
