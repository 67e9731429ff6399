// FRAGMENT parsing, the root getter, the structure walk and the relocation cross-check.
#include "stadium_test_support.hpp"

#include "libmod/stadium/fragment.hpp"
#include "libmod/stadium/model_walk.hpp"

#include <set>

using namespace mod::stadium;
using modtest::catch_error;

namespace {
Fragment parse(mod::ByteView b) { return parse_fragment(mod::ByteReader(b, mod::Endian::big, "test", "fragment")); }
}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_fragment)

BOOST_AUTO_TEST_CASE(built_model_has_the_documented_header_and_getter) {
    auto bytes = stadiumtest::small_model(7);
    Fragment f = parse(bytes);
    BOOST_TEST(f.header.entry_jump == 0x0BFC0008u);
    BOOST_TEST(f.header.word4 == 0u);
    BOOST_TEST(f.header.code_offset == 0x20u);
    BOOST_TEST(f.header.size_in_ram == f.header.reloc_offset);  // models have no bss
    BOOST_TEST(f.header.size_in_rom == bytes.size());
    BOOST_TEST(f.header.size_in_rom % 16 == 0u);
    BOOST_TEST(f.link_base() == 0x8FF00000u);
    BOOST_TEST(f.fragment_id() == 0xEFu);
    BOOST_TEST_REQUIRE(f.relocs.size() >= 3u);
    BOOST_TEST(f.relocs[0].raw == Reloc::make(RelocType::mips_26, 0).raw);
    BOOST_TEST(f.relocs[1].raw == Reloc::make(RelocType::mips_hi16, 0x20).raw);
    BOOST_TEST(f.relocs[2].raw == Reloc::make(RelocType::mips_lo16, 0x28).raw);
    BOOST_TEST(f.word(0x24) == mips::jr_ra);
    auto g = find_root_getter(f);
    BOOST_TEST_REQUIRE(g.has_value());
    ModelRoot root = read_model_root(f);
    BOOST_TEST(g->root_address == model_link_base + root.offset);
    BOOST_TEST(root.model_id == 7);
    BOOST_TEST(root.layout_count == 1);
    BOOST_TEST(root.animation_count == 1);
    BOOST_TEST(root.aux_animation_count == 1);
    BOOST_TEST(root.runtime14 == 0u);
    BOOST_TEST(encode_fragment(f) == bytes);
}

BOOST_AUTO_TEST_CASE(walk_finds_every_structure_and_the_table_covers_it) {
    Fragment f = parse(stadiumtest::small_model());
    ModelMap m = walk_model(f);
    BOOST_TEST(m.layout_scripts.size() == 1u);
    BOOST_TEST_REQUIRE(m.tables.size() == 1u);
    BOOST_TEST(m.tables[0].textures.size() == 2u);
    BOOST_TEST(m.tables[0].palettes.size() == 1u);
    BOOST_TEST(m.tables[0].vertex_count == 16);
    BOOST_TEST(m.tables[0].textures[0].texel_count == 256);
    BOOST_TEST(m.tables[0].palettes[0].color_count == 16u);
    // TLUT DL: SETTIMG with the palette address, then LOADTLUT with count 16.
    const std::uint32_t tlut = m.tables[0].palettes[0].tlut_dl - model_link_base;
    BOOST_TEST((f.word(tlut) >> 24) == 0xFDu);
    BOOST_TEST(f.word(tlut + 4) == m.tables[0].palettes[0].colors);
    bool loadtlut = false;
    for (std::uint32_t at = tlut; (f.word(at) >> 24) != 0xDF; at += 8)
        if ((f.word(at) >> 24) == 0xF0) loadtlut = ((f.word(at + 4) >> 14) & 0x3FF) + 1 == 16;
    BOOST_TEST(loadtlut);
    // Material DLs carry no SETTIMG (the engine emits it).
    std::set<std::uint32_t> material_dls;
    for (const auto& c : m.commands)
        if (c.op == 0x23) material_dls.insert(f.word(c.offset + 4) - model_link_base);
    BOOST_TEST(material_dls.size() == 2u);
    for (auto dl : material_dls)
        for (std::uint32_t at = dl; (f.word(at) >> 24) != 0xDF; at += 8) BOOST_TEST((f.word(at) >> 24) != 0xFDu);
    std::set<std::uint8_t> ops;
    for (const auto& c : m.commands) ops.insert(c.op);
    for (int op : {0x17, 0x1C, 0x1D, 0x23, 0x22, 0x1E, 0x05, 0x06, 0x01}) BOOST_TEST(ops.count(static_cast<std::uint8_t>(op)) == 1u);
    CrossCheck c = cross_check(f, m);
    BOOST_TEST(c.ok());
    BOOST_TEST(c.matched == m.pointers.size());
    BOOST_TEST(c.matched + 3 == f.relocs.size());
}

BOOST_AUTO_TEST_CASE(cross_check_reports_missing_and_unexplained_entries_with_offsets) {
    Fragment f = parse(stadiumtest::small_model());
    ModelMap m = walk_model(f);
    // Drop the entry of one pointer and add one on a non-pointer word (a vertex).
    const std::uint32_t dropped = m.pointers[m.pointers.size() / 2].site;
    std::erase_if(f.relocs, [&](const Reloc& e) { return e.type() == RelocType::mips_32 && e.offset() == dropped; });
    const std::uint32_t bogus = m.tables[0].vertex_array - model_link_base;
    f.relocs.push_back(Reloc::make(RelocType::mips_32, bogus));
    CrossCheck c = cross_check(f, m);
    BOOST_TEST(!c.ok());
    BOOST_TEST_REQUIRE(c.missing.size() == 1u);
    BOOST_TEST(c.missing[0].site == dropped);
    BOOST_TEST_REQUIRE(c.unexplained.size() == 1u);
    BOOST_TEST(c.unexplained[0].offset() == bogus);
    // Without the getter entries the check names them.
    f.relocs.erase(f.relocs.begin(), f.relocs.begin() + 3);
    c = cross_check(f, m);
    BOOST_TEST(c.getter_problems.size() == 3u);
}

BOOST_AUTO_TEST_CASE(header_and_table_errors_name_the_structure) {
    auto good = stadiumtest::small_model();
    auto bad_magic = good;
    bad_magic[9] = 'X';
    auto e = catch_error([&] { parse(bad_magic); });
    BOOST_TEST(e->message().find("FRAGMENT") != std::string::npos);
    // Type 3 is not a relocation the game knows: Memmap_RelocateFragment skips it (F12), so the
    // fragment reads, the word is kept, and relocs_the_game_skips names it.
    auto bad_type = good;
    const std::uint32_t table = mod::endian::load_be32(&good[0x14]);
    bad_type[table + 4 + 4 * 5] = 0x03;
    const Fragment skipped = parse(bad_type);
    BOOST_TEST(skipped.relocs[5].raw >> 24 == 0x03u);
    BOOST_TEST(encode_fragment(skipped) == bad_type);
    const auto sk = relocs_the_game_skips(skipped);
    BOOST_REQUIRE_EQUAL(sk.size(), 1u);
    BOOST_TEST(sk[0].index == 5u);
    auto bad_offset = good;
    mod::endian::store_be32(&bad_offset[table + 4 + 4 * 6], Reloc::make(RelocType::mips_32, table + 0x100).raw);
    e = catch_error([&] { parse(bad_offset); });
    BOOST_TEST(e->path() == "fragment.reloc[6]");
    // A LO16 before any HI16 for its register: the game resolves it with uninitialised state;
    // kept and reported, not refused (F12). Entry 1 was the getter's HI16, so the getter's own
    // LO16 (entry 2) has none either.
    auto lo_first = good;
    mod::endian::store_be32(&lo_first[table + 4 + 4 * 1], Reloc::make(RelocType::mips_lo16, 0x28).raw);
    const Fragment orphan = parse(lo_first);
    const auto so = relocs_the_game_skips(orphan);
    BOOST_REQUIRE_EQUAL(so.size(), 2u);
    BOOST_TEST(so[0].index == 1u);
    BOOST_TEST(so[1].index == 2u);
    BOOST_TEST((so[0].kind == SkippedReloc::Kind::lo16_without_hi16));
    BOOST_TEST((so[1].kind == SkippedReloc::Kind::lo16_without_hi16));
}

BOOST_AUTO_TEST_CASE(walk_rejects_command_0x12_and_pointers_out_of_the_body) {
    Fragment f = parse(stadiumtest::small_model());
    ModelMap m = walk_model(f);
    Fragment hang = f;
    hang.body[m.layout_scripts[0] + 0x14 + 4 + 0x10] = 0x12;  // after 0x17, 0x05 and 0x1C
    auto e = catch_error([&] { walk_model(hang); });
    BOOST_TEST(e->message().find("0x12") != std::string::npos);
    Fragment far = f;
    const std::uint32_t site = m.pointers.back().site;
    mod::endian::store_be32(&far.body[site], model_link_base + 0xFFFF0);
    e = catch_error([&] { walk_model(far); });
    BOOST_TEST(e->offset() == site);
}

BOOST_AUTO_TEST_CASE(truncated_and_flipped_fragments_fail_cleanly) {
    auto good = stadiumtest::small_model();
    auto decode = [](mod::ByteView b) {
        Fragment f = parse_fragment(mod::ByteReader(b, mod::Endian::big, "t", "fragment"));
        cross_check(f, walk_model(f));
    };
    BOOST_TEST(modtest::truncation_loop(good, decode) >= good.size() - 16);
    BOOST_TEST(modtest::byte_flip_loop(good, decode, 3) > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
