#pragma once
// Deterministic synthetic payloads for demos, tests and benchmarks: data shaped like what the
// games store (runs of padding, 16-bit texels with gradients, repeated vertex records, MIPS-like
// words), so compressors see realistic structure. Same seed and size, same bytes.

#include "libmod/core/bytes.hpp"

#include <cstdint>

namespace mod::sample {

Bytes synthetic_payload(std::size_t size, std::uint64_t seed);

}  // namespace mod::sample
