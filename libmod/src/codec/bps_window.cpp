// The BPS encoder's source window and sparse block index (doc/formats/bps.md §4).
#include "bps_window.hpp"

#include "bps_suffix.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace mod::bps::detail {

namespace {

// Common length of a[..n) and b[..n) read from their ends, up to `limit`.
std::size_t common_tail(const std::uint8_t* a_end, const std::uint8_t* b_end, std::size_t limit) noexcept {
    std::size_t n = 0;
    while (n + 8 <= limit) {
        std::uint64_t x, y;
        std::memcpy(&x, a_end - n - 8, 8);
        std::memcpy(&y, b_end - n - 8, 8);
        if (x != y) break;
        n += 8;
    }
    while (n < limit && a_end[-1 - static_cast<std::ptrdiff_t>(n)] == b_end[-1 - static_cast<std::ptrdiff_t>(n)]) ++n;
    return n;
}

}  // namespace

SourceWindow search_window(ByteView source, ByteView target) noexcept {
    const std::size_t n = source.size();
    const SourceWindow whole{0, n, true};
    if (n < windowed_from) return whole;
    const std::size_t shorter = std::min(n, target.size());
    const std::size_t head = match_length(source.data(), target.data(), shorter);
    const std::size_t tail = common_tail(source.data() + n, target.data() + target.size(), shorter - head);
    const std::size_t source_changed = n - tail - head, target_changed = target.size() - tail - head;
    const std::size_t margin = std::max(window_margin, 4 * std::max(source_changed, target_changed));
    const std::size_t begin = head > margin ? head - margin : 0;
    const std::size_t end = n - tail + std::min(margin, tail);
    if (end - begin > n / 2) return whole;
    return {begin, end, false, target_changed};
}

SourceBlocks::SourceBlocks(ByteView source) {
    const std::size_t blocks = source.size() / block;
    bucket_bits_ = static_cast<int>(std::clamp<std::size_t>(std::bit_width(std::max<std::size_t>(blocks, 1) - 1), 10, 22));
    slots_.reset(new std::uint32_t[std::size_t(1) << bucket_bits_]());
    for (std::size_t b = 0; b < blocks; ++b) {
        std::uint32_t& slot = slots_[bucket(source.data() + b * block)];
        if (slot == 0) slot = static_cast<std::uint32_t>(b * block + 1);
    }
}

std::size_t SourceBlocks::bucket(const std::uint8_t* p) const noexcept {
    std::uint64_t h = 0;
    for (std::size_t i = 0; i < block; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    return static_cast<std::size_t>((h * 0xBF58476D1CE4E5B9ull) >> (64 - bucket_bits_));
}

std::size_t SourceBlocks::candidate(const std::uint8_t* pattern) const noexcept {
    const std::uint32_t slot = slots_[bucket(pattern)];
    return slot ? slot - 1 : npos;
}

}  // namespace mod::bps::detail
