#pragma once
// Mesh metadata facts and the container-independent mesh scan (doc/formats/shred-quartet.md,
// "Proven metadata facts").
//
// A skinned mesh's metadata starts at S; be32(S + 0x9C) = ep is the embedded stream's offset
// from S (0xFFFFFFFF when the mesh is not skinned); "the flag at metadata offset 0xB4" says
// "processed" (its width is HYPOTHESIS shred-flags/1: a big-endian u32 whose bit 0, i.e. bit 0
// of byte 0xB7, is the flag; the seed gives no width, so scan reports the u8 and u16 readings
// too); the stream is followed by a 16-byte footer. scan() finds every S in any byte range (a PAK,
// an extracted entry) by two proven facts only: a stream starts with stream_size followed by
// 15 x 0xAABBCCDD, and be32(S + 0x9C) == stream_start - S.

#include "libmod/core/bytes.hpp"
#include "libmod/shred/stream.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace mod::shred {

namespace metadata_field {
inline constexpr std::size_t stream_offset = 0x9C;  // u32 ep, relative to S
inline constexpr std::size_t flags = 0xB4;          // u32 (hypothesis shred-flags/1), bit 0 = processed
inline constexpr std::uint32_t not_skinned = 0xFFFFFFFF;
inline constexpr std::uint32_t processed_bit = 1;
inline constexpr std::uint32_t descriptor_stride = 36;        // primary descriptor's stride
inline constexpr std::uint32_t descriptor_format_mask = 0x8007F;
inline constexpr std::size_t footer_bytes = 16;
inline constexpr std::size_t min_stream_offset = flags + 4;   // ep >= 0xB8
}  // namespace metadata_field

struct ScanOptions {
    // Largest ep accepted (bytes of metadata before the stream).
    std::uint32_t max_metadata_bytes = 0x10000;
    std::optional<std::uint32_t> bone_count;  // validate palettes against a skeleton
};

// The processed flag under each width the seed leaves open ("the flag at metadata offset
// 0xB4"): bit 0 of the u8 at 0xB4, of the big-endian u16 at 0xB4 (byte 0xB5), of the
// big-endian u32 at 0xB4 (byte 0xB7, hypothesis shred-flags/1, the reading modkit uses).
// The seed says every stock mesh is processed: on stock data the right width reads 1 for all.
struct FlagReadings {
    bool u8 = false, u16 = false, u32 = false;
};
FlagReadings processed_readings(const std::uint8_t* flag_bytes) noexcept;

// The stored box (hypothesis shred-quartet/1: f32[3] min at S+0x10, max at S+0x1C) against the
// stream's positions. The seed: positions are "inside the stored box in every mesh", so on real
// data `outside == 0` for every mesh confirms the offsets; our writer stores the exact bounds
// (`tight`).
struct BoxCheck {
    std::array<float, 3> min{}, max{};
    std::uint64_t outside = 0;  // vertices with a component below min or above max (or a NaN box)
    bool tight = false;         // min and max are exactly the positions' bounds
};
// `record` points at S with at least 0x28 readable bytes.
BoxCheck check_box(const std::uint8_t* record, const Stream& stream);

struct FoundMesh {
    std::uint64_t metadata_offset = 0;  // S
    std::uint64_t stream_offset = 0;    // S + ep
    std::uint32_t stream_size = 0;      // the envelope's word
    std::uint32_t flags = 0;
    bool processed = false;             // the u32 reading (shred-flags/1)
    FlagReadings processed_as;          // every width's reading
    std::optional<BoxCheck> box;        // when the stream is valid
    bool footer_present = false;        // 16 bytes exist after the stream
    // Valid when `error` is empty:
    std::uint32_t vertex_count = 0;
    std::uint32_t batch_count = 0;
    std::array<std::uint32_t, 5> batches_by_influence{};
    StreamReport report;
    std::string error;  // the validation error (the whole mod::Error::what()), empty when valid
    // Offsets (relative to S, below ep) where be32 == 0x8007F, the descriptor's format mask:
    // the candidates for locating the primary descriptor in real data.
    std::vector<std::uint32_t> format_mask_at;
    // Offsets (relative to S, below ep) where be32 == vertex_count.
    std::vector<std::uint32_t> vertex_count_at;
};

// Every skinned mesh in `data`, in file order. Never throws on a bad mesh: its error is
// reported in FoundMesh::error. `file` names the source in errors.
std::vector<FoundMesh> scan(ByteView data, const std::string& file = {}, const ScanOptions& options = {});

// Offsets of every stream start candidate (stream_size word then 15 x 0xAABBCCDD), in order.
std::vector<std::uint64_t> find_stream_candidates(ByteView data);

}  // namespace mod::shred
