#pragma once
// Internal to the BITMAP codec (bitmap_gc.cpp, bitmap_ps2.cpp, bitmap_edit.cpp).
#include "libmod/totem/bitmap.hpp"

namespace mod::totem {

namespace detail_bitmap {
struct GxTile {
    unsigned w = 0, h = 0, bits = 0;  // 0 for a code without GX tiles
};
GxTile gx_tile(std::uint8_t format) noexcept;
}  // namespace detail_bitmap

// Stored pixel bytes under hypothesis totem-ps2-bitmap/1 (format error for an unknown code).
std::uint64_t ps2_pixel_bytes(std::uint8_t format, std::uint64_t w, std::uint64_t h);
image::RgbaImage decode_gc_pixels(const Bitmap& b, Endian e);
image::RgbaImage decode_ps2_pixels(const Bitmap& b);
// Palette entry i as RGBA8 / as stored (16 or 32 bits; PS2 entries as big-endian R,G,B,A).
image::Rgba8 palette_entry(const Bitmap& b, Endian e, std::size_t i);
std::uint32_t palette_raw(const Bitmap& b, Endian e, std::size_t i);
// PS2 CLUT order for C8 (hypothesis): entries 8-15 and 16-23 of every 32 swapped.
inline unsigned ps2_clut_slot(unsigned index) noexcept {
    return (index & ~0x18u) | ((index & 0x08u) << 1) | ((index & 0x10u) >> 1);
}

}  // namespace mod::totem
