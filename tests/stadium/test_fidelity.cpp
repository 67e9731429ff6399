// Fidelity to the game (issue 17, Pokémon Stadium items): each case builds a model or fragment
// by hand and checks a decoded value against what the decompilation (pret/pokestadium) says it
// must be, computed here by hand from the source.
#include "stadium_test_support.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/core/file.hpp"
#include "libmod/scene/model.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace mod::stadium;

namespace {

// One triangle drawn by each bone, so every bone has geometry.
void add_triangle(ModelBuilder& m, std::vector<DlId>& dls, std::size_t n) {
    std::vector<Vertex> v(3);
    v[1].x = 10;
    v[2].y = 10;
    for (std::size_t i = 0; i < n; ++i) {
        const auto first = m.add_vertices(v);
        DisplayList dl;
        dl.vtx(first, 3, 0).tri1(0, 1, 2).end();
        dls.push_back(m.add_display_list(std::move(dl)));
    }
}

// The fragment with its relocation table replaced by `relocs` (header sizeInRom and the zero
// padding to 16 follow).
mod::Bytes with_relocs(Fragment f, std::vector<Reloc> relocs) {
    f.relocs = std::move(relocs);
    const std::uint32_t table = 4 + 4 * static_cast<std::uint32_t>(f.relocs.size());
    const std::uint32_t padded = (table + 15) & ~15u;
    f.table_padding.assign(padded - table, 0);
    f.trailing.clear();
    f.header.size_in_rom = f.header.reloc_offset + padded;
    mod::endian::store_be32(&f.body[0x18], f.header.size_in_rom);
    return encode_fragment(f);
}

// |a - b| small enough for float matrices built from double sines.
bool near(float a, double b) { return std::fabs(double(a) - b) < 1e-5; }

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_fidelity)

// R12/R13: 0x1D rotations are binary angles (65536 = 360°), the matrix is T · Rz · Ry · Rx · S
// (decomp src/F420.c func_8000F5A8, row-vector storage; here in column-vector form).
BOOST_AUTO_TEST_CASE(bone_rotations_are_binary_angles) {
    ModelBuilder m(1);
    std::vector<DlId> dls;
    add_triangle(m, dls, 2);
    m.layout().model_header().open()
        .bone(0, 0, 0, {10, 20, 30}, {0, 0, 0x4000}).open().draw(1, dls[0]).close()
        .bone(1, 0, 1, {0, 0, 0}, {0x4000, 0x2000, 0}).open().draw(1, dls[1]).close()
        .close().end();
    const Model model = read_model(m.build());
    BOOST_REQUIRE_EQUAL(model.bones.size(), 2u);
    BOOST_TEST(model.bones[0].rotation[2] == 0x4000);
    const mod::scene::Scene s = model_scene(model);
    // Bone 0: Rz(90°) = [[0 -1 0] [1 0 0] [0 0 1]], translation (10, 20, 30) in column 3.
    const double expect0[16] = {0, -1, 0, 10, 1, 0, 0, 20, 0, 0, 1, 30, 0, 0, 0, 1};
    // Bone 1: Ry(45°) · Rx(90°); c = s = √2/2:
    // Ry = [[c 0 s] [0 1 0] [−s 0 c]], Rx = [[1 0 0] [0 0 −1] [0 1 0]]
    // Ry · Rx = [[c s 0] [0 0 −1] [−s c 0]].
    const double c = std::sqrt(0.5);
    const double expect1[16] = {c, c, 0, 0, 0, 0, -1, 0, -c, c, 0, 0, 0, 0, 0, 1};
    for (int i = 0; i < 16; ++i) {
        BOOST_TEST(near(s.skeleton.bones[0].bind[i], expect0[i]), "bone 0 [" << i << "] = " << s.skeleton.bones[0].bind[i]);
        BOOST_TEST(near(s.skeleton.bones[1].bind[i], expect1[i]), "bone 1 [" << i << "] = " << s.skeleton.bones[1].bind[i]);
    }
}

// R9 (seed 004 §17.4): the TLUT display list is authoritative. Palette 0's list is patched to
// load 12 colours from palette 1's colours + 8 bytes: palette 0 decodes as b[4..15].
BOOST_AUTO_TEST_CASE(tlut_display_list_overrides_the_table_entry) {
    ModelBuilder m(2);
    std::vector<std::uint16_t> a(16), b(16);
    for (std::size_t i = 0; i < 16; ++i) {
        a[i] = static_cast<std::uint16_t>(0x0800 * i + 1);
        b[i] = static_cast<std::uint16_t>(0x0040 * i + 0x8001);
    }
    const auto pa = m.add_palette(a);
    const auto pb = m.add_palette(b);
    const auto tex = m.add_texture(TexFormat::ci, TexSize::b4, 4, 4, mod::Bytes(8, 0x01));
    const auto mat = m.add_material_dl(tex);
    std::vector<DlId> dls;
    add_triangle(m, dls, 1);
    m.layout().model_header().open().bone(0, 0, 0, {}, {}).open().material(1, -1, mat, tex, pa, 0xFFFFFFFF)
        .draw(1, dls[0]).material(1, -1, mat, tex, pb, 0xFFFFFFFF).draw(1, dls[0]).close().close().end();
    mod::Bytes frag = m.build();
    const Model before = read_model(frag);
    BOOST_REQUIRE_EQUAL(before.palettes.size(), 2u);
    BOOST_TEST(!before.palettes[0].overridden());
    // The builder's TLUT DL: SETTIMG at +0 (address word +4), LOADTLUT at +0x20 (w1 at +0x24).
    const std::uint32_t dl = before.palettes[0].tlut_dl - model_link_base;
    const std::uint32_t new_address = before.palettes[1].colors + 8;
    mod::endian::store_be32(&frag[dl + 4], new_address);
    mod::endian::store_be32(&frag[dl + 0x24], gbi::loadtlut_w1(7, 12));
    const Model after = read_model(frag);
    const ModelPalette& p = after.palettes[0];
    BOOST_TEST(p.overridden());
    BOOST_TEST(p.entry_colors == before.palettes[0].colors);
    BOOST_TEST(p.entry_count == 16u);
    BOOST_TEST(p.colors == new_address);
    BOOST_TEST(p.color_count == 12u);
    BOOST_TEST(p.offset == new_address - model_link_base);
    const std::vector<std::uint16_t> expect(b.begin() + 4, b.end());
    BOOST_TEST(p.entries == expect, boost::test_tools::per_element());
    bool warned = false;
    for (const auto& w : after.warnings)
        warned = warned || (w.find("palette[0]") != std::string::npos && w.find("decoded with what the list loads") != std::string::npos);
    BOOST_TEST(warned);
    // The texture decodes through the loaded colours: index 0 is b[4] = 0x8101 (R 16, G 4, B 0, A 1).
    const mod::Bytes rgba = decode_texture_rgba(after, 0, 0);
    const std::uint16_t c = b[4];
    auto x5 = [](unsigned v) { return static_cast<std::uint8_t>((v << 3) | (v >> 2)); };
    BOOST_TEST(unsigned(rgba[0]) == unsigned(x5((c >> 11) & 31)));
    BOOST_TEST(unsigned(rgba[1]) == unsigned(x5((c >> 6) & 31)));
    BOOST_TEST(unsigned(rgba[2]) == unsigned(x5((c >> 1) & 31)));
    BOOST_TEST(unsigned(rgba[3]) == 255u);
}

// R3: the builder writes the counts and a NULL after each root pointer array; reading goes by
// the count and notes a missing terminator without refusing the model.
BOOST_AUTO_TEST_CASE(root_pointer_arrays_are_null_terminated) {
    mod::Bytes frag = stadiumtest::small_model(9);  // 1 layout, 1 animation, 1 aux animation
    const Model m = read_model(frag);
    const ModelRoot& r = m.root;
    BOOST_REQUIRE(r.layout_count == 1 && r.animation_count == 1 && r.aux_animation_count == 1);
    const std::uint32_t arrays[3] = {r.layouts, r.animations, r.aux_animations};
    for (std::uint32_t a : arrays) {
        const std::uint32_t at = a - model_link_base;
        BOOST_TEST(m.fragment.word(at) != 0u);       // the one counted pointer
        BOOST_TEST(m.fragment.word(at + 4) == 0u);   // then NULL
    }
    for (const auto& w : m.warnings) BOOST_TEST(w.find("terminator") == std::string::npos, w);
    // A word that is not NULL after the layouts: still read by count (one script), and noted.
    mod::endian::store_be32(&frag[r.layouts - model_link_base + 4], 0x12345678u);
    const Model bad = read_model(frag);
    BOOST_TEST(bad.map.layout_scripts.size() == 1u);
    bool noted = false;
    for (const auto& w : bad.warnings)
        noted = noted || (w.find("root.layouts[1]") != std::string::npos && w.find("12345678") != std::string::npos);
    BOOST_TEST(noted);
}

// R14: 0x1D's flags as src/geo_layout.c func_80018490 and src/12D80.c func_800143C0 use them.
// Bit 0 keeps the scale out of the inherited matrix (func_8000F730 + the scale stack); bit 1 is
// camera-relative (func_80010228; export uses an identity view). Hand-computed in the decomp's
// row-vector form, compared transposed (column vectors).
BOOST_AUTO_TEST_CASE(bone_flags_follow_the_games_matrix_paths) {
    ModelBuilder m(4);
    std::vector<DlId> dls;
    add_triangle(m, dls, 4);
    m.layout().model_header().open()
        // Bone 0, flag 1: scale (2, 1, 1), no rotation. Scale stack (2, 1, 1); U = I; G = diag(2, 1, 1).
        .bone(0, 1, 0, {0, 0, 0}, {0, 0, 0}, 0x20000, 0x10000, 0x10000).open().draw(1, dls[0])
            // Bone 1, flag 1: t (10, 0, 0), Rz(90°). L rows (0 1 0) (−1 0 0) (0 0 1), row 3 =
            // t ⊙ (2, 1, 1) = (20, 0, 0); stack (2, 1, 1); U = L × U0 = L; G = diag(2, 1, 1) × L:
            // rows (0 2 0) (−1 0 0) (0 0 1) (20 0 0).
            .bone(1, 1, 1, {10, 0, 0}, {0, 0, 0x4000}).open().draw(1, dls[1]).close()
        .close()
        // Bone 2, flag 0: t (5, 0, 0), Rz(90°), scale (1, 3, 1): func_8000F5A8 rows
        // (0 1 0)·1, (−1 0 0)·3, (0 0 1)·1, (5 0 0).
        .bone(2, 0, 2, {5, 0, 0}, {0, 0, 0x4000}, 0x10000, 0x30000, 0x10000).open().draw(1, dls[2])
            // Bone 3, flag 2: t (0, 4, 0), Rx(90°), scale (1, 1, 2). func_8000F88C(view = I,
            // parent, t): diag(row lengths 1, 3, 1), row 3 = t · G2 = (−12 + 5, 0, 0) = (−7, 0, 0);
            // func_8000F2C4(Rx 90°) rows (1 0 0) (0 0 1) (0 −1 0); product rows (1 0 0) (0 0 1)
            // (0 −3 0) (−7 0 0); rows scaled by (1, 1, 2): (1 0 0) (0 0 1) (0 −6 0) (−7 0 0).
            .bone(3, 2, 3, {0, 4, 0}, {0x4000, 0, 0}, 0x10000, 0x10000, 0x20000).open().draw(1, dls[3]).close()
        .close()
        .close().end();
    const Model model = read_model(m.build());
    BOOST_REQUIRE_EQUAL(model.bones.size(), 4u);
    BOOST_REQUIRE(model.bones[1].parent == 0 && model.bones[3].parent == 2);
    const mod::scene::Scene s = model_scene(model);
    // Column-vector forms (the transposes of the row-vector matrices above).
    const double expect[4][16] = {
        {2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1},
        {0, -1, 0, 20, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1},
        {0, -3, 0, 5, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1},
        {1, 0, 0, -7, 0, 0, -6, 0, 0, 1, 0, 0, 0, 0, 0, 1},
    };
    for (std::size_t b = 0; b < 4; ++b)
        for (int i = 0; i < 16; ++i)
            BOOST_TEST(near(s.skeleton.bones[b].bind[i], expect[b][i]),
                       "bone " << b << " [" << i << "] = " << s.skeleton.bones[b].bind[i] << ", expected " << expect[b][i]);
    // Without flag 1, bone 1 would inherit the scale through the matrix: diag(2, 1, 1) · Rz(90°)
    // has (0, −2, 0) in its first row, not (0, −1, 0): the check above tells the paths apart.
}

// F12: Memmap_RelocateFragment (src/memmap.c) has no default case: a type other than 2/4/5/6
// is skipped, and a LO16 whose rs had no HI16 reads uninitialised luiRefs/luiVals. Such words
// are read, kept verbatim, reported, and rebasing gives them the game's effect: none for the
// skipped types (entry verbatim), the orphan LO16's word never rewritten (moved with its bytes).
BOOST_AUTO_TEST_CASE(relocation_words_the_game_skips_are_kept) {
    const mod::Bytes built = stadiumtest::small_model(11);
    const Model plain = read_model(built);
    const std::uint32_t texel = plain.textures[0].offset;  // a plain data word, 8-aligned
    std::vector<Reloc> relocs;
    relocs.push_back(Reloc{Reloc::make(RelocType::mips_lo16, texel).raw});  // before any HI16
    relocs.push_back(Reloc{0x03000040u});                                   // type 3
    relocs.insert(relocs.end(), plain.fragment.relocs.begin(), plain.fragment.relocs.end());
    relocs.push_back(Reloc{0xFF0FFFFCu});  // bit 31 + type 0x7F, offset past the body: never read
    const mod::Bytes crafted = with_relocs(plain.fragment, relocs);
    const Fragment f = parse_fragment(mod::ByteReader(crafted, mod::Endian::big));
    BOOST_TEST(encode_fragment(f) == crafted);  // round trip byte for byte
    const auto skipped = relocs_the_game_skips(f);
    BOOST_REQUIRE_EQUAL(skipped.size(), 3u);
    BOOST_TEST(skipped[0].index == 0u);
    BOOST_TEST((skipped[0].kind == SkippedReloc::Kind::lo16_without_hi16));
    BOOST_TEST(skipped[1].index == 1u);
    BOOST_TEST((skipped[1].kind == SkippedReloc::Kind::unknown_type));
    BOOST_TEST(skipped[2].index == relocs.size() - 1);
    BOOST_TEST(skipped[2].reloc.raw == 0xFF0FFFFCu);
    const Model m = read_model(crafted);  // the model reads
    BOOST_TEST(m.textures.size() == plain.textures.size());

    // Rebase: 16 bytes inserted before the texels.
    FragmentImage img(f);
    img.insert(texel, mod::Bytes(16, 0));
    const Fragment out = img.build();
    BOOST_REQUIRE_EQUAL(out.relocs.size(), relocs.size());
    BOOST_TEST(out.relocs[1].raw == 0x03000040u);                 // verbatim
    BOOST_TEST(out.relocs.back().raw == 0xFF0FFFFCu);             // verbatim
    BOOST_TEST(out.relocs[0].raw == Reloc::make(RelocType::mips_lo16, texel + 16).raw);  // moved with its word
    BOOST_TEST(out.word(texel + 16) == f.word(texel));            // never rewritten
    BOOST_TEST(out.word(0x40) == f.word(0x40));                   // the type-3 word untouched
    // The game's loader on the rebased fragment: every applied pointer still reaches its object
    // (the getter returns the root, whose layout pointer leads to the same script bytes).
    const std::uint32_t vaddr = 0x80400000;
    const mod::Bytes a = stadiumtest::game_relocate(f, vaddr), b = stadiumtest::game_relocate(out, vaddr);
    BOOST_TEST(b[texel + 16] == a[texel]);  // the orphan word left alone in both
    const auto root_a = mod::endian::load_be32(&a[plain.root.offset + 8]) - vaddr;
    const auto root_b = mod::endian::load_be32(&b[plain.root.offset + 8]) - vaddr;
    BOOST_TEST(root_b == root_a + (root_a >= texel ? 16u : 0u));

    // The CLI reports them.
    modtest::TempDir dir;
    mod::write_file_atomic(dir / "skips.fragment", crafted);
    const auto r = modtest::run_cli({"stadium", "fragment", "check", (dir / "skips.fragment").string()});
    BOOST_TEST(r.out.find("reloc[0]: R_MIPS_LO16 at " + mod::hex(texel)) != std::string::npos, r.out);
    BOOST_TEST(r.out.find("reloc[1]: type 3") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("type 127") != std::string::npos, r.out);
}

// stadium verify reports what the game skips or overrides, without failing: entry 1 of the
// sample with a type-3 relocation word appended and palette 0's TLUT DL loading 8 colours.
BOOST_AUTO_TEST_CASE(verify_reports_skipped_words_and_tlut_overrides) {
    const stadiumtest::SampleRom sample;
    const DecodedEntry d = decode_entry(sample.archive, 1);
    const Model plain = read_model(d.content);
    std::vector<Reloc> relocs = plain.fragment.relocs;
    relocs.push_back(Reloc{0x03000040u});
    Fragment f = plain.fragment;
    const std::uint32_t dl = plain.offset_of(plain.palettes[0].tlut_dl, "tlut_dl");
    mod::endian::store_be32(&f.body[dl + 0x24], gbi::loadtlut_w1(7, 8));
    const mod::Bytes crafted = with_relocs(f, relocs);
    const RepackResult r = repack_archive(sample.archive, {{1, crafted}});
    const StadiumRom rom = load_rom_bytes(write_archive(sample.rom, r), "crafted.z64");
    const VerifyReport v = verify_archive(read_archive(rom));
    bool reloc_noted = false, tlut_noted = false;
    for (const auto& n : v.fidelity_notes) {
        reloc_noted = reloc_noted || n.find("archive[1].fragment.reloc[" + std::to_string(relocs.size() - 1) + "]: type 3") != std::string::npos;
        tlut_noted = tlut_noted || (n.find("the TLUT DL loads 8 entries, the entry says") != std::string::npos);
    }
    BOOST_TEST(reloc_noted);
    BOOST_TEST(tlut_noted);
    BOOST_TEST(v.ok());
}

BOOST_AUTO_TEST_SUITE_END()
