// Issue 17, "a forge that can fail", Stadium (review §5.3 items 1 and 8): the sample models
// now carry non-zero bone rest rotations, a render tile with mirror/clamp wrap and unlit
// geometry with RGBA vertex colours (libmod/src/sample/stadium_cases.cpp). Each decoded value
// is checked against what the decompilation and the F3DEX2 encoding say, computed by hand.
#include "stadium_test_support.hpp"

#include "libmod/n64/gbi.hpp"
#include "libmod/sample/stadium.hpp"
#include "libmod/scene/model.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/model.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace mod::stadium;

namespace {

bool near(float a, double b) { return std::fabs(double(a) - b) < 1e-4; }

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_forge_cases)

// R12/R13 on the sample: model 2 has four nested bones; bone 1 turns 0x4000 about y, bone 2
// 0x2000 about x, each translated by (0, 60, 0) from its parent.
BOOST_AUTO_TEST_CASE(sample_bones_have_binary_angle_rest_rotations) {
    const Model model = read_model(mod::sample::stadium_model(2));
    BOOST_REQUIRE_EQUAL(model.bones.size(), 4u);
    BOOST_TEST(model.bones[1].rotation == (std::array<std::int16_t, 3>{0, 0x4000, 0}));
    BOOST_TEST(model.bones[2].rotation == (std::array<std::int16_t, 3>{0x2000, 0, 0}));
    const mod::scene::Scene s = model_scene(model);
    // 0x4000 = 90°: Ry(90°) = [[0 0 1] [0 1 0] [−1 0 0]], translation (0, 60, 0).
    const double b1[16] = {0, 0, 1, 0, 0, 1, 0, 60, -1, 0, 0, 0, 0, 0, 0, 1};
    // 0x2000 = 45°, under bone 1: Ry(90°)·Rx(45°) = [[0 s c] [0 c −s] [−1 0 0]] (c = s = √2/2);
    // translation Ry(90°)·(0, 60, 0) + (0, 60, 0) = (0, 120, 0).
    const double c = std::sqrt(0.5);
    const double b2[16] = {0, c, c, 0, 0, c, -c, 120, -1, 0, 0, 0, 0, 0, 0, 1};
    for (int i = 0; i < 16; ++i) {
        BOOST_TEST(near(s.skeleton.bones[1].bind[i], b1[i]), "bone 1 [" << i << "] = " << s.skeleton.bones[1].bind[i]);
        BOOST_TEST(near(s.skeleton.bones[2].bind[i], b2[i]), "bone 2 [" << i << "] = " << s.skeleton.bones[2].bind[i]);
    }
}

// G_SETTILE's cms/cmt bits (G_TX_MIRROR = 1, G_TX_CLAMP = 2): the RGBA16 texture's render tile
// mirrors S and clamps T; the CI4 texture's repeats. Export maps them to glTF wrap modes.
BOOST_AUTO_TEST_CASE(sample_material_has_mirror_and_clamp_wrap) {
    const Model model = read_model(mod::sample::stadium_model(0));
    std::size_t rgba = 0, ci4 = 0;
    for (const auto& mt : model.materials) {
        BOOST_REQUIRE(mt.load);
        const auto& r = mt.load->render;
        if (mt.texture == 1) {  // the RGBA16 texture (second added)
            ++rgba;
            BOOST_TEST(r.s.cm == 1u);
            BOOST_TEST(r.s.mirror());
            BOOST_TEST(!r.s.clamp());
            BOOST_TEST(r.t.cm == 2u);
            BOOST_TEST(r.t.clamp());
            BOOST_TEST(!r.t.mirror());
        } else if (mt.texture == 0) {
            ++ci4;
            BOOST_TEST(r.s.cm == 0u);
            BOOST_TEST(r.t.cm == 0u);
        }
    }
    BOOST_TEST(rgba >= 1u);
    BOOST_TEST(ci4 >= 1u);
    const mod::scene::Scene s = model_scene(model);
    bool seen = false;
    for (const auto& info : s.material_info)
        if (info.texture && info.texture->wrap_s == mod::scene::TextureWrap::mirrored_repeat) {
            seen = true;
            BOOST_TEST((info.texture->wrap_t == mod::scene::TextureWrap::clamp_to_edge));
        }
    BOOST_TEST(seen);
}

// Unlit geometry: model 1's last bone (2) draws with G_GEOMETRYMODE 0x00200405 (no G_LIGHTING
// 0x00020000), so vertex bytes 12..15 are RGBA colours, exported as COLOR_0.
BOOST_AUTO_TEST_CASE(sample_unlit_bone_has_rgba_vertex_colours) {
    const Model model = read_model(mod::sample::stadium_model(1));
    BOOST_REQUIRE_EQUAL(model.bones.size(), 3u);
    // Boxes are 8 vertices per bone in bone order: bone 2's are 16..23.
    for (int c = 0; c < 8; ++c) {
        const auto& v = model.vertices.at(16 + std::size_t(c));
        BOOST_TEST(v.colour == (std::array<std::uint8_t, 4>{0xFF, static_cast<std::uint8_t>(0x80 | (c * 8)), 0x20, 0xFF}));
    }
    std::size_t unlit = 0, lit = 0;
    for (const auto& t : model.triangles) {
        const bool is_lit = (t.geometry_mode & mod::n64::gbi::g_lighting) != 0;
        const auto bone = model.draws[t.corners[0].dl].bone;
        if (bone == 2 && t.corners[0].vertex >= 16) {
            BOOST_TEST(!is_lit);
            BOOST_TEST(t.geometry_mode == 0x00200405u);
            ++unlit;
        } else {
            lit += is_lit;
        }
    }
    BOOST_TEST(unlit == 5u);  // the box's 5 triangles (2 + 2 + 1), the stitch uses bone 1's vertices
    BOOST_TEST(lit > 0u);
    // Export: COLOR_0 is linear; the sRGB transfer (IEC 61966-2-1) of 0x80 and 0x20:
    // ((v / 255 + 0.055) / 1.055)^2.4 = 0.21586 and 0.01444; alpha 0xFF stays 1.
    auto linear = [](double v) { return std::pow((v / 255.0 + 0.055) / 1.055, 2.4); };
    const mod::scene::Scene s = model_scene(model);
    bool found = false;
    for (const auto& m : s.meshes)
        for (const auto& col : m.colours)
            found |= near(col[0], 1.0) && near(col[1], linear(0x80)) && near(col[2], linear(0x20)) && near(col[3], 1.0);
    BOOST_TEST(near(float(linear(0x80)), 0.21586));
    BOOST_TEST(found);
}

// R9 on the sample: the last model's palette 0 TLUT list loads 12 colours from the entry's
// colours + 8 bytes; the list is authoritative, so the palette is the stored colours 4..15.
BOOST_AUTO_TEST_CASE(sample_tlut_list_overrides_its_table_entry) {
    const mod::Bytes frag = mod::sample::stadium_model(13);
    const Model model = read_model(frag);
    const ModelPalette& p = model.palettes.at(0);
    BOOST_TEST(p.overridden());
    BOOST_TEST(p.entry_count == 16u);
    BOOST_TEST(p.color_count == 12u);
    BOOST_TEST(p.colors == p.entry_colors + 8);
    BOOST_REQUIRE(p.entries.size() == 12u);
    for (std::size_t k = 0; k < 12; ++k) {
        const std::size_t at = p.entry_colors - model_link_base + 8 + 2 * k;  // stored colour 4 + k
        BOOST_TEST(p.entries[k] == std::uint16_t((frag[at] << 8) | frag[at + 1]));
    }
    bool warned = false;
    for (const auto& w : model.warnings) warned = warned || w.find("decoded with what the list loads") != std::string::npos;
    BOOST_TEST(warned);
    // The other models' lists load what their entries say.
    for (std::size_t i : {0u, 1u, 12u}) BOOST_TEST(!read_model(mod::sample::stadium_model(i)).palettes.at(0).overridden());
}

BOOST_AUTO_TEST_SUITE_END()
