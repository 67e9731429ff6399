// Texel codecs, TLUTs and texture load words.
#include "test_support.hpp"

#include "libmod/n64/texel.hpp"
#include "libmod/n64/texel_load.hpp"
#include "libmod/n64/tlut.hpp"

#include <cmath>
#include <ostream>

// Printers for BOOST_TEST diagnostics (internal linkage: other test files may have their own).
namespace mod {
[[maybe_unused]] static std::ostream& boost_test_print_type(std::ostream& os, ErrorKind k) { return os << to_string(k); }
namespace n64 {
[[maybe_unused]] static std::ostream& boost_test_print_type(std::ostream& os, TexelFormat f) { return os << to_string(f); }
[[maybe_unused]] static std::ostream& boost_test_print_type(std::ostream& os, LoadMethod m) { return os << to_string(m); }
[[maybe_unused]] static std::ostream& boost_test_print_type(std::ostream& os, TlutFormat f) { return os << to_string(f); }
}  // namespace n64
}  // namespace mod

using namespace mod;
using namespace mod::n64;

namespace {

Bytes random_bytes(modtest::Rng& rng, std::size_t n) {
    Bytes b(n);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng.next());
    return b;
}

ByteReader reader(const Bytes& b, std::string path = "tex") { return ByteReader(b, Endian::big, "t.bin", std::move(path)); }

// A smooth synthetic RGBA image with an alpha ramp.
Bytes gradient(std::uint32_t w, std::uint32_t h) {
    Bytes img(std::size_t(w) * h * 4);
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            std::uint8_t* p = &img[4 * (std::size_t(y) * w + x)];
            p[0] = static_cast<std::uint8_t>(x * 255 / (w - 1));
            p[1] = static_cast<std::uint8_t>(y * 255 / (h - 1));
            p[2] = static_cast<std::uint8_t>((x + y) * 127 / (w + h - 2));
            p[3] = static_cast<std::uint8_t>(x * 255 / (w - 1));
        }
    return img;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(texel)

BOOST_AUTO_TEST_CASE(format_tables) {
    for (auto f : all_texel_formats) {
        BOOST_TEST(parse_texel_format(to_string(f)) == f);
        auto back = texel_format(static_cast<std::uint8_t>(image_format(f)), static_cast<std::uint8_t>(texel_size(f)));
        BOOST_REQUIRE(back.has_value());
        BOOST_TEST(*back == f);
    }
    BOOST_TEST(!texel_format(1, 2).has_value());  // YUV16
    BOOST_TEST(!texel_format(2, 2).has_value());  // CI16
    BOOST_TEST(bits_per_texel(TexelFormat::ci4) == 4u);
    BOOST_TEST(bits_per_texel(TexelFormat::rgba32) == 32u);
    BOOST_TEST(texel_bytes(TexelFormat::i4, 33) == 17u);
    BOOST_TEST(texel_bytes(TexelFormat::rgba16, 32 * 32) == 2048u);
    auto e = modtest::catch_error([] { parse_texel_format("rgb24"); });
    BOOST_REQUIRE(e);
    BOOST_TEST(static_cast<int>(e->kind()) == static_cast<int>(ErrorKind::usage));
}

BOOST_AUTO_TEST_CASE(channel_rules) {
    for (unsigned v = 0; v < 32; ++v) BOOST_TEST(quantise5(expand5(v)) == v);
    for (unsigned v = 0; v < 16; ++v) BOOST_TEST(quantise4(expand4(v)) == v);
    for (unsigned v = 0; v < 8; ++v) BOOST_TEST(quantise3(expand3(v)) == v);
    // Known expansions: bit replication.
    BOOST_TEST(expand5(31) == 255);
    BOOST_TEST(expand5(16) == 132);
    BOOST_TEST(expand5(1) == 8);
    BOOST_TEST(expand3(7) == 255);
    BOOST_TEST(expand3(4) == 146);
    BOOST_TEST(expand4(9) == 153);
    // Nearest level for every 8-bit value really is nearest.
    for (unsigned v = 0; v < 256; ++v) {
        auto q = quantise5(static_cast<std::uint8_t>(v));
        int d = std::abs(int(expand5(q)) - int(v));
        for (unsigned o = 0; o < 32; ++o) BOOST_TEST(d <= std::abs(int(expand5(o)) - int(v)));
    }
    BOOST_TEST(intensity(10, 10, 10) == 10);
    BOOST_TEST(intensity(255, 0, 0) == 76);  // round(0.299 × 255)
}

BOOST_AUTO_TEST_CASE(rgba5551_known_values) {
    std::uint8_t c[4];
    rgba5551_to_rgba8(0xF801, c);  // pure red, opaque
    BOOST_TEST((c[0] == 255 && c[1] == 0 && c[2] == 0 && c[3] == 255));
    rgba5551_to_rgba8(0x07C0, c);  // pure green, transparent
    BOOST_TEST((c[0] == 0 && c[1] == 255 && c[2] == 0 && c[3] == 0));
    rgba5551_to_rgba8(0x8421, c);  // 16,16,16 → 132
    BOOST_TEST((c[0] == 132 && c[1] == 132 && c[2] == 132 && c[3] == 255));
    const std::uint8_t orange[4] = {255, 128, 0, 200};
    BOOST_TEST(rgba8_to_rgba5551(orange) == ((31u << 11) | (16u << 6) | (0u << 1) | 1u));
    const std::uint8_t faint[4] = {0, 0, 0, 127};
    BOOST_TEST((rgba8_to_rgba5551(faint) & 1) == 0);
    for (unsigned v = 0; v < 65536; ++v) {
        rgba5551_to_rgba8(static_cast<std::uint16_t>(v), c);
        BOOST_TEST_REQUIRE(rgba8_to_rgba5551(c) == v);
        ia16_to_rgba8(static_cast<std::uint16_t>(v), c);
        BOOST_TEST_REQUIRE(rgba8_to_ia16(c) == v);
    }
}

BOOST_AUTO_TEST_CASE(round_trip_random_bytes_every_format) {
    modtest::Rng rng(0x7E7E1);
    const std::pair<std::uint32_t, std::uint32_t> sizes[] = {{1, 1}, {3, 5}, {16, 16}, {32, 8}, {7, 9}, {64, 32}};
    for (auto f : all_texel_formats) {
        for (auto [w, h] : sizes) {
            const std::uint64_t n = std::uint64_t(w) * h;
            Bytes data = random_bytes(rng, texel_bytes(f, n));
            const std::uint8_t pad = trailing_pad(f, data, n);
            Bytes again;
            if (is_ci(f)) {
                again = encode_indices(f, decode_indices(f, reader(data), w, h), w, h, pad);
            } else {
                again = encode_rgba(f, decode_rgba(f, reader(data), w, h), w, h, pad);
                // The intensity-alpha option changes only what alpha I texels show.
                DecodeOptions o;
                o.i_alpha = IntensityAlpha::intensity;
                BOOST_TEST((encode_rgba(f, decode_rgba(f, reader(data), w, h, o), w, h, pad) == data));
            }
            BOOST_TEST_INFO(to_string(f) << " " << w << "x" << h);
            BOOST_TEST((again == data));
        }
    }
}

BOOST_AUTO_TEST_CASE(synthetic_image_round_trip) {
    // Encoding an arbitrary image then decoding it gives the lattice version of the image, and
    // encoding that again is stable.
    const Bytes img = gradient(32, 16);
    for (auto f : all_texel_formats) {
        if (is_ci(f)) continue;
        Bytes tex = encode_rgba(f, img, 32, 16);
        BOOST_TEST(tex.size() == texel_bytes(f, 32 * 16));
        Bytes dec = decode_rgba(f, reader(tex), 32, 16);
        BOOST_TEST((encode_rgba(f, dec, 32, 16) == tex));
        if (f == TexelFormat::rgba32) BOOST_TEST((dec == img));
        // Error bound per channel from the level spacing.
        int tolerance = f == TexelFormat::rgba16 ? 4 : f == TexelFormat::ia4 ? 19 : 9;
        for (std::size_t i = 0; i < img.size(); i += 4) {
            if (f == TexelFormat::rgba16) BOOST_TEST_REQUIRE(std::abs(int(dec[i]) - int(img[i])) <= tolerance);
            if (f == TexelFormat::i8 || f == TexelFormat::ia16)
                BOOST_TEST_REQUIRE(int(dec[i]) == int(intensity(img[i], img[i + 1], img[i + 2])));
        }
    }
}

BOOST_AUTO_TEST_CASE(known_texels) {
    // IA4 nibble 0xF = intensity 7 (255), alpha 1; 0x8 = intensity 4 (146), alpha 0.
    Bytes ia4 = {0xF8};
    Bytes d = decode_rgba(TexelFormat::ia4, reader(ia4), 2, 1);
    BOOST_TEST((d == Bytes{255, 255, 255, 255, 146, 146, 146, 0}));
    Bytes ia8 = {0x9C};
    d = decode_rgba(TexelFormat::ia8, reader(ia8), 1, 1);
    BOOST_TEST((d == Bytes{153, 153, 153, 204}));
    Bytes i4 = {0x1F};
    d = decode_rgba(TexelFormat::i4, reader(i4), 2, 1);
    BOOST_TEST((d == Bytes{17, 17, 17, 255, 255, 255, 255, 255}));
    DecodeOptions o;
    o.i_alpha = IntensityAlpha::intensity;
    d = decode_rgba(TexelFormat::i4, reader(i4), 2, 1, o);
    BOOST_TEST((d == Bytes{17, 17, 17, 17, 255, 255, 255, 255}));
    Bytes ci4 = {0x3A, 0x70};
    BOOST_TEST((decode_indices(TexelFormat::ci4, reader(ci4), 3, 1) == Bytes{3, 10, 7}));
    BOOST_TEST(trailing_pad(TexelFormat::ci4, ci4, 3) == 0);
    ci4[1] = 0x75;
    BOOST_TEST(trailing_pad(TexelFormat::ci4, ci4, 3) == 5);
    BOOST_TEST((encode_indices(TexelFormat::ci4, Bytes{3, 10, 7}, 3, 1, 5) == ci4));
}

BOOST_AUTO_TEST_CASE(short_data_and_bad_arguments) {
    Bytes data(511);
    auto e = modtest::catch_error([&] { decode_rgba(TexelFormat::rgba16, reader(data, "model.tex[3]"), 16, 16); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->path() == "model.tex[3]");
    BOOST_TEST(e->file() == "t.bin");
    BOOST_TEST(e->message().find("needs 512 bytes") != std::string::npos);
    BOOST_TEST(modtest::catch_error([&] { decode_rgba(TexelFormat::ci8, reader(data), 4, 4); }).has_value());
    BOOST_TEST(modtest::catch_error([&] { decode_rgba(TexelFormat::i8, reader(data), 0, 4); })->kind() == ErrorKind::limit);
    BOOST_TEST(modtest::catch_error([&] { decode_rgba(TexelFormat::i8, reader(data), 5000, 1); })->kind() == ErrorKind::limit);
    BOOST_TEST(modtest::catch_error([&] { encode_rgba(TexelFormat::i8, Bytes(15), 2, 2); })->kind() == ErrorKind::usage);
    BOOST_TEST(modtest::catch_error([&] { encode_indices(TexelFormat::ci4, Bytes{16}, 1, 1); })->kind() == ErrorKind::usage);
    // Every truncation of a valid texture fails cleanly.
    modtest::Rng rng(5);
    Bytes tex = random_bytes(rng, 8 * 8 * 2);
    auto rejected = modtest::truncation_loop(tex, [](ByteView v) {
        decode_rgba(TexelFormat::rgba16, ByteReader(v, Endian::big), 8, 8);
    });
    BOOST_TEST(rejected == tex.size());
}

BOOST_AUTO_TEST_CASE(descriptor_rules) {
    TextureDescriptor d{2, 0, 32, 16, 512};
    BOOST_TEST(d.valid());
    BOOST_TEST(d.byte_size() == 256u);
    BOOST_TEST(*d.format() == TexelFormat::ci4);
    d.texel_count = 511;
    BOOST_TEST(!d.valid());
    auto e = modtest::catch_error([&] { d.check("tex[4]"); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->path() == "tex[4]");
    BOOST_TEST(e->message().find("texel count 511") != std::string::npos);
    TextureDescriptor yuv{1, 2, 8, 8, 64};
    BOOST_TEST(!yuv.valid());
    BOOST_TEST(yuv.byte_size() == 0u);
    BOOST_TEST(modtest::catch_error([&] { yuv.check(); }).has_value());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(tlut)

BOOST_AUTO_TEST_CASE(tlut_round_trip_and_colours) {
    modtest::Rng rng(77);
    Bytes raw = random_bytes(rng, 512);
    for (auto fmt : {TlutFormat::rgba5551, TlutFormat::ia16}) {
        ByteReader r(raw, Endian::big, "pal.bin", "pal");
        Tlut t = decode_tlut(r, 256, fmt);
        BOOST_TEST(t.entries.size() == 256u);
        BOOST_TEST((encode_tlut(t) == raw));
        for (auto e : t.entries) {
            std::uint8_t c[4];
            tlut_colour(e, fmt, c);
            BOOST_TEST_REQUIRE(tlut_entry(c, fmt) == e);
        }
    }
    ByteReader short_reader(ByteView(raw).first(30), Endian::big, "pal.bin", "pal");
    auto e = modtest::catch_error([&] { decode_tlut(short_reader, 16); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->path() == "pal");
    ByteReader r2(raw, Endian::big);
    BOOST_TEST(modtest::catch_error([&] { decode_tlut(r2, 257); })->kind() == ErrorKind::limit);
    BOOST_TEST(parse_tlut_format("ia16") == TlutFormat::ia16);
}

BOOST_AUTO_TEST_CASE(ci_decode_with_banks) {
    Tlut t;
    for (unsigned i = 0; i < 256; ++i) t.entries.push_back(static_cast<std::uint16_t>((i << 8) | 1));
    Bytes ci4 = {0x01, 0x23};
    Bytes rgba = decode_ci_rgba(TexelFormat::ci4, reader(ci4), 4, 1, t, 2);
    // Bank 2: entries 32..35; entry 33 = 0x2101 → r = 4, g = 4 (0x2101 >> 6 & 31 = 4), b = 0.
    std::uint8_t c[4];
    rgba5551_to_rgba8(t.entries[33], c);
    BOOST_TEST((rgba[4] == c[0] && rgba[5] == c[1] && rgba[6] == c[2] && rgba[7] == c[3]));
    BOOST_TEST(tlut_slot(TexelFormat::ci4, 3, 2) == 35u);
    BOOST_TEST(tlut_slot(TexelFormat::ci8, 200, 2) == 200u);
    // An index beyond a short TLUT names the texel.
    Tlut small;
    small.entries.assign(16, 0x0001);
    Bytes ci8 = {0, 1, 2, 17};
    auto e = modtest::catch_error([&] { decode_ci_rgba(TexelFormat::ci8, reader(ci8, "tex[1]"), 4, 1, small); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->path() == "tex[1].texel[3]");
    BOOST_TEST(e->offset() == 3u);
    BOOST_TEST(modtest::catch_error([&] { decode_ci_rgba(TexelFormat::ci4, reader(ci4), 4, 1, t, 16); }).has_value());
}

BOOST_AUTO_TEST_CASE(tlut_load_lists) {
    auto cmds = tlut_load_commands(0x06001000, 16, 3);
    gbi::DisplayList dl{cmds, 0x400};
    auto load = find_tlut_load(dl);
    BOOST_REQUIRE(load.has_value());
    BOOST_TEST(load->address == 0x06001000u);
    BOOST_TEST(load->count == 16u);
    BOOST_TEST(load->tmem == 256u + 48u);
    BOOST_TEST(load->bank() == 3u);
    // gDPLoadTLUT_pal256 words: SETTIMG FD100000, LOADTLUT w1 = 07 << 24 | 255 << 14.
    auto w = gbi::encode_command(cmds[0]);
    BOOST_TEST(w.w0 == 0xFD100000u);
    auto big = tlut_load_commands(0x80, 256);
    BOOST_TEST(gbi::encode_command(big[4]).w0 == 0xF0000000u);
    BOOST_TEST(gbi::encode_command(big[4]).w1 == 0x073FC000u);
    BOOST_TEST(gbi::encode_command(big[2]).w0 == 0xF5000100u);
    BOOST_TEST(modtest::catch_error([] { tlut_load_commands(0, 32); }).has_value());
    gbi::DisplayList bad{{cmds[4]}, 0x100};
    auto e = modtest::catch_error([&] { find_tlut_load(bad); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->path() == "cmd[0]");
    BOOST_TEST(!find_tlut_load(gbi::DisplayList{{gbi::make_end()}}).has_value());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(texture_load)

BOOST_AUTO_TEST_CASE(block_load_words_match_gbi_macros) {
    // gDPLoadTextureBlock(img, G_IM_FMT_RGBA, G_IM_SIZ_16b, 32, 32, 0, ...):
    // SETTILE F5100000 07000000, LOADBLOCK F3000000 073FF100, SETTILE F5101000 00000000,
    // SETTILESIZE F2000000 0007C07C.
    auto p = plan_texture_load(TexelFormat::rgba16, 32, 32);
    BOOST_TEST(p.method == LoadMethod::block);
    BOOST_REQUIRE(p.commands.size() == 6u);
    auto word = [&](std::size_t i) { return gbi::encode_command(p.commands[i]); };
    BOOST_TEST(word(0).w0 == 0xF5100000u);
    BOOST_TEST(word(0).w1 == 0x07000000u);
    BOOST_TEST(word(1).w0 == 0xE6000000u);
    BOOST_TEST(word(2).w0 == 0xF3000000u);
    BOOST_TEST(word(2).w1 == 0x073FF100u);  // 1023 texels - 1, dxt 2048/8 = 256
    BOOST_TEST(word(3).w0 == 0xE7000000u);
    BOOST_TEST(word(4).w0 == 0xF5101000u);  // line 8
    BOOST_TEST(word(4).w1 == 0x00000000u);
    BOOST_TEST(word(5).w1 == 0x0007C07Cu);
    BOOST_TEST(p.image.siz == 2);
    BOOST_TEST(p.image.width() == 1u);

    // CI4 32x32 with bank 5, mirror S, clamp T, mask 5: SETTIMG 16b width 1, LOADBLOCK of
    // (1024 + 3) >> 2 = 256 texels, dxt CALC_DXT_4b(32) = 2048 / 2 = 1024.
    TileParams tp;
    tp.palette = 5;
    tp.s = TileAxis{tx_mirror, 5, 0};
    tp.t = TileAxis{tx_clamp, 5, 0};
    auto c = plan_texture_load(TexelFormat::ci4, 32, 32, tp);
    auto cw = [&](std::size_t i) { return gbi::encode_command(c.commands[i]); };
    BOOST_TEST(cw(2).w1 == ((7u << 24) | (255u << 12) | 1024u));
    auto render = std::get<gbi::SetTile>(c.commands[4]);
    BOOST_TEST(render.siz == 0);
    BOOST_TEST(render.line == 2u);  // ((32 >> 1) + 7) >> 3
    BOOST_TEST(render.palette == 5u);
    BOOST_TEST(render.cms == tx_mirror);
    BOOST_TEST(render.cmt == tx_clamp);
    BOOST_TEST(render.masks == 5u);
    BOOST_TEST(c.render.s.mirror());
    BOOST_TEST(c.render.t.clamp());

    // RGBA32 16x16: 32b load, dxt = 2048 / (16 × 4 / 8) = 256, render line (16 × 2 + 7) >> 3 = 4.
    auto r32 = plan_texture_load(TexelFormat::rgba32, 16, 16);
    BOOST_TEST(std::get<gbi::SetTile>(r32.commands[0]).siz == 3);
    BOOST_TEST(std::get<gbi::LoadBlock>(r32.commands[2]).dxt() == 256u);
    BOOST_TEST(std::get<gbi::LoadBlock>(r32.commands[2]).texels() == 256u);
    BOOST_TEST(std::get<gbi::SetTile>(r32.commands[4]).line == 4u);
}

BOOST_AUTO_TEST_CASE(tile_loads_for_odd_widths) {
    // Stadium's divisor table {16, 8, 4, 2}: width 12 is block for 16-bit, tile for 8-bit.
    BOOST_TEST(load_method(TexelFormat::rgba16, 12) == LoadMethod::block);
    BOOST_TEST(load_method(TexelFormat::i8, 12) == LoadMethod::tile);
    BOOST_TEST(load_method(TexelFormat::ci4, 24) == LoadMethod::tile);
    BOOST_TEST(load_method(TexelFormat::ci4, 32) == LoadMethod::block);
    BOOST_TEST(load_method(TexelFormat::rgba32, 3) == LoadMethod::tile);

    auto p = plan_texture_load(TexelFormat::i8, 12, 10);
    BOOST_TEST(p.method == LoadMethod::tile);
    BOOST_TEST(p.image.width() == 12u);
    BOOST_TEST(p.image.siz == 1);
    auto lt = std::get<gbi::LoadTile>(p.commands[2]);
    BOOST_TEST(lt.lrs == 44u);
    BOOST_TEST(lt.lrt == 36u);
    BOOST_TEST(std::get<gbi::SetTile>(p.commands[0]).line == 2u);  // (12 + 7) >> 3

    // gDPLoadTextureTile_4b: SETTIMG 8b of width / 2, load tile 8b, LOADTILE s in 10.1.
    auto q = plan_texture_load(TexelFormat::ci4, 24, 8);
    BOOST_TEST(q.image.siz == 1);
    BOOST_TEST(q.image.width() == 12u);
    BOOST_TEST(std::get<gbi::SetTile>(q.commands[0]).siz == 1);
    BOOST_TEST(std::get<gbi::LoadTile>(q.commands[2]).lrs == 46u);
    BOOST_TEST(std::get<gbi::SetTile>(q.commands[4]).siz == 0);
    BOOST_TEST(std::get<gbi::SetTileSize>(q.commands[5]).lrs == 92u);
}

BOOST_AUTO_TEST_CASE(limits) {
    BOOST_TEST(modtest::catch_error([] { plan_texture_load(TexelFormat::rgba16, 64, 64); })->kind() == ErrorKind::limit);
    BOOST_TEST(modtest::catch_error([] { plan_texture_load(TexelFormat::ci8, 64, 64); })->kind() == ErrorKind::limit);
    BOOST_CHECK_NO_THROW(plan_texture_load(TexelFormat::ci8, 64, 32));
    TileParams bad;
    bad.palette = 16;
    BOOST_TEST(modtest::catch_error([&] { plan_texture_load(TexelFormat::ci4, 16, 16, bad); })->kind() == ErrorKind::usage);
}

BOOST_AUTO_TEST_CASE(descriptor_plans_and_tile_state_conversions) {
    TextureDescriptor d{2, 1, 32, 32, 1024};
    auto p = plan_texture_load(d);
    BOOST_TEST(p.method == LoadMethod::block);
    BOOST_TEST(p.render.siz == 1);
    d.texel_count = 1000;
    auto e = modtest::catch_error([&] { plan_texture_load(d, {}, 0, "tex[2]"); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->path() == "tex[2]");
    // SETTILE/SETTILESIZE → TileState → commands is the identity on the fields.
    modtest::Rng rng(9);
    for (int i = 0; i < 200; ++i) {
        gbi::Word w{0xF5000000u | static_cast<std::uint32_t>(rng.next() & 0xFBFFFF),
                    static_cast<std::uint32_t>(rng.next() & 0x07FFFFFF)};
        gbi::Word z{0xF2000000u | static_cast<std::uint32_t>(rng.next() & 0xFFFFFF),
                    static_cast<std::uint32_t>(rng.next() & 0x07FFFFFF)};
        auto tile = std::get<gbi::SetTile>(gbi::decode_command(w));
        auto size = std::get<gbi::SetTileSize>(gbi::decode_command(z));
        size.tile = tile.tile;
        TileState s = tile_state(tile, &size);
        BOOST_TEST_REQUIRE((gbi::encode_command(to_set_tile(s)) == w));
        BOOST_TEST_REQUIRE((to_set_tile_size(s) == size));
    }
}

BOOST_AUTO_TEST_CASE(find_and_replace_in_material_list) {
    auto p = plan_texture_load(TexelFormat::rgba16, 32, 32);
    gbi::DisplayList dl;
    dl.commands.push_back(gbi::SetCombine{});
    dl.commands.insert(dl.commands.end(), p.commands.begin(), p.commands.end());
    dl.commands.push_back(gbi::make_end());
    auto info = find_texture_load(dl);
    BOOST_REQUIRE(info.has_value());
    BOOST_TEST(info->first == 1u);
    BOOST_TEST(info->last == 6u);
    BOOST_TEST(info->width == 32u);
    BOOST_TEST(info->height == 32u);
    BOOST_TEST(*info->format() == TexelFormat::rgba16);
    BOOST_TEST(info->method == LoadMethod::block);

    TileParams tp;
    tp.palette = 1;
    auto q = plan_texture_load(TexelFormat::ci4, 16, 64, tp);
    replace_texture_load(dl, q);
    BOOST_TEST(dl.commands.size() == 8u);
    BOOST_TEST(std::holds_alternative<gbi::SetCombine>(dl.commands.front()));
    BOOST_TEST(std::holds_alternative<gbi::EndList>(dl.commands.back()));
    auto again = find_texture_load(dl);
    BOOST_REQUIRE(again.has_value());
    BOOST_TEST(again->width == 16u);
    BOOST_TEST(again->height == 64u);
    BOOST_TEST(*again->format() == TexelFormat::ci4);
    BOOST_TEST(again->render.palette == 1u);
    gbi::DisplayList none{{gbi::make_end()}};
    BOOST_TEST(modtest::catch_error([&] { replace_texture_load(none, q); })->kind() == ErrorKind::conflict);
}

BOOST_AUTO_TEST_SUITE_END()
