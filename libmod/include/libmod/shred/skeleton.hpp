#pragma once
// SHRED SCP skeleton (spec: doc/formats/shred-skeleton.md). Big-endian.
//   0x20 u32 bone_count, 0x24 u32 table_offset; the table holds bone_count 16-byte records
//   {u32 word0 (unknown), u32 parent (0xFFFFFFFF or an index), u32 name_offset, u32 matrix_offset}
//   offsets are from the start of the SCP; names are NUL-terminated ASCII; matrices 16 x f32.
// The model keeps the whole file raw: everything we do not understand stays verbatim and
// encode_skeleton() only patches the fields the model exposes.

#include "libmod/core/bytes.hpp"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mod::shred {

inline constexpr std::uint32_t no_parent = 0xFFFFFFFF;
inline constexpr std::size_t scp_bone_count_field = 0x20;
inline constexpr std::size_t scp_table_offset_field = 0x24;
inline constexpr std::size_t scp_record_bytes = 16;
// A skeleton larger than this is refused as hostile (the disc's largest has 192 bones).
inline constexpr std::uint32_t max_bones = 4096;

struct ScpBone {
    std::uint32_t word0 = 0;
    std::uint32_t parent = no_parent;
    std::uint32_t name_offset = 0;
    std::uint32_t matrix_offset = 0;
    std::string name;
    std::array<std::uint32_t, 16> matrix_bits{};  // raw IEEE bits, file order

    std::array<float, 16> matrix() const noexcept;
};

struct Skeleton {
    Bytes raw;  // the whole SCP
    std::uint32_t table_offset = 0;
    std::vector<ScpBone> bones;

    std::optional<std::uint32_t> find(std::string_view name) const;
};

// Which row or column holds (0,0,0,1) in an affine matrix, or none.
enum class AffineLayout { translation_in_row3, translation_in_column3, not_affine };
AffineLayout affine_layout(const std::array<float, 16>& m, float tolerance = 1e-4f) noexcept;

// Decodes and validates (names in range, NUL-terminated and printable ASCII; matrices in range,
// finite and affine; parents 0xFFFFFFFF or < bone_count and not the bone itself). Errors name
// r.file(), the absolute offset and "<path>.bone[i].name" etc.
Skeleton decode_skeleton(const ByteReader& r);
// The raw bytes with each bone's word0, parent and matrix written back at their offsets.
Bytes encode_skeleton(const Skeleton& skeleton);

// OUR writer (forge and tests; layout in doc/formats/shred-quartet.md, hypothesis
// "shred-quartet/1"): 0x30-byte header (zero except 0x20/0x24), the table, 64-byte matrices,
// then the names; 16-byte aligned.
struct BoneSpec {
    std::string name;
    std::uint32_t parent = no_parent;
    std::array<float, 16> matrix{};
    std::uint32_t word0 = 0;
};
Bytes build_skeleton(std::span<const BoneSpec> bones);

}  // namespace mod::shred
