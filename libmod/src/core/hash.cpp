#include "libmod/core/hash.hpp"

#include "libmod/core/endian.hpp"

#include <cstring>

// The SHA extensions and PCLMULQDQ paths (x86-64 with SSE2 fast paths on; MODKIT_SCALAR_ONLY
// builds without SSE2 and so use the portable code only). Chosen at run time from CPUID.
#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#define MODKIT_SHA_NI 1
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace mod {

namespace {

// Slicing-by-8 tables: a 32 MiB ROM is hashed for CIC detection and identification.
struct Crc32Tables {
    std::uint32_t t[8][256];
    Crc32Tables() {
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
            t[0][i] = c;
        }
        for (std::uint32_t i = 0; i < 256; ++i)
            for (int s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xFF];
    }
};

const Crc32Tables& crc_tables() {
    static const Crc32Tables tables;
    return tables;
}

inline std::uint32_t rotl(std::uint32_t v, int s) { return (v << s) | (v >> (32 - s)); }

// MD5 and SHA-1 share the Merkle–Damgård padding: the data in 64-byte blocks, then 0x80,
// zeros, and the bit length as a 64-bit integer (little-endian for MD5, big for SHA-1).
template <class Block>
void for_each_padded_block(std::span<const std::uint8_t> data, Endian length_order, Block&& block) {
    const std::size_t n = data.size();
    const std::size_t full = n / 64;
    for (std::size_t i = 0; i < full; ++i) block(data.data() + 64 * i);
    std::uint8_t tail[128] = {};
    const std::size_t rem = n % 64;
    if (rem) std::memcpy(tail, data.data() + 64 * full, rem);
    tail[rem] = 0x80;
    const std::size_t tail_len = rem < 56 ? 64 : 128;
    endian::store64(tail + tail_len - 8, static_cast<std::uint64_t>(n) * 8, length_order);
    block(tail);
    if (tail_len == 128) block(tail + 64);
}

}  // namespace

#if defined(MODKIT_SHA_NI)
namespace {
// CRC-32 by carry-less multiplication (Intel, "Fast CRC Computation for Generic Polynomials
// Using PCLMULQDQ", reflected form): four 128-bit lanes folded 512 bits at a time, folded into
// one, reduced to 64 then 32 bits, then a Barrett reduction. Takes and returns the raw register
// (not inverted); n >= 64 and a multiple of 16. About 8x the table code.
__attribute__((target("pclmul,sse4.1"))) std::uint32_t crc32_clmul(std::uint32_t crc, const std::uint8_t* p,
                                                                  std::size_t n) {
    auto load = [](const std::uint8_t* q) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(q)); };
    const __m128i k1k2 = _mm_set_epi64x(0x1c6e41596LL, 0x154442bd4LL);
    const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009eLL, 0x1751997d0LL);
    const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124LL);
    const __m128i poly_mu = _mm_set_epi64x(0x1F7011641LL, 0x1DB710641LL);
    const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
#define MODKIT_FOLD(x, k) _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11))
    __m128i x1 = _mm_xor_si128(load(p), _mm_cvtsi32_si128(static_cast<int>(crc)));
    __m128i x2 = load(p + 16), x3 = load(p + 32), x4 = load(p + 48);
    p += 64;
    n -= 64;
    for (; n >= 64; p += 64, n -= 64) {
        x1 = _mm_xor_si128(MODKIT_FOLD(x1, k1k2), load(p));
        x2 = _mm_xor_si128(MODKIT_FOLD(x2, k1k2), load(p + 16));
        x3 = _mm_xor_si128(MODKIT_FOLD(x3, k1k2), load(p + 32));
        x4 = _mm_xor_si128(MODKIT_FOLD(x4, k1k2), load(p + 48));
    }
    x1 = _mm_xor_si128(MODKIT_FOLD(x1, k3k4), x2);
    x1 = _mm_xor_si128(MODKIT_FOLD(x1, k3k4), x3);
    x1 = _mm_xor_si128(MODKIT_FOLD(x1, k3k4), x4);
    for (; n >= 16; p += 16, n -= 16) x1 = _mm_xor_si128(MODKIT_FOLD(x1, k3k4), load(p));
#undef MODKIT_FOLD
    // 128 -> 64 bits.
    x1 = _mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x10), _mm_srli_si128(x1, 8));
    // 64 -> 32 bits.
    x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k5, 0x00), _mm_srli_si128(x1, 4));
    // Barrett reduction.
    __m128i t = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly_mu, 0x10);
    t = _mm_clmulepi64_si128(_mm_and_si128(t, mask32), poly_mu, 0x00);
    return static_cast<std::uint32_t>(_mm_extract_epi32(_mm_xor_si128(x1, t), 1));
}

bool cpu_has_clmul() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    return (c & (1u << 1)) && (c & (1u << 19));  // PCLMULQDQ, SSE4.1
}
}  // namespace
#endif

bool crc32_uses_clmul() noexcept {
#if defined(MODKIT_SHA_NI)
    static const bool has = cpu_has_clmul();
    return has;
#else
    return false;
#endif
}

std::uint32_t crc32(std::span<const std::uint8_t> data, std::uint32_t previous) noexcept {
#if defined(MODKIT_SHA_NI)
    if (data.size() >= 64 && crc32_uses_clmul()) {
        const std::size_t bulk = data.size() & ~std::size_t(15);
        const std::uint32_t raw = crc32_clmul(~previous, data.data(), bulk);
        return detail::crc32_portable(data.subspan(bulk), ~raw);
    }
#endif
    return detail::crc32_portable(data, previous);
}

std::uint32_t detail::crc32_portable(std::span<const std::uint8_t> data, std::uint32_t previous) noexcept {
    const auto& T = crc_tables().t;
    std::uint32_t c = ~previous;
    const std::uint8_t* p = data.data();
    std::size_t n = data.size();
    while (n >= 8) {
        std::uint32_t lo = endian::load_le32(p) ^ c;
        std::uint32_t hi = endian::load_le32(p + 4);
        c = T[7][lo & 0xFF] ^ T[6][(lo >> 8) & 0xFF] ^ T[5][(lo >> 16) & 0xFF] ^ T[4][lo >> 24] ^
            T[3][hi & 0xFF] ^ T[2][(hi >> 8) & 0xFF] ^ T[1][(hi >> 16) & 0xFF] ^ T[0][hi >> 24];
        p += 8;
        n -= 8;
    }
    while (n--) c = T[0][(c ^ *p++) & 0xFF] ^ (c >> 8);
    return ~c;
}

// MD5 (RFC 1321).
Md5Digest md5(std::span<const std::uint8_t> data) noexcept {
    static constexpr std::uint32_t K[64] = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613,
        0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193,
        0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d,
        0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
        0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122,
        0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
        0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244,
        0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
        0xeb86d391};
    static constexpr int S[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                  5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                                  4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                  6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
    std::uint32_t h[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    auto block = [&](const std::uint8_t* p) {
        std::uint32_t m[16];
        for (int i = 0; i < 16; ++i) m[i] = endian::load_le32(p + 4 * i);
        std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
        for (int i = 0; i < 64; ++i) {
            std::uint32_t f;
            int g;
            if (i < 16) { f = (b & c) | (~b & d); g = i; }
            else if (i < 32) { f = (d & b) | (~d & c); g = (5 * i + 1) & 15; }
            else if (i < 48) { f = b ^ c ^ d; g = (3 * i + 5) & 15; }
            else { f = c ^ (b | ~d); g = (7 * i) & 15; }
            std::uint32_t tmp = d;
            d = c;
            c = b;
            b = b + rotl(a + f + K[i] + m[g], S[i]);
            a = tmp;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    };
    for_each_padded_block(data, Endian::little, block);
    Md5Digest out;
    for (int i = 0; i < 4; ++i) endian::store_le32(out.data() + 4 * i, h[i]);
    return out;
}

#if defined(MODKIT_SHA_NI)
namespace {
// SHA-1 of one 64-byte block with the x86 SHA extensions (about 5x the scalar code): the
// schedule W[4j..4j+3] = msg2(msg1(W[j-4], W[j-3]) ^ W[j-2], W[j-1]) in groups of four words,
// then 20 groups of four rounds, sha1nexte adding the next E (rotated A of two groups back)
// to the group's words. Same digest as the scalar code (tests/core: FIPS vectors, both paths).
__attribute__((target("sha,sse4.1,ssse3"))) void sha1_blocks_ni(std::uint32_t h[5], const std::uint8_t* p,
                                                                 std::size_t blocks) {
    const __m128i reverse = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h)), 0x1B);
    __m128i e0 = _mm_set_epi32(static_cast<int>(h[4]), 0, 0, 0);
    for (std::size_t b = 0; b < blocks; ++b, p += 64) {
        __m128i w[20];
        for (int j = 0; j < 4; ++j)
            w[j] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * j)), reverse);
        for (int j = 4; j < 20; ++j)
            w[j] = _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32(w[j - 4], w[j - 3]), w[j - 2]), w[j - 1]);
        const __m128i abcd_save = abcd, e_save = e0;
        __m128i prev = abcd;
        abcd = _mm_sha1rnds4_epu32(abcd, _mm_add_epi32(e0, w[0]), 0);
// Four rounds with function F (a constant, as the instruction needs) on the words of group j.
#define MODKIT_SHA1_GROUP(j, F)                                    \
    {                                                              \
        const __m128i e = _mm_sha1nexte_epu32(prev, w[j]);         \
        prev = abcd;                                               \
        abcd = _mm_sha1rnds4_epu32(abcd, e, F);                    \
    }
        for (int j = 1; j < 5; ++j) MODKIT_SHA1_GROUP(j, 0)
        for (int j = 5; j < 10; ++j) MODKIT_SHA1_GROUP(j, 1)
        for (int j = 10; j < 15; ++j) MODKIT_SHA1_GROUP(j, 2)
        for (int j = 15; j < 20; ++j) MODKIT_SHA1_GROUP(j, 3)
#undef MODKIT_SHA1_GROUP
        e0 = _mm_sha1nexte_epu32(prev, e_save);
        abcd = _mm_add_epi32(abcd, abcd_save);
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(h), _mm_shuffle_epi32(abcd, 0x1B));
    h[4] = static_cast<std::uint32_t>(_mm_extract_epi32(e0, 3));
}

bool cpu_has_sha_ni() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    const bool ssse3 = c & (1u << 9), sse41 = c & (1u << 19);
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return ssse3 && sse41 && (b & (1u << 29));
}
}  // namespace
#endif

bool sha1_uses_sha_extensions() noexcept {
#if defined(MODKIT_SHA_NI)
    static const bool has = cpu_has_sha_ni();
    return has;
#else
    return false;
#endif
}

// SHA-1 (FIPS 180-4).
Sha1Digest sha1(std::span<const std::uint8_t> data) noexcept {
    std::uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
#if defined(MODKIT_SHA_NI)
    if (sha1_uses_sha_extensions()) {
        const std::size_t full = data.size() / 64;
        sha1_blocks_ni(h, data.data(), full);
        // The padded tail (one or two blocks) through the same helper.
        std::uint8_t tail[128] = {};
        const std::size_t rem = data.size() % 64;
        if (rem) std::memcpy(tail, data.data() + 64 * full, rem);
        tail[rem] = 0x80;
        const std::size_t tail_len = rem < 56 ? 64 : 128;
        endian::store64(tail + tail_len - 8, static_cast<std::uint64_t>(data.size()) * 8, Endian::big);
        sha1_blocks_ni(h, tail, tail_len / 64);
        Sha1Digest out;
        for (int i = 0; i < 5; ++i) endian::store_be32(out.data() + 4 * i, h[i]);
        return out;
    }
#endif
    return detail::sha1_portable(data);
}

Sha1Digest detail::sha1_portable(std::span<const std::uint8_t> data) noexcept {
    std::uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    auto block = [&](const std::uint8_t* p) {
        std::uint32_t w[80];
        for (int i = 0; i < 16; ++i) w[i] = endian::load_be32(p + 4 * i);
        for (int i = 16; i < 80; ++i) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
        std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
        for (int i = 0; i < 80; ++i) {
            std::uint32_t f, k;
            if (i < 20) { f = (b & c) | (~b & d); k = 0x5A827999; }
            else if (i < 40) { f = b ^ c ^ d; k = 0x6ED9EBA1; }
            else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC; }
            else { f = b ^ c ^ d; k = 0xCA62C1D6; }
            std::uint32_t t = rotl(a, 5) + f + e + k + w[i];
            e = d; d = c; c = rotl(b, 30); b = a; a = t;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
    };
    for_each_padded_block(data, Endian::big, block);
    Sha1Digest out;
    for (int i = 0; i < 5; ++i) endian::store_be32(out.data() + 4 * i, h[i]);
    return out;
}

std::string to_hex(std::span<const std::uint8_t> data) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    s.reserve(data.size() * 2);
    for (auto b : data) {
        s += digits[b >> 4];
        s += digits[b & 15];
    }
    return s;
}

}  // namespace mod
