#pragma once
// Checks a mesh must pass before a game layer encodes it. Every check throws mod::Error
// naming `where` (a file or mesh name) and the offending vertex or triangle as the path.

#include "libmod/scene/model.hpp"

#include <cstdint>
#include <span>
#include <string_view>

namespace mod::scene {

// An axis-aligned box in model space.
struct BoundingBox {
    Vec3 min{0, 0, 0};
    Vec3 max{0, 0, 0};
    bool empty = true;  // true: no finite point (min and max are then all 0)

    bool contains(const Vec3& p) const noexcept;  // inclusive
    Vec3 size() const noexcept { return {max[0] - min[0], max[1] - min[1], max[2] - min[2]}; }
    friend bool operator==(const BoundingBox&, const BoundingBox&) = default;
};

// Smallest box containing every finite position (a position with any non-finite coordinate is
// ignored); empty when there is none.
BoundingBox bounding_box(std::span<const Vec3> positions);
BoundingBox bounding_box(const Mesh& mesh);
// The same over every mesh of the scene (all vertices, whether or not a triangle uses them).
BoundingBox bounding_box(const Scene& scene);

// Every per-vertex array has vertex_count() entries (skin/influences may be empty), every
// triangle index is < vertex_count(), every skin bone < bone_count, and positions, normals
// (unless allow_nan_normals), tangents and UVs are finite. Throws format naming
// "<where>.triangle[i]" / ".vertex[i].<attribute>".
struct MeshCheckOptions {
    std::size_t bone_count = SIZE_MAX;
    bool allow_nan_normals = false;  // some shipped game meshes carry NaN normals
};
void check_mesh(const Mesh& mesh, std::string_view where, const MeshCheckOptions& options = {});

// Largest finite half-float magnitude.
inline constexpr float f16_max = 65504.0f;

// Every uv0/uv1 component fits a half float (|v| <= 65504, finite). Throws limit naming
// "<where>.vertex[i].uv0" and the value otherwise.
void check_uv_f16_range(const Mesh& mesh, std::string_view where);

}  // namespace mod::scene
