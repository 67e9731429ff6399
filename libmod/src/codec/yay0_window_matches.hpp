#pragma once
// The longest Yay0 match at every position of an input, exactly, in near-linear time: the
// basis of the optimal parse. Internal to the codec layer.

#include "codec/yay0_match.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace mod::yay0::detail {

// result[i] = the longest match at i (length 0 when under 3 bytes; lengths capped at
// min(0x111, bytes left); distance 1..0x1000). On equally long candidates the one nearer in
// suffix order below i wins, then the one above: deterministic.
std::vector<Match> longest_matches_everywhere(std::span<const std::uint8_t> data);

}  // namespace mod::yay0::detail
