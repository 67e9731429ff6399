#pragma once
// Mesh metadata facts and the container-independent mesh scan (doc/formats/shred-quartet.md,
// "Proven metadata facts").
//
// A skinned mesh's metadata starts at S; be32(S + 0x9C) = ep is the embedded stream's offset
// from S (0xFFFFFFFF when the mesh is not skinned); bit 0 of be32(S + 0xB4) says "processed";
// the stream is followed by a 16-byte footer. scan() finds every S in any byte range (a PAK,
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
inline constexpr std::size_t flags = 0xB4;          // u32, bit 0 = processed
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

struct FoundMesh {
    std::uint64_t metadata_offset = 0;  // S
    std::uint64_t stream_offset = 0;    // S + ep
    std::uint32_t stream_size = 0;      // the envelope's word
    std::uint32_t flags = 0;
    bool processed = false;
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
