// The pointer-aware image: random insertions and removals keep every pointer on its object,
// checked against the game's own relocation algorithm.
#include "stadium_test_support.hpp"

#include "libmod/stadium/fragment_image.hpp"
#include "libmod/stadium/model_walk.hpp"

#include <map>

using namespace mod::stadium;
using modtest::catch_error;

namespace {

Fragment parse(mod::ByteView b) { return parse_fragment(mod::ByteReader(b, mod::Endian::big, "test", "fragment")); }

// Where each original body offset is now (-1 = removed), updated with the image's rule.
struct Tracker {
    std::vector<std::int64_t> pos;
    explicit Tracker(std::size_t n) : pos(n + 1) {
        for (std::size_t i = 0; i <= n; ++i) pos[i] = static_cast<std::int64_t>(i);
    }
    void insert(std::uint32_t at, std::uint32_t n) {
        for (auto& p : pos) if (p >= at) p += n;
    }
    void remove(std::uint32_t at, std::uint32_t n) {
        for (auto& p : pos) {
            if (p < 0 || p < at) continue;
            p = p < std::int64_t(at) + n ? -1 : p - n;
        }
    }
    // Target offsets may lie one past the body; they follow the same rule.
    std::int64_t target(std::uint32_t t) const { return t < pos.size() ? pos[t] : -2; }
};

// Checks the edited fragment against the original through the game's relocator: every byte
// that survived is unchanged after relocation, except relocated words, whose values resolve
// to the new place of the object they resolved to before.
void check_equivalent(const Fragment& before, const Fragment& after, const Tracker& tr) {
    const std::uint32_t vaddr = 0x80345000;
    mod::Bytes ro = stadiumtest::game_relocate(before, vaddr);
    mod::Bytes re = stadiumtest::game_relocate(after, vaddr);
    std::map<std::uint32_t, RelocType> site_type;
    for (const auto& e : before.relocs) site_type[e.offset()] = e.type();
    std::size_t pointers = 0;
    for (std::uint32_t o = 0x20; o + 4 <= before.body.size(); o += 4) {
        const std::int64_t n = tr.pos[o];
        if (n < 0) continue;
        const std::uint32_t vo = mod::endian::load_be32(&ro[o]);
        const std::uint32_t ve = mod::endian::load_be32(&re[static_cast<std::size_t>(n)]);
        auto it = site_type.find(o);
        const bool relocated_here = it != site_type.end();
        if (!relocated_here) {
            BOOST_TEST(vo == ve, "data word at original " << o << " changed");
            continue;
        }
        std::uint32_t ao = vo, ae = ve;
        if (it->second == RelocType::mips_26) {
            ao = ((vo << 2) & 0x0FFFFFFCu) | 0x80000000u;
            ae = ((ve << 2) & 0x0FFFFFFCu) | 0x80000000u;
            BOOST_TEST((vo & 0xFC000000u) == (ve & 0xFC000000u));
        } else if (it->second != RelocType::mips_32) {
            continue;  // the getter pair is checked through the root below
        }
        // Only addresses of this fragment move (the loaded window starts at vaddr).
        if (ao >= vaddr && ao - vaddr <= before.body.size()) {
            const std::int64_t want = tr.target(ao - vaddr);
            BOOST_TEST_REQUIRE(want >= 0);
            BOOST_TEST(ae == vaddr + static_cast<std::uint32_t>(want));
            ++pointers;
        } else {
            BOOST_TEST(ae == ao);
        }
    }
    auto pair = [](const mod::Bytes& img) {
        return mips::pair_address(mod::endian::load_be32(&img[0x20]), mod::endian::load_be32(&img[0x28]));
    };
    const std::uint32_t ro_root = pair(ro) - vaddr;
    BOOST_TEST(pair(re) - vaddr == static_cast<std::uint32_t>(tr.target(ro_root)));
    BOOST_TEST(pointers > 0u);
}

// A minimal fragment linked at model_link_base: a `body`-byte body (header, getter returning
// `root`, zeros), `words` written at their offsets, the getter's three entries then `relocs`,
// and `bss` bytes of bss (sizeInRam = body + bss).
mod::Bytes tiny_fragment(std::uint32_t body, std::uint32_t root, const std::map<std::uint32_t, std::uint32_t>& words,
                         const std::vector<Reloc>& relocs, std::uint32_t bss = 0) {
    mod::Bytes b(body, 0);
    auto put = [&](std::uint32_t at, std::uint32_t v) { mod::endian::store_be32(&b[at], v); };
    put(0, model_entry_jump);
    std::copy(std::begin(fragment_magic), std::end(fragment_magic), b.begin() + 8);
    put(0x10, 0x20);
    put(0x20, mips::lui(2, mips::hi16(model_link_base + root)));
    put(0x24, mips::jr_ra);
    put(0x28, mips::addiu(2, 2, mips::lo16(model_link_base + root)));
    for (const auto& [at, v] : words) put(at, v);
    std::vector<Reloc> all = {Reloc::make(RelocType::mips_26, 0), Reloc::make(RelocType::mips_hi16, 0x20),
                              Reloc::make(RelocType::mips_lo16, 0x28)};
    all.insert(all.end(), relocs.begin(), relocs.end());
    mod::ByteWriter w(mod::Endian::big);
    w.u32(static_cast<std::uint32_t>(all.size()));
    for (auto r : all) w.u32(r.raw);
    w.align(16);
    put(0x14, body);
    put(0x18, body + static_cast<std::uint32_t>(w.size()));
    put(0x1C, body + bss);
    b.insert(b.end(), w.data().begin(), w.data().end());
    return b;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_fragment_image)

BOOST_AUTO_TEST_CASE(unchanged_image_writes_back_identical_bytes) {
    auto bytes = stadiumtest::small_model();
    FragmentImage img(parse(bytes));
    BOOST_TEST(!img.modified());
    BOOST_TEST(encode_fragment(img.build()) == bytes);
    modtest::Rng rng(5);
    for (int i = 0; i < 20; ++i) {
        auto r = stadiumtest::random_fragment(rng);
        BOOST_TEST(encode_fragment(FragmentImage(parse(r)).build()) == r);
    }
}

BOOST_AUTO_TEST_CASE(random_insertions_and_removals_keep_every_pointer_on_its_object) {
    modtest::Rng rng(0x51AD);
    std::size_t conflicts = 0, edits = 0;
    for (int round = 0; round < 60; ++round) {
        mod::Bytes original = round % 5 == 0 ? stadiumtest::small_model(static_cast<std::uint16_t>(round))
                                             : stadiumtest::random_fragment(rng);
        Fragment before = parse(original);
        FragmentImage img(before);
        Tracker tr(before.body.size());
        const int steps = 1 + static_cast<int>(rng.below(6));
        for (int s = 0; s < steps; ++s) {
            const std::uint32_t size = img.body_size();
            // Past the getter code (0x20..0x2F): splitting LUI from ADDIU is a code edit.
            const std::uint32_t at = 0x30 + 4 * rng.below((size - 0x30) / 4 + 1);
            if (rng.below(3) != 0) {
                const std::uint32_t n = 8 * (1 + rng.below(12));
                mod::Bytes junk(n);
                for (auto& b : junk) b = static_cast<std::uint8_t>(rng.next());
                img.insert(at, junk);
                tr.insert(at, n);
                ++edits;
            } else {
                const std::uint32_t n = std::min<std::uint32_t>(8 * (1 + rng.below(4)), (size - at) & ~7u);
                if (n == 0) continue;
                FragmentImage copy = img;
                try {
                    img.remove(at, n);
                    tr.remove(at, n);
                    ++edits;
                } catch (const mod::Error& e) {
                    BOOST_TEST(e.kind() == mod::ErrorKind::conflict);
                    // The image must be untouched by a refused edit.
                    BOOST_TEST(img.body() == copy.body());
                    ++conflicts;
                }
            }
        }
        Fragment after = img.build();
        // The result is a valid fragment again, with the sizes in the header.
        mod::Bytes encoded = encode_fragment(after);
        Fragment reparsed = parse(encoded);
        BOOST_TEST(reparsed.header.reloc_offset == img.body_size());
        BOOST_TEST(reparsed.header.size_in_rom == encoded.size());
        BOOST_TEST(encoded.size() % 16 == 0u);
        check_equivalent(before, reparsed, tr);
    }
    BOOST_TEST(edits > 100u);
    BOOST_TEST(conflicts > 0u);
}

BOOST_AUTO_TEST_CASE(insertions_at_object_boundaries_keep_the_model_walkable) {
    Fragment f = parse(stadiumtest::small_model());
    ModelMap m = walk_model(f);
    FragmentImage img(f);
    // Insert before every display list (highest first so the offsets stay valid).
    for (auto it = m.display_lists.rbegin(); it != m.display_lists.rend(); ++it) img.insert(*it, mod::Bytes(16, 0));
    Fragment out = parse(encode_fragment(img.build()));
    ModelMap after = walk_model(out);
    BOOST_TEST(after.display_lists.size() == m.display_lists.size());
    BOOST_TEST(after.pointers.size() == m.pointers.size());
    BOOST_TEST(cross_check(out, after).ok());
    for (std::size_t i = 0; i < m.display_lists.size(); ++i)
        BOOST_TEST(after.display_lists[i] == m.display_lists[i] + 16 * (i + 1));
}

BOOST_AUTO_TEST_CASE(hi16_carry_is_applied_when_the_root_crosses_0x8000) {
    // Root at 0x7FF0; inserting 0x20 bytes before it moves it to 0x8010: %hi must carry.
    ModelBuilder m(1);
    m.layout().end();
    Fragment f = parse(m.build());
    FragmentImage img(f);
    const std::uint32_t root = read_model_root(f).offset;
    img.insert(root, mod::Bytes(0x8000 - root - 0x10 + 0x20, 0));
    Fragment out = img.build();
    const std::uint32_t lui = out.word(0x20), addiu = out.word(0x28);
    BOOST_TEST(mips::pair_address(lui, addiu) == model_link_base + 0x8010);
    BOOST_TEST(mips::imm(lui) == ((model_link_base + 0x8010) >> 16) + 1);
    BOOST_TEST(read_model_root(out).model_id == 1);
}

BOOST_AUTO_TEST_CASE(append_returns_the_link_address_and_registers_pointer_sites) {
    Fragment f = parse(stadiumtest::small_model());
    ModelMap m = walk_model(f);
    FragmentImage img(f);
    // A new 16-colour palette: colours appended, the palette entry and the TLUT DL repointed.
    mod::Bytes colors(32, 0x42);
    const std::uint32_t address = img.append(colors, 8);
    BOOST_TEST(address % 8 == 0u);
    const auto& pal = m.tables[0].palettes[0];
    img.set_pointer(pal.offset + 4, address - model_link_base);
    img.set_pointer(pal.tlut_dl - model_link_base + 4, address - model_link_base);
    Fragment out = parse(encode_fragment(img.build()));
    ModelMap after = walk_model(out);
    BOOST_TEST(after.tables[0].palettes[0].colors == address);
    BOOST_TEST(out.word(pal.tlut_dl - model_link_base + 4) == address);
    BOOST_TEST(cross_check(out, after).ok());
    // An appended pointer word with its own entry.
    const std::uint32_t word_at = img.append(mod::Bytes(8, 0), 8) - model_link_base;
    img.set_pointer(word_at, m.root.offset);
    BOOST_TEST(img.has_pointer(word_at));
    bool found = false;
    for (const auto& t : img.targets()) found |= t.site == word_at && t.target == m.root.offset;
    BOOST_TEST(found);
}

BOOST_AUTO_TEST_CASE(resize_grows_and_shrinks_an_object) {
    Fragment f = parse(stadiumtest::small_model());
    ModelMap m = walk_model(f);
    const auto& tex = m.tables[0].textures[0];
    const std::uint32_t texels = tex.texels - model_link_base;
    FragmentImage img(f);
    img.resize(texels, 128, 256, 0xAA);
    Fragment grown = parse(encode_fragment(img.build()));
    ModelMap mg = walk_model(grown);
    BOOST_TEST(mg.tables[0].textures[1].texels == m.tables[0].textures[1].texels + 128);
    BOOST_TEST(cross_check(grown, mg).ok());
    img.resize(texels, 256, 128);
    BOOST_TEST(encode_fragment(img.build()).size() == encode_fragment(f).size());
    BOOST_TEST(img.body() == f.body);
}

BOOST_AUTO_TEST_CASE(bad_edits_are_refused) {
    FragmentImage img(parse(stadiumtest::small_model()));
    BOOST_TEST(catch_error([&] { img.insert(0x10, mod::Bytes(8)); })->kind() == mod::ErrorKind::usage);
    BOOST_TEST(catch_error([&] { img.insert(0x40, mod::Bytes(4)); })->kind() == mod::ErrorKind::usage);
    BOOST_TEST(catch_error([&] { img.remove(0x42, 8); })->kind() == mod::ErrorKind::usage);
    BOOST_TEST(catch_error([&] { img.remove(img.body_size() - 8, 16); })->kind() == mod::ErrorKind::usage);
    // Removing the root struct orphans the getter's pointer.
    const std::uint32_t root = read_model_root(img.original()).offset;
    auto e = catch_error([&] { img.remove(root, 8); });
    BOOST_TEST(e->kind() == mod::ErrorKind::conflict);
    BOOST_TEST(!img.modified());
}


BOOST_AUTO_TEST_CASE(a_split_shared_hi16_is_refused_and_leaves_the_image_untouched) {
    // The getter's LUI at 0x20 serves two LO16s: the root (0x40) and an ADDIU at 0x30 aiming at
    // 0x7FF0. Inserting 0x10 bytes at 0x7FF0 moves it to 0x8000, whose %hi carries, while the
    // root keeps the old %hi: one LUI cannot serve both any more.
    const std::uint32_t far = model_link_base + 0x7FF0;
    const mod::Bytes bytes = tiny_fragment(0x8020, 0x40, {{0x30, mips::addiu(3, 2, mips::lo16(far))}},
                                           {Reloc::make(RelocType::mips_lo16, 0x30)});
    const Fragment f = parse(bytes);
    FragmentImage img(f);
    BOOST_TEST_REQUIRE(img.targets().size() == 3u);  // entry jump, root, far
    auto e = catch_error([&] { img.insert(0x7FF0, mod::Bytes(0x10, 0xEE)); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->kind() == mod::ErrorKind::conflict);
    BOOST_TEST(e->message().find("shared") != std::string::npos);
    // Nothing moved: the bytes, the table and the state are those of the original.
    BOOST_TEST(img.body() == f.body);
    BOOST_TEST(img.relocs().size() == f.relocs.size());
    for (std::size_t i = 0; i < f.relocs.size() && i < img.relocs().size(); ++i)
        BOOST_TEST(img.relocs()[i].raw == f.relocs[i].raw);
    BOOST_TEST(!img.modified());
    BOOST_TEST(encode_fragment(img.build()) == bytes);
    // An edit both LO16s survive still works on the same image afterwards.
    img.insert(0x40, mod::Bytes(8, 0));
    const Fragment out = parse(encode_fragment(img.build()));
    BOOST_TEST(mips::pair_address(out.word(0x20), out.word(0x28)) == model_link_base + 0x48);
    BOOST_TEST(mips::pair_address(out.word(0x20), out.word(0x30)) == far + 8);
}

BOOST_AUTO_TEST_CASE(append_keeps_pointers_into_the_bss_on_the_bss) {
    // A code fragment with 0x40 bytes of bss after a 0x100-byte body; the word at 0x40 points
    // into the bss (0x110), the one at 0x44 into the body, the one at 0x48 at the body's end.
    const mod::Bytes bytes = tiny_fragment(0x100, 0x60,
                                           {{0x40, model_link_base + 0x110}, {0x44, model_link_base + 0x80},
                                            {0x48, model_link_base + 0x100}},
                                           {Reloc::make(RelocType::mips_32, 0x40), Reloc::make(RelocType::mips_32, 0x44),
                                            Reloc::make(RelocType::mips_32, 0x48)},
                                           0x40);
    const Fragment f = parse(bytes);
    FragmentImage appended(f);
    const mod::Bytes data(0x18, 0xAB);
    // Aligned to 0x20: 0x100 becomes 0x100 (no fill), data 0x18 → body 0x118.
    BOOST_TEST(appended.append(data, 0x20) == model_link_base + 0x100);
    const Fragment out = parse(encode_fragment(appended.build()));
    BOOST_TEST(out.header.reloc_offset == 0x118u);
    BOOST_TEST(out.header.size_in_ram == 0x158u);  // the bss keeps its 0x40 bytes, after the new data
    BOOST_TEST(out.word(0x40) == model_link_base + 0x128);  // the same bss byte
    BOOST_TEST(out.word(0x44) == model_link_base + 0x80);
    BOOST_TEST(out.word(0x48) == model_link_base + 0x118);  // still the start of the bss
    // The same as inserting the data at the end of the body.
    FragmentImage inserted(f);
    inserted.insert(0x100, mod::Bytes(0x18, 0xAB));
    BOOST_TEST(encode_fragment(inserted.build()) == encode_fragment(appended.build()));
    // Alignment fill counts as moved bytes too: 0x118 → 0x120 (fill 8), then 8 bytes.
    BOOST_TEST(appended.append(mod::Bytes(8, 1), 0x10) == model_link_base + 0x120);
    const Fragment out2 = parse(encode_fragment(appended.build()));
    BOOST_TEST(out2.word(0x40) == model_link_base + 0x138);
    BOOST_TEST(out2.header.size_in_ram == 0x168u);
    // In the game, the pointer resolves to the same bss byte in both loads.
    const std::uint32_t vaddr = 0x80400000;
    const mod::Bytes r0 = stadiumtest::game_relocate(f, vaddr), r2 = stadiumtest::game_relocate(out2, vaddr);
    BOOST_TEST(mod::endian::load_be32(&r0[0x40]) - vaddr - f.header.reloc_offset ==
               mod::endian::load_be32(&r2[0x40]) - vaddr - out2.header.reloc_offset);
}

BOOST_AUTO_TEST_CASE(edits_that_would_leave_the_1_MiB_window_are_refused) {
    // Pointers resolve through their low 20 bits: a body (plus bss) reaching 0x100000 would
    // push rebased targets out of the fragment's window, where later edits no longer see them.
    const mod::Bytes bytes = tiny_fragment(0x100, 0x60, {{0x40, model_link_base + 0xF0}},
                                           {Reloc::make(RelocType::mips_32, 0x40)}, 0x10);
    const Fragment f = parse(bytes);
    FragmentImage img(f);
    // 0x100 + 0x10 bss + n < 0x100000 is the largest allowed.
    auto e = catch_error([&] { img.insert(0x30, mod::Bytes(0x100000 - 0x110, 0)); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->kind() == mod::ErrorKind::limit);
    BOOST_TEST(e->message().find("0x100000") != std::string::npos);
    e = catch_error([&] { img.append(mod::Bytes(0x100000 - 0x110, 0), 8); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->kind() == mod::ErrorKind::limit);
    BOOST_TEST(!img.modified());
    BOOST_TEST(img.body() == f.body);
    img.insert(0x30, mod::Bytes(0x100000 - 0x118, 0));
    BOOST_TEST(img.word(0x40 + 0x100000 - 0x118) == model_link_base + 0xFFFD8);
    // Removing it again gives the original back: the pointer was tracked all along.
    img.remove(0x30, 0x100000 - 0x118);
    BOOST_TEST(encode_fragment(img.build()) == encode_fragment([&] {
                   FragmentImage same(f);
                   same.insert(0x30, mod::Bytes(8, 0));
                   same.remove(0x30, 8);
                   return same.build();
               }()));
}

BOOST_AUTO_TEST_SUITE_END()
