#pragma once
// BPS patches (byuu/Near's public-domain "BPS1" format). Spec: doc/formats/bps.md.
//
//   "BPS1", varint source size, varint target size, varint metadata size, metadata bytes,
//   actions (varint: length-1 << 2 | kind, then per kind: nothing / literal bytes / a signed
//   relative offset), then u32 LE CRC-32 of source, target and of the patch before this word.
//
//   kind 0 SourceRead   target[out..] = source[out..]   (same position in the source)
//   kind 1 TargetRead   target[out..] = next patch bytes
//   kind 2 SourceCopy   target[out..] = source[src..]   (src moved by the signed offset first)
//   kind 3 TargetCopy   target[out..] = target[tgt..]   (tgt moved first; tgt < out, may overlap)
//
// Applying is strict: the patch CRC and the source size and CRC are checked before any
// action runs, every action is bounds-checked against source, target and patch, and the
// result must have the declared size and CRC.

#include "libmod/core/bytes.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace mod::bps {

inline constexpr char magic[4] = {'B', 'P', 'S', '1'};
inline constexpr std::size_t footer_size = 12;
inline constexpr std::uint64_t default_max_target = 1ull << 30;  // 1 GiB

enum class Action : std::uint8_t { source_read = 0, target_read = 1, source_copy = 2, target_copy = 3 };

struct Info {
    std::uint64_t source_size = 0;
    std::uint64_t target_size = 0;
    std::string metadata;  // raw bytes (usually UTF-8 XML or JSON, may be empty)
    std::uint32_t source_crc32 = 0;
    std::uint32_t target_crc32 = 0;
    std::uint32_t patch_crc32 = 0;  // as stored
    std::size_t actions_offset = 0;  // where the action stream starts
    // Only filled by apply() and describe(): how many of each action kind, and how many target
    // bytes each kind wrote.
    std::uint64_t action_count[4] = {0, 0, 0, 0};
    std::uint64_t action_bytes[4] = {0, 0, 0, 0};
};

struct ApplyOptions {
    // Targets declaring more bytes are refused (limit) before anything is allocated.
    std::uint64_t max_target = default_max_target;
    // Skip the source CRC check (the size must still match). For experts; the target CRC is
    // still verified, so a wrong source ends in a format error instead of wrong output.
    bool ignore_source_crc = false;
};

// True when `data` starts with "BPS1".
bool has_magic(ByteView data) noexcept;

// Reads the header and footer and verifies the patch CRC (format error naming patch.file(),
// the offset and `bps.header` / `bps.footer`). Does not look at the actions.
Info read_info(const ByteReader& patch);

// Walks every action without a source (bounds against the declared sizes and the patch) and
// returns the header plus action statistics. Format errors name `bps.action[i]`.
Info describe(const ByteReader& patch, const ApplyOptions& options = {});

// Applies the patch to `source`. Refuses a source whose size or CRC-32 differs from the one
// the patch was made for (kind conflict, naming both values) before any action runs; format
// error for any malformed action (`bps.action[i]`) or when the result's CRC differs; limit
// error when the declared target exceeds options.max_target. `info` receives the header and
// action statistics when not null.
Bytes apply(const ByteReader& patch, ByteView source, const ApplyOptions& options = {}, Info* info = nullptr);
Bytes apply(ByteView patch, ByteView source, const ApplyOptions& options = {}, Info* info = nullptr);

// Whether the patch applied to `source` gives exactly `expected`, without making the target:
// apply()'s checks and errors (the header, the source's size and CRC, every action's bounds, the
// target CRC when the bytes match), each action's bytes compared with `expected` instead of
// written (while all match, `expected` holds what the target would, so TargetCopy reads it).
// Returns the first target offset whose byte differs (or the shorter size when the sizes
// differ), nullopt when the result would be `expected` byte for byte. Memory: none beyond the
// inputs (issue 31: an encoder's self-check without a third image).
std::optional<std::uint64_t> first_difference(const ByteReader& patch, ByteView source, ByteView expected,
                                              const ApplyOptions& options = {});

struct CreateOptions {
    std::string metadata;  // stored verbatim in the header
    // Shortest copy the encoder considers (clamped to 4..8).
    std::size_t min_match = 4;
};

// Creates a patch turning `source` into `target`: a greedy parse with one position of
// lookahead that at each target position ranks by encoded cost (a) the bytes at the same source
// position, (b) the bytes at the source and target cursors, (c) the source positions sharing the
// longest prefixes with the target here, found through a suffix array of the source (also as
// TargetCopy where the target already holds them), (d) matches in the target already written
// (hash index), and otherwise emits literals (doc/formats/bps.md §4). Deterministic: same inputs
// and options give the same bytes. Memory: the inputs plus 4 bytes per source byte and a
// bounded target index; for a source of 8 MiB or more changed in one place, 4 bytes per byte of
// a window around the change plus an eighth of a byte per source byte of sparse index (bps.md §4, "One
// edited place"). Limit error for a source of 2 GiB or more or a target of 4 GiB or more.
Bytes create(ByteView source, ByteView target, const CreateOptions& options = {});

// Varint coding used by BPS (exposed for tests and tools): bijective base-128, low group
// first, the last byte has bit 7 set.
void write_varint(ByteWriter& out, std::uint64_t value);
// Reads one varint; format error on a value above 2^64-1 or running past the reader's end.
std::uint64_t read_varint(ByteReader& in);

}  // namespace mod::bps
