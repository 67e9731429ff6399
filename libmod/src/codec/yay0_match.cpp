#include "codec/yay0_match.hpp"

#include "libmod/codec/yay0.hpp"
#include "libmod/core/endian.hpp"

#include <algorithm>
#include <cstring>

namespace mod::yay0::detail {

namespace {
constexpr int hash_bits = 16;
}

MatchFinder::MatchFinder(const std::uint8_t* data, std::size_t size)
    : data_(data), size_(size), head_(std::size_t(1) << hash_bits, -1), prev_(size) {
    candidates_.reserve(max_distance);
}

std::uint32_t MatchFinder::hash_at(std::size_t pos) const {
    std::uint32_t v = (std::uint32_t(data_[pos]) << 16) | (std::uint32_t(data_[pos + 1]) << 8) |
                      data_[pos + 2];
    return (v * 2654435761u) >> (32 - hash_bits);
}

void MatchFinder::insert_until(std::size_t pos) {
    std::size_t end = std::min(pos, size_ >= 3 ? size_ - 2 : 0);
    for (; inserted_ < end; ++inserted_) {
        auto h = hash_at(inserted_);
        prev_[inserted_] = head_[h];
        head_[h] = static_cast<std::int32_t>(inserted_);
    }
    if (inserted_ < pos) inserted_ = pos;
}

std::uint32_t MatchFinder::match_length(std::size_t candidate, std::size_t pos, std::uint32_t limit) const {
    const std::uint8_t* a = data_ + candidate;
    const std::uint8_t* b = data_ + pos;
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

Match MatchFinder::longest_oldest(std::size_t pos) {
    if (pos >= size_ || size_ - pos < min_match) return {};
    const auto limit = static_cast<std::uint32_t>(std::min<std::size_t>(size_ - pos, max_match));
    insert_until(pos);
    const std::size_t window_start = pos > max_distance ? pos - max_distance : 0;
    // The chains run newest to oldest; the oldest candidate must win ties, so gather the
    // window's candidates first and scan them oldest first (stopping at the longest possible
    // match, which then is the oldest such).
    candidates_.clear();
    for (std::int32_t q = head_[hash_at(pos)]; q >= 0 && static_cast<std::size_t>(q) >= window_start;
         q = prev_[static_cast<std::size_t>(q)])
        candidates_.push_back(q);
    Match best;
    std::uint32_t best_len = min_match - 1;
    for (auto it = candidates_.rbegin(); it != candidates_.rend(); ++it) {
        auto q = static_cast<std::size_t>(*it);
        if (data_[q + best_len] != data_[pos + best_len]) continue;
        std::uint32_t len = match_length(q, pos, limit);
        if (len > best_len) {
            best_len = len;
            best = {len, static_cast<std::uint32_t>(pos - q)};
            if (len == limit) break;
        }
    }
    return best;
}

Match MatchFinder::longest(std::size_t pos) {
    if (pos >= size_ || size_ - pos < min_match) return {};
    const auto limit = static_cast<std::uint32_t>(std::min<std::size_t>(size_ - pos, max_match));
    insert_until(pos);
    const std::size_t window_start = pos > max_distance ? pos - max_distance : 0;
    Match best;
    std::uint32_t best_len = min_match - 1;
    for (std::int32_t qi = head_[hash_at(pos)]; qi >= 0 && static_cast<std::size_t>(qi) >= window_start;
         qi = prev_[static_cast<std::size_t>(qi)]) {
        auto q = static_cast<std::size_t>(qi);
        if (data_[q + best_len] != data_[pos + best_len]) continue;
        std::uint32_t len = match_length(q, pos, limit);
        if (len > best_len) {
            best_len = len;
            best = {len, static_cast<std::uint32_t>(pos - q)};
            if (len == limit) break;
        }
    }
    return best;
}

}  // namespace mod::yay0::detail
