// Recolouring and texture replacement: every mode on the sample ROM (or a builder model where
// the sample has no shared palette), then repack, re-extract and check the colours, the other
// textures and the relocation cross-check; over-limit and invalid edits.
#include "stadium_test_support.hpp"

#include "libmod/image/colour.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"
#include "libmod/stadium/texture_edit.hpp"

#include <boost/test/unit_test.hpp>

using namespace mod::stadium;
namespace img = mod::image;

namespace {

img::RgbaImage texture_image(const Model& m, std::size_t t) {
    return {m.textures[t].descriptor.width, m.textures[t].descriptor.height, decode_texture_rgba(m, t)};
}

// A model with two CI4 textures drawn through one RGBA5551 palette: texture 0 uses slots 0..7,
// texture 1 slots 8..15.
mod::Bytes shared_palette_model() {
    std::vector<std::uint16_t> colours(16);
    for (std::size_t i = 0; i < 16; ++i) colours[i] = static_cast<std::uint16_t>(((i * 2) << 11) | ((31 - i) << 6) | (i << 1) | 1);
    return stadiumtest::two_textures_one_palette(3, colours, false);
}

// A gradient image with a few distinct colours, all on the RGBA5551 lattice.
img::RgbaImage gradient(std::uint32_t w, std::uint32_t h, unsigned levels) {
    img::RgbaImage im{w, h, {}};
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            const auto v = static_cast<std::uint8_t>(((x + y) % levels) * (255 / (levels - 1)));
            const img::Rgba8 c = img::snap_rgba5551({v, static_cast<std::uint8_t>(255 - v), 64, 255});
            im.pixels.insert(im.pixels.end(), {c.r, c.g, c.b, c.a});
        }
    return im;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_recolour)

BOOST_AUTO_TEST_CASE(palette_set_reaches_the_rom_and_reports_rounding) {
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 0);
    FragmentImage image(m.fragment);
    const img::SlotColour req[] = {{1, {255, 0, 0, 255}}, {2, {0x12, 0x34, 0x56, 255}}};
    const auto rep = set_palette_slots(m, image, 0, req);
    BOOST_TEST(rep.changes.size() == 2u);
    BOOST_TEST(!rep.changes[0].rounded());
    BOOST_TEST(rep.changes[1].rounded());
    BOOST_TEST(rep.rounded() == 1u);
    BOOST_CHECK((rep.textures == std::vector<std::size_t>{0}));
    const Model after = stadiumtest::edit_round_trip(r, 0, image);
    BOOST_TEST(after.palettes[0].entries[1] == 0xF801);
    BOOST_TEST(after.palettes[0].entries[2] == img::to_rgba5551({0x12, 0x34, 0x56, 255}));
    for (std::size_t i = 3; i < 16; ++i) BOOST_TEST(after.palettes[0].entries[i] == m.palettes[0].entries[i]);
    for (std::size_t t = 0; t < m.textures.size(); ++t) BOOST_TEST(after.textures[t].data == m.textures[t].data);
    BOOST_TEST(after.palettes[1].entries == m.palettes[1].entries);
}

BOOST_AUTO_TEST_CASE(palette_hsv_keeps_locked_slots) {
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 2);
    FragmentImage image(m.fragment);
    const unsigned locked[] = {0, 5};
    const auto rep = shift_palette_hsv(m, image, 1, {120, 1, 1}, {}, locked);
    BOOST_TEST(rep.changes.size() == 254u);
    const Model after = stadiumtest::edit_round_trip(r, 2, image);
    BOOST_TEST(after.palettes[1].entries[0] == m.palettes[1].entries[0]);
    BOOST_TEST(after.palettes[1].entries[5] == m.palettes[1].entries[5]);
    std::size_t changed = 0;
    for (std::size_t i = 0; i < 256; ++i) changed += after.palettes[1].entries[i] != m.palettes[1].entries[i];
    BOOST_TEST(changed > 200u);
    BOOST_TEST(after.palettes[0].entries == m.palettes[0].entries);
    // A locked slot named in a set request is a conflict, and nothing is written.
    FragmentImage again(m.fragment);
    const img::SlotColour req[] = {{5, {1, 2, 3, 255}}};
    BOOST_CHECK_THROW(set_palette_slots(m, again, 1, req, locked), mod::Error);
    BOOST_TEST(!again.modified());
}

BOOST_AUTO_TEST_CASE(direct_colour_texture_replace_in_place) {
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 1);
    FragmentImage image(m.fragment);
    const img::RgbaImage want = gradient(16, 16, 4);
    const auto rep = replace_texture(m, image, 1, want);
    BOOST_TEST(!rep.resized);
    BOOST_TEST(rep.max_delta_e < 1e-9);
    const Model after = stadiumtest::edit_round_trip(r, 1, image);
    BOOST_TEST(decode_texture_rgba(after, 1) == want.pixels);
    BOOST_TEST(after.textures[0].data == m.textures[0].data);
    BOOST_TEST(after.textures[1].texels == m.textures[1].texels);  // same place
}

BOOST_AUTO_TEST_CASE(ci_reindex_maps_onto_the_existing_palette) {
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 0);
    // An image made only of palette colours (slot order reversed) reindexes exactly.
    img::RgbaImage want = texture_image(m, 0);
    const auto slots = slots_used(m, 0);
    BOOST_REQUIRE(slots.size() >= 2u);
    for (std::size_t i = 0; i < want.pixel_count(); ++i) {
        const img::Rgba8 c = img::from_rgba5551(m.palettes[0].entries[(i * 7) % 16]);
        if (c.a < 128) continue;
        want.pixels[4 * i] = c.r, want.pixels[4 * i + 1] = c.g, want.pixels[4 * i + 2] = c.b, want.pixels[4 * i + 3] = c.a;
    }
    FragmentImage image(m.fragment);
    TextureReplaceOptions o;
    o.mode = CiMode::reindex;
    const auto rep = replace_texture(m, image, 0, want, o);
    BOOST_TEST(rep.written_slots.empty());
    BOOST_TEST(rep.max_delta_e < 1e-9);
    const Model after = stadiumtest::edit_round_trip(r, 0, image);
    BOOST_TEST(after.palettes[0].entries == m.palettes[0].entries);
    const mod::Bytes got = decode_texture_rgba(after, 0);
    for (std::size_t i = 0; i < want.pixel_count(); ++i)
        if (want.pixels[4 * i + 3] >= 128) BOOST_TEST(got[4 * i] == want.pixels[4 * i]);
}

BOOST_AUTO_TEST_CASE(ci_fork_gives_the_texture_its_own_palette) {
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 0);
    FragmentImage image(m.fragment);
    TextureReplaceOptions o;
    o.mode = CiMode::fork;
    const img::RgbaImage want = gradient(m.textures[0].descriptor.width, m.textures[0].descriptor.height, 6);
    const auto rep = replace_texture(m, image, 0, want, o);
    BOOST_TEST(rep.palette_forked);
    BOOST_CHECK((rep.palette == std::optional<std::size_t>(m.palettes.size())));
    BOOST_TEST(rep.max_delta_e < 3.0);
    const Model after = stadiumtest::edit_round_trip(r, 0, image);
    BOOST_REQUIRE_EQUAL(after.palettes.size(), m.palettes.size() + 1);
    for (std::size_t p = 0; p < m.palettes.size(); ++p) BOOST_TEST(after.palettes[p].entries == m.palettes[p].entries);
    BOOST_TEST(after.palettes.back().color_count == 16u);
    BOOST_REQUIRE(after.palettes.back().load);
    BOOST_TEST(after.palettes.back().load->address == after.palettes.back().colors);
    BOOST_TEST(after.materials[0].palette == static_cast<std::int16_t>(m.palettes.size()));
    BOOST_TEST(after.warnings.empty());
    const mod::Bytes got = decode_texture_rgba(after, 0);
    double worst = 0;
    for (std::size_t i = 0; i < want.pixel_count(); ++i)
        worst = std::max(worst, img::delta_e(want.at(i), img::Rgba8{got[4 * i], got[4 * i + 1], got[4 * i + 2], got[4 * i + 3]}));
    BOOST_TEST(worst == rep.max_delta_e, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(after.textures[1].data == m.textures[1].data);
}

BOOST_AUTO_TEST_CASE(ci_constrained_locks_other_textures_slots) {
    const Model m = read_model(shared_palette_model());
    BOOST_REQUIRE_EQUAL(m.textures.size(), 2u);
    BOOST_TEST(slots_used(m, 1).size() == 8u);
    FragmentImage image(m.fragment);
    TextureReplaceOptions o;
    o.mode = CiMode::constrained;
    const img::RgbaImage want = gradient(8, 8, 5);
    const auto rep = replace_texture(m, image, 0, want, o);
    BOOST_TEST(rep.touched.empty());
    for (unsigned s : rep.written_slots) BOOST_TEST(s < 8u);
    const Model after = read_model(encode_fragment(image.build()));
    for (std::size_t i = 8; i < 16; ++i) BOOST_TEST(after.palettes[0].entries[i] == m.palettes[0].entries[i]);
    BOOST_TEST(decode_texture_rgba(after, 1) == decode_texture_rgba(m, 1));
    BOOST_TEST(after.textures[1].data == m.textures[1].data);
    BOOST_TEST(cross_check(after.fragment, after.map).ok());
    // Reindexing instead changes no palette slot; a hsv edit of the palette touches both.
    FragmentImage hsv(m.fragment);
    BOOST_TEST(shift_palette_hsv(m, hsv, 0, {30, 1, 1}).textures.size() == 2u);
}

BOOST_AUTO_TEST_CASE(ci_shared_quantises_textures_jointly) {
    const Model m = read_model(shared_palette_model());
    FragmentImage image(m.fragment);
    const std::size_t textures[] = {0, 1};
    const img::RgbaImage imgs[] = {gradient(8, 8, 4), gradient(8, 8, 3)};
    TextureReplaceOptions o;
    o.mode = CiMode::shared;
    const auto reps = replace_textures_shared(m, image, textures, imgs, o);
    BOOST_REQUIRE_EQUAL(reps.size(), 2u);
    const Model after = read_model(encode_fragment(image.build()));
    BOOST_TEST(cross_check(after.fragment, after.map).ok());
    for (std::size_t k = 0; k < 2; ++k) {
        BOOST_TEST(reps[k].max_delta_e < 1.0);  // ≤ 16 distinct colours: exact up to RGBA5551
        const mod::Bytes got = decode_texture_rgba(after, k);
        for (std::size_t i = 0; i < imgs[k].pixel_count(); ++i)
            BOOST_TEST(img::delta_e(imgs[k].at(i), img::Rgba8{got[4 * i], got[4 * i + 1], got[4 * i + 2], 255}) < 1.0);
    }
    // Mixing palettes is refused.
    const stadiumtest::SampleRom r;
    const Model s = read_archive_model(r.archive, 0);
    FragmentImage si(s.fragment);
    const std::size_t mixed[] = {0, 1};
    BOOST_CHECK_THROW(replace_textures_shared(s, si, mixed, imgs, o), mod::Error);
}

BOOST_AUTO_TEST_CASE(resize_rewrites_descriptor_and_load_words) {
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 1);
    const img::RgbaImage want = gradient(32, 16, 4);
    {
        FragmentImage image(m.fragment);
        try {
            replace_texture(m, image, 1, want);
            BOOST_FAIL("a size change without allow_resize was accepted");
        } catch (const mod::Error& e) {
            BOOST_TEST(e.kind() == mod::ErrorKind::usage);
        }
    }
    FragmentImage image(m.fragment);
    TextureReplaceOptions o;
    o.allow_resize = true;
    const auto rep = replace_texture(m, image, 1, want, o);
    BOOST_TEST(rep.resized);
    const Model after = stadiumtest::edit_round_trip(r, 1, image);
    BOOST_TEST(after.textures[1].descriptor.width == 32u);
    BOOST_TEST(after.textures[1].descriptor.height == 16u);
    BOOST_TEST(after.textures[1].descriptor.texel_count == 512u);
    BOOST_TEST(decode_texture_rgba(after, 1) == want.pixels);
    const auto mats = after.materials_with_texture(1);
    BOOST_REQUIRE(!mats.empty());
    BOOST_REQUIRE(after.materials[mats[0]].load);
    BOOST_TEST(after.materials[mats[0]].load->width == 32u);
    BOOST_TEST(after.materials[mats[0]].load->height == 16u);
    BOOST_TEST(after.textures[0].data == m.textures[0].data);
}

BOOST_AUTO_TEST_CASE(over_limit_and_invalid_edits_are_refused) {
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 1);
    FragmentImage image(m.fragment);
    TextureReplaceOptions o;
    o.allow_resize = true;
    // 512 x 256 texels do not fit the descriptor's u16 texel count.
    try {
        replace_texture(m, image, 1, gradient(512, 256, 2), o);
        BOOST_FAIL("accepted");
    } catch (const mod::Error& e) {
        BOOST_TEST(e.kind() == mod::ErrorKind::limit);
    }
    // 128 x 64 RGBA16 does not fit TMEM.
    BOOST_CHECK_THROW(replace_texture(m, image, 1, gradient(128, 64, 2), o), mod::Error);
    BOOST_CHECK_THROW(replace_texture(m, image, 9, gradient(16, 16, 2)), mod::Error);
    BOOST_CHECK_THROW(set_palette_slots(m, image, 4, {}), mod::Error);
    const img::SlotColour bad[] = {{16, {1, 2, 3, 255}}};
    BOOST_CHECK_THROW(set_palette_slots(m, image, 0, bad), mod::Error);
    // A fragment that outgrows the model budget is refused before the repack.
    RuntimeLimits tight;
    tight.model_block = 0x400;
    try {
        check_model_limits(m.fragment, 1, tight);
        BOOST_FAIL("accepted");
    } catch (const mod::Error& e) {
        BOOST_TEST(e.kind() == mod::ErrorKind::limit);
    }
}

BOOST_AUTO_TEST_CASE(fork_past_255_palettes_is_a_limit_error) {
    ModelBuilder b(9);
    for (int i = 0; i < 255; ++i) b.add_palette(std::vector<std::uint16_t>(16, static_cast<std::uint16_t>(i * 2 + 1)));
    const auto tex = b.add_texture(TexFormat::ci, TexSize::b4, 8, 8, mod::Bytes(32, 0x12));
    const auto mat = b.add_material_dl(tex);
    std::vector<Vertex> v(3);
    const auto first = b.add_vertices(v);
    DisplayList dl;
    dl.vtx(first, 3, 0).tri1(0, 1, 2).end();
    const auto d = b.add_display_list(std::move(dl));
    b.layout().model_header().open().material(1, -1, mat, tex, 0, 0xFFFFFFFF).draw(1, d).close().end();
    const Model m = read_model(b.build());
    BOOST_REQUIRE_EQUAL(m.palettes.size(), 255u);
    FragmentImage image(m.fragment);
    TextureReplaceOptions o;
    o.mode = CiMode::fork;
    try {
        replace_texture(m, image, 0, gradient(8, 8, 3), o);
        BOOST_FAIL("a 256th palette was accepted");
    } catch (const mod::Error& e) {
        BOOST_TEST(e.kind() == mod::ErrorKind::limit);
    }
    // Reindexing onto the existing palette still works.
    o.mode = CiMode::reindex;
    BOOST_TEST(replace_texture(m, image, 0, gradient(8, 8, 3), o).texture == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
