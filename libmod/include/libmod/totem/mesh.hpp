#pragma once
// MESH (item type 6): positions, UVs and normals as independent arrays, triangle strips with
// per-corner UV/normal ids, materials, collision shapes, strip order.
// Spec: doc/formats/totem-mesh.md.
//
//   common header (0x64; subtype bit 2 = per-strip group ids present)
//   u32 n; vec3 positions[n]   u32 n; vec2 texcoords[n]   u32 n; vec3 normals[n]
//   u32 strip_count; {u32 n; u16 vertex_ids[n]; u32 material_index; u32 tri_order}[strip_count]
//   if subtype & 4: i32 strip_groups[strip_count]
//   u32 corner_list_count; {u32 n; {u16 texcoord_id; u16 normal_id}[n]}[corner_list_count]
//   u32 n; i32 materials[n]
//   u32 n; {vec3 centre; f32 radius}[n]                                  (spheres)
//   u32 n; {f32 matrix[16]; 16 bytes}[n]                                 (cuboids)
//   u32 n; {vec3 position; f32 height; vec3 axis; u32 junk; f32 radius}[n] (cylinders)
//   u32 unknown_shape_count (0 in every file Chum World read)
//   u32 n; u32 strip_order[n]

#include "libmod/totem/object.hpp"

#include <array>
#include <optional>
#include <vector>

namespace mod::totem {

using Vec3 = std::array<F32, 3>;
using Vec2 = std::array<F32, 2>;

struct MeshStrip {
    std::vector<std::uint16_t> vertex_ids;
    std::uint32_t material_index = 0;  // names a Mesh::materials entry: see strip_material()
    std::uint32_t tri_order = 0;       // 1 or 2: which corner order the first triangle uses
    bool operator==(const MeshStrip&) const = default;
};

struct StripCorner {
    std::uint16_t texcoord_id = 0;
    std::uint16_t normal_id = 0;
    bool operator==(const StripCorner&) const = default;
};

struct MeshSphere {
    Vec3 centre{};
    F32 radius;
    bool operator==(const MeshSphere&) const = default;
};

struct MeshCuboid {
    std::array<F32, 16> matrix{};
    std::array<std::uint8_t, 16> trailing{};  // zero in Chum World's files; kept verbatim
    bool operator==(const MeshCuboid&) const = default;
};

struct MeshCylinder {
    Vec3 position{};
    F32 height;
    Vec3 axis{};
    std::uint32_t junk = 0;
    F32 radius;
    bool operator==(const MeshCylinder&) const = default;
};

struct Mesh {
    ObjectHeader header;
    std::vector<Vec3> positions;
    std::vector<Vec2> texcoords;
    std::vector<Vec3> normals;
    std::vector<MeshStrip> strips;
    std::optional<std::vector<std::int32_t>> strip_groups;  // present iff subtype & 4
    // One corner list per strip (parallel to vertex_ids) on GameCube; Chum World notes the
    // lists may be absent (count 0) on PS2.
    std::vector<std::vector<StripCorner>> strip_corners;
    std::vector<std::int32_t> materials;  // MATERIAL name ids
    std::vector<MeshSphere> spheres;
    std::vector<MeshCuboid> cuboids;
    std::vector<MeshCylinder> cylinders;
    // The list Chum World always saw empty. When it is not, its layout is unknown: the count
    // and every byte after it are kept raw in `unparsed_tail`, and strip_order stays empty.
    std::uint32_t unknown_shape_count = 0;
    Bytes unparsed_tail;
    std::vector<std::uint32_t> strip_order;
    bool operator==(const Mesh&) const = default;

    bool has_strip_groups_flag() const noexcept { return (header.item_subtype & 4) != 0; }
};

// Decodes a MESH payload (errors: offset + `mesh.…` path); the payload must be consumed.
Mesh decode_mesh(const ByteReader& payload);
// Writes the payload. Throws usage when strip_groups disagrees with subtype bit 2.
Bytes encode_mesh(const Mesh& mesh, Endian endian);

// Observations: corner list count neither 0 nor strip_count, a corner list whose length is not
// its strip's, tri_order not 1/2, array ids out of range, subtype bits other than bit 2, a
// non-empty unknown shape list (mismatches); strip material indices past the material list
// (a note: resolved as Chum World does), and a mismatch when Chum World's and noclip's rules
// pick different materials for a strip.
std::vector<Finding> check_mesh(const Mesh& mesh);

inline constexpr std::uint32_t no_index = 0xFFFFFFFFu;

// The position in `mesh.materials` a strip's material_index names, as Chum World resolves it
// (`materials[index % len]`, libchum reader/mesh.rs); no_index when the list is empty. This is
// what export, preview and replace use (hypothesis totem-strip-material-index/1).
std::uint32_t strip_material(const Mesh& mesh, std::uint32_t material_index) noexcept;
// noclip.website's reading (render.ts addMeshMaterial): `(index - first) % len`, where first is
// the smallest strip index when the header's item subtype ("flags") is exactly 4, else 0.
// no_index when the list is empty. Differs from strip_material only in subtype-4 MESHes whose
// smallest index is not a multiple of the list length.
std::uint32_t strip_material_noclip(const Mesh& mesh, std::uint32_t material_index) noexcept;
// The smallest strip material_index (0 without strips).
std::uint32_t smallest_strip_index(const Mesh& mesh) noexcept;

// What a census of strip material indices counts (totem verify prints it per item subtype so
// the first real archive shows whether the two readers' rules ever disagree).
struct StripIndexCensus {
    std::size_t meshes = 0, strips = 0;
    std::size_t strips_past_list = 0;   // material_index >= materials.size()
    std::size_t meshes_past_list = 0;   // MESHes with at least one such strip
    std::size_t meshes_rules_differ = 0;  // MESHes where strip_material != strip_material_noclip for a strip
    std::size_t strips_rules_differ = 0;
    StripIndexCensus& operator+=(const StripIndexCensus& o) noexcept;
};
StripIndexCensus strip_index_census(const Mesh& mesh) noexcept;

struct MeshCorner {
    std::uint32_t position = 0;
    std::uint32_t texcoord = no_index;  // no_index when the mesh has no corner lists
    std::uint32_t normal = no_index;
};

struct MeshTriangle {
    std::array<MeshCorner, 3> corners;
    std::uint32_t strip = 0;
    std::uint32_t material_index = 0;  // the strip's raw index (resolve with strip_material)
};

// Triangles in strip order. Each window of three strip entries is one triangle; windows
// alternate between corner orders (0, a, b) and (0, b, a) with a = tri_order, b = 3 − a,
// starting with (0, a, b) (Chum World, reader/mesh.rs). Throws format (path
// `mesh.strips[i]`) on a tri_order other than 1/2, a corner list of the wrong length, or an
// index outside its array.
std::vector<MeshTriangle> build_triangles(const Mesh& mesh);

}  // namespace mod::totem
