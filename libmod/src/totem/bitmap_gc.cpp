// BITMAP records: the header codec shared by both layouts, GX texel primitives and GameCube
// pixel decoding. Spec: doc/formats/totem-bitmap.md.
#include "libmod/totem/bitmap.hpp"

#include "bitmap_detail.hpp"

namespace mod::totem {

using image::Rgba8;

const char* to_string(BitmapLayout l) noexcept { return l == BitmapLayout::gamecube ? "gamecube" : "ps2"; }

std::string bitmap_format_name(BitmapLayout l, std::uint8_t format) {
    switch (format) {
    case bitmap_c4: return "C4";
    case bitmap_c8: return "C8";
    case bitmap_rgb565: if (l == BitmapLayout::gamecube) return "RGB565"; break;
    case bitmap_rgb5a3: if (l == BitmapLayout::gamecube) return "RGB5A3"; break;
    case bitmap_rgba8: return l == BitmapLayout::gamecube ? "RGBA8" : "BGRA8888";
    case bitmap_rgb888: if (l == BitmapLayout::gamecube) return "RGB888"; break;
    case bitmap_ps2_rgba5551: if (l == BitmapLayout::ps2) return "RGBA5551"; break;
    case bitmap_ps2_bgr888: if (l == BitmapLayout::ps2) return "BGR888"; break;
    }
    return "unknown(" + std::to_string(format) + ")";
}

std::string palette_format_name(std::uint8_t p) {
    switch (p) {
    case palette_rgb5a3: return "RGB5A3";
    case palette_rgb565: return "RGB565";
    case palette_rgba8888: return "RGBA8888";
    }
    return "unknown(" + std::to_string(p) + ")";
}

// ---- texel primitives ----------------------------------------------------------------------------

namespace {
std::uint8_t expand5(unsigned v) { return static_cast<std::uint8_t>(v << 3 | v >> 2); }
std::uint8_t expand6(unsigned v) { return static_cast<std::uint8_t>(v << 2 | v >> 4); }
std::uint8_t expand4(unsigned v) { return static_cast<std::uint8_t>(v << 4 | v); }
std::uint8_t expand3(unsigned v) { return static_cast<std::uint8_t>(v << 5 | v << 2 | v >> 1); }
unsigned level(unsigned v, unsigned max) { return (v * max + 127) / 255; }  // nearest of max+1 levels
}  // namespace

Rgba8 rgb565_to_rgba(std::uint16_t v) noexcept {
    return {expand5(v >> 11 & 31), expand6(v >> 5 & 63), expand5(v & 31), 255};
}

Rgba8 rgb5a3_to_rgba(std::uint16_t v) noexcept {
    if (v & 0x8000) return {expand5(v >> 10 & 31), expand5(v >> 5 & 31), expand5(v & 31), 255};
    return {expand4(v >> 8 & 15), expand4(v >> 4 & 15), expand4(v & 15), expand3(v >> 12 & 7)};
}

std::uint16_t rgba_to_rgb565(Rgba8 c) noexcept {
    return static_cast<std::uint16_t>(level(c.r, 31) << 11 | level(c.g, 63) << 5 | level(c.b, 31));
}

std::uint16_t rgba_to_rgb5a3(Rgba8 c) noexcept {
    const unsigned a = level(c.a, 7);
    if (a == 7) return static_cast<std::uint16_t>(0x8000 | level(c.r, 31) << 10 | level(c.g, 31) << 5 | level(c.b, 31));
    return static_cast<std::uint16_t>(a << 12 | level(c.r, 15) << 8 | level(c.g, 15) << 4 | level(c.b, 15));
}

std::pair<std::uint32_t, std::uint32_t> gx_tile_position(std::uint64_t i, unsigned tw, unsigned th,
                                                         std::uint32_t padded_width) noexcept {
    const std::uint64_t per_tile = std::uint64_t(tw) * th, tile = i / per_tile, k = i % per_tile;
    const std::uint64_t tiles_per_row = padded_width / tw;
    return {static_cast<std::uint32_t>(tile % tiles_per_row * tw + k % tw),
            static_cast<std::uint32_t>(tile / tiles_per_row * th + k / tw)};
}

std::array<Rgba8, 16> decode_cmpr_block(const std::uint8_t* b) noexcept {
    const std::uint16_t c0 = static_cast<std::uint16_t>(b[0] << 8 | b[1]), c1 = static_cast<std::uint16_t>(b[2] << 8 | b[3]);
    std::array<Rgba8, 4> p{rgb565_to_rgba(c0), rgb565_to_rgba(c1), {}, {}};
    auto mix = [&](int wa, int wb, int d) {
        return Rgba8{static_cast<std::uint8_t>((wa * p[0].r + wb * p[1].r) / d),
                     static_cast<std::uint8_t>((wa * p[0].g + wb * p[1].g) / d),
                     static_cast<std::uint8_t>((wa * p[0].b + wb * p[1].b) / d), 255};
    };
    if (c0 > c1) {
        p[2] = mix(2, 1, 3);
        p[3] = mix(1, 2, 3);
    } else {
        p[2] = mix(1, 1, 2);
        p[3] = {0, 0, 0, 0};
    }
    std::array<Rgba8, 16> out{};
    for (int i = 0; i < 16; ++i) out[i] = p[b[4 + i / 4] >> (6 - 2 * (i % 4)) & 3];
    return out;
}

// ---- record codec ----------------------------------------------------------------------------------

namespace detail_bitmap {

GxTile gx_tile(std::uint8_t format) noexcept {
    switch (format) {
    case bitmap_c4: return {8, 8, 4};
    case bitmap_c8: return {8, 4, 8};
    case bitmap_rgb565:
    case bitmap_rgb5a3: return {4, 4, 16};
    case bitmap_rgba8: return {4, 4, 32};
    }
    return {0, 0, 0};
}

}  // namespace detail_bitmap

using namespace detail_bitmap;

std::uint64_t bitmap_pixel_bytes(BitmapLayout l, std::uint8_t format, std::uint32_t width, std::uint32_t height) {
    if (width > bitmap_max_dimension || height > bitmap_max_dimension)
        throw Error(ErrorKind::limit, "bitmap size " + std::to_string(width) + "x" + std::to_string(height) +
                                          " is beyond modkit's limit of " + std::to_string(bitmap_max_dimension));
    const std::uint64_t w = width, h = height;
    if (l == BitmapLayout::ps2) return ps2_pixel_bytes(format, w, h);
    if (format == bitmap_rgb888) return w * h * 3;
    const GxTile t = gx_tile(format);
    if (!t.w) throw Error(ErrorKind::format, "unknown GameCube pixel format " + std::to_string(format));
    const std::uint64_t pw = (w + t.w - 1) / t.w * t.w, ph = (h + t.h - 1) / t.h * t.h;
    return pw * ph * t.bits / 8;
}

std::size_t palette_entry_size(BitmapLayout l, std::uint8_t palette_format) {
    if (l == BitmapLayout::ps2) return 4;  // hypothesis totem-ps2-bitmap/1: RGBA bytes
    switch (palette_format) {
    case palette_rgb5a3:
    case palette_rgb565: return 2;
    case palette_rgba8888: return 4;
    }
    return 0;
}

Bitmap decode_bitmap(const ByteReader& payload, BitmapLayout layout) {
    ByteReader r = payload.sub(0, payload.size(), "bitmap");
    Bitmap b;
    b.layout = layout;
    if (!r.has(bitmap_header_size))
        r.fail_at(0, "truncated: the BITMAP header needs 18 bytes, " + std::to_string(r.size()) + " available");
    b.width = r.u32();
    b.height = r.u32();
    b.word08 = r.u32();
    const std::uint8_t c = r.u8(), d = r.u8();
    b.format = layout == BitmapLayout::gamecube ? c : d;
    b.flags = layout == BitmapLayout::gamecube ? d : c;
    b.palette_format = r.u8();
    b.alpha_level = r.u8();
    b.byte10 = r.u8();
    b.filter = r.u8();
    std::uint64_t pixel_bytes = 0;
    try {
        pixel_bytes = bitmap_pixel_bytes(layout, b.format, b.width, b.height);
    } catch (const Error& e) {
        r.fail_at_path(e.kind() == ErrorKind::limit ? 0 : (layout == BitmapLayout::gamecube ? 0x0C : 0x0D),
                       e.kind() == ErrorKind::limit ? ".width" : ".format", e.message(), e.kind());
    }
    if (pixel_bytes > r.remaining())
        r.fail_at_path(r.tell(), ".pixels", "truncated: a " + std::to_string(b.width) + "x" + std::to_string(b.height) + " " +
                                                bitmap_format_name(layout, b.format) + " bitmap needs " +
                                                std::to_string(pixel_bytes) + " pixel bytes, " +
                                                std::to_string(r.remaining()) + " available");
    auto px = r.bytes(static_cast<std::size_t>(pixel_bytes));
    b.pixels.assign(px.begin(), px.end());
    if (b.paletted()) {
        const std::size_t entry = palette_entry_size(layout, b.palette_format);
        if (!entry)
            r.fail_at_path(0x0E, ".palette_format", "unknown palette format " + std::to_string(b.palette_format) +
                                                         " (1 RGB5A3, 2 RGB565, 3 RGBA8888)");
        const std::size_t bytes = entry * b.palette_entries();
        if (!r.has(bytes))
            r.fail_at_path(r.tell(), ".palette", "truncated: the " + std::to_string(b.palette_entries()) + "-entry " +
                                                     palette_format_name(b.palette_format) + " palette needs " +
                                                     std::to_string(bytes) + " bytes, " + std::to_string(r.remaining()) +
                                                     " available");
        auto pal = r.bytes(bytes);
        b.palette.assign(pal.begin(), pal.end());
    }
    auto tail = r.bytes(r.remaining());
    b.tail.assign(tail.begin(), tail.end());
    return b;
}

Bytes encode_bitmap(const Bitmap& b, Endian endian) {
    ByteWriter w(endian);
    w.reserve(bitmap_header_size + b.pixels.size() + b.palette.size() + b.tail.size());
    w.u32(b.width);
    w.u32(b.height);
    w.u32(b.word08);
    w.u8(b.layout == BitmapLayout::gamecube ? b.format : b.flags);
    w.u8(b.layout == BitmapLayout::gamecube ? b.flags : b.format);
    w.u8(b.palette_format);
    w.u8(b.alpha_level);
    w.u8(b.byte10);
    w.u8(b.filter);
    w.bytes(b.pixels);
    w.bytes(b.palette);
    w.bytes(b.tail);
    return w.take();
}

// ---- palettes -----------------------------------------------------------------------------------

Rgba8 palette_entry(const Bitmap& b, Endian e, std::size_t i) {
    const std::uint8_t* p = b.palette.data();
    if (b.layout == BitmapLayout::ps2) return {p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]};
    if (b.palette_format == palette_rgba8888) {
        const std::uint32_t v = endian::load32(p + 4 * i, e);
        return {static_cast<std::uint8_t>(v >> 24), static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8),
                static_cast<std::uint8_t>(v)};
    }
    const std::uint16_t v = endian::load16(p + 2 * i, e);
    return b.palette_format == palette_rgb5a3 ? rgb5a3_to_rgba(v) : rgb565_to_rgba(v);
}

std::uint32_t palette_raw(const Bitmap& b, Endian e, std::size_t i) {
    const std::size_t n = b.palette.size() / b.palette_entries();
    if (n == 2) return endian::load16(b.palette.data() + 2 * i, e);
    if (b.layout == BitmapLayout::ps2) return endian::load32(b.palette.data() + 4 * i, Endian::big);  // R,G,B,A bytes
    return endian::load32(b.palette.data() + 4 * i, e);
}

std::vector<Rgba8> decode_palette(const Bitmap& b, Endian e) {
    std::vector<Rgba8> out;
    if (!b.paletted() || b.palette.size() != palette_entry_size(b.layout, b.palette_format) * b.palette_entries()) return out;
    for (std::size_t i = 0; i < b.palette_entries(); ++i) out.push_back(palette_entry(b, e, i));
    return out;
}

// ---- GameCube pixels ------------------------------------------------------------------------------

image::RgbaImage decode_gc_pixels(const Bitmap& b, Endian e) {
    image::RgbaImage img;
    img.width = b.width;
    img.height = b.height;
    img.pixels.assign(std::size_t(4) * b.width * b.height, 0);
    auto put = [&](std::uint32_t x, std::uint32_t y, Rgba8 c) {
        if (x >= b.width || y >= b.height) return;  // tile padding
        std::uint8_t* p = &img.pixels[4 * (std::size_t(y) * b.width + x)];
        p[0] = c.r, p[1] = c.g, p[2] = c.b, p[3] = c.a;
    };
    if (b.format == bitmap_rgb888) {  // linear B,G,R (Chum World; noclip reads R,G,B)
        for (std::size_t i = 0; i < std::size_t(b.width) * b.height; ++i)
            put(static_cast<std::uint32_t>(i % b.width), static_cast<std::uint32_t>(i / b.width),
                {b.pixels[3 * i + 2], b.pixels[3 * i + 1], b.pixels[3 * i], 255});
        return img;
    }
    const GxTile t = gx_tile(b.format);
    const std::uint32_t pw = (b.width + t.w - 1) / t.w * t.w;
    const std::uint64_t count = b.pixels.size() * 8 / t.bits;
    const auto palette = decode_palette(b, e);
    const std::uint8_t* p = b.pixels.data();
    for (std::uint64_t i = 0; i < count; ++i) {
        auto [x, y] = gx_tile_position(i, t.w, t.h, pw);
        Rgba8 c;
        switch (b.format) {
        case bitmap_c4: c = palette[(p[i / 2] >> (i % 2 ? 0 : 4)) & 15]; break;
        case bitmap_c8: c = palette[p[i]]; break;
        case bitmap_rgb565: c = rgb565_to_rgba(endian::load16(p + 2 * i, e)); break;
        case bitmap_rgb5a3: c = rgb5a3_to_rgba(endian::load16(p + 2 * i, e)); break;
        case bitmap_rgba8: {
            const std::uint8_t* tile = p + (i / 16) * 64;
            const std::size_t k = i % 16;
            c = {tile[2 * k + 1], tile[32 + 2 * k], tile[32 + 2 * k + 1], tile[2 * k]};
            break;
        }
        }
        put(x, y, c);
    }
    return img;
}

image::RgbaImage decode_pixels(const Bitmap& b, Endian e) {
    if (b.pixels.size() != bitmap_pixel_bytes(b.layout, b.format, b.width, b.height) ||
        (b.paletted() && decode_palette(b, e).size() != b.palette_entries()))
        throw Error(ErrorKind::usage, "bitmap: the stored pixels or palette do not match its header");
    return b.layout == BitmapLayout::gamecube ? decode_gc_pixels(b, e) : decode_ps2_pixels(b);
}

}  // namespace mod::totem
