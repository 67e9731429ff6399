#pragma once
// Tangent generation for meshes whose file has none (private to the scene layer).

#include "libmod/scene/model.hpp"

#include <span>
#include <vector>

namespace mod::scene {

// Per vertex: the UV-space u direction accumulated over the triangles of every vertex with the
// same position and UV bits (area-weighted by construction), made orthogonal to the normal; the sign says whether the v direction
// agrees with cross(normal, tangent). Vertices without usable UV derivatives (no UVs,
// degenerate triangles) get a fixed perpendicular of the normal and sign +1. Deterministic:
// triangles are accumulated in order, in double precision.
std::vector<Vec4> generate_tangents(std::span<const Vec3> positions, std::span<const Vec3> normals,
                                    std::span<const Vec2> uv, std::span<const std::array<std::uint32_t, 3>> triangles);

}  // namespace mod::scene
