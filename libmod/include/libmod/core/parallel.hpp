#pragma once
// Deterministic parallel map: result[i] = fn(i) for i in [0, count), computed on up to
// `threads` threads (0 = the idle cores, idle_cores()). Results land by index, so the output is the
// same whatever the thread count. If any call throws, the exception of the lowest failing
// index is rethrown after all threads stop (also deterministic).

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

namespace mod {

// The cores not busy with other tasks when first asked (hardware concurrency minus the
// machine's other runnable tasks, Linux /proc/stat; at least 1; all cores where it cannot be
// read). What `-j` defaults to (issue 31: with one core kept busy by another process, all
// cores ran 0.75–0.91x the speed of one). Computed once per process.
unsigned idle_cores() noexcept;

// `requested` threads (0: idle_cores()), at most one per work item, at least one.
unsigned resolve_thread_count(unsigned requested, std::size_t work_items) noexcept;

template <class Fn>
auto parallel_map(std::size_t count, Fn&& fn, unsigned threads = 0)
    -> std::vector<std::invoke_result_t<Fn&, std::size_t>> {
    using R = std::invoke_result_t<Fn&, std::size_t>;
    std::vector<std::optional<R>> slots(count);
    std::vector<std::exception_ptr> errors(count);
    std::atomic<std::size_t> next{0};
    // Lowest failing index so far: later indices are skipped, earlier ones still run, so the
    // rethrown error is the one a sequential loop would have hit first.
    std::atomic<std::size_t> first_failure{count};
    auto worker = [&] {
        for (;;) {
            std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
            if (i >= count) return;
            if (i > first_failure.load(std::memory_order_relaxed)) continue;
            try {
                slots[i].emplace(fn(i));
            } catch (...) {
                errors[i] = std::current_exception();
                std::size_t seen = first_failure.load(std::memory_order_relaxed);
                while (i < seen && !first_failure.compare_exchange_weak(seen, i)) {
                }
            }
        }
    };
    unsigned n = resolve_thread_count(threads, count);
    if (n <= 1) {
        worker();
    } else {
        std::vector<std::thread> pool;
        pool.reserve(n - 1);
        for (unsigned t = 1; t < n; ++t) pool.emplace_back(worker);
        worker();
        for (auto& t : pool) t.join();
    }
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
    std::vector<R> out;
    out.reserve(count);
    for (auto& s : slots) out.push_back(std::move(*s));
    return out;
}

// parallel_for: the same scheduling for side effects into caller-owned, index-addressed slots.
template <class Fn>
void parallel_for(std::size_t count, Fn&& fn, unsigned threads = 0) {
    parallel_map(count, [&](std::size_t i) { fn(i); return 0; }, threads);
}

}  // namespace mod
