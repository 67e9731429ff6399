// BITMAP: the PS2 hypothesis (totem-ps2-bitmap/1, doc/formats/totem-bitmap.md) and the checks
// that say when a record disagrees with what we assume.
#include "bitmap_detail.hpp"

namespace mod::totem {

using image::Rgba8;

std::uint64_t ps2_pixel_bytes(std::uint8_t format, std::uint64_t w, std::uint64_t h) {
    switch (format) {
    case bitmap_c4: return (w * h + 1) / 2;
    case bitmap_c8: return w * h;
    case bitmap_ps2_rgba5551: return w * h * 2;  // 16 bits per pixel (the source script reads w*h: see the doc)
    case bitmap_rgba8: return w * h * 4;
    case bitmap_ps2_bgr888: return w * h * 3;
    }
    throw Error(ErrorKind::format, "unknown PS2 pixel format " + std::to_string(format) +
                                       " (hypothesis totem-ps2-bitmap/1 knows 1, 2, 7, 12, 14)");
}

image::RgbaImage decode_ps2_pixels(const Bitmap& b) {
    if (b.flags & ps2_swizzled_flag)
        throw Error(ErrorKind::format, "PS2 bitmap with flag 0x40 (GS-swizzled pixels): modkit does not unswizzle "
                                       "(hypothesis totem-ps2-bitmap/1); the record is kept as it is");
    if (b.format == bitmap_ps2_rgba5551)
        throw Error(ErrorKind::format, "PS2 format 7 (16-bit): its stored size is not established (hypothesis "
                                       "totem-ps2-bitmap/1); the record is kept as it is");
    image::RgbaImage img;
    img.width = b.width;
    img.height = b.height;
    const std::size_t n = std::size_t(b.width) * b.height;
    img.pixels.resize(4 * n);
    std::vector<Rgba8> palette;
    if (b.paletted())
        for (std::size_t i = 0; i < b.palette_entries(); ++i) palette.push_back(palette_entry(b, Endian::little, i));
    const std::uint8_t* p = b.pixels.data();
    for (std::size_t i = 0; i < n; ++i) {
        Rgba8 c;
        switch (b.format) {
        case bitmap_c4: c = palette[(p[i / 2] >> (i % 2 ? 4 : 0)) & 15]; break;  // low nibble first (PSMT4)
        case bitmap_c8: c = palette[ps2_clut_slot(p[i])]; break;
        case bitmap_rgba8: c = {p[4 * i + 2], p[4 * i + 1], p[4 * i], p[4 * i + 3]}; break;
        case bitmap_ps2_bgr888: c = {p[3 * i + 2], p[3 * i + 1], p[3 * i], 255}; break;
        }
        std::uint8_t* o = &img.pixels[4 * i];
        o[0] = c.r, o[1] = c.g, o[2] = c.b, o[3] = c.a;
    }
    return img;
}

std::vector<Finding> check_bitmap(const Bitmap& b, Endian e) {
    std::vector<Finding> out;
    auto add = [&](Finding::Level l, std::string path, std::string msg) {
        out.push_back({l, "bitmap" + std::move(path), std::move(msg)});
    };
    const bool ps2 = b.layout == BitmapLayout::ps2;
    const char* hyp = "hypothesis totem-ps2-bitmap/1";
    if (b.word08 != 0)
        add(ps2 ? Finding::Level::mismatch : Finding::Level::note, ".word08",
            "word at 0x08 is " + hex(b.word08) + " (zero in every file the sources describe" +
                (ps2 ? std::string("; ") + hyp + " assumes 0" : std::string()) + ")");
    if (b.alpha_level > 2)
        add(Finding::Level::mismatch, ".alpha_level", "alpha level " + std::to_string(b.alpha_level) +
                                                          " (Chum World accepts 0 opaque, 1 cut-out, 2 blended)");
    if (!ps2 && b.format == bitmap_rgb888)
        add(Finding::Level::note, ".format", std::string("format 13 (RGB888): the game shows it as garbage") +
                                                 (b.filter == 5 ? "; with filter 5 noclip reads it as a truncated RGBA8" : "") +
                                                 "; decoded as linear B,G,R (Chum World; noclip reads R,G,B)");
    if (!ps2 && (b.filter < 1 || b.filter > 5))
        add(Finding::Level::note, ".filter", "byte 0x11 is " + std::to_string(b.filter) + " (Chum World's editor keeps it in 1..5)");
    // The tail Chum World writes: for a 16-bit palette N entries of 0xFFFF, then a u32 0.
    const std::size_t n = b.palette_entries();
    Bytes expected;
    if (!ps2 && b.paletted() && palette_entry_size(b.layout, b.palette_format) == 2) expected.assign(2 * n, 0xFF);
    Bytes with_trailer = expected;
    with_trailer.insert(with_trailer.end(), 4, 0);
    if (b.tail != expected && b.tail != with_trailer)
        add(ps2 ? Finding::Level::mismatch : Finding::Level::note, ".tail",
            std::to_string(b.tail.size()) + " byte(s) after the " + (b.paletted() ? "palette" : "pixels") +
                " are not what Chum World writes (" + std::to_string(expected.size()) + (expected.empty() ? "" : " bytes 0xFF") +
                " then an optional u32 0)" + (ps2 ? std::string(": ") + hyp + " mispredicts this record's size" : "") +
                "; kept verbatim");
    if (ps2) {
        if (b.flags & ps2_swizzled_flag)
            add(Finding::Level::note, ".flags", "GS-swizzled (flag 0x40): pixels not decoded, kept verbatim");
        if (b.paletted() && b.palette.size() == 4 * n) {
            unsigned above = 0, at = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint8_t a = b.palette[4 * i + 3];
                above += a > 0x80;
                at += a == 0x80;
            }
            if (!above && at)
                add(Finding::Level::note, ".palette", "every palette alpha is at most 0x80 and " + std::to_string(at) +
                                                          " are exactly 0x80: this looks like the GS 0..0x80 alpha scale, "
                                                          "which " + hyp + " does not assume (alpha read as 0..0xFF)");
        }
    }
    (void)e;
    return out;
}

}  // namespace mod::totem
