// N64 ROM images: byte orders, header, CIC detection, boot checksum, the `modkit rom` CLI.
#include "test_support.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/n64/rom.hpp"

#include <algorithm>
#include <ostream>

// Printers so failed comparisons show names.
namespace mod {
namespace n64 {
inline std::ostream& operator<<(std::ostream& os, ByteOrder o) { return os << to_string(o); }
inline std::ostream& operator<<(std::ostream& os, Cic c) { return os << to_string(c); }
}  // namespace n64
}  // namespace mod

namespace n64 = mod::n64;
using modtest::fs::path;

namespace {

// The public 6102 homebrew images (trimmed; their header CRCs were computed by their build
// tools over the zero-padded first MiB).
std::vector<path> public_roms() {
    std::vector<path> out;
    for (const auto& p : modtest::yay0_corpus_files())
        if (p.filename().string().starts_with("pl_") && p.filename().string().ends_with("_rom.bin"))
            out.push_back(p);
    return out;
}

mod::Bytes pad_to_mib(mod::Bytes data) {
    const std::size_t mib = 1u << 20;
    data.resize((data.size() + mib - 1) / mib * mib, 0);
    return data;
}

mod::ByteReader reader(const mod::Bytes& data, const std::string& name = "test.z64") {
    return mod::ByteReader(data, mod::Endian::big, name, "rom");
}

// A synthetic z64 image: a header, an IPL3 forged to identify `cic` (with Stadium's 0x828A at
// 0xE38 to show the forge keeps other bytes), and `size` bytes of deterministic content.
mod::Bytes synthetic_image(n64::Cic cic, std::size_t size, std::uint64_t seed) {
    mod::Bytes img(size);
    modtest::Rng rng(seed);
    for (auto& b : img) b = static_cast<std::uint8_t>(rng.next());
    const std::uint8_t head[8] = {0x80, 0x37, 0x12, 0x40, 0x00, 0x00, 0x00, 0x0F};
    std::copy(head, head + 8, img.begin());
    img[0xE38] = 0x82;
    img[0xE39] = 0x8A;
    if (cic != n64::Cic::unknown) n64::forge_ipl3_crc32(img, 0xF00, n64::ipl3_crc32(cic));
    return img;
}

std::uint32_t stored_word(const mod::Bytes& img, std::size_t at) { return mod::endian::load_be32(img.data() + at); }

}  // namespace

BOOST_AUTO_TEST_SUITE(rom)

BOOST_AUTO_TEST_CASE(public_roms_checksums_match_their_headers) {
    const auto roms = public_roms();
    BOOST_REQUIRE_EQUAL(roms.size(), 6u);
    for (const auto& p : roms) {
        BOOST_TEST_CONTEXT(p.filename()) {
            const auto trimmed = modtest::read(p);
            const auto padded = pad_to_mib(trimmed);
            BOOST_TEST(n64::detect_order(reader(padded)) == n64::ByteOrder::z64);
            BOOST_TEST(n64::detect_cic(padded) == n64::Cic::cic6102);
            const auto header = n64::read_header(padded);
            const auto computed = n64::compute_checksums(padded, n64::Cic::cic6102);
            BOOST_TEST(computed.crc1 == header.stored.crc1);
            BOOST_TEST(computed.crc2 == header.stored.crc2);
            // The trimmed image (zeros assumed past its end) and an image padded through
            // 0x101000 give the same result.
            BOOST_TEST((n64::compute_checksums(trimmed, n64::Cic::cic6102) == computed));
            auto long_pad = trimmed;
            long_pad.resize(n64::checksum_end + 0x1000, 0);
            BOOST_TEST((n64::compute_checksums(long_pad, n64::Cic::cic6102) == computed));
            // Any other algorithm variant disagrees with the stored values.
            for (auto other : {n64::Cic::cic6103, n64::Cic::cic6105, n64::Cic::cic6106})
                BOOST_TEST(!(n64::compute_checksums(padded, other) == computed));
            const auto info = n64::inspect(reader(padded));
            BOOST_TEST(info.checksums_match());
            BOOST_TEST(info.header.entry_point == 0x80001000u);
            BOOST_TEST(!info.header.title.empty());
            BOOST_TEST(info.known_revision.empty());
        }
    }
}

BOOST_AUTO_TEST_CASE(a_changed_byte_in_the_first_mib_changes_the_checksum) {
    auto img = pad_to_mib(modtest::read(modtest::corpus("yay0/pl_rotatefillline_rom.bin")));
    const auto before = n64::compute_checksums(img, n64::Cic::cic6102);
    img[0x1000] ^= 0x01;
    BOOST_TEST(!(n64::compute_checksums(img, n64::Cic::cic6102) == before));
    img[0x1000] ^= 0x01;
    img.resize(n64::checksum_end, 0);
    BOOST_TEST((n64::compute_checksums(img, n64::Cic::cic6102) == before));  // zeros were assumed
    // The last covered word counts. (Not a single low bit there: with d = 0x80 and bit 7 of
    // the running sum clear, "sum += d" and "xor ^= d" cancel in CRC1, a real blind spot.)
    mod::endian::store_be32(img.data() + n64::checksum_end - 4, 0x12345678u);
    BOOST_TEST(!(n64::compute_checksums(img, n64::Cic::cic6102) == before));
}

BOOST_AUTO_TEST_CASE(byte_orders_round_trip) {
    for (const auto& p : public_roms()) {
        BOOST_TEST_CONTEXT(p.filename()) {
            const auto z64 = modtest::read(p);
            const auto md5 = mod::md5(z64);
            for (auto order : {n64::ByteOrder::z64, n64::ByteOrder::v64, n64::ByteOrder::n64}) {
                const auto converted = n64::from_z64(z64, order);
                BOOST_TEST(n64::detect_order(reader(converted)) == order);
                BOOST_TEST(n64::to_z64(converted, order) == z64);
                BOOST_TEST(n64::inspect(reader(converted)).md5 == md5);
                for (auto other : {n64::ByteOrder::z64, n64::ByteOrder::v64, n64::ByteOrder::n64}) {
                    // order -> z64 -> other -> z64 is lossless
                    const auto via = n64::from_z64(n64::to_z64(converted, order), other);
                    BOOST_TEST(n64::to_z64(via, other) == z64);
                }
            }
            // The documented first words.
            const auto v64 = n64::from_z64(z64, n64::ByteOrder::v64);
            const auto n64b = n64::from_z64(z64, n64::ByteOrder::n64);
            BOOST_TEST(stored_word(v64, 0) == 0x37804012u);
            BOOST_TEST(stored_word(n64b, 0) == 0x40123780u);
            BOOST_TEST(v64[0x21] == z64[0x20]);
            BOOST_TEST(n64b[0x23] == z64[0x20]);
        }
    }
    BOOST_TEST(n64::parse_byte_order("v64") == n64::ByteOrder::v64);
    BOOST_CHECK_THROW(n64::parse_byte_order("bin"), mod::Error);
}

BOOST_AUTO_TEST_CASE(bad_images_fail_cleanly) {
    const auto z64 = modtest::read(modtest::corpus("yay0/pl_rotatefillline_rom.bin"));
    // Shorter than the boot area.
    mod::Bytes short_img(z64.begin(), z64.begin() + 0xFFC);
    auto e = modtest::catch_error([&] { n64::detect_order(reader(short_img, "short.z64")); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::format);
    BOOST_TEST(e->file() == "short.z64");
    BOOST_TEST(e->offset() == 0u);
    BOOST_CHECK_THROW(n64::detect_cic(short_img), mod::Error);
    BOOST_CHECK_THROW(n64::compute_checksums(short_img, n64::Cic::cic6102), mod::Error);
    BOOST_CHECK_THROW(n64::fix_checksums(short_img), mod::Error);
    BOOST_CHECK_THROW(n64::read_header(mod::ByteView(z64).first(0x3F)), mod::Error);
    // Not a whole number of words.
    mod::Bytes odd(z64.begin(), z64.begin() + 0x1001);
    e = modtest::catch_error([&] { n64::inspect(reader(odd)); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::format);
    BOOST_CHECK_THROW(n64::to_z64(odd, n64::ByteOrder::v64), mod::Error);
    // 0x1002 bytes: whole halfwords, not whole words (taken from the image: `odd` holds 0x1001,
    // and first(0x1002) of it read one byte past its end).
    BOOST_CHECK_THROW(n64::to_z64(mod::ByteView(z64).first(0x1002), n64::ByteOrder::n64), mod::Error);
    // Unknown first word.
    auto garbage = z64;
    garbage[0] = 0x12;
    e = modtest::catch_error([&] { n64::inspect(reader(garbage)); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->message().find("not an N64 image") != std::string::npos);
    // Every truncation of a real image either inspects or throws mod::Error.
    mod::Bytes head(z64.begin(), z64.begin() + 0x1100);
    const auto rejected = modtest::truncation_loop(head, [](mod::ByteView v) {
        mod::Bytes b(v.begin(), v.end());
        n64::inspect(reader(b));
    });
    BOOST_TEST(rejected >= 0x1000u);
}

BOOST_AUTO_TEST_CASE(cic_detection_by_ipl3_crc) {
    for (auto cic : {n64::Cic::cic6101, n64::Cic::cic6102, n64::Cic::cic6103, n64::Cic::cic6105, n64::Cic::cic6106}) {
        BOOST_TEST_CONTEXT(n64::to_string(cic)) {
            const auto img = synthetic_image(cic, 0x2000, 7);
            BOOST_TEST(n64::detect_cic(img) == cic);
            BOOST_TEST(mod::crc32(mod::ByteView(img).subspan(0x40, 0xFC0)) == n64::ipl3_crc32(cic));
            BOOST_TEST(img[0xE38] == 0x82);
            BOOST_TEST(img[0xE39] == 0x8A);
        }
    }
    BOOST_TEST(n64::ipl3_crc32(n64::Cic::cic6103) == 0x0B050EE0u);
    BOOST_TEST(n64::checksum_seed(n64::Cic::cic6103) == 0xA3886759u);
    BOOST_TEST(n64::checksum_seed(n64::Cic::cic6101) == n64::checksum_seed(n64::Cic::cic6102));
    const auto unknown = synthetic_image(n64::Cic::unknown, 0x2000, 8);
    BOOST_TEST(n64::detect_cic(unknown) == n64::Cic::unknown);
    BOOST_TEST(std::string(n64::to_string(n64::Cic::unknown)) == "unknown");
    // The forge refuses offsets outside the IPL3.
    auto img = synthetic_image(n64::Cic::cic6102, 0x2000, 9);
    BOOST_CHECK_THROW(n64::forge_ipl3_crc32(img, 0x3E, 0), mod::Error);
    BOOST_CHECK_THROW(n64::forge_ipl3_crc32(img, 0xFFD, 0), mod::Error);
    n64::forge_ipl3_crc32(img, 0xFFC, 0x12345678u);  // the last word works too
    BOOST_TEST(mod::crc32(mod::ByteView(img).subspan(0x40, 0xFC0)) == 0x12345678u);
}

// Closed forms on all-zero data, derived by hand from the algorithm's description (stadium.md
// §1.3): every word d = 0, so t6, t4, t3, t5, t2 keep the seed and t1 gains t5 ^ 0 = seed per
// word (0x40000 words); the 6105 adds its boot words instead (each of the 64 read 0x1000 times).
BOOST_AUTO_TEST_CASE(checksum_variants_on_zero_data) {
    for (auto cic : {n64::Cic::cic6101, n64::Cic::cic6102, n64::Cic::cic6103, n64::Cic::cic6105, n64::Cic::cic6106}) {
        BOOST_TEST_CONTEXT(n64::to_string(cic)) {
            auto img = synthetic_image(cic, n64::checksum_end, 11);
            std::fill(img.begin() + n64::checksum_start, img.end(), 0);
            const std::uint32_t s = n64::checksum_seed(cic);
            const std::uint32_t t1 = s + s * 0x40000u;
            n64::Checksums expected;
            switch (cic) {
                case n64::Cic::cic6103: expected = {(s ^ s) + s, (s ^ s) + t1}; break;
                case n64::Cic::cic6106: expected = {s * s + s, s * s + t1}; break;
                case n64::Cic::cic6105: {
                    std::uint32_t sum = 0;
                    for (std::size_t k = 0; k < 0x100; k += 4) sum += stored_word(img, 0x40 + 0x710 + k);
                    expected = {s, s ^ s ^ (s + sum * 0x1000u)};
                    break;
                }
                default: expected = {s ^ s ^ s, s ^ s ^ t1}; break;
            }
            const auto got = n64::compute_checksums(img, cic);
            BOOST_TEST(got.crc1 == expected.crc1);
            BOOST_TEST(got.crc2 == expected.crc2);
        }
    }
    BOOST_CHECK_THROW(n64::compute_checksums(synthetic_image(n64::Cic::unknown, 0x2000, 1), n64::Cic::unknown),
                      mod::Error);
}

// The 6105 reads 64 words of its own boot code (0x750..0x84F): changing one changes CRC2 only,
// and changing boot code outside that window changes nothing; the other CICs ignore boot code.
BOOST_AUTO_TEST_CASE(cic6105_mixes_in_its_boot_words) {
    auto img = synthetic_image(n64::Cic::cic6105, 0x20000, 12);
    const auto base = n64::compute_checksums(img, n64::Cic::cic6105);
    const auto base6103 = n64::compute_checksums(img, n64::Cic::cic6103);
    auto inside = img;
    inside[0x750 + 0x43] ^= 0x01;  // a low bit: a high one could cancel over 0x1000 reads
    const auto changed = n64::compute_checksums(inside, n64::Cic::cic6105);
    BOOST_TEST(changed.crc1 == base.crc1);
    BOOST_TEST(changed.crc2 != base.crc2);
    BOOST_TEST((n64::compute_checksums(inside, n64::Cic::cic6103) == base6103));
    auto outside = img;
    outside[0x74F] ^= 0x10;
    outside[0x850] ^= 0x10;
    BOOST_TEST((n64::compute_checksums(outside, n64::Cic::cic6105) == base));
}

BOOST_AUTO_TEST_CASE(fix_checksums_touches_only_the_crc_words) {
    for (auto cic : {n64::Cic::cic6102, n64::Cic::cic6103, n64::Cic::cic6105, n64::Cic::cic6106}) {
        BOOST_TEST_CONTEXT(n64::to_string(cic)) {
            auto img = synthetic_image(cic, n64::checksum_end + 0x400, 21);
            const auto original = img;
            const auto fixed = n64::fix_checksums(img);
            BOOST_TEST((fixed == n64::compute_checksums(original, cic)));
            BOOST_TEST(stored_word(img, 0x10) == fixed.crc1);
            BOOST_TEST(stored_word(img, 0x14) == fixed.crc2);
            std::size_t differing_outside_crcs = 0;
            for (std::size_t i = 0; i < img.size(); ++i)
                if ((i < 0x10 || i >= 0x18) && img[i] != original[i]) ++differing_outside_crcs;
            BOOST_TEST(differing_outside_crcs == 0u);
            BOOST_TEST(std::equal(img.begin() + 0x40, img.begin() + 0x1000, original.begin() + 0x40));
            // Fixing is idempotent and the header CRCs do not feed the checksum.
            auto again = img;
            BOOST_TEST((n64::fix_checksums(again) == fixed));
            BOOST_TEST(again == img);
            BOOST_TEST(n64::inspect(reader(img)).checksums_match());
        }
    }
    auto unknown = synthetic_image(n64::Cic::unknown, 0x2000, 3);
    auto e = modtest::catch_error([&] { n64::fix_checksums(unknown); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::limit);
}

BOOST_AUTO_TEST_CASE(known_revision_by_md5) {
    BOOST_TEST(n64::known_revision(n64::stadium_us_10_md5) == "Pokémon Stadium (USA) 1.0");
    BOOST_TEST(n64::known_revision("3a7324ce816d5891dea074055690750a").empty());  // the v64 file's md5
}

BOOST_AUTO_TEST_CASE(cli_rom_commands) {
    modtest::TempDir tmp;
    const auto rom = modtest::corpus("yay0/pl_gbemu_rom.bin");
    auto r = modtest::run_cli({"rom", "info", rom.string(), "--json"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find("\"cic\": \"6102\"") != std::string::npos);
    BOOST_TEST(r.out.find("\"checksums_match\": true") != std::string::npos);
    BOOST_TEST(r.err.find("not a known revision") != std::string::npos);

    // A v64 copy with broken CRCs: fix-crc keeps v64 and restores the stored values.
    auto z64 = modtest::read(rom);
    auto broken = z64;
    broken[0x10] ^= 0xFF;
    broken[0x17] ^= 0x01;
    const auto in = tmp / "broken.v64";
    mod::write_file_atomic(in, n64::from_z64(broken, n64::ByteOrder::v64));
    r = modtest::run_cli({"rom", "info", in.string()});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find("MISMATCH") != std::string::npos);
    const auto out = tmp / "fixed.v64";
    r = modtest::run_cli({"rom", "fix-crc", in.string(), out.string()});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(modtest::read(out) == n64::from_z64(z64, n64::ByteOrder::v64));
    r = modtest::run_cli({"rom", "fix-crc", in.string(), (tmp / "fixed.n64").string(), "--order", "n64"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(modtest::read(tmp / "fixed.n64") == n64::from_z64(z64, n64::ByteOrder::n64));

    // normalize writes z64 by default.
    r = modtest::run_cli({"rom", "normalize", in.string(), (tmp / "norm.z64").string()});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(modtest::read(tmp / "norm.z64") == broken);

    // Exit codes: usage 1, format 2, conflict/limit 3, io 4.
    BOOST_TEST(modtest::run_cli({"rom", "info"}).exit_code == 1);
    BOOST_TEST(modtest::run_cli({"rom", "normalize", in.string(), (tmp / "x").string(), "--order", "bin"}).exit_code == 1);
    mod::write_file_atomic(tmp / "short.z64", mod::ByteView(z64).first(0x800));
    BOOST_TEST(modtest::run_cli({"rom", "info", (tmp / "short.z64").string()}).exit_code == 2);
    BOOST_TEST(modtest::run_cli({"rom", "fix-crc", in.string(), in.string()}).exit_code == 3);
    mod::write_file_atomic(tmp / "unknown.z64", synthetic_image(n64::Cic::unknown, 0x2000, 5));
    BOOST_TEST(modtest::run_cli({"rom", "fix-crc", (tmp / "unknown.z64").string(), (tmp / "u2.z64").string()}).exit_code == 3);
    BOOST_TEST(!modtest::fs::exists(tmp / "u2.z64"));
    BOOST_TEST(modtest::run_cli({"rom", "info", (tmp / "missing.z64").string()}).exit_code == 4);
}


BOOST_AUTO_TEST_CASE(checksum_t2_comparison_is_strict) {
    // The t2 step XORs r only when t2 > d (n64crc.c): with the first covered word equal to the
    // seed (t2 == d) it must take the t6 ^ d branch. Values from an independent transcription
    // of n64crc.c (Python); "t2 >= d" would give CRC2 0xD4E40130.
    mod::Bytes img(n64::checksum_end, 0);
    mod::endian::store_be32(img.data() + n64::checksum_start, n64::checksum_seed(n64::Cic::cic6102));
    const auto c = n64::compute_checksums(img, n64::Cic::cic6102);
    BOOST_TEST(c.crc1 == 0x095ED665u);
    BOOST_TEST(c.crc2 == 0x12367389u);
}

BOOST_AUTO_TEST_SUITE_END()
