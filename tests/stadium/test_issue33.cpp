// Issue 33 (fidelity review t3): battle table length and context rows (A22, A24), the packed
// index −1 as the hardware reads it (A9), the Hermite order of src/17300.c (A12), the CI4 bank
// of texture-animation frames (A17), and what each palette colours (review §4). Expected
// values are computed by hand in the comments from the decompilation (pret/pokestadium).
#include "stadium_test_support.hpp"

#include "libmod/n64/texel.hpp"
#include "libmod/core/file.hpp"
#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/animation_replace.hpp"
#include "libmod/stadium/battle_table.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/palette_use.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <map>
#include <numeric>
#include <set>

using namespace mod::stadium;

BOOST_AUTO_TEST_SUITE(stadium_issue33)

// 2E460.c D_80075BD0: 156 words, i × 0xB90 for i ≤ 152, then three zeros.
BOOST_AUTO_TEST_CASE(battle_table_length_and_context_rows) {
    BOOST_TEST(battle_pointer_table_words == 156u);
    BOOST_TEST(battle_species_stride * battle_last_species == 0x6DD80u);
    const auto& rom = stadiumtest::sample_rom_bytes();
    const BattleTables t = read_battle_tables(rom, "sample.z64");
    BOOST_TEST(t.words.size() == 156u);
    BOOST_TEST_REQUIRE(t.species.size() == 153u);  // 153..155 are zero
    // 0xBC0 bytes per species: 165 move rows + 23 context rows (0xA50 .. 0xBB0).
    const BattleSpecies& s0 = t.species[0];
    BOOST_TEST(s0.rows.size() == 165u);
    BOOST_TEST_REQUIRE(s0.context_rows.size() == 23u);
    BOOST_TEST(s0.context_rows.front().offset == 0xA50u);
    BOOST_TEST(s0.context_rows.back().offset == 0xBB0u);
    BOOST_TEST(s0.context_rows.front().rom == 0x70D3A0u + 0xA50u);
    BOOST_TEST(s0.context_rows.front().move == 0u);
    // The forge (stadium-sample.md): model 0 has 3 skeletal animations; moves play 0 and 1, the
    // rows 0xA50 and 0xB20 play 2, 0xA80 plays 0, 0xAF0 and 0xB00 play 1.
    std::set<unsigned> by_moves;
    for (const auto& r : s0.rows) by_moves.insert(r.skeletal());
    BOOST_TEST((by_moves == std::set<unsigned>{0, 1}));
    std::map<std::uint32_t, unsigned> played;
    for (const auto& r : s0.context_rows)
        if (r.plays_context_animation()) played[r.offset] = r.skeletal();
    BOOST_TEST((played == std::map<std::uint32_t, unsigned>{{0xA50, 2}, {0xA80, 0}, {0xAF0, 1}, {0xB00, 1}, {0xB20, 2}}));
    // The bytes as stored; 0xB90.. is the next block's first rows (the game's stride).
    BOOST_TEST(rom[0x70D3A0 + 0xA50] == 2u);
    BOOST_TEST((s0.context_rows[(0xB90 - 0xA50) / 16].raw == t.species[1].rows[0].raw));
    // A block whose 0xBC0 bytes leave the ROM: the error names the word. Cut 0x800 bytes into
    // word 152's block (14 × 0xB90): block 13's 0xBC0 bytes still fit (they end 0x30 into it).
    mod::Bytes cut(rom.begin(), rom.begin() + 0x70D3A0 + 0xB90 * 14 + 0x800);
    auto e = modtest::catch_error([&] { read_battle_tables(cut, "cut.z64"); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(std::string(e->what()).find("battle_table[152]") != std::string::npos, e->what());
    BOOST_TEST(std::string(e->what()).find("0xBC0 bytes") != std::string::npos, e->what());

    // Export names the animation the moves never play after its context rows, not "(no move)".
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 0);
    mod::scene::Scene sc = model_scene(m);
    add_animations(sc, m, read_animations(m), &t, 0);
    std::vector<std::string> names;
    for (const auto& a : sc.animations) names.push_back(a.name);
    BOOST_TEST_REQUIRE(names.size() >= 3u);
    BOOST_TEST(names[2] == "anim2 (rows 0xA50,0xB20)");
    BOOST_TEST(names[0].rfind("anim0 (moves 1,3,5,", 0) == 0u, names[0]);
    BOOST_TEST(names[0].find("; row 0xA80)") != std::string::npos, names[0]);
}

// F420.c func_80010500 for index −1: (−bits)/16 truncates (0 for 12 bits, −1 for 16), p % 16 is
// −12 or 0, sllv/srav use the low five bits (−12 → 20, −bits → 32 − bits).
BOOST_AUTO_TEST_CASE(packed_index_minus_one_as_the_hardware_reads_it) {
    AnimationArray arr;
    arr.words = {0x1234, 0x5ABC, 0x9DEF};
    arr.word_before = 0xF00D;
    // 12 bits: (0x1234_5ABC << 20) >> 20 = sign-extended 0xABC = −1348.
    BOOST_TEST(read_packed_field(arr, -1, 12) == -1348);
    // 16 bits: halfwords −1 and 0: (0xF00D_1234 << 0) >> 16 = (s16)0xF00D = −4083.
    BOOST_TEST(read_packed_field(arr, -1, 16) == -4083);
    // Index ≥ 0: the same as read_bitfield.
    for (std::int64_t i = 0; i < 4; ++i) {
        BOOST_TEST(read_packed_field(arr, i, 12) == read_bitfield(arr.words, std::uint32_t(i), 12));
        BOOST_TEST(read_packed_field(arr, i, 16) == read_bitfield(arr.words, std::uint32_t(i), 16));
    }
    // Without the halfword before the array, the 16-bit read takes 0 there: (0x0000_1234) >> 16.
    arr.word_before.reset();
    BOOST_TEST(read_packed_field(arr, -1, 16) == 0);
}

// The same read through a model: count 0 at offset 0 is no longer refused.
BOOST_AUTO_TEST_CASE(count_zero_at_offset_zero_decodes) {
    ModelBuilder b(9);
    auto tex = b.add_texture(TexFormat::rgba, TexSize::b16, 8, 8, mod::Bytes(8 * 8 * 2, 0x11));
    auto mat = b.add_material_dl(tex);
    std::vector<Vertex> v(4);
    auto first = b.add_vertices(v);
    DisplayList dl;
    dl.vtx(first, 4, 0).tri1(0, 1, 2).end();
    auto d = b.add_display_list(std::move(dl));
    SkeletalAnimation a;
    a.frame_count = 2;
    a.channels.resize(3);
    for (auto& c : a.channels) c.scale_off = 1000;
    a.rotation = {0x1234, 0x5ABC};
    a.translation = {0x1234, 0x5ABC};
    a.channels[0].n_rot = 0;
    a.channels[0].rot_off = 0;    // index −1: low 12 bits of halfword 1 = −1348, ×16 = −21568
    a.channels[0].n_trans = 0;
    a.channels[0].trans_off = 0;  // index −1, 12 bits: −1348
    b.add_animation(a);
    auto& s = b.layout();
    s.model_header().open();
    s.bone(0, 0, 0, {0, 0, 0}, {0, 0, 0}, 0x10000, 0x10000, 0x10000);
    s.open().material(1, -1, mat, tex, -1, 0xFFFFFFFF).draw(1, d);
    s.close();
    s.close().end();
    const Model m = read_model(b.build(), "test.fragment");
    const auto data = read_skeletal_animation(m, 0);
    BOOST_TEST(component_kind(data, 0, Component::rotation) == "stream@off-1");
    const ChannelPose p = sample_channel(data, 0, 1);
    BOOST_TEST(p.rotation[0] == -21568);
    BOOST_TEST(p.translation[0] == -1348);
}

// 17300.c func_80016934 evaluated in f32 left to right, against the same statement written
// here with one volatile float per operation (no contraction, no reassociation).
BOOST_AUTO_TEST_CASE(hermite_in_the_order_17300_writes_it) {
    const std::vector<HermiteKey> keys = {{0, 1, 0, 0}, {7, 3, -5, 11}, {19, -2, 4, 9}};
    auto game = [&](std::int32_t t) {
        const std::size_t i = t < 7 ? 0 : 1;
        volatile float x = float(t - keys[i].frame) / 30.0f;
        volatile float y = 30.0f / float(keys[i + 1].frame - keys[i].frame);
        auto mul = [](float a, float b) { volatile float r = a * b; return float(r); };
        const float xxxyyy = mul(mul(mul(mul(mul(mul(2.0f, x), x), x), y), y), y);
        const float mxxxyyy = mul(mul(mul(mul(mul(mul(-2.0f, x), x), x), y), y), y);
        const float xxyy3 = mul(mul(mul(mul(3.0f, x), x), y), y);
        const float xxxyy = mul(mul(mul(mul(float(x), x), x), y), y);
        const float xxy2 = mul(mul(mul(2.0f, x), x), y);
        const float xxy = mul(mul(float(x), x), y);
        volatile float h00 = xxxyyy - xxyy3;
        h00 = h00 + 1.0f;
        volatile float h01 = mxxxyyy + xxyy3;
        volatile float h10 = xxxyy - xxy2;
        h10 = h10 + x;
        volatile float h11 = xxxyy - xxy;
        volatile float sum = mul(float(keys[i].value), h00);
        sum = sum + mul(float(keys[i + 1].value), h01);
        sum = sum + mul(float(keys[i].out_tangent), h10);
        sum = sum + mul(float(keys[i + 1].in_tangent), h11);
        return float(sum);
    };
    for (std::int32_t t = 1; t < 19; ++t) BOOST_TEST(evaluate_hermite(keys, t) == game(t), "t = " << t);
    // Outside the keys: the end values (func_80016934's first two branches).
    BOOST_TEST(evaluate_hermite(keys, 0) == 1.0f);
    BOOST_TEST(evaluate_hermite(keys, 25) == -2.0f);
    // Rotation wrap by repeated ±360 in f32 (func_80016DE0): −90° → 270° → 49152 → −16384;
    // 7200.5 tenths = 720.05° → 0.05° → 0.05 / 360 · 65536 = 9.1 → 9.
    BOOST_TEST(hermite_angle(-900.0f) == -16384);
    BOOST_TEST(hermite_angle(7200.5f) == 9);
}

// 12D80.c swaps only the texture table entry: a CI4 frame texture is drawn through the animated
// material's render tile, so its copy in the export uses that tile's bank.
BOOST_AUTO_TEST_CASE(texture_animation_frames_use_the_material_bank) {
    const stadiumtest::SampleRom r;
    Model m = read_archive_model(r.archive, 0);  // texture animations, a 256-colour palette 1
    const auto anims = read_animations(m);
    BOOST_TEST_REQUIRE(!anims.aux.empty());
    // The CI4 material with a texture channel; give it palette 1 (256 colours) and bank 2.
    std::optional<std::size_t> animated;
    for (std::size_t i = 0; i < m.materials.size(); ++i) {
        const auto& mt = m.materials[i];
        if (mt.texture_channel < 0 || mt.texture < 0 || !mt.load) continue;
        const auto& f = m.textures[std::size_t(mt.texture)].format;
        if (f && *f == mod::n64::TexelFormat::ci4) animated = i;
    }
    BOOST_TEST_REQUIRE(animated.has_value());
    BOOST_TEST_REQUIRE(m.palettes.size() >= 2u);
    BOOST_TEST_REQUIRE(m.palettes[1].entries.size() == 256u);
    m.materials[*animated].palette = 1;
    m.materials[*animated].load->render.palette = 2;
    mod::scene::Scene sc = model_scene(m);
    add_animations(sc, m, anims);
    // The frame textures shown through that material: copies named "<material>_tex<k>".
    std::size_t checked = 0;
    for (std::size_t k = 0; k < m.textures.size(); ++k) {
        const auto& f = m.textures[k].format;
        if (!f || *f != mod::n64::TexelFormat::ci4 || std::int16_t(k) == m.materials[*animated].texture) continue;
        for (std::size_t i = 0; i < sc.materials.size(); ++i) {
            const std::string suffix = "_tex" + std::to_string(k);
            if (sc.materials[i].size() < suffix.size() ||
                sc.materials[i].compare(sc.materials[i].size() - suffix.size(), suffix.size(), suffix) != 0)
                continue;
            BOOST_TEST_REQUIRE(sc.material_info[i].texture.has_value());
            const auto want = decode_texture_rgba(m, k, 1, 2u);
            BOOST_TEST((sc.material_info[i].texture->rgba == want));
            BOOST_TEST((want != decode_texture_rgba(m, k, 1, 0u)));  // bank 0 would differ
            ++checked;
        }
    }
    BOOST_TEST(checked >= 1u);
}

// What each palette colours: the sample's model 0 (palette 0: 16 colours, palette 1: 256).
BOOST_AUTO_TEST_CASE(palette_use_counts_texels) {
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 0);
    const auto uses = palette_use(m);
    BOOST_TEST_REQUIRE(uses.size() == m.palettes.size());
    for (const auto& u : uses) {
        // Every texel of every distinct CI texture its materials draw is counted once per bank.
        std::uint64_t want = 0;
        std::set<std::pair<std::size_t, unsigned>> drawn;
        for (std::size_t mi : m.materials_with_palette(u.palette)) {
            const auto& mt = m.materials[mi];
            if (mt.texture < 0) continue;
            const auto& tex = m.textures[std::size_t(mt.texture)];
            if (!tex.format || !mod::n64::is_ci(*tex.format)) continue;
            const unsigned bank = *tex.format == mod::n64::TexelFormat::ci4 && mt.load ? mt.load->render.palette : 0;
            if (drawn.insert({std::size_t(mt.texture), bank}).second) want += std::uint64_t(tex.descriptor.width) * tex.descriptor.height;
        }
        BOOST_TEST(u.texels == want);
        BOOST_TEST(std::accumulate(u.hue_texels.begin(), u.hue_texels.end(), std::uint64_t(0)) + u.grey_texels == u.texels);
        BOOST_TEST(std::accumulate(u.texels_per_slot.begin(), u.texels_per_slot.end(), std::uint64_t(0)) == u.texels);
        BOOST_TEST(palette_use_text(u).rfind("palette " + std::to_string(u.palette) + " (", 0) == 0u);
    }
    BOOST_TEST(uses[0].texels > 0u);
    BOOST_TEST(std::string(hue_bin_name(2)) == "yellow");
    // stadium show prints the same line per palette.
    const auto out = modtest::run_cli({"stadium", "show", stadiumtest::sample_rom().string(), "0"});
    BOOST_TEST_REQUIRE(out.exit_code == 0, out.err);
    BOOST_TEST(out.out.find(palette_use_text(uses[0])) != std::string::npos, out.out);
}

namespace {

using M4 = std::array<double, 16>;  // column vectors, row-major
M4 mul(const M4& a, const M4& b) {
    M4 r{};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 4; ++k) r[i * 4 + j] += a[i * 4 + k] * b[k * 4 + j];
    return r;
}
M4 ident() { return {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; }
M4 trans(double x, double y, double z) { return {1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z, 0, 0, 0, 1}; }
M4 diag(double x, double y, double z) { return {x, 0, 0, 0, 0, y, 0, 0, 0, 0, z, 0, 0, 0, 0, 1}; }
M4 rot_y(double a) { return {std::cos(a), 0, std::sin(a), 0, 0, 1, 0, 0, -std::sin(a), 0, std::cos(a), 0, 0, 0, 0, 1}; }
M4 rot_x(double a) { return {1, 0, 0, 0, 0, std::cos(a), -std::sin(a), 0, 0, std::sin(a), std::cos(a), 0, 0, 0, 0, 1}; }

}  // namespace

// Review A18 on the sample (stadium-sample.md, model 7): bone 1 flag bit 0 with scale
// (2, 1, 0.5), bone 2 flag bit 0 under it, bone 3 flag bit 1 (camera-facing), bone 4 flags 0.
// Bind globals computed by hand in column form from src/12D80.c's paths:
//   bit 0 clear (func_8000F5A8): G = G_parent · T · Rz·Ry·Rx · S;
//   bit 0 (func_8000F730 + scale stack): U = (U_parent if the parent took this path, else
//     G_parent) · T(t ⊙ inherited stack) · R, stack = inherited ⊙ s, G = U · diag(stack);
//   bit 1 (func_8000F88C, identity view): G = T(G_parent · t) · diag(column lengths of
//     G_parent) · R · S (here R = I, s = 1).
BOOST_AUTO_TEST_CASE(bone_flag_paths_on_the_sample) {
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 7);
    BOOST_TEST_REQUIRE(m.bones.size() == 5u);
    const unsigned flags[5] = {0, 1, 1, 2, 0};
    for (std::size_t b = 0; b < 5; ++b) BOOST_TEST(m.bones[b].flags == flags[b]);
    for (std::size_t b = 1; b < 5; ++b) BOOST_TEST(m.bones[b].parent == int(b) - 1);
    const double pi = 3.14159265358979323846;
    const M4 g0 = ident();
    const M4 u1 = mul(mul(g0, trans(0, 60, 0)), rot_y(pi / 2));
    const M4 g1 = mul(u1, diag(2, 1, 0.5));
    const M4 u2 = mul(mul(u1, trans(0 * 2, 60 * 1, 0 * 0.5)), rot_x(pi / 4));
    const M4 g2 = mul(u2, diag(2, 1, 0.5));
    double len[3];
    for (int c = 0; c < 3; ++c) len[c] = std::sqrt(g2[c] * g2[c] + g2[4 + c] * g2[4 + c] + g2[8 + c] * g2[8 + c]);
    const double px = g2[1] * 60 + g2[3], py = g2[5] * 60 + g2[7], pz = g2[9] * 60 + g2[11];  // G2 · (0, 60, 0, 1)
    const M4 g3 = mul(trans(px, py, pz), diag(len[0], len[1], len[2]));
    const M4 g4 = mul(g3, trans(0, 60, 0));
    const M4 want[5] = {g0, g1, g2, g3, g4};
    // Bone 1's global: the rest rotation 90° about y maps x to −z; column 0 = (0, 0, −2).
    BOOST_TEST(std::abs(g1[8] - -2.0) < 1e-12);
    const mod::scene::Scene sc = model_scene(m);
    for (std::size_t b = 0; b < 5; ++b)
        for (int i = 0; i < 16; ++i)
            BOOST_TEST(std::abs(sc.skeleton.bones[b].bind[i] - want[b][i]) < 1e-3 * std::max(1.0, std::abs(want[b][i])),
                       "bone " << b << " [" << i << "] = " << sc.skeleton.bones[b].bind[i] << ", expected " << want[b][i]);
    bool camera_warned = false;
    for (const auto& w : sc.warnings) camera_warned = camera_warned || w.find("flag bit 1 (camera-relative)") != std::string::npos;
    BOOST_TEST(camera_warned);

    // Export with animations: the bit-0 child under the non-uniform stack has a sheared local
    // matrix glTF cannot hold, and says so.
    modtest::TempDir dir;
    const BattleTables tables = read_battle_tables(r.rom.z64);
    ExportAnimations opt;
    opt.enabled = true;
    opt.tables = &tables;
    opt.entry = 7;
    const std::filesystem::path glb = dir / "m7.glb";
    const ModelExport e = export_model(m, glb, {}, opt);
    bool sheared = false;
    for (const auto& w : e.warnings)
        sheared = sheared || (w.find("bone2") != std::string::npos && w.find("sheared") != std::string::npos);
    BOOST_TEST(sheared);

    // animation replace from that export: refused for the camera-facing bone, written with
    // camera_bones_as_trs and a warning naming it.
    const mod::Bytes source = mod::read_file(glb);
    AnimationReplaceOptions o;
    o.animation = "0";
    auto refused = modtest::catch_error([&] { replace_animation_in_rom(r.rom, r.archive, 7, 0, source, "m7.glb", o); });
    BOOST_TEST_REQUIRE(refused.has_value());
    BOOST_TEST(refused->kind() == mod::ErrorKind::conflict);
    BOOST_TEST(std::string(refused->what()).find("flag bit 1") != std::string::npos, refused->what());
    o.camera_bones_as_trs = true;
    const auto done = replace_animation_in_rom(r.rom, r.archive, 7, 0, source, "m7.glb", o);
    bool named = false;
    for (const auto& w : done.report.warnings) named = named || w.find("flag bit 1") != std::string::npos;
    BOOST_TEST(named);
}

BOOST_AUTO_TEST_SUITE_END()
