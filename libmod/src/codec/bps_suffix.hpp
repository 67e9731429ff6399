#pragma once
// Longest-match search in a BPS source through its suffix array (libdivsufsort), for the
// encoder in bps_create.cpp (doc/formats/bps.md §4). Internal header.
#include "libmod/core/bytes.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace mod::bps::detail {

std::size_t match_length(const std::uint8_t* a, const std::uint8_t* b, std::size_t limit) noexcept;

struct SourceMatch {
    std::size_t from = 0;    // source position
    std::size_t length = 0;  // 0: none
};

class SourceSuffixes {
public:
    // Sorts every suffix of `source` (below 2 GiB): 4 bytes per source byte plus a 256 KiB table
    // of where each two-byte prefix starts in the sorted order.
    explicit SourceSuffixes(ByteView source);

    // Source positions whose suffixes share the longest prefixes with pattern[0, length): the
    // sorted neighbours on both sides of the pattern's place in the suffix order, up to
    // `max_out` (longest first on each side, interleaved), each with its common length, none
    // below `min_length`. Returns how many were written. When the longest is above
    // `long_match` bytes only that one is returned (offset costs no longer matter).
    std::size_t neighbours(const std::uint8_t* pattern, std::size_t length, std::size_t min_length, SourceMatch* out,
                           std::size_t max_out) const;

private:
    static constexpr std::size_t long_match = 4096;

    ByteView source_;
    std::unique_ptr<std::int32_t[]> sorted_;  // not zero-filled: divsufsort writes every entry
    std::vector<std::uint32_t> bucket_;  // 65537 entries: first sorted index of each 2-byte prefix
};

}  // namespace mod::bps::detail
