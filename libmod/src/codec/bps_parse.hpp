#pragma once
// The delta parse behind BPS creation, shared with the VCDIFF encoder (vcdiff_create.cpp):
// the same matches, written in each format's own terms. Internal header.
#include "libmod/codec/bps.hpp"

#include <cstdint>
#include <functional>

namespace mod::bps::detail {

// One step of the parse, in target order. `from` is the target position for source_read and
// target_read (literals: target[from, from + length)), the source position for source_copy and
// the earlier target position for target_copy (which may overlap the bytes it writes).
struct DeltaOp {
    Action kind = Action::target_read;
    std::size_t length = 0;  // > 0
    std::size_t from = 0;
};
using OpSink = std::function<void(const DeltaOp&)>;

// Parses `target` against `source` (bps::create's parse, doc/formats/bps.md §4) and calls `sink`
// once per step; the steps cover the target exactly once, in order. Deterministic.
void parse_delta(ByteView source, ByteView target, std::size_t min_match, const OpSink& sink);

}  // namespace mod::bps::detail
