#pragma once
// Private pieces of mod::render shared by its source files (not a public header).

#include "libmod/render/render.hpp"

#include <cstdint>

namespace mod::render::detail {

// Sub-pixel bits of the fixed-point screen coordinates.
inline constexpr int subpixel_bits = 8;
inline constexpr std::int64_t subpixel_one = std::int64_t(1) << subpixel_bits;
// Projected coordinates beyond ±guard (in sub-pixel units, 2^18 pixels) are not rasterised:
// edge-function products then stay below 2^56 and never overflow int64.
inline constexpr std::int64_t guard = std::int64_t(1) << 26;

// A model-space point or direction in view space: (image right, image up, toward the camera).
Vec3 to_view(View view, const Vec3& p) noexcept;

// The orthographic fit of a box to the image (render.hpp "Fit").
struct Projection {
    double scale = 1, ca = 0, cb = 0;  // pixels per unit; centre of the box on the image axes
    double half_width = 0, half_height = 0;
};
Projection fit_projection(const Box& box, View view, std::uint32_t width, std::uint32_t height);

// A projected vertex: fixed-point pixel coordinates (sub-pixel units), depth (larger = nearer).
struct ScreenVertex {
    std::int64_t x = 0, y = 0;
    double depth = 0;
    bool valid = false;  // finite and inside the guard band
};
ScreenVertex project(const Projection& projection, View view, const Vec3& p) noexcept;

// ---- texture sampling (texture_sample.cpp) ----
// The texel index along one axis for the continuous texel coordinate `t` (coordinate × size).
std::uint32_t wrap_index(double t, std::uint32_t size, scene::TextureWrap wrap) noexcept;
// Whether the texture can be sampled (non-zero size, rgba holding exactly 4 × w × h bytes).
bool usable(const scene::MaterialTexture& texture) noexcept;
// Nearest texel at uv0 (V up), wrapped per axis. `texture` must be usable.
image::Rgba8 sample_nearest(const scene::MaterialTexture& texture, double u, double v) noexcept;

// ---- colour (shade.cpp) ----
// 8-bit sRGB of a linear value (clamped to [0, 1], rounded).
std::uint8_t linear_to_srgb8(double linear) noexcept;
// Lambert factor for a view-space normal (any length, not zero; turned toward the camera).
double lambert(Vec3 normal) noexcept;

}  // namespace mod::render::detail
