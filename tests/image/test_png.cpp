// PNG reading and writing, and colour maths.
#include "test_support.hpp"

#include "libmod/core/hash.hpp"
#include "libmod/image/colour.hpp"
#include "libmod/image/png.hpp"

#include <cmath>
#include <ostream>

// Printer for BOOST_TEST diagnostics (internal linkage: other test files may have their own).
namespace mod {
[[maybe_unused]] static std::ostream& boost_test_print_type(std::ostream& os, ErrorKind k) { return os << to_string(k); }
}  // namespace mod

using namespace mod;
using namespace mod::image;

namespace {

RgbaImage noise(std::uint32_t w, std::uint32_t h, std::uint64_t seed) {
    modtest::Rng rng(seed);
    RgbaImage img{w, h, Bytes(std::size_t(w) * h * 4)};
    for (auto& b : img.pixels) b = static_cast<std::uint8_t>(rng.next());
    return img;
}

void chunk(ByteWriter& w, const char* type, const Bytes& data) {
    w.u32(static_cast<std::uint32_t>(data.size()));
    Bytes body(type, type + 4);
    body.insert(body.end(), data.begin(), data.end());
    w.bytes(body);
    w.u32(crc32(body));
}

// A hand-built 8-bit paletted PNG (zlib stream of one stored block), so tests can express
// what our writer refuses to produce.
Bytes raw_paletted_png(std::uint32_t width, std::uint32_t height, const Bytes& plte, const Bytes& indices) {
    Bytes filtered;
    for (std::uint32_t y = 0; y < height; ++y) {
        filtered.push_back(0);
        filtered.insert(filtered.end(), indices.begin() + y * width, indices.begin() + (y + 1) * width);
    }
    ByteWriter z(Endian::big);
    z.u8(0x78), z.u8(0x01), z.u8(0x01);
    z.u8(static_cast<std::uint8_t>(filtered.size())), z.u8(static_cast<std::uint8_t>(filtered.size() >> 8));
    z.u8(static_cast<std::uint8_t>(~filtered.size())), z.u8(static_cast<std::uint8_t>(~filtered.size() >> 8));
    z.bytes(filtered);
    std::uint32_t a = 1, b = 0;
    for (auto v : filtered) a = (a + v) % 65521, b = (b + a) % 65521;
    z.u32((b << 16) | a);
    ByteWriter ihdr(Endian::big);
    ihdr.u32(width), ihdr.u32(height), ihdr.u8(8), ihdr.u8(3), ihdr.u8(0), ihdr.u8(0), ihdr.u8(0);
    ByteWriter w(Endian::big);
    w.bytes(Bytes{0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A});
    chunk(w, "IHDR", ihdr.data());
    chunk(w, "PLTE", plte);
    chunk(w, "IDAT", z.data());
    chunk(w, "IEND", {});
    return w.take();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(png)

BOOST_AUTO_TEST_CASE(hand_built_paletted_png) {
    const Bytes plte = {255, 0, 0, 0, 255, 0};
    Bytes ok = raw_paletted_png(3, 2, plte, {0, 1, 0, 1, 1, 0});
    auto p = read_png_paletted(ok, "ok.png");
    BOOST_REQUIRE(p.has_value());
    BOOST_TEST((p->palette == std::vector<Rgba8>{{255, 0, 0, 255}, {0, 255, 0, 255}}));
    BOOST_TEST((p->indices == Bytes{0, 1, 0, 1, 1, 0}));
    // An index beyond the palette is refused with the pixel named.
    Bytes bad = raw_paletted_png(3, 2, plte, {0, 1, 0, 1, 5, 0});
    auto e = modtest::catch_error([&] { read_png_paletted(bad, "bad.png"); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->file() == "bad.png");
    BOOST_TEST_INFO(e->what());
    BOOST_TEST(e->message().find("palette") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(rgba_round_trip) {
    for (auto [w, h] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {17, 3}, {64, 64}}) {
        RgbaImage img = noise(w, h, w * 31 + h);
        Bytes png = write_png(img);
        BOOST_TEST((png == write_png(img)));  // deterministic
        RgbaImage back = read_png(png, "x.png");
        BOOST_TEST((back == img));
        BOOST_TEST(!read_png_paletted(png).has_value());
    }
}

BOOST_AUTO_TEST_CASE(paletted_round_trip_keeps_palette_and_trns) {
    for (std::size_t n : {2u, 3u, 16u, 17u, 256u}) {
        PalettedImage p;
        p.width = 9;
        p.height = 7;
        modtest::Rng rng(n);
        for (std::size_t i = 0; i < n; ++i)
            p.palette.push_back({static_cast<std::uint8_t>(rng.next()), static_cast<std::uint8_t>(rng.next()),
                                 static_cast<std::uint8_t>(rng.next()), i == 1 ? std::uint8_t(0) : std::uint8_t(255)});
        for (std::size_t i = 0; i < 63; ++i) p.indices.push_back(static_cast<std::uint8_t>(rng.below(static_cast<std::uint32_t>(n))));
        Bytes png = write_png(p);
        auto back = read_png_paletted(png, "p.png");
        BOOST_REQUIRE(back.has_value());
        BOOST_TEST((*back == p));
        // The RGBA view agrees with the palette.
        BOOST_TEST((read_png(png) == p.to_rgba()));
    }
    // Duplicate palette entries and unused entries survive (exact palette, no merging).
    PalettedImage d{2, 1, {{1, 2, 3, 255}, {1, 2, 3, 255}, {9, 9, 9, 7}}, {1, 0}};
    auto back = read_png_paletted(write_png(d));
    BOOST_REQUIRE(back.has_value());
    BOOST_TEST((*back == d));
}

BOOST_AUTO_TEST_CASE(bad_inputs) {
    RgbaImage img = noise(8, 8, 3);
    Bytes png = write_png(img);
    auto e = modtest::catch_error([] { read_png(Bytes{1, 2, 3}, "junk.png"); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->file() == "junk.png");
    BOOST_TEST(static_cast<int>(e->kind()) == static_cast<int>(ErrorKind::format));
    std::size_t rejected = modtest::truncation_loop(png, [](ByteView v) { read_png(v); });
    BOOST_TEST(rejected == png.size());  // every strict prefix lacks IEND at least
    modtest::byte_flip_loop(png, [](ByteView v) { read_png(v); }, 7);
    modtest::byte_flip_loop(png, [](ByteView v) { read_png_paletted(v); }, 7);
    // Limits refuse before allocating.
    PngLimits small;
    small.max_pixels = 63;
    BOOST_TEST(modtest::catch_error([&] { read_png(png, "", small); })->kind() == ErrorKind::limit);
    small = {};
    small.max_dimension = 4;
    BOOST_TEST(modtest::catch_error([&] { read_png(png, "", small); }).has_value());
    // Writer refuses inconsistent images.
    BOOST_TEST(modtest::catch_error([] { write_png(RgbaImage{2, 2, Bytes(15)}); })->kind() == ErrorKind::usage);
    BOOST_TEST(modtest::catch_error([] { write_png(PalettedImage{1, 1, {{0, 0, 0, 255}}, {1}}); }).has_value());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(colour)

BOOST_AUTO_TEST_CASE(transfer_and_oklab) {
    for (int i = 0; i < 256; ++i) {
        double lin = srgb8_to_linear(static_cast<std::uint8_t>(i));
        BOOST_TEST_REQUIRE(std::lround(linear_to_srgb(lin) * 255) == i);
    }
    // White is L = 1, a = b = 0; black is 0.
    Oklab w = to_oklab({255, 255, 255, 255});
    BOOST_TEST(std::fabs(w.L - 1.0) < 1e-4);
    BOOST_TEST(std::fabs(w.a) < 1e-4);
    BOOST_TEST(std::fabs(to_oklab({0, 0, 0, 255}).L) < 1e-9);
    // Published Oklab of sRGB red: (0.6280, 0.2249, 0.1258).
    Oklab r = to_oklab({255, 0, 0, 255});
    BOOST_TEST(std::fabs(r.L - 0.6280) < 1e-3);
    BOOST_TEST(std::fabs(r.a - 0.2249) < 1e-3);
    BOOST_TEST(std::fabs(r.b - 0.1258) < 1e-3);
    modtest::Rng rng(11);
    for (int i = 0; i < 2000; ++i) {
        Rgba8 c{static_cast<std::uint8_t>(rng.next()), static_cast<std::uint8_t>(rng.next()),
                static_cast<std::uint8_t>(rng.next()), 255};
        BOOST_TEST_REQUIRE((from_oklab(to_oklab(c)) == c));
    }
    BOOST_TEST(delta_e(Rgba8{10, 20, 30, 255}, Rgba8{10, 20, 30, 0}) == 0.0);
    BOOST_TEST(delta_e(Rgba8{0, 0, 0, 255}, Rgba8{255, 255, 255, 255}) > 99.0);
}

BOOST_AUTO_TEST_CASE(rgba5551_and_hsv) {
    for (unsigned v = 0; v < 65536; ++v) BOOST_TEST_REQUIRE(to_rgba5551(from_rgba5551(static_cast<std::uint16_t>(v))) == v);
    BOOST_TEST(to_rgba5551({255, 0, 0, 255}) == 0xF801);
    BOOST_TEST((from_rgba5551(0x8421) == Rgba8{132, 132, 132, 255}));
    BOOST_TEST((snap_rgba5551({130, 1, 255, 200}) == Rgba8{132, 0, 255, 255}));
    Hsv h = to_hsv({255, 0, 0, 255});
    BOOST_TEST(h.h == 0.0);
    BOOST_TEST(h.s == 1.0);
    BOOST_TEST(to_hsv({0, 0, 255, 255}).h == 240.0);
    modtest::Rng rng(12);
    for (int i = 0; i < 2000; ++i) {
        Rgba8 c{static_cast<std::uint8_t>(rng.next()), static_cast<std::uint8_t>(rng.next()),
                static_cast<std::uint8_t>(rng.next()), 77};
        BOOST_TEST_REQUIRE((from_hsv(to_hsv(c), 77) == c));
    }
    BOOST_TEST((from_hsv({120, 1, 1}) == Rgba8{0, 255, 0, 255}));
    BOOST_TEST((from_hsv({-120, 1, 1}) == Rgba8{0, 0, 255, 255}));
}

BOOST_AUTO_TEST_SUITE_END()
