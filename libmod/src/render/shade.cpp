// Colour encoding and the fixed Lambert light (render.hpp, "shade").
#include "detail.hpp"

#include "libmod/image/colour.hpp"

#include <cmath>

namespace mod::render::detail {

std::uint8_t linear_to_srgb8(double linear) noexcept {
    if (!(linear > 0)) return 0;  // also NaN
    if (linear >= 1) return 255;
    return static_cast<std::uint8_t>(std::floor(image::linear_to_srgb(linear) * 255.0 + 0.5));
}

double lambert(Vec3 normal) noexcept {
    const double nx = normal[0], ny = normal[1], nz = normal[2];
    const double length = std::sqrt(nx * nx + ny * ny + nz * nz);
    if (!(length > 0) || !std::isfinite(length)) return 1.0;
    // l = normalise(-1, 1, 2); the normal turned toward the camera (+z in view space).
    const double s = nz < 0 ? -1.0 : 1.0;
    const double dot = s * (-nx + ny + 2 * nz) / (length * std::sqrt(6.0));
    return 0.35 + 0.65 * (dot > 0 ? dot : 0.0);
}

}  // namespace mod::render::detail
