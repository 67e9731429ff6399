#include "libmod/core/hash.hpp"

#include "test_support.hpp"

#include <string_view>

using namespace mod;

namespace {
std::span<const std::uint8_t> bytes_of(std::string_view s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}
}  // namespace

BOOST_AUTO_TEST_SUITE(hash)

BOOST_AUTO_TEST_CASE(crc32_matches_the_standard_check_values) {
    BOOST_TEST(crc32(bytes_of("")) == 0u);
    BOOST_TEST(crc32(bytes_of("123456789")) == 0xCBF43926u);
    BOOST_TEST(crc32(bytes_of("The quick brown fox jumps over the lazy dog")) == 0x414FA339u);
}

BOOST_AUTO_TEST_CASE(crc32_chains_across_calls_and_lengths) {
    modtest::Rng rng(7);
    Bytes data(1000);
    for (auto& b : data) b = static_cast<std::uint8_t>(rng.next());
    const std::uint32_t whole = crc32(data);
    for (std::size_t split : {0u, 1u, 7u, 8u, 9u, 500u, 999u, 1000u}) {
        auto first = std::span<const std::uint8_t>(data).first(split);
        auto rest = std::span<const std::uint8_t>(data).subspan(split);
        BOOST_TEST(crc32(rest, crc32(first)) == whole);
    }
}

BOOST_AUTO_TEST_CASE(md5_matches_rfc1321_vectors) {
    BOOST_TEST(to_hex(md5(bytes_of(""))) == "d41d8cd98f00b204e9800998ecf8427e");
    BOOST_TEST(to_hex(md5(bytes_of("abc"))) == "900150983cd24fb0d6963f7d28e17f72");
    BOOST_TEST(to_hex(md5(bytes_of("12345678901234567890123456789012345678901234567890123456789012345678901234567890"))) ==
               "57edf4a22be3c955ac49da2e2107b67a");
    Bytes million(1000000, 'a');
    BOOST_TEST(to_hex(md5(million)) == "7707d6ae4e027c70eea2a935c2296f21");
}

BOOST_AUTO_TEST_CASE(sha1_matches_fips_vectors) {
    BOOST_TEST(to_hex(sha1(bytes_of(""))) == "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    BOOST_TEST(to_hex(sha1(bytes_of("abc"))) == "a9993e364706816aba3e25717850c26c9cd0d89d");
    BOOST_TEST(to_hex(sha1(bytes_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))) ==
               "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    Bytes million(1000000, 'a');
    BOOST_TEST(to_hex(sha1(million)) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

BOOST_AUTO_TEST_CASE(crc32_fast_path_equals_the_portable_code) {
    BOOST_TEST_MESSAGE("PCLMULQDQ in use: " << mod::crc32_uses_clmul());
    modtest::Rng rng(32);
    Bytes data(70000);
    for (auto& b : data) b = static_cast<std::uint8_t>(rng.next());
    // Every length up to 300 at several alignments, chained and not, and long inputs.
    for (std::size_t offset : {0u, 1u, 7u, 15u})
        for (std::size_t len = 0; len <= 300; ++len) {
            auto view = std::span<const std::uint8_t>(data).subspan(offset, len);
            BOOST_TEST(crc32(view) == mod::detail::crc32_portable(view), "offset " << offset << " length " << len);
            BOOST_TEST(crc32(view, 0x12345678u) == mod::detail::crc32_portable(view, 0x12345678u));
        }
    BOOST_TEST(crc32(data) == mod::detail::crc32_portable(data));
    const auto all = std::span<const std::uint8_t>(data);
    BOOST_TEST(crc32(all.subspan(1000), crc32(all.first(1000))) == crc32(data));
    // A hand value: CRC-32 of 64 bytes of 'a' (zlib's crc32), through the fast path.
    BOOST_TEST(crc32(Bytes(64, 'a')) == 0x89B46555u);
}

BOOST_AUTO_TEST_CASE(digests_handle_every_padding_boundary) {
    // Lengths around the 56/64-byte padding split must not crash and must differ pairwise.
    std::vector<std::string> seen;
    for (std::size_t len = 50; len <= 130; ++len) {
        Bytes data(len, 0x61);
        seen.push_back(to_hex(md5(data)) + to_hex(sha1(data)));
    }
    std::sort(seen.begin(), seen.end());
    BOOST_TEST((std::adjacent_find(seen.begin(), seen.end()) == seen.end()));
}

BOOST_AUTO_TEST_SUITE_END()
