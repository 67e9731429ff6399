#pragma once
// Colour maths: sRGB ↔ linear light ↔ Oklab, the colour difference used in reports, HSV, and
// the RGBA5551 lattice palettes are snapped to.
//
// ΔE here is the Euclidean distance in Oklab (Björn Ottosson, 2020) scaled by 100, so that
// 1.0 is roughly a just-noticeable difference for neighbouring flat colours (Oklab's own
// JND is about 0.01). It ignores alpha; callers treat transparent texels separately.

#include "libmod/image/image.hpp"

#include <cstdint>

namespace mod::image {

struct Oklab {
    double L = 0, a = 0, b = 0;
    friend bool operator==(const Oklab&, const Oklab&) = default;
};

// sRGB transfer function on [0, 1] and its inverse.
double srgb_to_linear(double encoded) noexcept;
double linear_to_srgb(double linear) noexcept;
// 8-bit sRGB channel to linear light (table lookup, exact for all 256 values).
double srgb8_to_linear(std::uint8_t value) noexcept;

Oklab linear_to_oklab(double r, double g, double b) noexcept;
void oklab_to_linear(const Oklab& lab, double& r, double& g, double& b) noexcept;
Oklab to_oklab(Rgba8 colour) noexcept;  // alpha ignored
// Nearest 8-bit sRGB colour (channels clamped to [0, 1] in linear light) with the given alpha.
Rgba8 from_oklab(const Oklab& lab, std::uint8_t alpha = 255) noexcept;

double delta_e(const Oklab& x, const Oklab& y) noexcept;
double delta_e(Rgba8 x, Rgba8 y) noexcept;

// CIE 1976 L*a*b* (D65 white, sRGB primaries: IEC 61966-2-1 matrix) and the CIEDE2000 colour
// difference (Sharma, Wu & Dalal 2005, kL = kC = kH = 1). Used to compare quantisers with the
// measure the literature uses; the quantiser itself works in Oklab.
struct CieLab {
    double L = 0, a = 0, b = 0;
};
CieLab to_cielab(Rgba8 colour) noexcept;  // alpha ignored
double ciede2000(const CieLab& x, const CieLab& y) noexcept;

// RGBA5551 (rrrrrgggggbbbbba). Expansion by bit replication (v << 3 | v >> 2), encoding to the
// nearest level (ties low) and alpha bit = a >= 128: the same rule as mod::n64's texel codec
// (libmod/n64/texel.hpp), repeated here because the image layer does not depend on n64.
Rgba8 from_rgba5551(std::uint16_t value) noexcept;
std::uint16_t to_rgba5551(Rgba8 colour) noexcept;
// The colour snapped to the lattice: from_rgba5551(to_rgba5551(c)).
Rgba8 snap_rgba5551(Rgba8 colour) noexcept;

struct Hsv {
    double h = 0;  // degrees, [0, 360)
    double s = 0;  // [0, 1]
    double v = 0;  // [0, 1]
};
// HSV of the 8-bit sRGB values (no linearisation: what paint programs show).
Hsv to_hsv(Rgba8 colour) noexcept;
Rgba8 from_hsv(const Hsv& hsv, std::uint8_t alpha = 255) noexcept;

}  // namespace mod::image
