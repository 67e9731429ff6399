#pragma once
// BITMAP records: header, stored pixels, palette and tail; decoding to RGBA, encoding from RGBA
// in the record's own format, palette recolouring. Spec: doc/formats/totem-bitmap.md.
//
//   +0x00 u32 width   +0x04 u32 height   +0x08 u32 (zero in what Chum World writes; kept)
//   +0x0C u8 format, +0x0D u8 flags        (GameCube; PS2 hypothesis totem-ps2-bitmap/1:
//                                           +0x0C flags (0x40 = GS-swizzled), +0x0D format)
//   +0x0E u8 palette format (1 RGB5A3, 2 RGB565, 3 RGBA8888)   +0x0F u8 alpha level (0, 1, 2)
//   +0x10 u8 unknown   +0x11 u8 "filter" (1..5)
//   +0x12 pixels (GameCube: GX tiles over the size rounded up to whole tiles)
//         palette (C4: 16 entries, C8: 256)   tail (kept verbatim: Chum World writes 0xFFFF
//         palette padding for 16-bit palettes and a u32 0 trailer)
//
// GameCube files are big-endian, PS2 little-endian (the archive's byte order).

#include "libmod/image/image.hpp"
#include "libmod/image/recolour.hpp"
#include "libmod/totem/object.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mod::totem {

// Which header and pixel layout a record uses. PS2 rests on one weak source (a Noesis script):
// every PS2 rule is the named hypothesis totem-ps2-bitmap/1 and check_bitmap says when data
// disagrees with it.
enum class BitmapLayout { gamecube, ps2 };
const char* to_string(BitmapLayout l) noexcept;

// Format codes (byte 0x0C on GameCube).
enum BitmapFormat : std::uint8_t {
    bitmap_c4 = 1, bitmap_c8 = 2, bitmap_ps2_rgba5551 = 7, bitmap_rgb565 = 8, bitmap_rgb5a3 = 10,
    bitmap_rgba8 = 12, bitmap_rgb888 = 13, bitmap_ps2_bgr888 = 14,
};
enum PaletteFormat : std::uint8_t { palette_rgb5a3 = 1, palette_rgb565 = 2, palette_rgba8888 = 3 };
// "C4", "RGB5A3", … or "unknown(N)".
std::string bitmap_format_name(BitmapLayout l, std::uint8_t format);
std::string palette_format_name(std::uint8_t palette_format);

inline constexpr std::size_t bitmap_header_size = 0x12;
inline constexpr std::uint32_t bitmap_max_dimension = 16384;  // our limit (GX textures stop at 1024)
inline constexpr std::uint8_t ps2_swizzled_flag = 0x40;

struct Bitmap {
    BitmapLayout layout = BitmapLayout::gamecube;
    std::uint32_t width = 0, height = 0;
    std::uint32_t word08 = 0;
    std::uint8_t format = 0, flags = 0;
    std::uint8_t palette_format = 0, alpha_level = 0, byte10 = 0, filter = 0;
    Bytes pixels;   // as stored (tiled and padded on GameCube)
    Bytes palette;  // the entries as stored (empty for direct-colour formats)
    Bytes tail;     // every byte after the palette, verbatim
    bool operator==(const Bitmap&) const = default;

    bool paletted() const noexcept { return format == bitmap_c4 || format == bitmap_c8; }
    unsigned palette_entries() const noexcept { return format == bitmap_c4 ? 16 : format == bitmap_c8 ? 256 : 0; }
};

// Stored pixel bytes of a format at a size (GameCube: whole tiles). Throws format for an
// unknown code (path `bitmap.format`), limit for a size beyond bitmap_max_dimension.
std::uint64_t bitmap_pixel_bytes(BitmapLayout l, std::uint8_t format, std::uint32_t width, std::uint32_t height);
// Bytes of one palette entry (0 when the format has no palette).
std::size_t palette_entry_size(BitmapLayout l, std::uint8_t palette_format);

// Decodes a payload (errors: offset + `bitmap.…` path). Never allocates more than the payload.
Bitmap decode_bitmap(const ByteReader& payload, BitmapLayout layout);
// Writes it back; encode(decode(x)) == x for every payload decode accepts.
Bytes encode_bitmap(const Bitmap& bitmap, Endian endian);

// The palette as RGBA8 (empty for direct formats).
std::vector<image::Rgba8> decode_palette(const Bitmap& bitmap, Endian endian);
// The image (width × height, the tile padding cropped). Throws format for what cannot be
// decoded: PS2 GS-swizzled pixels, PS2 format 7 (its size is unknown), codes no source knows.
image::RgbaImage decode_pixels(const Bitmap& bitmap, Endian endian);

// Observations: non-zero word 0x08, alpha level outside 0..2, flags, the tail not in the form
// Chum World writes, format 13 (which the game shows as garbage), the PS2 hypothesis's checks
// (palette alpha above 0x80, a tail it does not predict).
std::vector<Finding> check_bitmap(const Bitmap& bitmap, Endian endian);

// ---- texel primitives (GX), exposed for tests --------------------------------------------------

image::Rgba8 rgb565_to_rgba(std::uint16_t v) noexcept;
image::Rgba8 rgb5a3_to_rgba(std::uint16_t v) noexcept;
std::uint16_t rgba_to_rgb565(image::Rgba8 c) noexcept;  // nearest level per channel
std::uint16_t rgba_to_rgb5a3(image::Rgba8 c) noexcept;  // opaque branch when alpha rounds to 7/7
// Position (x, y) in the padded image of stream element `i` for tiles of tw × th over a padded
// width `padded_width`.
std::pair<std::uint32_t, std::uint32_t> gx_tile_position(std::uint64_t i, unsigned tw, unsigned th,
                                                         std::uint32_t padded_width) noexcept;
// One GX CMPR (S3TC/DXT1-like) 8-byte block: 16 texels row by row. No TotemTech format code is
// known to use CMPR (no reader maps one); this exists so that a code, once found, is one line.
std::array<image::Rgba8, 16> decode_cmpr_block(const std::uint8_t* block) noexcept;

// ---- edits -----------------------------------------------------------------------------------

enum class PaletteMode { automatic, quantise, reindex };
const char* to_string(PaletteMode m) noexcept;
PaletteMode parse_palette_mode(const std::string& text);  // auto, quantise, reindex (usage error)

struct BitmapEncodeOptions {
    PaletteMode mode = PaletteMode::automatic;  // C4/C8 only
    std::vector<unsigned> locked;               // palette slots kept as they are (quantise)
    unsigned threads = 0;
};

struct BitmapEncodeReport {
    std::string mode;                     // "direct", "quantise" or "reindex"
    double mean_delta_e = 0, max_delta_e = 0;  // decoded result against the input, opaque texels
    std::vector<std::string> warnings;    // alpha the format or palette cannot hold, alpha level
};

// `original` with its pixels (and palette) re-encoded from `img` in its own format; width and
// height from the image; header bytes, tail and every unknown byte kept. Throws usage for
// format 13 ("the game shows format 13 as garbage"), for PS2 swizzled or format-7 records and
// for codes we cannot write; limit for sizes beyond bitmap_max_dimension.
Bitmap encode_image(const Bitmap& original, const image::RgbaImage& img, Endian endian,
                    const BitmapEncodeOptions& options = {}, BitmapEncodeReport* report = nullptr);

struct PaletteChange {
    unsigned slot = 0;
    std::uint32_t before = 0, after = 0;  // entries as stored (16 or 32 bits)
    image::Rgba8 requested, result;
    double rounding_delta_e = 0;
    bool rounded() const noexcept { return !(requested == result); }
};

// Sets palette slots to colours in the palette's own format (usage error for a slot outside
// the palette or listed twice or a bitmap without palette; conflict for a locked slot; nothing
// changes unless every request is valid).
std::vector<PaletteChange> set_palette_slots(Bitmap& bitmap, Endian endian, std::span<const image::SlotColour> requests,
                                             std::span<const unsigned> locked = {});
// HSV shift of `slots` (all when empty) except locked ones; alpha kept.
std::vector<PaletteChange> shift_palette_hsv(Bitmap& bitmap, Endian endian, const image::HsvShift& shift,
                                             std::span<const unsigned> slots = {}, std::span<const unsigned> locked = {});

}  // namespace mod::totem
