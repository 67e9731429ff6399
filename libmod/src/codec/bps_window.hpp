#pragma once
// Where the BPS encoder searches the source when the edit sits in one place of a large file
// (doc/formats/bps.md §4, "One edited place"): a suffix array of a window around the changed
// bytes, and a sparse index of the whole source for copies from elsewhere. Internal header.
#include "libmod/core/bytes.hpp"

#include <cstdint>
#include <memory>

namespace mod::bps::detail {

// The source range [begin, end) the suffix array covers; `whole` when it is the whole source.
struct SourceWindow {
    std::size_t begin = 0, end = 0;
    bool whole = true;
    std::size_t target_changed = 0;  // how many target bytes lie between the common prefix and suffix
};

// Sources below this size are always searched whole.
inline constexpr std::size_t windowed_from = std::size_t(8) << 20;
// The least room the window keeps on each side of the changed bytes.
inline constexpr std::size_t window_margin = std::size_t(512) << 10;

// The changed bytes are those between the longest common prefix of source and target and their
// longest common suffix (aligned on the files' ends, not overlapping the prefix). The window is
// that range of the source widened on each side by window_margin or four times the larger of
// the changed ranges, whichever is more; the whole source when the source is below
// windowed_from or the window would cover more than half of it. Pure function of the inputs.
SourceWindow search_window(ByteView source, ByteView target) noexcept;

// Every `block`-th position of the source (aligned) by a hash of the `block` bytes there: one
// slot per bucket, the first position inserted kept, so a copy of `block * 2 - 1` bytes or more
// from anywhere in the source is found wherever it starts. 4 bytes per bucket, about one bucket
// per block, at most 2^22 buckets (16 MiB).
class SourceBlocks {
public:
    static constexpr std::size_t block = 32;

    explicit SourceBlocks(ByteView source);
    // A source position whose `block` bytes hash like pattern[0, block) (the caller checks the
    // bytes), or npos. Needs `block` bytes of pattern.
    std::size_t candidate(const std::uint8_t* pattern) const noexcept;

    static constexpr std::size_t npos = ~std::size_t(0);

private:
    std::size_t bucket(const std::uint8_t* p) const noexcept;
    int bucket_bits_ = 10;
    std::unique_ptr<std::uint32_t[]> slots_;  // position + 1; 0: empty
};

}  // namespace mod::bps::detail
