// BITMAP: texels decoded to values computed by hand from ../shared/reference/totem_records.md
// §2 (payloads written field by field here, not with our encoder), byte-exact round trips,
// truncation at every length, the PS2 hypothesis and its checks.
#include "test_support.hpp"

#include "libmod/totem/bitmap.hpp"

using namespace mod::totem;
using mod::Bytes;
using mod::ByteWriter;
using mod::Endian;
using mod::image::Rgba8;

namespace {

// The 18-byte header, GameCube order (format at 0x0C, flags at 0x0D).
void gc_header(ByteWriter& w, std::uint32_t width, std::uint32_t height, std::uint8_t format, std::uint8_t palette_format,
               std::uint8_t alpha = 0) {
    w.u32(width);
    w.u32(height);
    w.u32(0);
    w.u8(format);
    w.u8(0);  // flags
    w.u8(palette_format);
    w.u8(alpha);
    w.u8(0);
    w.u8(1);  // filter
}

Bitmap decode(const Bytes& b, BitmapLayout l = BitmapLayout::gamecube, Endian e = Endian::big) {
    return decode_bitmap(mod::ByteReader(b, e, "t.DGC", "rec"), l);
}

Rgba8 px(const mod::image::RgbaImage& img, std::uint32_t x, std::uint32_t y) { return img.at(std::size_t(y) * img.width + x); }

std::string text(Rgba8 c) { return std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b) + "," + std::to_string(c.a); }

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_bitmap)

BOOST_AUTO_TEST_CASE(rgb5a3_words_with_the_top_bit_set_and_clear) {
    // 1 11111 00000 00000 -> red opaque; 1 00001 00001 00001 -> 5-bit 1 = 1<<3|1>>2 = 8.
    BOOST_TEST(text(rgb5a3_to_rgba(0xFC00)) == "255,0,0,255");
    BOOST_TEST(text(rgb5a3_to_rgba(0x8421)) == "8,8,8,255");
    // 0 011 1010 0101 1111: alpha 3 -> 3<<5|3<<2|3>>1 = 109; 4-bit x17: 170, 85, 255.
    BOOST_TEST(text(rgb5a3_to_rgba(0x3A5F)) == "170,85,255,109");
    BOOST_TEST(text(rgb5a3_to_rgba(0x0000)) == "0,0,0,0");
    // In a 4x4 tile: stream element k is pixel (k % 4, k / 4).
    ByteWriter w(Endian::big);
    gc_header(w, 4, 4, bitmap_rgb5a3, palette_rgba8888);
    for (int k = 0; k < 16; ++k) w.u16(k == 0 ? 0xFC00 : k == 1 ? 0x8421 : k == 4 ? 0x3A5F : 0x7FFF);
    w.u32(0);
    const Bytes bytes = w.take();
    const Bitmap b = decode(bytes);
    const auto img = decode_pixels(b, Endian::big);
    BOOST_TEST(text(px(img, 0, 0)) == "255,0,0,255");
    BOOST_TEST(text(px(img, 1, 0)) == "8,8,8,255");
    BOOST_TEST(text(px(img, 0, 1)) == "170,85,255,109");
    BOOST_TEST(text(px(img, 3, 3)) == "255,255,255,255");  // 0 111 1111 1111 1111: alpha 7 -> 255
    BOOST_TEST(encode_bitmap(b, Endian::big) == bytes);
    BOOST_TEST(b.tail == Bytes(4, 0));
}

BOOST_AUTO_TEST_CASE(rgb565_bit_replication) {
    BOOST_TEST(text(rgb565_to_rgba(0xF800)) == "255,0,0,255");
    BOOST_TEST(text(rgb565_to_rgba(0x07E0)) == "0,255,0,255");
    // 00001 000010 00001: r 1<<3|1>>2 = 8, g 2<<2|2>>4 = 8, b 8.
    BOOST_TEST(text(rgb565_to_rgba(0x0841)) == "8,8,8,255");
    BOOST_TEST(rgba_to_rgb565({255, 0, 0, 255}) == 0xF800);
    BOOST_TEST(rgba_to_rgb5a3({255, 128, 0, 255}) == 0xFE00);  // 128*31/255 rounds to 16
}

BOOST_AUTO_TEST_CASE(c4_irregular_size_tiling_nibble_order_and_palette) {
    // 13x7 C4 is stored as 16x8: two 8x8 tiles of 32 bytes. Pixel (9, 2) is tile 1, k = 2*8+1 = 17,
    // byte 32 + 17/2 = 40, low nibble (odd k); pixel (8, 2) is the high nibble of that byte.
    ByteWriter w(Endian::big);
    gc_header(w, 13, 7, bitmap_c4, palette_rgb5a3);
    for (int i = 0; i < 64; ++i) w.u8(i == 40 ? 0x05 : i == 0 ? 0x30 : 0x00);
    for (int e = 0; e < 16; ++e) w.u16(e == 5 ? 0xFC00 : e == 3 ? 0x83E0 : 0x8000);  // 5 red, 3 green, others black
    for (int e = 0; e < 16; ++e) w.u16(0xFFFF);                                      // Chum World's padding
    w.u32(0);
    const Bytes bytes = w.take();
    const Bitmap b = decode(bytes);
    BOOST_TEST(b.pixels.size() == 64u);
    BOOST_TEST(b.palette.size() == 32u);
    BOOST_TEST(b.tail.size() == 36u);
    const auto img = decode_pixels(b, Endian::big);
    BOOST_TEST(img.width == 13u);
    BOOST_TEST(img.height == 7u);
    BOOST_TEST(text(px(img, 9, 2)) == "255,0,0,255");
    BOOST_TEST(text(px(img, 8, 2)) == "0,0,0,255");
    BOOST_TEST(text(px(img, 0, 0)) == "0,255,0,255");  // byte 0 high nibble = 3
    BOOST_TEST(text(px(img, 1, 0)) == "0,0,0,255");
    BOOST_TEST(check_bitmap(b, Endian::big).empty());
    BOOST_TEST(encode_bitmap(b, Endian::big) == bytes);
    BOOST_TEST(gx_tile_position(17 + 64, 8, 8, 16).first == 9u);
    BOOST_TEST(gx_tile_position(17 + 64, 8, 8, 16).second == 2u);
}

BOOST_AUTO_TEST_CASE(c8_tiles_of_8x4_and_an_rgba8888_palette) {
    // 10x5 C8 is stored as 16x8 (two tiles per row). Pixel (9, 4): tile (1, 1) = 3, k = 1 -> byte 97.
    ByteWriter w(Endian::big);
    gc_header(w, 10, 5, bitmap_c8, palette_rgba8888);
    for (int i = 0; i < 128; ++i) w.u8(i == 97 ? 7 : 0);
    for (int e = 0; e < 256; ++e) w.u32(e == 7 ? 0x11223344u : 0x000000FFu);
    const Bytes bytes = w.take();
    const Bitmap b = decode(bytes);
    const auto img = decode_pixels(b, Endian::big);
    BOOST_TEST(text(px(img, 9, 4)) == "17,34,51,68");
    BOOST_TEST(text(px(img, 8, 4)) == "0,0,0,255");
    BOOST_TEST(encode_bitmap(b, Endian::big) == bytes);
    // No tail at all is one of the forms Chum World's layout allows (the trailer is optional).
    BOOST_TEST(check_bitmap(b, Endian::big).size() == 0u);
}

BOOST_AUTO_TEST_CASE(rgba8_split_tiles_and_rgb888_byte_order) {
    // 5x5 RGBA8 is stored as 8x8 = four 64-byte tiles; in a tile pixel k has A,R at 2k and G,B at 32+2k.
    ByteWriter w(Endian::big);
    gc_header(w, 5, 5, bitmap_rgba8, palette_rgba8888, 2);
    Bytes px_bytes(256, 0);
    px_bytes[2] = 0x80, px_bytes[3] = 0x10, px_bytes[34] = 0x20, px_bytes[35] = 0x30;                  // (1, 0)
    px_bytes[192] = 0xFF, px_bytes[193] = 0x01, px_bytes[192 + 32] = 0x02, px_bytes[192 + 33] = 0x03;  // (4, 4)
    w.bytes(px_bytes);
    const Bitmap b = decode(w.take());
    const auto img = decode_pixels(b, Endian::big);
    BOOST_TEST(text(px(img, 1, 0)) == "16,32,48,128");
    BOOST_TEST(text(px(img, 4, 4)) == "1,2,3,255");
    // Format 13: linear, three bytes per pixel, B,G,R (Chum World).
    ByteWriter w13(Endian::big);
    gc_header(w13, 2, 1, bitmap_rgb888, palette_rgba8888);
    w13.bytes(Bytes{0x01, 0x02, 0x03, 0x0A, 0x0B, 0x0C});
    const Bitmap b13 = decode(w13.take());
    BOOST_TEST(text(px(decode_pixels(b13, Endian::big), 0, 0)) == "3,2,1,255");
    BOOST_TEST(text(px(decode_pixels(b13, Endian::big), 1, 0)) == "12,11,10,255");
}

BOOST_AUTO_TEST_CASE(cmpr_block_in_both_colour_modes) {
    // c0 = red 0xF800 > c1 = blue 0x001F: four colours, c2 = (2c0+c1)/3, c3 = (c0+2c1)/3.
    const std::uint8_t four[8] = {0xF8, 0x00, 0x00, 0x1F, 0x1B, 0x00, 0x00, 0x00};  // 00 01 10 11
    auto t = decode_cmpr_block(four);
    BOOST_TEST(text(t[0]) == "255,0,0,255");
    BOOST_TEST(text(t[1]) == "0,0,255,255");
    BOOST_TEST(text(t[2]) == "170,0,85,255");
    BOOST_TEST(text(t[3]) == "85,0,170,255");
    BOOST_TEST(text(t[4]) == "255,0,0,255");
    // c0 <= c1: three colours, c2 = (c0+c1)/2, c3 transparent.
    const std::uint8_t three[8] = {0x00, 0x1F, 0xF8, 0x00, 0x1B, 0x00, 0x00, 0x00};
    t = decode_cmpr_block(three);
    BOOST_TEST(text(t[2]) == "127,0,127,255");
    BOOST_TEST(text(t[3]) == "0,0,0,0");
}

BOOST_AUTO_TEST_CASE(truncation_at_every_length_is_a_clean_error) {
    ByteWriter w(Endian::big);
    gc_header(w, 13, 7, bitmap_c4, palette_rgb5a3);
    w.fill(64, 0x12);
    for (int e = 0; e < 32; ++e) w.u16(0xFFFF);
    w.u32(0);
    const Bytes full = w.take();
    const std::size_t needed = 18 + 64 + 32;
    for (std::size_t n = 0; n < full.size(); ++n) {
        const Bytes cut(full.begin(), full.begin() + long(n));
        if (n < needed) {
            auto err = modtest::catch_error([&] { decode(cut); });
            BOOST_REQUIRE_MESSAGE(err.has_value(), "length " << n);
            BOOST_TEST(err->kind() == mod::ErrorKind::format);
            BOOST_TEST(err->file() == "t.DGC");
            BOOST_TEST(err->path().find("rec") == 0u);
        } else {
            BOOST_TEST(encode_bitmap(decode(cut), Endian::big) == cut);  // a shorter tail, kept
        }
    }
    // An unknown format and a hostile size: errors at the byte that says so.
    Bytes bad = full;
    bad[0x0C] = 9;
    auto err = modtest::catch_error([&] { decode(bad); });
    BOOST_REQUIRE(err.has_value());
    BOOST_TEST(err->offset() == 0x0Cu);
    BOOST_TEST(err->message().find("unknown GameCube pixel format 9") != std::string::npos);
    bad = full;
    bad[0] = 0xFF;  // width 0xFF00000D
    err = modtest::catch_error([&] { decode(bad); });
    BOOST_REQUIRE(err.has_value());
    BOOST_TEST(err->kind() == mod::ErrorKind::limit);
}

BOOST_AUTO_TEST_CASE(ps2_hypothesis_clut_order_swizzle_flag_and_alpha_scale) {
    // PS2 (little-endian): flags at 0x0C, format at 0x0D; palette 4-byte R,G,B,A; C8 entries 8-15
    // and 16-23 swapped: pixel value 8 uses stored entry 16, value 16 entry 8.
    ByteWriter w(Endian::little);
    w.u32(2), w.u32(1), w.u32(0);
    w.u8(0), w.u8(bitmap_c8), w.u8(0), w.u8(0), w.u8(0), w.u8(0);
    w.u8(8), w.u8(16);
    for (int e = 0; e < 256; ++e) {
        const std::uint8_t v = e == 16 ? 1 : e == 8 ? 5 : 0;
        w.u8(v), w.u8(std::uint8_t(v ? v + 1 : 0)), w.u8(std::uint8_t(v ? v + 2 : 0)), w.u8(e == 16 ? 0x80 : e == 8 ? 0x40 : 0x80);
    }
    const Bytes bytes = w.take();
    Bitmap b = decode(bytes, BitmapLayout::ps2, Endian::little);
    BOOST_TEST(b.format == bitmap_c8);
    const auto img = decode_pixels(b, Endian::little);
    BOOST_TEST(text(px(img, 0, 0)) == "1,2,3,128");
    BOOST_TEST(text(px(img, 1, 0)) == "5,6,7,64");
    BOOST_TEST(encode_bitmap(b, Endian::little) == bytes);
    // Every alpha <= 0x80 with some exactly 0x80: the check says the data may use the GS scale.
    bool scale_note = false;
    for (const auto& f : check_bitmap(b, Endian::little)) scale_note |= f.message.find("0..0x80") != std::string::npos;
    BOOST_TEST(scale_note);
    // GS-swizzled: kept, not decoded.
    Bytes swz = bytes;
    swz[0x0C] = ps2_swizzled_flag;
    b = decode(swz, BitmapLayout::ps2, Endian::little);
    BOOST_TEST(encode_bitmap(b, Endian::little) == swz);
    auto err = modtest::catch_error([&] { decode_pixels(b, Endian::little); });
    BOOST_REQUIRE(err.has_value());
    BOOST_TEST(err->message().find("swizzled") != std::string::npos);
    // A record longer than the hypothesis predicts is reported as a mismatch.
    Bytes longer = bytes;
    longer.insert(longer.end(), 12, 0xEE);
    b = decode(longer, BitmapLayout::ps2, Endian::little);
    bool mismatch = false;
    for (const auto& f : check_bitmap(b, Endian::little))
        mismatch |= f.level == Finding::Level::mismatch && f.path == "bitmap.tail";
    BOOST_TEST(mismatch);
}

BOOST_AUTO_TEST_SUITE_END()
