// Nearest-neighbour texture sampling with the glTF wrap modes (render.hpp, "texel").
#include "detail.hpp"

#include <cmath>

namespace mod::render::detail {

std::uint32_t wrap_index(double t, std::uint32_t size, scene::TextureWrap wrap) noexcept {
    if (size == 0 || !std::isfinite(t)) return 0;
    const double i = std::floor(t);  // an integer, exact in double
    const double n = double(size);
    switch (wrap) {
    case scene::TextureWrap::repeat: {
        double m = std::fmod(i, n);  // exact for integers
        if (m < 0) m += n;
        return static_cast<std::uint32_t>(m);
    }
    case scene::TextureWrap::mirrored_repeat: {
        double m = std::fmod(i, 2 * n);
        if (m < 0) m += 2 * n;
        if (m >= n) m = 2 * n - 1 - m;
        return static_cast<std::uint32_t>(m);
    }
    case scene::TextureWrap::clamp_to_edge:
        if (i <= 0) return 0;
        if (i >= n - 1) return size - 1;
        return static_cast<std::uint32_t>(i);
    }
    return 0;
}

bool usable(const scene::MaterialTexture& texture) noexcept {
    if (texture.width == 0 || texture.height == 0 || texture.rgba.size() % 4 != 0) return false;
    const std::size_t texels = texture.rgba.size() / 4;  // no product of the sizes: it may overflow
    return texels % texture.width == 0 && texels / texture.width == texture.height;
}

image::Rgba8 sample_nearest(const scene::MaterialTexture& texture, double u, double v) noexcept {
    const std::uint32_t col = wrap_index(u * texture.width, texture.width, texture.wrap_s);
    const std::uint32_t row = wrap_index((1.0 - v) * texture.height, texture.height, texture.wrap_t);
    const std::size_t at = 4 * (std::size_t(row) * texture.width + col);
    return {texture.rgba[at], texture.rgba[at + 1], texture.rgba[at + 2], texture.rgba[at + 3]};
}

}  // namespace mod::render::detail
