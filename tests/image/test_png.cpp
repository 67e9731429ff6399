// PNG reading and writing, and colour maths.
#include "test_support.hpp"

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

}  // namespace

BOOST_AUTO_TEST_SUITE(png)

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
