// IA16 palettes: the TLUT type a TLUT DL selects, decoding through it, the grey+alpha quantiser
// and remapper, every texture replacement mode on an IA16-palette model (edit, rebuild, re-read),
// and the palette edits that refuse IA16.
#include "stadium_test_support.hpp"

#include "libmod/image/colour.hpp"
#include "libmod/n64/texel.hpp"
#include "libmod/stadium/fragment_image.hpp"
#include "libmod/stadium/ia16_palette.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/texture_edit.hpp"

#include <boost/test/unit_test.hpp>

#include <set>

using namespace mod::stadium;
namespace img = mod::image;

namespace {

std::uint16_t ia(unsigned i, unsigned a) { return static_cast<std::uint16_t>(i << 8 | a); }

// 16 IA16 entries: slot 0 transparent, then greys with full or half alpha.
std::vector<std::uint16_t> ia_palette() {
    std::vector<std::uint16_t> p(16);
    for (unsigned k = 1; k < 16; ++k) p[k] = ia(k * 17, k % 4 == 0 ? 0x80 : 0xFF);
    return p;
}

// Two CI4 8×8 textures through one IA16 palette: texture 0 uses slots 0..7, texture 1 8..15.
mod::Bytes ia16_model() { return stadiumtest::two_textures_one_palette(5, ia_palette(), true); }

// A w × h image of greys (i, i, i) with alpha from `alpha(x, y)`.
template <class Alpha>
img::RgbaImage greys(std::uint32_t w, std::uint32_t h, unsigned levels, Alpha alpha) {
    img::RgbaImage im{w, h, {}};
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            const auto v = static_cast<std::uint8_t>(((x + 2 * y) % levels) * 255 / (levels - 1));
            im.pixels.insert(im.pixels.end(), {v, v, v, alpha(x, y)});
        }
    return im;
}

// What the indices draw through an IA16 palette, as RGBA8.
mod::Bytes drawn(const mod::Bytes& indices, const std::vector<std::uint16_t>& palette) {
    mod::Bytes out;
    for (std::uint8_t i : indices) {
        std::uint8_t c[4];
        mod::n64::ia16_to_rgba8(palette.at(i), c);
        out.insert(out.end(), c, c + 4);
    }
    return out;
}

Model edited(const FragmentImage& image) { return read_model(encode_fragment(image.build())); }

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_ia16)

BOOST_AUTO_TEST_CASE(tlut_dl_selects_ia16_and_textures_decode_through_it) {
    const Model m = read_model(ia16_model());
    BOOST_TEST_REQUIRE(m.palettes.size() == 1u);
    BOOST_TEST((m.palettes[0].format == mod::n64::TlutFormat::ia16));
    BOOST_TEST(m.warnings.empty());
    const mod::Bytes rgba = decode_texture_rgba(m, 0);
    // Texel 0 of texture 0 is index 0 (transparent), texel 1 index 3 (grey 51, opaque).
    BOOST_TEST(rgba[3] == 0);
    BOOST_TEST(rgba[4] == 51);
    BOOST_TEST(rgba[5] == 51);
    BOOST_TEST(rgba[7] == 255);
    // The RGBA5551 sample models select no type: RGBA5551.
    const Model plain = read_model(stadiumtest::small_model());
    BOOST_TEST((plain.palettes[0].format == mod::n64::TlutFormat::rgba5551));

    using mod::n64::gbi::SetOtherMode;
    mod::n64::gbi::DisplayList list;
    auto textlut = [](std::uint32_t data) {
        SetOtherMode s;
        s.high = true;
        s.shift_byte = 32 - 14 - 2;
        s.length_byte = 1;
        s.data = data;
        return s;
    };
    BOOST_TEST(!tlut_format_set_by(list).has_value());
    list.commands.push_back(textlut(0xC000));
    BOOST_TEST((tlut_format_set_by(list) == mod::n64::TlutFormat::ia16));
    list.commands.push_back(textlut(0x8000));  // the last one wins
    BOOST_TEST((tlut_format_set_by(list) == mod::n64::TlutFormat::rgba5551));
    list.commands.push_back(textlut(0));       // G_TT_NONE
    BOOST_TEST(!tlut_format_set_by(list).has_value());
    SetOtherMode other = textlut(0xC000);      // another field (bits 12..13): ignored
    other.shift_byte = 32 - 12 - 2;
    list.commands.push_back(other);
    BOOST_TEST(!tlut_format_set_by(list).has_value());
}

BOOST_AUTO_TEST_CASE(exact_when_the_pairs_fit) {
    // 6 grey levels × (opaque, half) + transparent texels: 12 pairs into 16 slots.
    const auto im = greys(12, 6, 6, [](std::uint32_t x, std::uint32_t y) -> std::uint8_t {
        return (x + y) % 7 == 0 ? 0 : (y % 2 ? 0x80 : 0xFF);
    });
    img::QuantiseOptions o;
    o.palette_size = 16;
    const auto r = quantise_ia16(std::span(&im, 1), o);
    BOOST_TEST(r.exact);
    BOOST_TEST_REQUIRE(r.transparent_slot.has_value());
    BOOST_TEST(r.palette[*r.transparent_slot] == 0x0000);
    const mod::Bytes out = drawn(r.indices[0], r.palette);
    for (std::size_t i = 0; i < im.pixel_count(); ++i) {
        if (im.pixels[4 * i + 3] == 0) {
            BOOST_TEST(r.indices[0][i] == *r.transparent_slot);
            continue;
        }
        BOOST_TEST_REQUIRE(out[4 * i] == im.pixels[4 * i]);
        BOOST_TEST_REQUIRE(out[4 * i + 3] == im.pixels[4 * i + 3]);
    }
    BOOST_TEST(r.reports[0].max_delta_e == 0.0);
    // Kept entries are ordered dark to light.
    std::vector<std::uint16_t> kept;
    for (unsigned s : r.written_slots)
        if (s != *r.transparent_slot) kept.push_back(r.palette[s]);
    BOOST_TEST(std::is_sorted(kept.begin(), kept.end()));
}

BOOST_AUTO_TEST_CASE(lossy_quantisation_is_close_deterministic_and_keeps_locks) {
    // 64 grey levels with graded alpha into 16 slots, slots 3 and 9 locked.
    const auto im = greys(32, 32, 64, [](std::uint32_t x, std::uint32_t) { return static_cast<std::uint8_t>(255 - (x % 4) * 40); });
    img::QuantiseOptions o;
    o.palette_size = 16;
    o.locked = {{3, ia(0x40, 0xFF)}, {9, ia(0xC0, 0x80)}};
    const auto r = quantise_ia16(std::span(&im, 1), o);
    BOOST_TEST(!r.exact);
    BOOST_TEST(!r.transparent_slot.has_value());
    BOOST_TEST(r.palette[3] == ia(0x40, 0xFF));
    BOOST_TEST(r.palette[9] == ia(0xC0, 0x80));
    BOOST_TEST(std::count(r.written_slots.begin(), r.written_slots.end(), 3u) == 0);
    BOOST_TEST(r.written_slots.size() + r.collapsed <= 14u);
    BOOST_TEST(r.written_slots.size() >= 12u);
    // Written and locked entries are distinct and visible.
    std::set<std::uint16_t> distinct = {r.palette[3], r.palette[9]};
    for (unsigned s : r.written_slots) {
        BOOST_TEST((r.palette[s] & 0xFF) != 0u);
        distinct.insert(r.palette[s]);
    }
    BOOST_TEST(distinct.size() == r.written_slots.size() + 2);
    // 64 greys × 4 alphas (256 pairs) into 14 entries: alphas stay within one step (40) and the
    // greys within a few lightness steps.
    const mod::Bytes out = drawn(r.indices[0], r.palette);
    int worst_alpha = 0;
    for (std::size_t i = 0; i < im.pixel_count(); ++i)
        worst_alpha = std::max(worst_alpha, std::abs(int(out[4 * i + 3]) - int(im.pixels[4 * i + 3])));
    BOOST_TEST(worst_alpha <= 40);
    BOOST_TEST(r.reports[0].mean_delta_e < 5.0);
    const auto again = quantise_ia16(std::span(&im, 1), o);
    BOOST_TEST((again.palette == r.palette));
    BOOST_TEST((again.indices == r.indices));
}

BOOST_AUTO_TEST_CASE(lossy_opaque_greys_are_close) {
    // 64 opaque greys into 16 entries: every grey within about two of the 64 steps.
    const auto im = greys(32, 32, 64, [](std::uint32_t, std::uint32_t) -> std::uint8_t { return 255; });
    img::QuantiseOptions o;
    o.palette_size = 16;
    const auto r = quantise_ia16(std::span(&im, 1), o);
    BOOST_TEST(!r.exact);
    BOOST_TEST(r.written_slots.size() == 16u);
    BOOST_TEST(r.reports[0].mean_delta_e < 2.0);
    BOOST_TEST(r.reports[0].max_delta_e < 5.0);
    BOOST_TEST(r.reports[0].opaque_texels == 1024u);
}

BOOST_AUTO_TEST_CASE(remap_and_errors) {
    const auto pal = ia_palette();
    const auto im = greys(8, 8, 4, [](std::uint32_t x, std::uint32_t) -> std::uint8_t { return x == 0 ? 0 : 255; });
    const auto r = remap_ia16(std::span(&im, 1), pal);
    for (std::size_t i = 0; i < im.pixel_count(); ++i) {
        const std::uint16_t e = pal[r.indices[0][i]];
        if (im.pixels[4 * i + 3] == 0) BOOST_TEST_REQUIRE(r.indices[0][i] == 0u);
        else BOOST_TEST_REQUIRE((e & 0xFF) != 0u);
    }
    // Grey 255 maps to slot 15 (grey 255, opaque); grey 0 (opaque) to the darkest opaque entry.
    BOOST_TEST(r.indices[0][3] == 15u);  // x = 3: level 3 → 255
    img::RemapOptions only_opaque;
    only_opaque.usable = {1, 2, 3};
    BOOST_TEST((modtest::catch_error([&] { remap_ia16(std::span(&im, 1), pal, only_opaque); })->kind() ==
                mod::ErrorKind::conflict));
    img::QuantiseOptions bad;
    bad.palette_size = 1;
    BOOST_TEST((modtest::catch_error([&] { quantise_ia16(std::span(&im, 1), bad); })->kind() == mod::ErrorKind::usage));
    bad.palette_size = 16;
    bad.locked = {{2, 0xFFFF}, {2, 0x00FF}};
    BOOST_TEST((modtest::catch_error([&] { quantise_ia16(std::span(&im, 1), bad); })->kind() == mod::ErrorKind::usage));
    img::QuantiseOptions full;
    full.palette_size = 2;
    full.locked = {{0, 0xFFFF}, {1, 0x80FF}};
    BOOST_TEST((modtest::catch_error([&] { quantise_ia16(std::span(&im, 1), full); })->kind() == mod::ErrorKind::conflict));
}

BOOST_AUTO_TEST_CASE(every_replace_mode_on_an_ia16_palette) {
    const Model m = read_model(ia16_model());
    const auto im = greys(8, 8, 5, [](std::uint32_t x, std::uint32_t y) -> std::uint8_t { return (x + y) % 5 ? 255 : 0; });
    const mod::Bytes before_other = decode_texture_rgba(m, 1);
    for (CiMode mode : {CiMode::reindex, CiMode::constrained, CiMode::fork}) {
        FragmentImage image(m.fragment);
        TextureReplaceOptions o;
        o.mode = mode;
        const TextureReport r = replace_texture(m, image, 0, im, o);
        const Model after = edited(image);
        BOOST_TEST_REQUIRE(r.palette.has_value());
        BOOST_TEST((after.palettes.at(*r.palette).format == mod::n64::TlutFormat::ia16), to_string(mode));
        BOOST_TEST(r.palette_forked == (mode == CiMode::fork));
        // What the texture draws now is the report's image: greys, transparent where asked.
        const mod::Bytes rgba = decode_texture_rgba(after, 0);
        for (std::size_t i = 0; i < im.pixel_count(); ++i) {
            BOOST_TEST_REQUIRE((rgba[4 * i] == rgba[4 * i + 1] && rgba[4 * i + 1] == rgba[4 * i + 2]));
            BOOST_TEST_REQUIRE((im.pixels[4 * i + 3] == 0) == (rgba[4 * i + 3] == 0), to_string(mode) << " texel " << i);
        }
        if (mode != CiMode::reindex) BOOST_TEST(r.max_delta_e < 1.0, to_string(mode));
        // Texture 1's slots were locked (constrained) or in another palette (fork).
        BOOST_TEST((decode_texture_rgba(after, 1) == before_other), to_string(mode));
        BOOST_TEST(r.touched.empty());
    }
    // shared: both textures into the one palette.
    FragmentImage image(m.fragment);
    const std::size_t both[2] = {0, 1};
    const img::RgbaImage images[2] = {im, greys(8, 8, 3, [](std::uint32_t, std::uint32_t) -> std::uint8_t { return 0x80; })};
    const auto reports = replace_textures_shared(m, image, both, images);
    BOOST_TEST_REQUIRE(reports.size() == 2u);
    const Model after = edited(image);
    BOOST_TEST((after.palettes[0].format == mod::n64::TlutFormat::ia16));
    const mod::Bytes second = decode_texture_rgba(after, 1);
    for (std::size_t i = 0; i < 64; ++i) BOOST_TEST_REQUIRE(second[4 * i + 3] == 0x80u);
    BOOST_TEST(reports[1].max_delta_e == 0.0);
}

BOOST_AUTO_TEST_CASE(palette_set_and_hsv_refuse_ia16) {
    const Model m = read_model(ia16_model());
    FragmentImage image(m.fragment);
    const img::SlotColour set[1] = {{1, {255, 0, 0, 255}}};
    BOOST_TEST((modtest::catch_error([&] { set_palette_slots(m, image, 0, set); })->kind() == mod::ErrorKind::usage));
    BOOST_TEST((modtest::catch_error([&] { shift_palette_hsv(m, image, 0, img::HsvShift{30, 1, 1}); })->kind() ==
                mod::ErrorKind::usage));
}

BOOST_AUTO_TEST_SUITE_END()
