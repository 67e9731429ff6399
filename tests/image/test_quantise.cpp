// Palette quantisation, remapping and recolouring.
#include "test_support.hpp"

#include "libmod/image/colour.hpp"
#include "libmod/image/quantise.hpp"
#include "libmod/image/recolour.hpp"

#include <set>
#include <ostream>

// Printer for BOOST_TEST diagnostics (internal linkage: other test files may have their own).
namespace mod {
[[maybe_unused]] static std::ostream& boost_test_print_type(std::ostream& os, ErrorKind k) { return os << to_string(k); }
}  // namespace mod

using namespace mod;
using namespace mod::image;

namespace {

RgbaImage gradient(std::uint32_t w, std::uint32_t h, bool transparent_corner = false) {
    RgbaImage img{w, h, Bytes(std::size_t(w) * h * 4)};
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            std::uint8_t* p = &img.pixels[4 * (std::size_t(y) * w + x)];
            p[0] = static_cast<std::uint8_t>(40 + x * 180 / w);
            p[1] = static_cast<std::uint8_t>(20 + y * 200 / h);
            p[2] = static_cast<std::uint8_t>(90 + (x + y) * 60 / (w + h));
            p[3] = transparent_corner && x < w / 4 && y < h / 4 ? 0 : 255;
        }
    return img;
}

RgbaImage few_colours() {
    const Rgba8 cs[] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {198, 198, 198, 255}, {7, 7, 7, 0}};
    RgbaImage img{10, 10, Bytes(400)};
    for (std::size_t i = 0; i < 100; ++i) {
        const Rgba8& c = cs[(i * 7 + i / 10) % 5];
        img.pixels[4 * i] = c.r, img.pixels[4 * i + 1] = c.g, img.pixels[4 * i + 2] = c.b, img.pixels[4 * i + 3] = c.a;
    }
    return img;
}

// The colour each texel shows through the palette.
Rgba8 shown(const QuantiseResult& r, std::size_t image, std::size_t i) {
    return from_rgba5551(r.palette[r.indices[image][i]]);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quantise_suite)

BOOST_AUTO_TEST_CASE(exact_when_colours_fit) {
    RgbaImage img = few_colours();
    QuantiseOptions o;
    o.palette_size = 16;
    auto r = quantise(std::span(&img, 1), o);
    BOOST_TEST(r.exact);
    BOOST_TEST(r.distinct_colours == 4u);
    BOOST_REQUIRE(r.transparent_slot.has_value());
    BOOST_TEST(*r.transparent_slot == 0u);  // lowest free slot
    BOOST_TEST(r.palette[0] == 0x0000);
    BOOST_TEST(r.palette.size() == 16u);
    BOOST_TEST(r.reports[0].max_delta_e < 1e-9);  // all four colours lie on the lattice
    BOOST_TEST(r.reports[0].transparent_texels == 20u);
    for (std::size_t i = 0; i < 100; ++i) {
        Rgba8 in = img.at(i);
        if (in.a == 0) BOOST_TEST_REQUIRE(r.indices[0][i] == 0u);
        else BOOST_TEST_REQUIRE((shown(r, 0, i) == snap_rgba5551(in)));
    }
    BOOST_TEST(r.written_slots.size() == 5u);
}

BOOST_AUTO_TEST_CASE(gradient_error_is_small_and_palette_is_lattice) {
    RgbaImage img = gradient(64, 64);
    for (unsigned size : {16u, 256u}) {
        QuantiseOptions o;
        o.palette_size = size;
        auto r = quantise(std::span(&img, 1), o);
        BOOST_TEST(!r.transparent_slot.has_value());
        BOOST_TEST(r.palette.size() == size);
        // Written entries are distinct opaque lattice colours (collapsed ones were dropped).
        std::set<std::uint16_t> distinct;
        for (auto s : r.written_slots) {
            distinct.insert(r.palette[s]);
            BOOST_TEST((r.palette[s] & 1) == 1);
        }
        BOOST_TEST(distinct.size() == r.written_slots.size());
        BOOST_TEST(r.written_slots.size() + r.collapsed <= size);
        BOOST_TEST(r.written_slots.size() >= size * 3 / 4);
        // Smooth gradients: a 16-colour palette stays under ~5 ΔE on average, 256 under ~1.5.
        BOOST_TEST_INFO("palette " << size << " mean " << r.reports[0].mean_delta_e << " max " << r.reports[0].max_delta_e);
        BOOST_TEST(r.reports[0].mean_delta_e < (size == 16 ? 5.0 : 1.5));
        BOOST_TEST(r.reports[0].max_delta_e < (size == 16 ? 12.0 : 4.0));
        // Every texel's index is its nearest entry (the final re-assignment after snapping).
        for (std::size_t i = 0; i < img.pixel_count(); i += 97) {
            double mine = delta_e(img.at(i), shown(r, 0, i));
            for (auto s : r.written_slots) BOOST_TEST_REQUIRE(mine <= delta_e(img.at(i), from_rgba5551(r.palette[s])) + 1e-9);
        }
    }
}

BOOST_AUTO_TEST_CASE(deterministic_whatever_the_threads) {
    RgbaImage a = gradient(96, 80, true), b = gradient(40, 40);
    std::vector<RgbaImage> imgs = {a, b};
    QuantiseOptions o;
    o.palette_size = 32;
    o.threads = 1;
    auto r1 = quantise(imgs, o);
    o.threads = 4;
    auto r4 = quantise(imgs, o);
    o.threads = 0;
    auto r0 = quantise(imgs, o);
    BOOST_TEST((r1.palette == r4.palette));
    BOOST_TEST((r1.indices == r4.indices));
    BOOST_TEST((r1.palette == r0.palette));
    BOOST_TEST((r1.indices == r0.indices));
    BOOST_TEST(r1.reports[0].mean_delta_e == r4.reports[0].mean_delta_e);
}

BOOST_AUTO_TEST_CASE(locked_slots_never_change) {
    RgbaImage img = gradient(48, 48, true);
    QuantiseOptions o;
    o.palette_size = 16;
    o.locked = {{0, 0x0000}, {5, 0xF801}, {15, 0x07C1}};  // transparent, red, green
    o.base.assign(16, 0x1235);
    auto r = quantise(std::span(&img, 1), o);
    BOOST_TEST(r.palette[0] == 0x0000);
    BOOST_TEST(r.palette[5] == 0xF801);
    BOOST_TEST(r.palette[15] == 0x07C1);
    BOOST_REQUIRE(r.transparent_slot.has_value());
    BOOST_TEST(*r.transparent_slot == 0u);  // the locked transparent entry
    for (auto s : r.written_slots) BOOST_TEST((s != 0u && s != 5u && s != 15u));
    for (unsigned s = 0; s < 16; ++s)
        if (std::find(r.written_slots.begin(), r.written_slots.end(), s) == r.written_slots.end() && s != 0 && s != 5 &&
            s != 15)
            BOOST_TEST(r.palette[s] == 0x1235);  // base kept where nothing was written
    // A pure red image uses the locked red entry.
    RgbaImage red{2, 2, Bytes{255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255}};
    auto rr = quantise(std::span(&red, 1), o);
    BOOST_TEST((rr.indices[0] == Bytes{5, 5, 5, 5}));
    BOOST_TEST(rr.written_slots.empty());
}

BOOST_AUTO_TEST_CASE(transparent_slot_rules) {
    RgbaImage img = gradient(32, 32, true);
    QuantiseOptions o;
    o.palette_size = 16;
    o.transparent_slot = 9;
    auto r = quantise(std::span(&img, 1), o);
    BOOST_TEST(*r.transparent_slot == 9u);
    BOOST_TEST(r.palette[9] == 0u);
    BOOST_TEST(r.reports[0].transparent_texels == 64u);
    for (std::size_t i = 0; i < img.pixel_count(); ++i)
        BOOST_TEST_REQUIRE((img.at(i).a == 0) == (r.indices[0][i] == 9));
    // Every slot locked opaque: no room for transparent texels.
    QuantiseOptions full;
    full.palette_size = 2;
    full.locked = {{0, 0xF801}, {1, 0x07C1}};
    BOOST_TEST(modtest::catch_error([&] { quantise(std::span(&img, 1), full); })->kind() == ErrorKind::conflict);
    o.locked = {{9, 0xFFFF}};
    BOOST_TEST(modtest::catch_error([&] { quantise(std::span(&img, 1), o); })->kind() == ErrorKind::conflict);
    // Bad options.
    QuantiseOptions bad;
    bad.palette_size = 300;
    BOOST_TEST(modtest::catch_error([&] { quantise(std::span(&img, 1), bad); })->kind() == ErrorKind::usage);
    bad.palette_size = 16;
    bad.locked = {{3, 1}, {3, 1}};
    BOOST_TEST(modtest::catch_error([&] { quantise(std::span(&img, 1), bad); })->kind() == ErrorKind::usage);
    bad.locked = {{16, 1}};
    BOOST_TEST(modtest::catch_error([&] { quantise(std::span(&img, 1), bad); })->kind() == ErrorKind::usage);
    BOOST_TEST(modtest::catch_error([&] { quantise({}, QuantiseOptions{}); })->kind() == ErrorKind::usage);
}

BOOST_AUTO_TEST_CASE(shared_palette_serves_every_image) {
    // A reddish and a bluish image quantised jointly: each keeps a small error, and the
    // palette covers both (quantising only one would serve the other badly).
    RgbaImage a{32, 32, Bytes(32 * 32 * 4)}, b = a;
    for (std::size_t i = 0; i < 1024; ++i) {
        a.pixels[4 * i] = static_cast<std::uint8_t>(128 + i % 128), a.pixels[4 * i + 3] = 255;
        b.pixels[4 * i + 2] = static_cast<std::uint8_t>(128 + i / 8), b.pixels[4 * i + 3] = 255;
    }
    std::vector<RgbaImage> both = {a, b};
    QuantiseOptions o;
    o.palette_size = 16;
    auto r = quantise(both, o);
    BOOST_REQUIRE(r.indices.size() == 2u);
    BOOST_TEST(r.reports[0].mean_delta_e < 3.0);
    BOOST_TEST(r.reports[1].mean_delta_e < 3.0);
    auto only_a = quantise(std::span(&a, 1), o);
    auto b_on_a = remap(std::span(&b, 1), only_a.palette);
    BOOST_TEST(b_on_a.reports[0].mean_delta_e > 3 * r.reports[1].mean_delta_e);
}

BOOST_AUTO_TEST_CASE(remap_onto_existing_palette) {
    std::vector<std::uint16_t> pal = {0x0000, 0xF801, 0x07C1, 0x003F, 0xFFFF};
    RgbaImage img = few_colours();
    auto r = remap(std::span(&img, 1), pal);
    for (std::size_t i = 0; i < 100; ++i) {
        Rgba8 c = img.at(i);
        unsigned expect = c.a == 0 ? 0 : c.r == 255 ? 1 : c.g == 255 ? 2 : c.b == 255 ? 3 : 4;
        BOOST_TEST_REQUIRE(r.indices[0][i] == expect);
    }
    RemapOptions only;
    only.usable = {1, 2, 3, 4};
    BOOST_TEST(modtest::catch_error([&] { remap(std::span(&img, 1), pal, only); })->kind() == ErrorKind::conflict);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(recolour)

BOOST_AUTO_TEST_CASE(set_slots_reports_rounding) {
    std::vector<std::uint16_t> pal = {0x0000, 0xF801, 0x07C1};
    auto changes = set_slots(pal, std::vector<SlotColour>{{1, {130, 1, 255, 255}}, {2, {8, 16, 24, 255}}});
    BOOST_REQUIRE(changes.size() == 2u);
    BOOST_TEST(changes[0].before == 0xF801);
    BOOST_TEST(changes[0].rounded());
    BOOST_TEST((changes[0].result == Rgba8{132, 0, 255, 255}));
    BOOST_TEST(changes[0].rounding_delta_e > 0.0);
    BOOST_TEST(!changes[1].rounded());
    BOOST_TEST(pal[1] == to_rgba5551({132, 0, 255, 255}));
    std::vector<unsigned> locked = {0};
    auto before = pal;
    BOOST_TEST(modtest::catch_error([&] {
        set_slots(pal, std::vector<SlotColour>{{2, {1, 1, 1, 255}}, {0, {1, 1, 1, 255}}}, locked);
    })->kind() == ErrorKind::conflict);
    BOOST_TEST((pal == before));  // all or nothing
    BOOST_TEST(modtest::catch_error([&] { set_slots(pal, std::vector<SlotColour>{{3, {}}}); })->kind() == ErrorKind::usage);
}

BOOST_AUTO_TEST_CASE(hsv_shift_respects_locks_and_alpha) {
    std::vector<std::uint16_t> pal = {0x0000, 0xF801, 0x07C1, 0x003F, 0xF800};
    std::vector<unsigned> locked = {0, 3};
    auto changes = hsv_shift(pal, HsvShift{120, 1, 1}, {}, locked);
    BOOST_TEST(changes.size() == 3u);
    BOOST_TEST(pal[0] == 0x0000);
    BOOST_TEST(pal[3] == 0x003F);
    BOOST_TEST(pal[1] == 0x07C1);  // red → green
    BOOST_TEST(pal[2] == 0x003F);  // green → blue
    BOOST_TEST(pal[4] == 0x07C0);  // transparent red → transparent green (alpha bit kept)
    std::vector<unsigned> chosen = {2};
    auto one = hsv_shift(pal, HsvShift{0, 0, 1}, chosen);
    BOOST_TEST(one.size() == 1u);
    BOOST_TEST(pal[2] == 0xFFFF);  // blue desaturated → white
    BOOST_TEST(pal[1] == 0x07C1);
    std::vector<unsigned> outside = {9};
    BOOST_TEST(modtest::catch_error([&] { hsv_shift(pal, HsvShift{}, outside); })->kind() == ErrorKind::usage);
    // Identity shift changes nothing.
    auto copy = pal;
    hsv_shift(pal, HsvShift{});
    BOOST_TEST((pal == copy));
}

BOOST_AUTO_TEST_SUITE_END()
