#pragma once
// IEEE 754 binary16 <-> binary32 conversion on bits (no floating-point arithmetic, so NaN
// payloads and signed zeros survive). Inline: the preprocessor converts four UVs per vertex.
//
// half_to_float is exact; float_to_half rounds to nearest even, keeps infinities and the top
// 10 bits of a NaN payload (a quiet bit is forced if they are all 0).
// float_to_half(half_to_float(h)) == h for every h.

#include <bit>
#include <cstdint>

namespace mod::shred {

inline float half_to_float(std::uint16_t h) noexcept {
    std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
    std::uint32_t exp = (h >> 10) & 0x1Fu;
    std::uint32_t mant = h & 0x3FFu;
    std::uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else {  // subnormal half: normalise into a float exponent
            int e = -14;
            while (!(mant & 0x400u)) {
                mant <<= 1;
                --e;
            }
            mant &= 0x3FFu;
            bits = sign | (std::uint32_t(e + 127) << 23) | (mant << 13);
        }
    } else if (exp == 31) {
        bits = sign | 0x7F800000u | (mant << 13);
    } else {
        bits = sign | ((exp - 15 + 127) << 23) | (mant << 13);
    }
    return std::bit_cast<float>(bits);
}

inline std::uint16_t float_to_half(float f) noexcept {
    std::uint32_t bits = std::bit_cast<std::uint32_t>(f);
    std::uint32_t sign = (bits >> 16) & 0x8000u;
    // Floats that become normal halves (exponent 113..142), nearly every UV: rebias by
    // subtraction and round to nearest even in one add (a carry into the exponent is right,
    // and from the largest finite half it gives infinity, as it should).
    const std::uint32_t magnitude = bits & 0x7FFFFFFFu;
    if (magnitude - 0x38800000u < 0x47800000u - 0x38800000u)
        return static_cast<std::uint16_t>(
            sign | ((magnitude - 0x38000000u + 0xFFFu + ((magnitude >> 13) & 1u)) >> 13));
    std::int32_t exp = static_cast<std::int32_t>((bits >> 23) & 0xFFu);
    std::uint32_t mant = bits & 0x7FFFFFu;
    if (exp == 255) {
        if (mant == 0) return static_cast<std::uint16_t>(sign | 0x7C00u);
        std::uint32_t m = mant >> 13;
        if (m == 0) m = 0x200;  // payload lost in the low bits: keep it a (quiet) NaN
        return static_cast<std::uint16_t>(sign | 0x7C00u | m);
    }
    // What is left is too large for a half (infinity) or a half subnormal / zero.
    std::int32_t e = exp - 127 + 15;
    if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7C00u);
    if (e < -10) return static_cast<std::uint16_t>(sign);
    mant |= 0x800000u;
    auto shift = static_cast<std::uint32_t>(14 - e);
    std::uint32_t h = mant >> shift;
    std::uint32_t rem = mant & ((1u << shift) - 1);
    std::uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
}

}  // namespace mod::shred
