#pragma once
// SKIN (item type 3): which vertices and normals of which meshes each vertex group (bone)
// moves, and with what weight. Spec: doc/formats/totem-skin.md.
//
//   common header (0x64, subtype 0 or 2)
//   u32 mesh_count; i32 mesh_ids[mesh_count]; u32 zero
//   u32 section_count; section[section_count]:
//       i32 vertex-group hash; u32 subsection_count; subsection[subsection_count]:
//           u16 mesh_index; u32 n; {u32 vertex_id; f32 weight}[n]; u32 m; {u32 normal_id; f32 weight}[m]
//   u8 has_anims; if has_anims: u32 count; {u32 symbol; i32 anim_id}[count]; [u32 zero2]
//   u32 unknown_count; {u32 n; u32 vertices[n]; u32 m; u32 normals[m]}[unknown_count]
//
// `zero2` is in the seed's layout but never read by Chum World. Which reading a record uses is
// decided per record: exactly one of them must consume every payload byte.

#include "libmod/totem/object.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace mod::totem {

struct SkinWeight {
    std::uint32_t id = 0;  // index into the target MESH's position (or normal) array
    F32 weight;
    bool operator==(const SkinWeight&) const = default;
};

struct SkinSubsection {
    std::uint16_t mesh_index = 0;  // index into Skin::mesh_ids
    std::vector<SkinWeight> vertices;
    std::vector<SkinWeight> normals;
    bool operator==(const SkinSubsection&) const = default;
};

struct SkinSection {
    std::int32_t group_id = 0;  // CRC-32 of the vertex group (bone) name
    std::vector<SkinSubsection> subsections;
    bool operator==(const SkinSection&) const = default;
};

struct SkinAnim {
    std::uint32_t symbol = 0;  // animation symbol enum value (game-specific numbering)
    std::int32_t anim_id = 0;  // name ID of an ANIMATION record
    bool operator==(const SkinAnim&) const = default;
};

struct SkinUnknownEntry {
    std::vector<std::uint32_t> vertices;
    std::vector<std::uint32_t> normals;
    bool operator==(const SkinUnknownEntry&) const = default;
};

// How the animation block ends.
enum class Zero2Reading {
    no_anim_block,  // has_anims == 0: the question does not arise
    seed,           // a u32 `zero2` follows the animation entries (the seed's layout)
    chum_world,     // nothing follows them (Chum World's reader)
};
const char* to_string(Zero2Reading r) noexcept;

struct Skin {
    ObjectHeader header;
    std::vector<std::int32_t> mesh_ids;
    std::uint32_t zero = 0;
    std::vector<SkinSection> sections;
    std::uint8_t has_anims = 0;  // raw byte; any non-zero value means the block is present
    std::vector<SkinAnim> anims;
    Zero2Reading reading = Zero2Reading::no_anim_block;
    std::uint32_t zero2 = 0;  // only written when reading == seed
    std::vector<SkinUnknownEntry> unknown;
    bool operator==(const Skin&) const = default;
};

struct SkinDecodeInfo {
    Zero2Reading reading = Zero2Reading::no_anim_block;
    // Both readings consumed the payload exactly; `reading` is the one prefer_zero2_reading chose.
    bool ambiguous = false;
    std::string reason;  // one line: why this reading
};

// Decodes a SKIN payload, choosing the zero2 reading per record (see the header comment).
// Throws format (offset + `skin.…` path) when neither reading consumes the payload exactly;
// the message then says how each reading failed.
Skin decode_skin(const ByteReader& payload, SkinDecodeInfo* info = nullptr);
// Decodes with one reading forced (no_anim_block means "whatever has_anims says, without
// zero2"); the payload must still be consumed exactly.
Skin decode_skin_as(const ByteReader& payload, Zero2Reading reading);

// Writes the payload. Throws usage when has_anims and reading disagree (either way), or when
// zero2 is non-zero without the seed reading (it would not be written), limit on counts that
// do not fit their fields.
Bytes encode_skin(const Skin& skin, Endian endian);

// What a SKIN's ids must stay inside: the array sizes of one target MESH.
struct MeshExtent {
    std::uint32_t positions = 0;
    std::uint32_t normals = 0;
};
// Returns the extent of the MESH with this name ID, or nullopt when the target is not a
// MESH the caller has (a SURFACE, or a record in another archive).
using MeshLookup = std::function<std::optional<MeshExtent>(std::int32_t mesh_id)>;
// The type id (name_id("MESH"), name_id("SURFACE"), ...) of the record the archive at hand has
// under this name id, or nullopt when it has none.
using TargetTypeLookup = std::function<std::optional<std::int32_t>(std::int32_t mesh_id)>;

// Every check the spec lists: item type 3 and subtype 0/2, zero and zero2 are 0, has_anims is
// 0/1, mesh indices inside mesh_ids, vertex/normal ids inside the target MESH's arrays, weights
// finite, unknown_count == section_count, each unknown entry's counts == its section's
// subsection count, each unknown value <= the matching subsection's list length. Findings,
// not exceptions: the caller reports them.
// With `target_type`, a subtype-0 SKIN whose mesh id names a record that is not a MESH is a
// mismatch (seed S3 L18: "Subtype 0 always contains MESH id's ... subtype 2 may contain MESH or
// SURFACE ids"); a target the archive does not have, or a SURFACE under subtype 2, is a note.
std::vector<Finding> check_skin(const Skin& skin, const MeshLookup& lookup = {},
                                const TargetTypeLookup& target_type = {});

}  // namespace mod::totem
