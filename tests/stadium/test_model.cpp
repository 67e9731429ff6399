// The typed model: walking builder-made models and the sample ROM's models, compared with what
// the builder/forge put in; broken layouts (0x12, loops, truncation, flipped bytes).
#include "stadium_test_support.hpp"

#include "libmod/stadium/model.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <boost/test/unit_test.hpp>

using namespace mod::stadium;

namespace {

std::uint32_t be32(const mod::Bytes& b, std::size_t at) {
    return (std::uint32_t(b[at]) << 24) | (std::uint32_t(b[at + 1]) << 16) | (std::uint32_t(b[at + 2]) << 8) | b[at + 3];
}
void put32(mod::Bytes& b, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_model)

BOOST_AUTO_TEST_CASE(small_model_matches_what_the_builder_wrote) {
    const mod::Bytes bytes = stadiumtest::small_model(7);
    const Model m = read_model(bytes);
    BOOST_TEST(m.root.model_id == 7);
    BOOST_REQUIRE(m.root_scale);
    BOOST_TEST((*m.root_scale)[1] == 0x10000);
    BOOST_REQUIRE_EQUAL(m.bones.size(), 2u);
    BOOST_TEST(m.bones[0].parent == -1);
    BOOST_TEST(m.bones[1].parent == 0);
    BOOST_TEST(m.bones[1].id == 1);
    BOOST_TEST(m.bones[1].channel == 1);
    BOOST_TEST(m.bones[1].translation[1] == 40);
    BOOST_TEST(m.bones[1].rotation[2] == 0x4000);  // 90° as a binary angle
    BOOST_TEST(m.bones[1].scale[0] == 0x10000);
    BOOST_REQUIRE_EQUAL(m.materials.size(), 2u);
    BOOST_TEST(m.materials[0].texture == 0);
    BOOST_TEST(m.materials[0].palette == 0);
    BOOST_TEST(m.materials[0].texture_channel == 0);
    BOOST_TEST(m.materials[0].bone == 0);
    BOOST_TEST(m.materials[1].palette == -1);
    BOOST_TEST(m.materials[1].prim_colour == 0xFF8040FFu);
    BOOST_TEST(m.materials[1].bone == 1);
    BOOST_REQUIRE(m.materials[0].load);
    BOOST_TEST(m.materials[0].load->width == 16u);
    BOOST_TEST(m.materials[0].load->height == 16u);
    BOOST_REQUIRE_EQUAL(m.textures.size(), 2u);
    BOOST_CHECK((m.textures[0].format == mod::n64::TexelFormat::ci4));
    BOOST_TEST(m.textures[0].descriptor.texel_count == 256u);
    mod::Bytes ci4(16 * 16 / 2);
    for (std::size_t i = 0; i < ci4.size(); ++i) ci4[i] = static_cast<std::uint8_t>(i * 7);
    BOOST_TEST(m.textures[0].data == ci4);
    BOOST_CHECK((m.textures[1].format == mod::n64::TexelFormat::rgba16));
    BOOST_TEST(m.textures[1].data == mod::Bytes(128, 0x5A));
    BOOST_REQUIRE_EQUAL(m.palettes.size(), 1u);
    BOOST_TEST(m.palettes[0].color_count == 16u);
    for (std::size_t i = 0; i < 16; ++i) BOOST_TEST(m.palettes[0].entries[i] == static_cast<std::uint16_t>(i * 0x0842 | 1));
    BOOST_REQUIRE(m.palettes[0].load);
    BOOST_TEST(m.palettes[0].load->count == 16u);
    BOOST_TEST(m.palettes[0].load->address == m.palettes[0].colors);
    BOOST_REQUIRE_EQUAL(m.vertices.size(), 16u);
    BOOST_TEST(m.vertices[5].position[0] == 15);
    BOOST_TEST(m.vertices[5].position[1] == 25);
    BOOST_REQUIRE_EQUAL(m.draws.size(), 3u);
    BOOST_TEST(m.draws[0].bone == 0);
    BOOST_TEST(m.draws[1].bone == 1);
    BOOST_TEST(m.draws[2].op == 0x1E);
    BOOST_TEST(m.draws[2].bone == 0);
    BOOST_TEST(m.draws[2].material == 1);
    // 2 + 3 + 2 (the wrapper calls the first list again) triangles.
    BOOST_REQUIRE_EQUAL(m.triangles.size(), 7u);
    // Bone 1's list draws (0, 1, 8): slots 0 and 1 were loaded under bone 0.
    const auto& t = m.triangles[2];
    BOOST_TEST(t.dl == 1u);
    BOOST_TEST(t.corners[0].dl == 0u);
    BOOST_TEST(t.corners[2].dl == 1u);
    BOOST_TEST(t.corners[2].vertex == 8u);
    BOOST_TEST(m.warnings.empty());
    BOOST_CHECK((m.materials_with_palette(0) == std::vector<std::size_t>{0}));
    BOOST_CHECK((palette_for_texture(m, 0) == std::optional<std::size_t>(0)));
    const mod::Bytes rgba = decode_texture_rgba(m, 0);
    BOOST_TEST(rgba.size() == 16u * 16 * 4);
}

BOOST_AUTO_TEST_CASE(every_sample_model_walks_like_the_forge_built_it) {
    const auto rom = load_rom(stadiumtest::sample_rom());
    const auto archive = read_archive(rom);
    BOOST_REQUIRE_EQUAL(archive.entries.size(), 14u);
    for (std::size_t i = 0; i < archive.entries.size(); ++i) {
        BOOST_TEST_CONTEXT("entry " << i) {
            const Model m = read_archive_model(archive, i);
            const std::size_t bones = 2 + i % 4;
            BOOST_TEST(m.root.model_id == i + 1);
            BOOST_TEST(m.bones.size() == bones);
            // A chain, except model 5, whose 0x00 sub-script makes bone 2 bone 0's child
            // (test_forge_layout.cpp).
            for (std::size_t b = 1; b < bones; ++b)
                BOOST_TEST(m.bones[b].parent == static_cast<int>(i == 5 && b == 2 ? 0 : b - 1));
            // CI4/RGBA16 (+ CI8 on even models), + a CI4 and an RGBA16 frame texture on models with
            // texture animations (every third, stadium_animations.cpp), + model 11's texture page.
            BOOST_TEST(m.textures.size() == (i % 2 == 0 ? 3u : 2u) + (i % 3 == 0 ? 2u : 0u) + (i == 11 ? 16u : 0u));
            BOOST_TEST(m.palettes.size() == (i % 2 == 0 ? 2u : 1u));
            BOOST_TEST(m.textures[0].descriptor.width == (i % 3 == 0 ? 64u : 32u));
            BOOST_CHECK((m.textures[1].format == mod::n64::TexelFormat::rgba16));
            BOOST_TEST(m.vertex_count == 8 * bones);
            BOOST_TEST(m.materials.size() == bones);
            BOOST_TEST(m.materials[0].texture_channel == (i % 3 == 0 ? 0 : -1));
            // Each bone: 5 triangles, 2 more stitched to the previous bone; the wrapper redraws bone 0
            // (on model 5 also through its 0x20 and 0x21 nodes).
            BOOST_TEST(m.triangles.size() == 5 * bones + 2 * (bones - 1) + 5 * (i == 5 ? 3 : 1));
            BOOST_TEST(cross_check(m.fragment, m.map).ok());
            for (const auto& t : m.textures) BOOST_TEST(t.data.size() == mod::n64::texel_bytes(*t.format, t.descriptor.texel_count));
        }
    }
}

BOOST_AUTO_TEST_CASE(command_0x12_and_loops_are_refused) {
    const mod::Bytes bytes = stadiumtest::small_model();
    const Model m = read_model(bytes);
    const std::uint32_t body_start = 0;  // body offsets equal buffer offsets
    // 0x12 in place of the first 0x05.
    for (const auto& c : m.commands)
        if (c.op == 0x05) {
            mod::Bytes b = bytes;
            b[body_start + c.offset] = 0x12;
            try {
                read_model(b);
                BOOST_FAIL("0x12 accepted");
            } catch (const mod::Error& e) {
                BOOST_TEST(e.kind() == mod::ErrorKind::format);
                BOOST_TEST(std::string(e.what()).find("0x12") != std::string::npos);
            }
            break;
        }
    // The 0x1C scale command becomes a jump back to the script start: a loop.
    for (const auto& c : m.commands)
        if (c.op == 0x1C) {
            mod::Bytes b = bytes;
            put32(b, c.offset, 0x02000000);
            put32(b, c.offset + 4, m.fragment.link_base() + m.map.layout_scripts[0]);
            BOOST_CHECK_THROW(read_model(b), mod::Error);
            break;
        }
    BOOST_TEST(be32(bytes, 8) == 0x46524147u);  // "FRAG": the test edited a real fragment
}

BOOST_AUTO_TEST_CASE(truncated_and_flipped_models_fail_cleanly) {
    const mod::Bytes bytes = stadiumtest::small_model();
    const auto rejected = modtest::truncation_loop(bytes, [](mod::ByteView v) { read_model(v); });
    BOOST_TEST(rejected > 0u);
    const auto flipped = modtest::byte_flip_loop(bytes, [](mod::ByteView v) { read_model(v); }, 3);
    BOOST_TEST(flipped > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
