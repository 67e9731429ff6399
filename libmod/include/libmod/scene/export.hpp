#pragma once
// Exporting a skinned scene through Assimp's exporters, so a user can edit it in Blender and
// bring it back with import_file.
//
// The exported file holds: one node per skeleton bone (local = Bone::local, hierarchy as the
// parents say) under the root, one node per mesh under the root (identity transform), and
// per mesh every skeleton bone as a skin joint (offset matrix = Bone::inverse_bind) with the
// vertex weights: Mesh::skin (as weight / 255) when processed, else the raw influences.
// Positions, normals, tangents (glTF/FBX tangent + sign), uv0 and uv1 are written as they are.
//
// Round trip (tested): glb/gltf export -> import_file with default options gives the same
// vertices in the same order, and process_weights reproduces the same SkinWeights. FBX
// stores one vertex per triangle corner; after import and weld() the vertex set is the same,
// in first-use order.

#include "libmod/scene/model.hpp"

#include <filesystem>
#include <span>
#include <string_view>

namespace mod::scene {

enum class ExportFormat {
    glb,   // binary glTF 2.0 (one file)
    gltf,  // glTF 2.0 JSON + a .bin beside it named after the output
    fbx,   // ASCII FBX 7.5 (Assimp "fbxa"; Assimp 5.2.5's binary FBX writer is broken)
};

// From the output's extension (.glb, .gltf, .fbx, case-insensitive); usage error otherwise.
ExportFormat export_format_for(const std::filesystem::path& path);

// Writes `scene` to `path` atomically (mod::write_file_atomic; for gltf also the .bin), never
// over one of `inputs`. Throws mod::Error: usage for an unknown extension, format when the
// scene is inconsistent (check_mesh) or Assimp refuses it, io when writing fails.
void export_file(const Scene& scene, const std::filesystem::path& path,
                 std::span<const std::filesystem::path> inputs = {});

}  // namespace mod::scene
