// Size checks and palette expansion for the in-memory image types.
#include "libmod/image/image.hpp"

#include "libmod/core/error.hpp"

#include <string>

namespace mod::image {

void RgbaImage::check() const {
    if (pixels.size() != pixel_count() * 4)
        throw Error(ErrorKind::usage, "RGBA image " + std::to_string(width) + "x" + std::to_string(height) +
                                          " holds " + std::to_string(pixels.size()) + " bytes");
}

void PalettedImage::check() const {
    if (palette.empty() || palette.size() > 256)
        throw Error(ErrorKind::usage, "palette of " + std::to_string(palette.size()) + " entries (1..256)");
    if (indices.size() != std::uint64_t(width) * height)
        throw Error(ErrorKind::usage, "paletted image " + std::to_string(width) + "x" + std::to_string(height) +
                                          " holds " + std::to_string(indices.size()) + " indices");
    for (std::size_t i = 0; i < indices.size(); ++i)
        if (indices[i] >= palette.size())
            throw Error(ErrorKind::usage, "pixel " + std::to_string(i) + " uses palette entry " +
                                              std::to_string(indices[i]) + " of " + std::to_string(palette.size()));
}

RgbaImage PalettedImage::to_rgba() const {
    check();
    RgbaImage out{width, height, Bytes(indices.size() * 4)};
    for (std::size_t i = 0; i < indices.size(); ++i) {
        const Rgba8& c = palette[indices[i]];
        out.pixels[4 * i] = c.r;
        out.pixels[4 * i + 1] = c.g;
        out.pixels[4 * i + 2] = c.b;
        out.pixels[4 * i + 3] = c.a;
    }
    return out;
}

}  // namespace mod::image
