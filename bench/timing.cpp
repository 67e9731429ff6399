#include "timing.hpp"

#include <algorithm>
#include <cstdlib>
#include <ctime>

namespace bench {

std::filesystem::path shared_dir() {
    if (const char* env = std::getenv("MODKIT_SHARED")) return env;
    return MODKIT_SHARED_DIR;
}

namespace {
// Best of `repeats` runs of fn, timed by `now` (seconds as a double).
template <class Now>
double best_of(int repeats, const std::function<void()>& fn, Now now) {
    double best = 1e30;
    for (int i = 0; i < repeats; ++i) {
        const double t0 = now();
        fn();
        best = std::min(best, now() - t0);
    }
    return best;
}
}  // namespace

double best_seconds(int repeats, const std::function<void()>& fn) {
    return best_of(repeats, fn, [] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    });
}

double best_cpu_seconds(int repeats, const std::function<void()>& fn) {
    return best_of(repeats, fn, [] { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; });
}

}  // namespace bench
