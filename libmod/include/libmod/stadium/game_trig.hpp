#pragma once
// The game's sine and cosine of a binary angle (65536 = 360°), as every bone, 0x20 node and
// animation pose reaches them: SINS(x) = gSineTable[(u16)x >> 4], COSS(x) = gCosineTable[(u16)x >> 4]
// [pret/pokestadium 756f7e3, include/math.h:30-31]. The table has 4096 f32 entries per turn, so
// an angle is truncated to a multiple of 16 units (0.088°) before the look-up.
//
// The table's values are not copied: entry i is computed as (float) sin(2πi / 4096) in double
// precision, with exact zeros at i = 0 and 2048 (the decomp's table holds 0.0 there, where the
// double sine of π is 1.2e-16). Checked against the decomp's include/trig_tables.inc.c: every
// one of the 4096 entries SINS can reach (gSineTable's 1024 and the gCosineTable it runs into,
// symbol_addrs.txt: 0x800697F0 + 0x1000 = 0x8006A7F0) equals this formula bit for bit, and
// gCosineTable[i] = SINS-entry (i + 1024) mod 4096 for all i, so COSS(x) = SINS(x + 0x4000).
// Spec: doc/formats/stadium-model.md "Bone matrices". tests/stadium/test_game_order.cpp checks
// cited entries.

#include <cstdint>

namespace mod::stadium {

inline constexpr unsigned game_sine_entries = 4096;

// Entry i (0..4095) of the game's sine table: (float) sin(2πi / 4096), 0 at i = 0 and 2048.
float game_sine_entry(unsigned i) noexcept;
// SINS / COSS of a binary angle (any s16/u16 value: only the low 16 bits count).
float game_sins(std::int32_t angle) noexcept;
float game_coss(std::int32_t angle) noexcept;

}  // namespace mod::stadium
