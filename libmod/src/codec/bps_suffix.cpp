// Suffix-array match search for the BPS encoder (doc/formats/bps.md §4).
#include "bps_suffix.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/core/error.hpp"

#include <divsufsort.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

namespace mod::bps::detail {

std::size_t match_length(const std::uint8_t* a, const std::uint8_t* b, std::size_t limit) noexcept {
    std::size_t n = 0;
    while (n + 8 <= limit) {
        std::uint64_t x, y;
        std::memcpy(&x, a + n, 8);
        std::memcpy(&y, b + n, 8);
        if (x != y)
            return n + static_cast<std::size_t>(
                           std::countr_zero(endian::host_is_little ? x ^ y : endian::bswap64(x ^ y)) / 8);
        n += 8;
    }
    while (n < limit && a[n] == b[n]) ++n;
    return n;
}

namespace {

std::uint32_t prefix2(const std::uint8_t* p, std::size_t room) noexcept {
    // A one-byte suffix sorts first among the suffixes starting with its byte, as (byte, 0) does.
    return (std::uint32_t(p[0]) << 8) | (room > 1 ? p[1] : 0u);
}

}  // namespace

SourceSuffixes::SourceSuffixes(ByteView source) : source_(source) {
    const std::size_t n = source.size();
    if (n > std::size_t(std::numeric_limits<std::int32_t>::max()))
        throw Error(ErrorKind::limit, "BPS creation handles sources below 2 GiB (use a zstd patch for larger ones)");
    sorted_.reset(new std::int32_t[std::max<std::size_t>(n, 1)]);
    if (n > 0 && divsufsort(source.data(), sorted_.get(), static_cast<saidx_t>(n)) != 0)
        throw Error(ErrorKind::limit, "not enough memory to sort the BPS source");
    // Two-byte prefix counts, in four interleaved tables: runs of one prefix (zero padding) would
    // otherwise make every increment wait for the previous one.
    std::vector<std::uint32_t> counts(4 * 65536, 0);
    const std::uint8_t* p = source.data();
    std::size_t i = 0;
    for (; i + 4 < n; i += 4) {
        ++counts[(std::uint32_t(p[i]) << 8 | p[i + 1])];
        ++counts[65536 + (std::uint32_t(p[i + 1]) << 8 | p[i + 2])];
        ++counts[2 * 65536 + (std::uint32_t(p[i + 2]) << 8 | p[i + 3])];
        ++counts[3 * 65536 + (std::uint32_t(p[i + 3]) << 8 | p[i + 4])];
    }
    for (; i < n; ++i) ++counts[prefix2(p + i, n - i)];
    bucket_.assign(65537, 0);
    for (std::size_t k = 0; k < 65536; ++k)
        bucket_[k + 1] = bucket_[k] + counts[k] + counts[65536 + k] + counts[2 * 65536 + k] + counts[3 * 65536 + k];
}

std::size_t SourceSuffixes::neighbours(const std::uint8_t* pattern, std::size_t length, std::size_t min_length,
                                       SourceMatch* out, std::size_t max_out) const {
    const std::size_t n = source_.size();
    min_length = std::max<std::size_t>(min_length, 2);
    if (length < min_length || n < 2 || max_out == 0) return 0;
    const std::uint32_t key = prefix2(pattern, length);
    const std::size_t lo = bucket_[key], hi = bucket_[key + 1];
    if (lo == hi) return 0;
    const std::uint8_t* src = source_.data();
    // Common prefix of the pattern and the suffix at sorted index `index`, comparing from
    // `known` (already known to match) up to `cap`.
    auto lcp_at = [&](std::size_t index, std::size_t known, std::size_t cap) {
        const std::size_t s = static_cast<std::size_t>(sorted_[index]);
        const std::size_t limit = std::min({length, n - s, cap});
        return known >= limit ? limit : known + match_length(src + s + known, pattern + known, limit - known);
    };
    // Binary search for the first suffix >= pattern in [lo, hi); lcp_l / lcp_r are the common
    // prefix lengths with the suffixes just outside the range, so comparisons start past them.
    std::size_t left = lo, right = hi, lcp_l = 0, lcp_r = 0;
    while (left < right) {
        const std::size_t mid = left + (right - left) / 2;
        const std::size_t s = static_cast<std::size_t>(sorted_[mid]);
        const std::size_t k = lcp_at(mid, std::min(lcp_l, lcp_r), length);
        const bool suffix_less = k < length && (s + k == n || src[s + k] < pattern[k]);
        if (suffix_less) {
            left = mid + 1;
            lcp_l = k;
        } else {
            right = mid;
            lcp_r = k;
        }
    }
    // The common length only falls moving away from the insertion point, so each side's
    // previous length caps the next comparison.
    std::size_t below = left, above = left;  // next candidates: below - 1, above
    std::size_t cap_below = length, cap_above = length;
    std::size_t count = 0;
    auto take_below = [&] {
        const std::size_t l = below > lo ? lcp_at(below - 1, 0, cap_below) : 0;
        if (l < min_length) { below = lo; return false; }
        out[count++] = {static_cast<std::size_t>(sorted_[--below]), l};
        cap_below = l;
        return true;
    };
    auto take_above = [&] {
        const std::size_t l = above < hi ? lcp_at(above, 0, cap_above) : 0;
        if (l < min_length) { above = hi; return false; }
        out[count++] = {static_cast<std::size_t>(sorted_[above++]), l};
        cap_above = l;
        return true;
    };
    bool more_below = take_below();
    bool more_above = count < max_out && take_above();
    if (count == 0) return 0;
    const std::size_t first = count == 2 && out[1].length > out[0].length ? 1 : 0;
    if (out[first].length > long_match) {
        out[0] = out[first];
        return 1;
    }
    while (count < max_out && (more_below || more_above)) {
        if (more_below) more_below = take_below();
        if (count < max_out && more_above) more_above = take_above();
    }
    return count;
}

}  // namespace mod::bps::detail
