#pragma once
// Private helpers shared by animation.cpp (decoding) and animation_sample.cpp (sampling).
#include "libmod/stadium/animation.hpp"

namespace mod::stadium::detail {

// Whether descriptor `d` stores component `c` as wide (8-byte) Hermite keys.
inline bool wide_keys(const AnimationDescriptor& d, Component c) {
    return d.interp & (c == Component::scale ? interp_flag::wide_scale
                       : c == Component::rotation ? interp_flag::wide_rotation
                                                  : interp_flag::wide_translation);
}

// The n keys at element `off` of `arr` (the decoder made sure arr.words holds them).
inline std::vector<HermiteKey> keys_of(const AnimationArray& arr, std::uint32_t off, unsigned n, bool wide) {
    std::vector<HermiteKey> k(n);
    const unsigned size = wide ? 4 : 3;
    for (unsigned i = 0; i < n; ++i) {
        const std::size_t at = off + std::size_t(i) * size;
        k[i].frame = std::int16_t(arr.words[at]);
        k[i].value = std::int16_t(arr.words[at + 1]);
        k[i].in_tangent = std::int16_t(arr.words[at + 2]);
        k[i].out_tangent = std::int16_t(arr.words[at + (wide ? 3 : 2)]);
    }
    return k;
}

}  // namespace mod::stadium::detail
