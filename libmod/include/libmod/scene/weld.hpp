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

struct WeldOptions {
    // 0: every attribute must be bit-for-bit identical. > 0: normals, tangent directions and
    // UVs are compared after rounding each component to a multiple of `tolerance` (FBX files
    // store one normal per triangle corner with float noise around 1e-6; 1e-5 merges them as
    // Assimp's JoinIdenticalVertices would). Positions, tangent signs and weights always
    // compare exactly.
    float tolerance = 0;
};

// Merges vertices whose position, normal, tangent (with sign), uv0, uv1, colour and weights
// are equal under `options` (weights: Mesh::skin when processed, else the raw influence list
// in order; colours compare exactly). The kept vertex is the first occurrence with its exact
// bits, and new vertices keep the order of their first occurrence, so welding an already
// welded mesh is the identity (exact mode). Takes the mesh by value: pass an rvalue to weld
// without copying it. Throws format when a triangle index is out of range or a per-vertex
// array is neither empty nor one entry per vertex; usage for a negative or non-finite tolerance.
WeldResult weld(Mesh mesh, const WeldOptions& options = {});

}  // namespace mod::scene
