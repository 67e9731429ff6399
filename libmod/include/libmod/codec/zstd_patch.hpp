#pragma once
// zstd patches ("MZPT"): a zstd frame of the target compressed with the source as a raw-content
// prefix (libzstd's ZSTD_CCtx_refPrefix / ZSTD_DCtx_refPrefix, long-distance matching, a window
// covering source and target), behind a small header that names the source and the target by
// size, CRC-32 and SHA-1, so a wrong source is refused before anything is decoded.
// Spec: doc/formats/zstd-patch.md.
//
//   0x00 "MZPT"   0x04 u16 version (1)   0x06 u16 header size (0x58)
//   0x08 u64 source size   0x10 u32 source CRC-32   0x14 20 bytes source SHA-1
//   0x28 u64 target size   0x30 u32 target CRC-32   0x34 20 bytes target SHA-1
//   0x48 u8 window log     0x49 u8 zstd level (informative)   0x4A u16 0
//   0x4C u32 frame size    0x50 u32 reserved (0)    0x54 u32 CRC-32 of bytes 0x00..0x53
//   0x58 the zstd frame (exactly `frame size` bytes, nothing after it)
// All integers little-endian.

#include "libmod/core/bytes.hpp"
#include "libmod/core/hash.hpp"

#include <cstdint>
#include <functional>
#include <span>

namespace mod::zpatch {

inline constexpr char magic[4] = {'M', 'Z', 'P', 'T'};
inline constexpr std::uint16_t version = 1;
inline constexpr std::size_t header_size = 0x58;
inline constexpr std::uint64_t default_max_target = 1ull << 30;  // 1 GiB (modkit patch apply --max-size)
inline constexpr int default_level = 9;  // 19 is 10x slower for ~10% smaller patches (bench_patch)

struct Header {
    std::uint64_t source_size = 0;
    std::uint32_t source_crc32 = 0;
    Sha1Digest source_sha1{};
    std::uint64_t target_size = 0;
    std::uint32_t target_crc32 = 0;
    Sha1Digest target_sha1{};
    std::uint8_t window_log = 0;
    std::uint8_t level = 0;
    std::uint32_t frame_size = 0;
};

struct CreateOptions {
    int level = default_level;  // 1..22 (zstd levels); usage error outside
};

struct ApplyOptions {
    // Targets declaring more bytes are refused (limit) before anything is allocated.
    std::uint64_t max_target = default_max_target;
    // Largest window (log2) accepted from a patch header (limit error above).
    unsigned max_window_log = 31;
};

bool has_magic(ByteView data) noexcept;

// Reads and validates the header: magic, version, header size, header CRC, window log in
// [10, 31], frame size equal to the bytes that follow. Format errors name `zpatch.header`.
Header read_header(const ByteReader& patch);

// read_header plus every check that needs no source: the zstd frame's header declares the
// target size of the patch header and its blocks span exactly the frame (format errors name
// `zpatch.frame`). Damage inside a compressed block can only be found by apply (zstd's content
// checksum and the target CRC-32), which needs the source.
Header inspect(const ByteReader& patch);

// Compresses `target` against `source`. Deterministic (single-threaded zstd). Limit error
// when the window needed (source + target) exceeds 2^31 bytes.
Bytes create(ByteView source, ByteView target, const CreateOptions& options = {});

// Applies a patch: the header is checked first, then the source size, CRC-32 and SHA-1
// (conflict error naming both identities when they differ: nothing is decoded), then the
// frame is decoded with the source as prefix into exactly target_size bytes (zstd verifies
// its content checksum) and the result's CRC-32 is compared with the header (format error
// otherwise). `header` receives the header when not null.
Bytes apply(const ByteReader& patch, ByteView source, const ApplyOptions& options = {}, Header* header = nullptr);
Bytes apply(ByteView patch, ByteView source, const ApplyOptions& options = {}, Header* header = nullptr);

// apply() into memory the caller provides: `target_buffer` is called once, with the header's
// target size, after every check that needs no decoding (header, source identity, limits,
// frame structure and output bound), and returns exactly that many writable bytes (their
// contents do not matter). Their contents are the target only when apply_into returns; on an
// error they are partly written. For callers that avoid a zero-filled std::vector (PageBuffer).
using TargetBuffer = std::function<std::span<std::uint8_t>(std::uint64_t target_size)>;
Header apply_into(const ByteReader& patch, ByteView source, const TargetBuffer& target_buffer,
                  const ApplyOptions& options = {});

}  // namespace mod::zpatch
