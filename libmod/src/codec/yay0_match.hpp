#pragma once
// Match finding over the Yay0 window (0x1000 bytes back, 3..0x111 bytes long) with hash
// chains on 3-byte prefixes. Internal to the codec layer.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mod::yay0::detail {

struct Match {
    std::uint32_t length = 0;    // 0 when no match of at least 3 bytes exists
    std::uint32_t distance = 0;  // 1..0x1000
};

class MatchFinder {
public:
    MatchFinder(const std::uint8_t* data, std::size_t size);

    // The longest match at `pos`; among equally long ones the oldest (largest distance).
    // `pos` must not decrease between calls.
    Match longest_oldest(std::size_t pos);
    // The longest match at `pos` (any distance; the newest on ties). `pos` must not decrease.
    Match longest(std::size_t pos);

private:
    void insert_until(std::size_t pos);
    std::uint32_t hash_at(std::size_t pos) const;
    std::uint32_t match_length(std::size_t candidate, std::size_t pos, std::uint32_t limit) const;

    const std::uint8_t* data_;
    std::size_t size_;
    std::vector<std::int32_t> head_;
    std::vector<std::int32_t> prev_;
    std::vector<std::int32_t> candidates_;
    std::size_t inserted_ = 0;
};

}  // namespace mod::yay0::detail
