#include "libmod/core/parallel.hpp"

namespace mod {

unsigned resolve_thread_count(unsigned requested, std::size_t work_items) noexcept {
    unsigned n = requested ? requested : std::max(1u, std::thread::hardware_concurrency());
    if (work_items < n) n = static_cast<unsigned>(std::max<std::size_t>(1, work_items));
    return n;
}

}  // namespace mod
