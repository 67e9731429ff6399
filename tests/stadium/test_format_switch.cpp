// Texture replacement between CI and direct colour: the descriptor, the material DL's load
// words and the materials' palette index are rewritten; direct → CI appends a palette of its
// own with a TLUT DL. Every case goes through the ROM (repack, re-extract, cross-check).
#include "stadium_test_support.hpp"

#include "libmod/image/colour.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"
#include "libmod/stadium/texture_edit.hpp"

#include <boost/test/unit_test.hpp>

using namespace mod::stadium;
namespace img = mod::image;

namespace {

// `levels` distinct colours on the RGBA5551 lattice, one texel in 7 transparent.
img::RgbaImage lattice_image(std::uint32_t w, std::uint32_t h, unsigned levels) {
    img::RgbaImage im{w, h, {}};
    for (std::uint32_t i = 0; i < w * h; ++i) {
        const auto v = static_cast<std::uint8_t>((i % levels) * (255 / (levels - 1)));
        img::Rgba8 c = img::snap_rgba5551({v, static_cast<std::uint8_t>(255 - v), 200, 255});
        if (i % 7 == 3) c = {0, 0, 0, 0};
        im.pixels.insert(im.pixels.end(), {c.r, c.g, c.b, c.a});
    }
    return im;
}

TextureReplaceOptions to_format(mod::n64::TexelFormat f) {
    TextureReplaceOptions o;
    o.format = f;
    o.allow_resize = true;
    return o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_format_switch)

BOOST_AUTO_TEST_CASE(direct_colour_to_ci_gets_a_palette_of_its_own) {
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 1);  // texture 1: RGBA16 16 × 16, no palette
    BOOST_TEST_REQUIRE((m.textures[1].format == mod::n64::TexelFormat::rgba16));
    for (auto format : {mod::n64::TexelFormat::ci8, mod::n64::TexelFormat::ci4}) {
        const auto want = lattice_image(16, 16, format == mod::n64::TexelFormat::ci4 ? 12 : 40);
        FragmentImage image(m.fragment);
        const TextureReport rep = replace_texture(m, image, 1, want, to_format(format));
        BOOST_TEST(rep.resized);
        BOOST_TEST(rep.palette_added);
        BOOST_TEST(rep.max_delta_e == 0.0);  // few lattice colours: exact
        const Model after = stadiumtest::edit_round_trip(r, 1, image);
        const auto& tex = after.textures[1];
        BOOST_TEST((tex.format == format));
        BOOST_TEST(tex.descriptor.fmt == 2u);  // G_IM_FMT_CI
        BOOST_TEST(tex.descriptor.texel_count == 256u);
        BOOST_TEST_REQUIRE(after.palettes.size() == m.palettes.size() + 1);
        BOOST_TEST_REQUIRE(rep.palette.has_value());
        BOOST_TEST(*rep.palette == m.palettes.size());
        const ModelPalette& pal = after.palettes[*rep.palette];
        BOOST_TEST(pal.color_count == (format == mod::n64::TexelFormat::ci4 ? 16u : 256u));
        BOOST_TEST((pal.format == mod::n64::TlutFormat::rgba5551));
        BOOST_TEST_REQUIRE(pal.load.has_value());
        BOOST_TEST(pal.load->count == pal.color_count);
        BOOST_TEST(pal.load->address == pal.colors);
        for (std::size_t mi : after.materials_with_texture(1)) {
            BOOST_TEST(after.materials[mi].palette == static_cast<std::int16_t>(*rep.palette));
            BOOST_TEST_REQUIRE(after.materials[mi].load.has_value());
            BOOST_TEST((after.materials[mi].load->format() == format));
            BOOST_TEST(after.materials[mi].load->render.palette == 0u);
        }
        BOOST_TEST((decode_texture_rgba(after, 1) == want.pixels));
        // Texture 0 and its palette are untouched.
        BOOST_TEST((decode_texture_rgba(after, 0) == decode_texture_rgba(m, 0)));
        BOOST_TEST((after.palettes[0].entries == m.palettes[0].entries));
    }
}

BOOST_AUTO_TEST_CASE(ci_to_direct_colour_detaches_the_palette) {
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 1);  // texture 0: CI4 32 × 32 through palette 0
    BOOST_TEST_REQUIRE((m.textures[0].format == mod::n64::TexelFormat::ci4));
    const auto want = lattice_image(32, 32, 50);
    FragmentImage image(m.fragment);
    const TextureReport rep = replace_texture(m, image, 0, want, to_format(mod::n64::TexelFormat::rgba16));
    BOOST_TEST(rep.palette_detached);
    BOOST_TEST(!rep.palette_added);
    BOOST_TEST(rep.max_delta_e == 0.0);
    const Model after = stadiumtest::edit_round_trip(r, 1, image);
    BOOST_TEST((after.textures[0].format == mod::n64::TexelFormat::rgba16));
    BOOST_TEST(after.textures[0].descriptor.fmt == 0u);
    BOOST_TEST(after.palettes.size() == m.palettes.size());  // the palette stays in the table
    for (std::size_t mi : after.materials_with_texture(0)) {
        BOOST_TEST(after.materials[mi].palette == -1);
        BOOST_TEST((after.materials[mi].load->format() == mod::n64::TexelFormat::rgba16));
    }
    BOOST_TEST((decode_texture_rgba(after, 0) == want.pixels));
    BOOST_TEST((decode_texture_rgba(after, 1) == decode_texture_rgba(m, 1)));
}

BOOST_AUTO_TEST_CASE(format_class_changes_are_refused_where_they_cannot_be_right) {
    const stadiumtest::SampleRom r;
    // Model 0's first material animates its texture (channel 0): its palette serves every frame.
    const Model animated = read_archive_model(r.archive, 0);
    FragmentImage image(animated.fragment);
    const auto e = modtest::catch_error(
        [&] { replace_texture(animated, image, 0, lattice_image(64, 32, 4), to_format(mod::n64::TexelFormat::rgba16)); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == mod::ErrorKind::conflict));
    BOOST_TEST(!image.modified());
    // Without allow_resize a format change is a usage error; shared mode cannot create a palette.
    const Model m = read_archive_model(r.archive, 1);
    FragmentImage image2(m.fragment);
    TextureReplaceOptions no_resize;
    no_resize.format = mod::n64::TexelFormat::ci8;
    BOOST_TEST((modtest::catch_error([&] { replace_texture(m, image2, 1, lattice_image(16, 16, 4), no_resize); })->kind() ==
                mod::ErrorKind::usage));
    TextureReplaceOptions shared = to_format(mod::n64::TexelFormat::ci8);
    shared.mode = CiMode::shared;
    BOOST_TEST((modtest::catch_error([&] { replace_texture(m, image2, 1, lattice_image(16, 16, 4), shared); })->kind() ==
                mod::ErrorKind::usage));
    BOOST_TEST(!image2.modified());
}

BOOST_AUTO_TEST_CASE(cli_switches_a_texture_to_ci8) {
    modtest::TempDir dir;
    const auto rom = stadiumtest::sample_rom().string();
    auto r = modtest::run_cli({"stadium", "textures", rom, "1", (dir / "png").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    r = modtest::run_cli({"stadium", "texture", "replace", rom, "1", (dir / "out.z64").string(), "--texture", "1", "--png",
                          (dir / "png" / "tex001.png").string(), "--format", "ci8", "--resize", "--json"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"palette_added\": true") != std::string::npos, r.out);
    const Model after = read_archive_model(read_archive(load_rom(dir / "out.z64")), 1);
    BOOST_TEST((after.textures[1].format == mod::n64::TexelFormat::ci8));
}

BOOST_AUTO_TEST_SUITE_END()
