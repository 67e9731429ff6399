#pragma once
// Small timing helpers shared by the benchmark programs: best-of-N wall time and a table row.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

namespace bench {

std::filesystem::path shared_dir();

// Runs fn `repeats` times and returns the best wall time in seconds.
double best_seconds(int repeats, const std::function<void()>& fn);
// The same with the process's CPU time, which a machine shared with other work disturbs less.
double best_cpu_seconds(int repeats, const std::function<void()>& fn);

inline double mb_per_s(std::uint64_t bytes, double seconds) {
    return seconds > 0 ? static_cast<double>(bytes) / 1e6 / seconds : 0.0;
}

}  // namespace bench
