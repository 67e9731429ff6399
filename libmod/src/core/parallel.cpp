#include "libmod/core/parallel.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace mod {

namespace {

// Runnable tasks on the machine now (Linux /proc/stat "procs_running", this thread included);
// 0 when it cannot be read.
unsigned running_tasks() noexcept {
    std::FILE* f = std::fopen("/proc/stat", "r");
    if (!f) return 0;
    char line[256];
    unsigned n = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "procs_running ", 14) == 0) {
            n = static_cast<unsigned>(std::strtoul(line + 14, nullptr, 10));
            break;
        }
    std::fclose(f);
    return n;
}

}  // namespace

unsigned idle_cores() noexcept {
    // Once per process: the decision of a command's first parallel step holds for the rest.
    static const unsigned idle = [] {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const unsigned running = running_tasks();
        const unsigned others = running > 1 ? running - 1 : 0;  // tasks besides this one
        return others >= cores ? 1u : cores - others;
    }();
    return idle;
}

unsigned resolve_thread_count(unsigned requested, std::size_t work_items) noexcept {
    unsigned n = requested ? requested : idle_cores();
    if (work_items < n) n = static_cast<unsigned>(std::max<std::size_t>(1, work_items));
    return n;
}

}  // namespace mod
