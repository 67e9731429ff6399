#include "libmod/core/hash.hpp"

#include "libmod/core/endian.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <openssl/evp.h>

// The PCLMULQDQ path of CRC-32 (x86-64 with SSE2 fast paths on; MODKIT_SCALAR_ONLY builds
// without SSE2 and so use the table code only). Chosen at run time from CPUID.
#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#define MODKIT_CLMUL 1
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

}  // namespace

#if defined(MODKIT_CLMUL)
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
#if defined(MODKIT_CLMUL)
    static const bool has = cpu_has_clmul();
    return has;
#else
    return false;
#endif
}

std::uint32_t crc32(std::span<const std::uint8_t> data, std::uint32_t previous) noexcept {
#if defined(MODKIT_CLMUL)
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
// SHA-1 and MD5 come from OpenSSL's libcrypto (issue 31 item 5: measured side by side with the
// hand-written SHA-NI SHA-1 and the portable MD5 this file had, libcrypto was 1.06x and 1.5x as
// fast on 32 MiB; bench/bench_hash_peers.cpp). The digest type is fetched once per process.
namespace {

template <std::size_t N>
std::array<std::uint8_t, N> evp_digest(const char* name, std::span<const std::uint8_t> data) noexcept {
    static EVP_MD* const md = EVP_MD_fetch(nullptr, name, nullptr);
    std::array<std::uint8_t, N> out{};
    unsigned len = 0;
    // Digesting memory fails only when the library cannot allocate or lacks the algorithm (a
    // broken installation): no digest can be given, and a wrong one must never be.
    if (!md || EVP_Digest(data.data(), data.size(), out.data(), &len, md, nullptr) != 1 || len != N) {
        std::fprintf(stderr, "modkit: OpenSSL libcrypto cannot compute %s\n", name);
        std::abort();
    }
    return out;
}

}  // namespace

Md5Digest md5(std::span<const std::uint8_t> data) noexcept { return evp_digest<16>("MD5", data); }

Sha1Digest sha1(std::span<const std::uint8_t> data) noexcept { return evp_digest<20>("SHA1", data); }

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
