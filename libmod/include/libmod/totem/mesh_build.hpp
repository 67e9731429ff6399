#pragma once
// Building a MESH record from triangle meshes (FBX/glTF parts already in the MESH's own
// coordinates), and the bounding shapes that depend on its geometry.
// Spec: doc/formats/totem-mesh.md ("Building a MESH").
//
// What the new record takes from the old one: the header (matrix, junk, item type, subtype
// and so whether per-strip group ids exist), the material list (new materials appended in
// order of first use, so the order never depends on anything but the inputs), whether strips
// carry corner lists, and one collision shape of each kind the old record had.
// What is computed: positions, UVs and normals de-duplicated by exact bits (a position also by
// its bone weights, a normal also by the weights of the position it is paired with, so the
// SKIN can store both per id), strips from make_strips (strips.hpp) per material in list
// order, corner lists, strip order 0..n-1, the bounding shapes (below), and the header's four
// leading floats when the old record's values were a bounding sphere of its old geometry.

#include "libmod/totem/mesh.hpp"

#include <array>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace mod::totem {

// A vertex's weights by vertex-group id (sorted by id, positive weights only).
using GroupWeights = std::vector<std::pair<std::int32_t, float>>;

// One source mesh: per-vertex arrays of equal length and counter-clockwise triangles (the
// scene convention, mod::scene::Mesh).
struct MeshSourcePart {
    std::string name;              // for messages
    std::int32_t material = 0;     // MATERIAL (or MATERIALANIM) name id
    std::vector<std::array<float, 3>> positions, normals;
    std::vector<std::array<float, 2>> uvs;
    std::vector<GroupWeights> weights;  // empty, or one per vertex
    std::vector<std::array<std::uint32_t, 3>> triangles;
};

// The most entries of each array a MESH can index: strip entries and corner lists store u16.
inline constexpr std::size_t mesh_max_ids = 65536;

struct MeshBuildReport {
    std::size_t source_triangles = 0;
    std::size_t degenerate_dropped = 0;  // triangles naming one vertex twice after de-duplication
    std::size_t strips = 0, strip_entries = 0;
    std::vector<std::string> notes;      // one line per decision the user should know about
};

struct BuiltMesh {
    Mesh mesh;
    std::vector<GroupWeights> position_weights;  // per position id
    std::vector<GroupWeights> normal_weights;    // per normal id
};

// Builds the new MESH. Throws limit (naming the MESH `label`) when positions, UVs or normals
// would exceed mesh_max_ids or a count its u32 field; format when a part is inconsistent
// (array lengths, triangle ids, non-finite values).
BuiltMesh build_mesh(const Mesh& old, std::span<const MeshSourcePart> parts, const std::string& label,
                     MeshBuildReport* report = nullptr);

// Bounding shapes, in double precision, each rounded outwards so every point is inside.
struct BoundingSphere {
    std::array<float, 3> centre{};
    float radius = 0;
};
// Centre = the centre of the axis-aligned box, radius = the largest distance to it.
BoundingSphere bounding_sphere(std::span<const Vec3> points);
// Whether every point lies within the sphere (centre, radius) enlarged by `slack` × radius.
bool sphere_holds(std::span<const Vec3> points, const std::array<float, 3>& centre, float radius, double slack = 1e-3);

// The MESH's shapes recomputed for its positions (one per kind the mesh has, see the spec):
// sphere = bounding_sphere; cuboid = the axis-aligned box as a row-vector matrix
// diag(half extents, 1) with the centre in floats 12..14 (hypothesis totem-shapes/1: it maps the
// cube [-1, 1]^3 onto the box), trailing bytes kept; cylinder = along the old axis (y when it
// is zero or not finite), through the box centre: position = the lowest point on the axis,
// height = extent along it, radius = largest distance from it, junk kept.
void recompute_shapes(Mesh& mesh);

}  // namespace mod::totem
