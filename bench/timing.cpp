#include "timing.hpp"

#include <algorithm>
#include <cstdlib>
#include <ctime>

namespace bench {

std::filesystem::path shared_dir() {
    if (const char* env = std::getenv("MODKIT_SHARED")) return env;
    return MODKIT_SHARED_DIR;
}

double best_seconds(int repeats, const std::function<void()>& fn) {
    double best = 1e30;
    for (int i = 0; i < repeats; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        fn();
        auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
    }
    return best;
}

double best_cpu_seconds(int repeats, const std::function<void()>& fn) {
    double best = 1e30;
    for (int i = 0; i < repeats; ++i) {
        std::clock_t t0 = std::clock();
        fn();
        std::clock_t t1 = std::clock();
        best = std::min(best, static_cast<double>(t1 - t0) / CLOCKS_PER_SEC);
    }
    return best;
}

}  // namespace bench
