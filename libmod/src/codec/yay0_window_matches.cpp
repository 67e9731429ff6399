// Longest previous factor within a sliding window, via a suffix array.
//
// Among the suffixes starting in the window [i - 0x1000, i), the one sharing the longest
// prefix with suffix i is adjacent to i in suffix-array order among the window's members
// (the common prefix of two suffixes is the minimum over the suffix-array range between
// them). So keep the window's members as a set of suffix ranks, ask for the nearest member
// below and above rank(i), and compare bytes against those two only. Nothing is approximate:
// the result is the exact longest match at every position, whatever the data.

#include "codec/yay0_window_matches.hpp"

#include "libmod/codec/yay0.hpp"
#include "libmod/core/error.hpp"

#include <divsufsort.h>

#include <algorithm>
#include <bit>
#include <cstring>

namespace mod::yay0::detail {

namespace {

// A set of integers in [0, n) with O(log64 n) insert, erase, predecessor and successor:
// a bitset with summary levels (bit k of a summary word is set when word k below is non-zero).
class RankSet {
public:
    explicit RankSet(std::size_t n) {
        std::size_t size = n;
        do {
            size = (size + 63) / 64;
            levels_.emplace_back(size, 0);
        } while (size > 1);
    }

    void insert(std::size_t v) {
        for (auto& level : levels_) {
            std::uint64_t& word = level[v / 64];
            bool was_empty = word == 0;
            word |= std::uint64_t(1) << (v % 64);
            if (!was_empty) return;
            v /= 64;
        }
    }

    void erase(std::size_t v) {
        for (auto& level : levels_) {
            std::uint64_t& word = level[v / 64];
            word &= ~(std::uint64_t(1) << (v % 64));
            if (word != 0) return;
            v /= 64;
        }
    }

    // Largest member < v, or -1.
    std::int64_t predecessor(std::size_t v) const {
        std::size_t level = 0;
        std::size_t index = v;
        // Climb until a word holds a member below the current index.
        for (;; ++level) {
            if (level == levels_.size()) return -1;
            std::uint64_t below = levels_[level][index / 64] & ((std::uint64_t(1) << (index % 64)) - 1);
            if (below) {
                index = (index / 64) * 64 + (63 - static_cast<std::size_t>(std::countl_zero(below)));
                break;
            }
            index /= 64;
        }
        // Descend taking the highest member each time.
        while (level-- > 0) {
            std::uint64_t word = levels_[level][index];
            index = index * 64 + (63 - static_cast<std::size_t>(std::countl_zero(word)));
        }
        return static_cast<std::int64_t>(index);
    }

    // Smallest member > v, or -1.
    std::int64_t successor(std::size_t v) const {
        std::size_t level = 0;
        std::size_t index = v;
        for (;; ++level) {
            if (level == levels_.size()) return -1;
            std::size_t bit = index % 64;
            std::uint64_t above = bit == 63 ? 0 : levels_[level][index / 64] & (~std::uint64_t(0) << (bit + 1));
            if (above) {
                index = (index / 64) * 64 + static_cast<std::size_t>(std::countr_zero(above));
                break;
            }
            index /= 64;
        }
        while (level-- > 0) {
            std::uint64_t word = levels_[level][index];
            index = index * 64 + static_cast<std::size_t>(std::countr_zero(word));
        }
        return static_cast<std::int64_t>(index);
    }

private:
    std::vector<std::vector<std::uint64_t>> levels_;
};

}  // namespace

std::vector<Match> longest_matches_everywhere(std::span<const std::uint8_t> data) {
    const std::size_t n = data.size();
    std::vector<Match> result(n);
    if (n < min_match) return result;
    if (n > static_cast<std::size_t>(INT32_MAX))
        throw Error(ErrorKind::limit, "input too large for the optimal Yay0 parse");
    std::vector<saidx_t> sa(n);
    if (divsufsort(data.data(), sa.data(), static_cast<saidx_t>(n)) != 0)
        throw Error(ErrorKind::limit, "suffix sorting failed (out of memory?)");
    std::vector<std::uint32_t> rank(n);
    for (std::size_t r = 0; r < n; ++r) rank[static_cast<std::size_t>(sa[r])] = static_cast<std::uint32_t>(r);

    RankSet window(n);
    const std::uint8_t* d = data.data();
    for (std::size_t i = 1; i < n; ++i) {
        window.insert(rank[i - 1]);
        if (i > max_distance) window.erase(rank[i - 1 - max_distance]);
        const auto limit = static_cast<std::uint32_t>(std::min<std::size_t>(n - i, max_match));
        if (limit < min_match) continue;
        Match best;
        for (std::int64_t neighbour : {window.predecessor(rank[i]), window.successor(rank[i])}) {
            if (neighbour < 0) continue;
            auto j = static_cast<std::size_t>(sa[static_cast<std::size_t>(neighbour)]);
            std::uint32_t len = common_prefix_length(d + j, d + i, limit);
            if (len >= min_match && len > best.length) best = {len, static_cast<std::uint32_t>(i - j)};
        }
        result[i] = best;
    }
    return result;
}

}  // namespace mod::yay0::detail
