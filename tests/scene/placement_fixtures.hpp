#pragma once
// Small skinned fixtures for the placement, weight and triangle checks of the importer
// (test_import_placement.cpp and friends): a two-joint triangle as hand-written glTF JSON
// (buffer inline as a data URI) and the same kind of scene written with Assimp's exporters.

#include "libmod/scene/model.hpp"

#include <array>
#include <filesystem>
#include <string>
#include <vector>

namespace placementtest {

// A glTF 2.0 file: node 0 "Body" (mesh 0, skin 0, plus `mesh_node` properties), node 1
// "Root" (translation 0 1 0) with child node 2 "Tip" (`tip_node` properties); skin joints
// [Root, Tip]. Vertex weights (joint 0 = Root, joint 1 = Tip) are `weights`, 4 per vertex.
struct GltfTriangle {
    std::string mesh_node;                        // JSON members of node 0 besides mesh/skin
    std::string tip_node = R"("translation": [0, 1, 0])";
    std::vector<mod::scene::Vec3> positions = {{1, 0, 0}, {0, 2, 0}, {1, 2, 0}};
    std::vector<std::array<std::uint8_t, 4>> joints = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}};
    std::vector<std::array<float, 4>> weights = {{1, 0, 0, 0}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}};
    std::vector<std::array<std::uint16_t, 3>> triangles = {{0, 1, 2}};
    std::array<std::array<float, 16>, 2> inverse_bind{};  // column-major, per joint
};

std::array<float, 16> translation_column_major(float x, float y, float z);
std::string gltf_triangle(const GltfTriangle& t);

// Assimp scene: Armature -> Bone0 (0 1 0) -> Bone1 (0 1 0); mesh node "Body" with transform
// (x, y, z) -> (5 - 2y, 2x, 2z) (x2, 90 degrees about Z, +5 x); one triangle (1 0 0), (0 2 0),
// (1 2 0) weighted Bone0 / Bone1 / half each; offsets inverse(bone global), i.e. the skin
// binds the mesh at the identity. Written with Assimp's exporter `format` ("fbxa", "collada").
void write_two_bone_triangle(const std::filesystem::path& path, const std::string& format);

}  // namespace placementtest
