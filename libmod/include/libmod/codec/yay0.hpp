#pragma once
// Yay0: Nintendo's LZ77 variant (N64 and GameCube). Format spec: doc/formats/yay0.md.
//
// Stream: "Yay0", u32 decompressed size, u32 link-table offset, u32 chunk offset (all
// big-endian, offsets from the stream start), then three interleaved streams: mask words
// (MSB first; 1 = literal), link halfwords (distance-1 in the low 12 bits, length-2 in the top
// 4, 0 meaning "length = next chunk byte + 0x12"), and chunk bytes (literals and long lengths).

#include "libmod/core/bytes.hpp"
#include "libmod/core/progress.hpp"

#include <cstdint>

namespace mod::yay0 {

inline constexpr std::uint32_t header_size = 0x10;
inline constexpr std::uint32_t min_match = 3;
inline constexpr std::uint32_t max_match = 0x111;
inline constexpr std::uint32_t max_distance = 0x1000;
inline constexpr std::uint64_t default_max_decoded = 64ull << 20;

struct Header {
    std::uint32_t decompressed_size = 0;
    std::uint32_t link_offset = 0;
    std::uint32_t chunk_offset = 0;
};

struct DecodeOptions {
    // Declared sizes above this are refused (kind limit) before anything is allocated.
    std::uint64_t max_decoded = default_max_decoded;
};

struct DecodeInfo {
    Header header;
    // One past the last byte the decoder read in each stream, and overall: the stream's true
    // extent, which can be shorter than the blob holding it (containers pad after it).
    std::size_t mask_end = 0, link_end = 0, chunk_end = 0, stream_end = 0;
};

// True when `data` starts with the "Yay0" magic.
bool has_magic(ByteView data) noexcept;

// Reads and validates the header (magic, 0x10 <= link <= chunk <= size, even link offset,
// declared size within options.max_decoded).
Header read_header(const ByteReader& stream, const DecodeOptions& options = {});

// Decodes a whole stream. Strict: every stream read is bounds-checked against its own region
// (mask words before the link table, link halfwords before the chunk data, chunk bytes before
// the end), a back-reference may not reach before the output start and a match may not
// overrun the declared size. Errors name stream.file(), the absolute offset and
// `<path>.mask[i]` / `.link[i]` / `.chunk[i]`.
Bytes decode(const ByteReader& stream, const DecodeOptions& options = {}, DecodeInfo* info = nullptr);
// Convenience for in-memory data (errors name no file).
Bytes decode(ByteView stream, const DecodeOptions& options = {}, DecodeInfo* info = nullptr);

enum class Mode {
    // The parse of Nintendo's encoder (and of the matching public encoders), byte for byte:
    // longest match in the previous 0x1000 bytes (at most 0x111 long, oldest on ties); 2
    // bytes or less become a literal; one-byte look-ahead takes the next position's match
    // instead when it is at least 2 bytes longer.
    nintendo,
    // The smallest stream: an optimal parse over the token costs (literal 9 bits, short match
    // 17, long match 25). Deterministic.
    best,
};

const char* to_string(Mode mode) noexcept;
// "nintendo" / "best"; usage error otherwise.
Mode parse_mode(std::string_view name);

// Encodes `data` (at most 0xFFFFFFFF bytes). Same input and mode give the same bytes.
// `progress`, when given, advances to 2 × data.size() (best: the match search counts for the
// first half, the parse for the second; nintendo: both at the end); it never changes the bytes.
Bytes encode(ByteView data, Mode mode = Mode::nintendo, Progress* progress = nullptr);

}  // namespace mod::yay0
