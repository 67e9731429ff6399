// Issue 17, "a forge that can fail", Stadium review §5.3 items 5 and 6: the sample ROM now holds
// a PERS-SZP entry with fix-ups and size2 > size1 (entry 9) and a model whose getter shares one
// HI16 between two LO16s that need the carry (model 11), written as func_80003890 and
// Memmap_RelocateFragment read them (libmod/src/sample/stadium_cases.cpp). Expected values are
// computed here by hand from those functions (reference §3.1, §4.2).
#include "stadium_test_support.hpp"

#include "libmod/codec/szp.hpp"
#include "libmod/codec/yay0.hpp"
#include "libmod/sample/stadium.hpp"
#include "libmod/stadium/archive.hpp"
#include "libmod/stadium/fragment.hpp"
#include "libmod/stadium/fragment_image.hpp"
#include "libmod/stadium/model.hpp"
#include "libmod/stadium/model_walk.hpp"

#include <boost/test/unit_test.hpp>

using namespace mod::stadium;
using mod::Bytes;

namespace {

std::uint32_t be32(const Bytes& b, std::size_t at) { return mod::endian::load_be32(&b.at(at)); }

const Archive& sample_archive() {
    static const Archive a = [] {
        const Bytes region = mod::sample::stadium_model_archive();
        return parse_archive(mod::ByteReader(region, mod::Endian::big, {}, "archive"));
    }();
    return a;
}

// The address a LUI/LO16 pair forms, by hand: (hi << 16) + (s16)lo.
std::uint32_t pair(std::uint32_t lui, std::uint32_t lo) {
    const std::int32_t low = static_cast<std::int16_t>(lo & 0xFFFF);
    return ((lui & 0xFFFF) << 16) + static_cast<std::uint32_t>(low);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_forge_relocs)

// Entry 9's PERS-SZP header as func_80003890 reads it: header_size = 0x18 + 3 fix-ups × 8 =
// 0x30, size1 = the fragment's size, size2 = size1 + 0x40, fix-ups {0x11111111, c},
// {0xF80107C1, c}, {0xCAFEF00D, size1 + 8}. Decompress, apply the fix-ups in order, zero
// [size1, size2): palette 0 starts 0xF801 0x07C1 (the second fix-up wins over the first and
// over the stream's 0xDEADBEEF) and the 0x40 bytes after the fragment are zero (the third
// fix-up and the stream's 16 bytes past size1 are erased).
BOOST_AUTO_TEST_CASE(sample_szp_entry_has_fixups_and_slack) {
    const Archive& a = sample_archive();
    const Bytes blob(a.blob(9).begin(), a.blob(9).end());
    BOOST_REQUIRE(mod::szp::has_magic(blob));
    const std::uint32_t header_size = be32(blob, 0x08), size1 = be32(blob, 0x0C), size2 = be32(blob, 0x10);
    BOOST_TEST(header_size == 0x30u);
    BOOST_TEST(be32(blob, 0x14) == 3u);
    BOOST_TEST(size2 == size1 + 0x40);
    const Bytes fragment = mod::sample::stadium_model(9);
    BOOST_TEST(size1 == fragment.size());
    const std::uint32_t c = read_model(fragment).palettes.at(0).offset;
    BOOST_TEST(be32(blob, 0x18) == 0x11111111u);
    BOOST_TEST(be32(blob, 0x1C) == c);
    BOOST_TEST(be32(blob, 0x20) == 0xF80107C1u);
    BOOST_TEST(be32(blob, 0x24) == c);
    BOOST_TEST(be32(blob, 0x28) == 0xCAFEF00Du);
    BOOST_TEST(be32(blob, 0x2C) == size1 + 8);
    // The bare Yay0 stream: the placeholder and 16 bytes past size1 (what the fix-ups and the
    // zero fill act on).
    const Bytes stream = mod::yay0::decode(mod::ByteView(blob).subspan(header_size));
    BOOST_REQUIRE_EQUAL(stream.size(), size1 + 16u);
    BOOST_TEST(be32(stream, c) == 0xDEADBEEFu);
    BOOST_TEST(std::string(stream.end() - 16, stream.end()) == "fixup-zero-fill!");

    // What the reader holds: size2 bytes, as the game's buffer.
    const DecodedEntry e = decode_entry(a, 9);
    BOOST_REQUIRE(e.szp);
    BOOST_TEST(e.szp->size1 == size1);
    BOOST_TEST(e.szp->fixups.size() == 3u);
    BOOST_REQUIRE_EQUAL(e.content.size(), size2);
    BOOST_TEST(be32(e.content, c) == 0xF80107C1u);
    for (std::size_t i = size1; i < size2; ++i) BOOST_TEST(e.content[i] == 0, "byte " << i);
    BOOST_TEST(std::equal(fragment.begin(), fragment.end(), e.content.begin()));
    const Model m = read_model(e.content);
    BOOST_TEST(m.fragment.trailing.size() == 0x40u);
    // RGBA5551 0xF801 = r 31, g 0, b 0, a 1; 0x07C1 = g 31, a 1.
    BOOST_TEST(m.palettes.at(0).entries.at(0) == 0xF801u);
    BOOST_TEST(m.palettes.at(0).entries.at(1) == 0x07C1u);
}

// An unchanged repack copies entry 9's blob (fix-ups and slack kept); an edited entry 9 is
// written with size1 = size2 = its content, no fix-ups (baked in), and reads back the same.
BOOST_AUTO_TEST_CASE(sample_szp_entry_repacks) {
    const Archive& a = sample_archive();
    const RepackResult same = repack_archive(a, {}, {});
    BOOST_TEST(same.region == a.region);
    Bytes content = decode_entry(a, 9).content;
    const std::uint32_t c = read_model(content).palettes.at(0).offset;
    mod::endian::store_be32(&content[c + 4], 0x003F003Fu);  // colours 2 and 3: blue
    const RepackResult edited = repack_archive(a, {{9, content}}, {});
    const Archive b = parse_archive(mod::ByteReader(edited.region, mod::Endian::big, {}, "archive"));
    const DecodedEntry e = decode_entry(b, 9);
    BOOST_REQUIRE(e.szp);
    BOOST_TEST(e.szp->fixups.empty());
    BOOST_TEST(e.szp->size1 == e.szp->size2);
    BOOST_TEST(e.content == content);
    BOOST_TEST(be32(e.content, c) == 0xF80107C1u);
}

// Model 11's getter: lui v1, %hi(root) / addiu v0, v1, %lo(root) / jr ra /
// lw t0, %lo(root + 0x14)(v1); table HI16 @0x20, LO16 @0x24, LO16 @0x2C (both rs = v1 = 3). The
// root lies at R in [0x8000, 0x10000): %lo(root) = R ≥ 0x8000 reads as R − 0x10000 (sign
// extended), so %hi carries: 0x8FF0 + 1 = 0x8FF1.
BOOST_AUTO_TEST_CASE(sample_getter_shares_a_carried_hi16) {
    const Fragment f = parse_fragment(mod::ByteReader(mod::sample::stadium_model(11), mod::Endian::big));
    const ModelRoot root = read_model_root(f);
    const std::uint32_t R = root.offset;
    BOOST_TEST_REQUIRE(R >= 0x8000u);
    BOOST_TEST_REQUIRE(R + 0x14 < 0x10000u);
    const std::uint32_t lui = f.word(0x20), addiu = f.word(0x24), lw = f.word(0x2C);
    BOOST_TEST(lui == ((0x0Fu << 26) | (3u << 16) | 0x8FF1u));
    BOOST_TEST(addiu == ((0x09u << 26) | (3u << 21) | (2u << 16) | R));
    BOOST_TEST(f.word(0x28) == 0x03E00008u);
    BOOST_TEST(lw == ((0x23u << 26) | (3u << 21) | (8u << 16) | (R + 0x14)));
    BOOST_TEST(pair(lui, addiu) == 0x8FF00000u + R);
    BOOST_TEST(pair(lui, lw) == 0x8FF00000u + R + 0x14);
    BOOST_REQUIRE(f.relocs.size() >= 4u);
    BOOST_TEST(f.relocs[1].raw == 0x05000020u);
    BOOST_TEST(f.relocs[2].raw == 0x06000024u);
    BOOST_TEST(f.relocs[3].raw == 0x0600002Cu);
    const auto pairs = pair_hi_lo(f);
    BOOST_REQUIRE_EQUAL(pairs.size(), 2u);
    BOOST_TEST(pairs[0].hi == 1u);
    BOOST_TEST(pairs[1].hi == 1u);
    BOOST_TEST(relocs_the_game_skips(f).empty());
    // The walk and the cross-check accept the shared LO16 as the getter's.
    const Model m = read_model(mod::sample::stadium_model(11));
    BOOST_TEST(cross_check(m.fragment, m.map).ok());
    BOOST_TEST(m.textures.size() == 2u + 16u);
}

// Loaded at V = 0x80234560 the game computes t = V + R for each LO16 (from the original LUI),
// writes lo = t & 0xFFFF and the LUI = (t >> 16) + (t & 0x8000 ? 1 : 0): both LO16s write the
// same upper half, and the loaded getter forms V + R and V + R + 0x14.
BOOST_AUTO_TEST_CASE(sample_getter_relocates_with_the_carry) {
    const Fragment f = parse_fragment(mod::ByteReader(mod::sample::stadium_model(11), mod::Endian::big));
    const std::uint32_t R = read_model_root(f).offset;
    const std::uint32_t V = 0x80234560;
    const Bytes loaded = stadiumtest::game_relocate(f, V);
    const std::uint32_t t = V + R;
    const std::uint32_t hi = (t >> 16) + ((t & 0x8000) ? 1 : 0);
    BOOST_TEST((be32(loaded, 0x20) & 0xFFFF) == hi);
    BOOST_TEST((be32(loaded, 0x24) & 0xFFFF) == (t & 0xFFFF));
    BOOST_TEST((be32(loaded, 0x2C) & 0xFFFF) == ((t + 0x14) & 0xFFFF));
    BOOST_TEST(pair(be32(loaded, 0x20), be32(loaded, 0x24)) == V + R);
    BOOST_TEST(pair(be32(loaded, 0x20), be32(loaded, 0x2C)) == V + R + 0x14);
}

// Rebasing (FragmentImage, what every edit that moves bytes does before repacking): 0x2000
// bytes inserted at 0x30 move the root to R' = R + 0x2000; the getter is rewritten with the
// carry rule (hi = 0x8FF0 + ((R' + 0x8000) >> 16), lo = R' & 0xFFFF), and the game's relocator
// on the rebased fragment finds V + R' for both LO16s.
BOOST_AUTO_TEST_CASE(sample_getter_rebases_with_the_game_arithmetic) {
    const Fragment f = parse_fragment(mod::ByteReader(mod::sample::stadium_model(11), mod::Endian::big));
    const std::uint32_t R = read_model_root(f).offset;
    FragmentImage image(f);
    image.insert(0x30, Bytes(0x2000, 0));
    const Fragment g = image.build();
    const std::uint32_t R2 = R + 0x2000;
    BOOST_TEST(read_model_root(g).offset == R2);
    const std::uint32_t hi = 0x8FF0 + ((R2 + 0x8000) >> 16);
    BOOST_TEST((g.word(0x20) & 0xFFFF) == hi);
    BOOST_TEST((g.word(0x24) & 0xFFFF) == (R2 & 0xFFFF));
    BOOST_TEST((g.word(0x2C) & 0xFFFF) == ((R2 + 0x14) & 0xFFFF));
    const std::uint32_t V = 0x80234560;
    const Bytes loaded = stadiumtest::game_relocate(g, V);
    BOOST_TEST(pair(be32(loaded, 0x20), be32(loaded, 0x24)) == V + R2);
    BOOST_TEST(pair(be32(loaded, 0x20), be32(loaded, 0x2C)) == V + R2 + 0x14);
    const Model m = read_model(g);
    BOOST_TEST(cross_check(m.fragment, m.map).ok());
}

BOOST_AUTO_TEST_SUITE_END()
