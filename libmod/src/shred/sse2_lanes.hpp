#pragma once
// SSE2 lane helpers shared by the SHRED fast paths (preprocessor, quartet indices). Only
// compiled where SSE2 is; every user has a scalar fallback giving the same bytes.
#if defined(__SSE2__)
#include <emmintrin.h>

namespace mod::shred::sse2 {

// Reverses the bytes of each 16-bit lane.
inline __m128i byte_swap_16(__m128i x) { return _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8)); }

// Reverses the bytes of each 32-bit lane (SSE2 has no byte shuffle): the bytes of each 16-bit
// half, then the halves.
inline __m128i byte_swap_32(__m128i x) {
    x = byte_swap_16(x);
    x = _mm_shufflelo_epi16(x, _MM_SHUFFLE(2, 3, 0, 1));
    return _mm_shufflehi_epi16(x, _MM_SHUFFLE(2, 3, 0, 1));
}

// The low 16 bits of each 32-bit lane of `a` then `b`, as eight 16-bit lanes: sign-extended
// first, so that the signed saturating pack keeps all 16 bits.
inline __m128i low_halves(__m128i a, __m128i b) {
    return _mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(a, 16), 16), _mm_srai_epi32(_mm_slli_epi32(b, 16), 16));
}

}  // namespace mod::shred::sse2
#endif
