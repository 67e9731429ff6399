#pragma once
// A progress line on stderr for long work. Silent when stderr is not a terminal or when the
// caller asked for quiet; never writes to stdout (which carries results and --json output).
// advance() is thread-safe.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace mod {

class Progress {
public:
    Progress(std::string label, std::uint64_t total, bool quiet = false);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    void advance(std::uint64_t amount = 1);
    bool enabled() const noexcept { return enabled_; }

    // Whether progress would be shown at all (stderr is a terminal and not quiet).
    static bool terminal_allows(bool quiet) noexcept;

private:
    void draw(std::uint64_t done, bool final);

    std::string label_;
    std::uint64_t total_;
    bool enabled_;
    std::atomic<std::uint64_t> done_{0};
    std::mutex draw_mutex_;
    std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace mod
