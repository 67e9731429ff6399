#include "libmod/core/progress.hpp"

#include <cstdio>
#include <unistd.h>

namespace mod {

bool Progress::terminal_allows(bool quiet) noexcept { return !quiet && ::isatty(STDERR_FILENO); }

Progress::Progress(std::string label, std::uint64_t total, bool quiet)
    : label_(std::move(label)), total_(total), enabled_(terminal_allows(quiet)) {}

Progress::~Progress() {
    if (enabled_) draw(done_.load(), true);
}

void Progress::advance(std::uint64_t amount) {
    auto done = done_.fetch_add(amount) + amount;
    if (!enabled_) return;
    auto now = std::chrono::steady_clock::now();
    std::unique_lock lock(draw_mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return;
    // The final state is drawn once, by the destructor, with the closing newline.
    if (done >= total_ || now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    draw(done, false);
}

void Progress::draw(std::uint64_t done, bool final) {
    double pct = total_ ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 100.0;
    std::fprintf(stderr, "\r%s: %llu/%llu (%.0f%%)%s", label_.c_str(),
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), pct,
                 final ? "\n" : "");
    std::fflush(stderr);
}

}  // namespace mod
