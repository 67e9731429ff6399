#pragma once
// In-memory images: RGBA8 (interleaved r,g,b,a, rows top to bottom) and paletted (one index
// byte per pixel and a palette of RGBA8 colours).

#include "libmod/core/bytes.hpp"

#include <cstdint>
#include <vector>

namespace mod::image {

struct Rgba8 {
    std::uint8_t r = 0, g = 0, b = 0, a = 255;
    friend bool operator==(const Rgba8&, const Rgba8&) = default;
};

struct RgbaImage {
    std::uint32_t width = 0, height = 0;
    Bytes pixels;  // 4 × width × height bytes

    Rgba8 at(std::size_t i) const noexcept {
        return {pixels[4 * i], pixels[4 * i + 1], pixels[4 * i + 2], pixels[4 * i + 3]};
    }
    std::uint64_t pixel_count() const noexcept { return std::uint64_t(width) * height; }
    // Usage error unless pixels holds exactly 4 × width × height bytes.
    void check() const;
    friend bool operator==(const RgbaImage&, const RgbaImage&) = default;
};

struct PalettedImage {
    std::uint32_t width = 0, height = 0;
    std::vector<Rgba8> palette;  // 1..256 entries
    Bytes indices;               // width × height bytes, each < palette.size()

    // Usage error unless the sizes agree and every index is inside the palette.
    void check() const;
    // The RGBA8 image the indices and palette describe.
    RgbaImage to_rgba() const;
    friend bool operator==(const PalettedImage&, const PalettedImage&) = default;
};

}  // namespace mod::image
