#pragma once
// PERS-SZP: the container Pokémon Stadium wraps Yay0 streams in. Spec: doc/formats/pers-szp.md.
//
//   +0x00 "PERS-SZP"  +0x08 u32 header_size (offset of the Yay0 stream)
//   +0x0C u32 size1   +0x10 u32 size2 (allocation size)   +0x14 u32 fixup_count
//   +0x18 fixup_count × {u32 value, u32 offset}           +header_size Yay0 stream
//
// The game decodes into a size2-byte buffer, writes each fix-up's value as a u32 at its
// offset (in order), then zero-fills [size1, size2).

#include "libmod/codec/yay0.hpp"
#include "libmod/core/bytes.hpp"

#include <cstdint>
#include <vector>

namespace mod::szp {

inline constexpr char magic[8] = {'P', 'E', 'R', 'S', '-', 'S', 'Z', 'P'};
inline constexpr std::uint32_t packed_header_size = 0x18;

struct Fixup {
    std::uint32_t value = 0;
    std::uint32_t offset = 0;
};

struct Header {
    std::uint32_t header_size = packed_header_size;
    std::uint32_t size1 = 0;
    std::uint32_t size2 = 0;
    std::vector<Fixup> fixups;
};

bool has_magic(ByteView data) noexcept;

// Parses and validates the header: header_size 4-aligned and inside the blob, covering the
// fix-up list; size1 <= size2 <= options.max_decoded.
Header read_header(const ByteReader& blob, const yay0::DecodeOptions& options = {});

struct Unpacked {
    Header header;
    yay0::DecodeInfo yay0;
    // What the game's buffer holds after unpacking: size2 bytes. Bytes between the Yay0
    // decompressed size and size1 are not written by the game; they are zero here and
    // `uninitialised_bytes` says how many there were (0 for every known file).
    Bytes data;
    std::uint32_t uninitialised_bytes = 0;
};

// Unpacks as the game does: decode the Yay0 at header_size (its decompressed size must be
// <= size2), apply fix-ups in order (each must lie inside size2), zero [size1, size2).
Unpacked unpack(const ByteReader& blob, const yay0::DecodeOptions& options = {});

// Packs content the way the repacker writes edited entries: header 0x18, size1 = size2 =
// content size, no fix-ups, Yay0 in the given mode (starting 4-byte aligned at 0x18).
Bytes pack(ByteView content, yay0::Mode mode = yay0::Mode::nintendo);

// Re-packs `content` for an entry whose original blob was `original`: when `content` equals
// what `original` unpacks to, the original bytes are returned unchanged (an unedited entry
// is never recompressed); otherwise pack(content, mode). `reused` reports which happened.
Bytes repack(ByteView original, ByteView content, yay0::Mode mode, bool* reused = nullptr);

}  // namespace mod::szp
