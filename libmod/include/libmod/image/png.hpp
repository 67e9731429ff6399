#pragma once
// PNG input and output through libpng.
//
// Reading is bounded (dimensions and pixel count checked before any pixel buffer is
// allocated) and strict: libpng's errors (bad signature, CRC of a critical chunk, truncated
// data, missing IEND) become mod::Error (format) naming the file. Writing is deterministic:
// no time stamp or text chunks, fixed filter and compression settings.

#include "libmod/image/image.hpp"

#include <optional>
#include <string>

namespace mod::image {

struct PngLimits {
    std::uint32_t max_dimension = 16384;
    std::uint64_t max_pixels = 1ull << 26;
};

// Any PNG (grey, grey+alpha, RGB, RGBA, paletted; 1..16 bits; interlaced or not) as RGBA8:
// palette and tRNS applied, 16-bit channels scaled to 8, missing alpha = 255.
RgbaImage read_png(ByteView data, const std::string& file = {}, const PngLimits& limits = {});

// A paletted PNG as stored: one index per pixel (1/2/4-bit depths unpacked) and the PLTE
// colours with their tRNS alpha (255 where tRNS is absent or short). nullopt when the PNG is
// not paletted. Format error when a pixel uses an index beyond the palette.
std::optional<PalettedImage> read_png_paletted(ByteView data, const std::string& file = {},
                                               const PngLimits& limits = {});

// RGBA8 PNG (colour type 6, 8 bits).
Bytes write_png(const RgbaImage& image);
// Paletted PNG keeping the palette exactly: PLTE with every entry in order, tRNS up to the last
// entry whose alpha is below 255 (omitted when all are opaque), bit depth the smallest of
// 1/2/4/8 that holds the palette size.
Bytes write_png(const PalettedImage& image);

}  // namespace mod::image
