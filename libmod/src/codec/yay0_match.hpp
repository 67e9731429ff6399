#pragma once
// Match finding for the Nintendo parse: hash chains on 3-byte prefixes over the Yay0 window
// (0x1000 bytes back, 3..0x111 bytes long), oldest match on ties. Internal to the codec layer.

#include "libmod/codec/yay0.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mod::yay0::detail {

struct Match {
    std::uint32_t length = 0;    // 0 when no match of at least 3 bytes exists
    std::uint32_t distance = 0;  // 1..0x1000
};

// Length of the common prefix of a and b, at most `limit` bytes (8 bytes at a time).
std::uint32_t common_prefix_length(const std::uint8_t* a, const std::uint8_t* b, std::uint32_t limit);

// Working arrays of a MatchFinder, kept per thread between encodes. The per-position ones are
// rings over the positions a search can reach (the window behind and the look-ahead in
// front: under 0x1200 positions), not arrays over the whole input: 12 bytes per input byte
// made a 300 KB image's arrays 3.6 MB, far outside the caches.
inline constexpr std::size_t ring_size = 0x2000;  // > max_distance + max_match + 2, a power of two
inline constexpr std::size_t ring_mask = ring_size - 1;
struct RunSpan {
    std::uint32_t start;  // first position of the run of equal bytes holding the position
    std::uint32_t end;    // one past the run's last position
};
struct MatchScratch {
    std::vector<std::int32_t> head;
    std::vector<std::int32_t> prev;        // chain links, by position & ring_mask
    std::vector<RunSpan> runs;             // by position & ring_mask
    std::vector<std::int32_t> candidates;  // of one search; a run contributes at most two
};

class MatchFinder {
public:
    MatchFinder(const std::uint8_t* data, std::size_t size);
    MatchFinder(const MatchFinder&) = delete;
    MatchFinder& operator=(const MatchFinder&) = delete;

    // The longest match at `pos` that is longer than `at_least` bytes; among equally long ones
    // the oldest (largest distance). Length 0 when there is none. `pos` must not decrease
    // between calls.
    Match longest_oldest(std::size_t pos, std::uint32_t at_least = min_match - 1);

private:
    // Matches are at most this long at `pos`: min(bytes left, 0x111).
    std::uint32_t limit_at(std::size_t pos) const;
    // Calls visit(candidate) for the window's candidates at `pos`, newest first. A run of one
    // repeated byte is collapsed to the (at most two) positions that can be the best of their
    // run (see walk_candidates in the .cpp).
    template <class Visit>
    void walk_candidates(std::size_t pos, Visit&& visit);
    // Indexes every position before `pos` (the common case, nothing to do, stays inline).
    void insert_until(std::size_t pos) {
        if (inserted_ < pos) insert_range(pos);
    }
    void insert_range(std::size_t pos);
    // Records the runs of positions before `pos` (in order, each once).
    void runs_until(std::size_t pos) {
        if (runs_filled_ < pos) fill_runs(pos);
    }
    void fill_runs(std::size_t pos);
    // False when no match of `need` (> 3, <= limit) bytes can exist at `pos`: the last three
    // bytes of such a match must also occur `need - 3` bytes after some candidate. A search
    // for a long match (the look-ahead) usually fails, and this check is one short chain
    // walk instead of a whole candidate walk. Indexes positions up to pos + need - 3, so
    // the caller's next search must not start before that.
    bool tail_occurs(std::size_t pos, std::uint32_t need);
    std::uint32_t hash_at(std::size_t pos) const;
    std::uint32_t match_length(std::size_t candidate, std::size_t pos, std::uint32_t limit) const {
        return common_prefix_length(data_ + candidate, data_ + pos, limit);
    }

    const RunSpan& run_of(std::size_t i) const { return runs_[i & ring_mask]; }
    std::uint32_t run_length(std::size_t i) const { return run_of(i).end - static_cast<std::uint32_t>(i); }
    std::int32_t& prev(std::size_t i) { return prev_[i & ring_mask]; }

    const std::uint8_t* data_;
    std::size_t size_;
    MatchScratch& scratch_;
    // Bits of the 3-byte hash: 16, fewer for inputs under 64 KiB (a chain holds every position
    // of its hash and candidates are compared byte by byte, so the table's size changes only
    // the time, never the matches: a 3-byte file no longer fills a 256 KiB table).
    int hash_bits_;
    // Views of scratch_'s arrays (see MatchScratch).
    std::int32_t* head_;
    std::int32_t* prev_;
    RunSpan* runs_;
    std::int32_t* candidates_;
    std::size_t inserted_ = 0;
    std::size_t runs_filled_ = 0;
    RunSpan current_run_{0, 0};  // the run of position runs_filled_ - 1
};

}  // namespace mod::yay0::detail
