#pragma once
// Checks a mesh must pass before a game layer encodes it. Every check throws mod::Error
// naming `where` (a file or mesh name) and the offending vertex or triangle as the path.

#include "libmod/scene/model.hpp"

#include <cstdint>
#include <span>
#include <string_view>

namespace mod::scene {

struct BoundingBox {
    Vec3 min{0, 0, 0};
    Vec3 max{0, 0, 0};
    bool empty = true;

    bool contains(const Vec3& p) const noexcept;  // inclusive
};

// Smallest box containing every position (empty when there are none).
BoundingBox bounding_box(std::span<const Vec3> positions);
BoundingBox bounding_box(const Mesh& mesh);

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
