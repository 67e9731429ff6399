#pragma once
// Vertex welding with the full attribute set in the key — unlike Assimp's
// JoinIdenticalVertices, which ignores bone weights and can merge two coincident vertices of
// different body parts into one vertex carrying both parts' weights.

#include "libmod/scene/model.hpp"

#include <cstdint>
#include <vector>

namespace mod::scene {

struct WeldResult {
    Mesh mesh;                           // welded mesh, triangles remapped
    std::vector<std::uint32_t> remap;    // remap[old vertex] = new vertex
};

// Merges vertices whose position, normal, tangent (with sign), uv0, uv1 and weights are
// bit-for-bit identical (weights: Mesh::skin when processed, else the raw influence list in
// order). Exact bit equality is deliberate: rounding would move vertices and break byte-exact
// round trips. The kept vertex is the first occurrence, and new vertices keep the order of
// their first occurrence, so welding an already welded mesh is the identity.
WeldResult weld(const Mesh& mesh);

}  // namespace mod::scene
