#include "codec/yay0_match.hpp"

#include "libmod/codec/yay0.hpp"
#include "libmod/core/endian.hpp"

#include <algorithm>
#include <cstring>

namespace mod::yay0::detail {

namespace {
constexpr int max_hash_bits = 16;

// The hash of three bytes held in the low 24 bits of `v`, `bits` wide.
inline std::uint32_t hash3(std::uint32_t v, int bits) { return ((v << 8) * 2654435761u) >> (32 - bits); }

int hash_bits_for(std::size_t size) {
    int bits = 8;
    while (bits < max_hash_bits && (std::size_t(1) << bits) < size) ++bits;
    return bits;
}

MatchScratch& thread_scratch() {
    thread_local MatchScratch scratch;
    return scratch;
}

// Grows (never shrinks) `v` to n elements: kept elements need no clearing, every user writes
// before it reads.
template <class T>
T* at_least(std::vector<T>& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
    return v.data();
}
}  // namespace

MatchFinder::MatchFinder(const std::uint8_t* data, std::size_t size)
    : data_(data), size_(size), scratch_(thread_scratch()), hash_bits_(hash_bits_for(size)),
      head_(at_least(scratch_.head, std::size_t(1) << hash_bits_)),
      prev_(at_least(scratch_.prev, std::min(ring_size, size + 1))),
      runs_(at_least(scratch_.runs, std::min(ring_size, size + 1))),
      candidates_(at_least(scratch_.candidates, max_distance + 1)) {
    std::fill(head_, head_ + (std::size_t(1) << hash_bits_), -1);
}

// Positions enter the ring in order, a run at a time: a new run's end is found by one scan
// (each byte is scanned once in all), then its positions are stored in one tight loop.
[[gnu::always_inline]] inline void MatchFinder::fill_runs(std::size_t pos) {
    // Locals: stores through runs_ could otherwise alias the members, reloaded every byte.
    const std::uint8_t* const data = data_;
    const std::size_t size = size_;
    RunSpan* const runs = runs_;
    RunSpan run = current_run_;
    const std::size_t end = std::min(pos, size);
    for (std::size_t i = runs_filled_; i < end; ++i) {
        if (i >= run.end) {
            // Most runs in real data are one byte long: no scan for those.
            std::size_t e = i + 1;
            if (e < size && data[e] == data[i])
                while (++e < size && data[e] == data[i]) {
                }
            run = {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(e)};
        }
        runs[i & ring_mask] = run;
    }
    current_run_ = run;
    runs_filled_ = std::max(runs_filled_, end);
}

// Candidates share the 3-byte hash of `pos`. Inside a run of byte b (run [s, e)) every
// candidate x matches pos for min(e - x, r) bytes, r being pos's own run length, except the one
// x* = e - r whose run ends exactly where pos's does and may match further. So of the whole
// run only x* and the oldest in-window position lo can be a longest (and oldest-longest)
// match: x* when it matches past r, lo otherwise (lo matches min(e - lo, r), the most of any
// position but x*). Skipping the rest keeps long runs from costing a full window per search.
template <class Visit>
void MatchFinder::walk_candidates(std::size_t pos, Visit&& visit) {
    // Signed, so that the chain's end marker (-1) also fails the window test.
    const auto window_start = static_cast<std::int32_t>(pos > max_distance ? pos - max_distance : 0);
    std::int32_t qi = head_[hash_at(pos)];
    while (qi >= 0 && static_cast<std::size_t>(qi) >= pos) qi = prev(static_cast<std::size_t>(qi));  // indexed ahead by tail_occurs
    if (qi < window_start) return;  // no candidate: most literals end here
    // Candidates lie before pos: recording the runs up to pos covers them all.
    runs_until(pos + 1);
    const std::uint32_t r = run_length(pos);
    if (r < 3) {  // pos starts no run, so no candidate needs the run logic below
        for (; qi >= window_start; qi = prev(static_cast<std::size_t>(qi))) visit(static_cast<std::size_t>(qi));
        return;
    }
    const std::uint8_t b = data_[pos];
    while (qi >= window_start) {
        const auto q = static_cast<std::size_t>(qi);
        if (data_[q] == b && run_length(q) >= 3) {
            const std::size_t s = run_of(q).start;
            const std::size_t e = run_of(q).end;
            const std::size_t lo = std::max<std::size_t>(s, static_cast<std::size_t>(window_start));
            if (e >= r) {
                const std::size_t x = e - r;
                if (x >= lo && x <= q && x != lo) visit(x);
            }
            visit(lo);
            if (s < static_cast<std::size_t>(window_start)) return;
            qi = prev(s);
        } else {
            visit(q);
            qi = prev(q);
        }
    }
}

std::uint32_t MatchFinder::hash_at(std::size_t pos) const {
    // One 4-byte load where the input has room (every position but the last indexed one).
    return hash3(pos + 4 <= size_ ? endian::load_le32(data_ + pos)
                                  : std::uint32_t(data_[pos]) | (std::uint32_t(data_[pos + 1]) << 8) |
                                        (std::uint32_t(data_[pos + 2]) << 16),
                 hash_bits_);
}

void MatchFinder::insert_range(std::size_t pos) {
    // The runs of every position indexed and of pos itself (walk_candidates' run_length(pos)),
    // recorded in the same call so that a search rarely needs a second one.
    runs_until(pos + 1);
    const std::size_t end = std::min(pos, size_ >= 3 ? size_ - 2 : 0);
    const std::size_t loads_end = std::min(end, size_ >= 4 ? size_ - 3 : 0);
    auto link = [&](std::uint32_t h) {
        prev(inserted_) = head_[h];
        head_[h] = static_cast<std::int32_t>(inserted_);
    };
    // Two loops so that the common one has no per-byte test for the input's last bytes.
    for (; inserted_ < loads_end; ++inserted_) link(hash3(endian::load_le32(data_ + inserted_), hash_bits_));
    for (; inserted_ < end; ++inserted_) link(hash_at(inserted_));
    inserted_ = std::max(inserted_, pos);
}

std::uint32_t common_prefix_length(const std::uint8_t* a, const std::uint8_t* b, std::uint32_t limit) {
    std::uint32_t n = 0;
    while (n + 8 <= limit) {
        std::uint64_t x, y;
        std::memcpy(&x, a + n, 8);
        std::memcpy(&y, b + n, 8);
        if (x != y) return n + static_cast<std::uint32_t>(__builtin_ctzll(x ^ y) / 8);
        n += 8;
    }
    while (n < limit && a[n] == b[n]) ++n;
    return n;
}

std::uint32_t MatchFinder::limit_at(std::size_t pos) const {
    return pos >= size_ ? 0 : static_cast<std::uint32_t>(std::min<std::size_t>(size_ - pos, max_match));
}

bool MatchFinder::tail_occurs(std::size_t pos, std::uint32_t need) {
    const std::size_t shift = need - min_match;
    const std::size_t tail = pos + shift;
    insert_until(tail);
    const std::size_t window_start = pos > max_distance ? pos - max_distance : 0;
    for (std::int32_t qi = head_[hash_at(tail)]; qi >= 0 && static_cast<std::size_t>(qi) >= window_start + shift;
         qi = prev(static_cast<std::size_t>(qi))) {
        const auto q = static_cast<std::size_t>(qi);
        if (data_[q] == data_[tail] && data_[q + 1] == data_[tail + 1] && data_[q + 2] == data_[tail + 2])
            return true;
    }
    return false;
}

Match MatchFinder::longest_oldest(std::size_t pos, std::uint32_t at_least) {
    const std::uint32_t limit = limit_at(pos);
    if (limit < min_match || at_least >= limit) return {};
    const std::uint32_t need = std::max(at_least, min_match - 1) + 1;
    if (need > min_match && !tail_occurs(pos, need)) return {};
    insert_until(pos);
    // Chains run newest to oldest but the oldest must win ties: gather the candidates, then
    // scan them oldest first, stopping at the first match of the greatest possible length
    // (the oldest such).
    const std::uint8_t* here = data_ + pos;
    auto word_at = [](const std::uint8_t* p) { return endian::load_native<std::uint32_t>(p); };
    auto word8_at = [](const std::uint8_t* p) { return endian::load_native<std::uint64_t>(p); };
    std::size_t count = 0;
    if (need > min_match) {
        // A look-ahead search: only candidates reaching `need` bytes matter, and the 8 (or 4)
        // bytes ending at index need - 1 already rule out most of them.
        if (need >= 8) {
            const std::uint64_t target = word8_at(here + need - 8);
            walk_candidates(pos, [&](std::size_t q) {
                if (word8_at(data_ + q + need - 8) == target) candidates_[count++] = static_cast<std::int32_t>(q);
            });
        } else {
            const std::uint32_t target = word_at(here + need - 4);
            walk_candidates(pos, [&](std::size_t q) {
                if (word_at(data_ + q + need - 4) == target) candidates_[count++] = static_cast<std::int32_t>(q);
            });
        }
    } else {
        walk_candidates(pos, [&](std::size_t q) { candidates_[count++] = static_cast<std::int32_t>(q); });
    }
    // A candidate can beat best_len only if it agrees on the bytes up to that length: the
    // filters test byte 2 while nothing is found, then the 4 bytes ending at index best_len,
    // then (from best_len 7 on) the 8 bytes ending there and the first 8.
    Match best;
    std::uint32_t best_len = need - 1;
    auto take = [&](std::size_t q, std::uint32_t len) {
        best_len = len;
        best = {len, static_cast<std::uint32_t>(pos - q)};
    };
    if (best_len < min_match) {
        while (count > 0) {
            const auto q = static_cast<std::size_t>(candidates_[--count]);
            if (data_[q + 2] != here[2]) continue;
            const std::uint32_t len = match_length(q, pos, limit);
            if (len > best_len) {
                take(q, len);
                break;
            }
        }
        if (best_len < min_match || best_len == limit) return best;
    }
    // In periodic data most candidates that agree near best_len differ earlier: the 8-byte
    // filters halve the mispredicted early exits of match_length.
    std::uint32_t target4 = word_at(here + best_len - 3);
    while (best_len < 7 && count > 0) {
        const auto q = static_cast<std::size_t>(candidates_[--count]);
        if (word_at(data_ + q + best_len - 3) != target4) continue;
        const std::uint32_t len = match_length(q, pos, limit);
        if (len > best_len) {
            take(q, len);
            if (len == limit) return best;
            target4 = word_at(here + best_len - 3);
        }
    }
    if (best_len < 7) return best;
    std::uint64_t target8 = word8_at(here + best_len - 7);
    while (count > 0) {
        const auto q = static_cast<std::size_t>(candidates_[--count]);
        if (word8_at(data_ + q + best_len - 7) != target8) continue;
        if (word8_at(data_ + q) != word8_at(here)) continue;
        const std::uint32_t len = match_length(q, pos, limit);
        if (len > best_len) {
            take(q, len);
            if (len == limit) break;
            target8 = word8_at(here + best_len - 7);
        }
    }
    return best;
}

}  // namespace mod::yay0::detail
