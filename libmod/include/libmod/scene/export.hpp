#pragma once
// Exporting a skinned scene so a user can edit it in Blender and bring it back with import_file.
//
// glb / gltf are written by OUR glTF 2.0 writer, because Assimp 5.2.5's glTF exporter never
// writes tangents and forces JoinIdenticalVertices, which merges vertices that differ only in
// their weights. fbx goes through Assimp's ASCII FBX exporter ("fbxa"; its binary writer is
// broken in 5.2.5). Both hold: one node per skeleton bone (local = Bone::local, hierarchy as
// the parents say), one node per mesh (identity transform), and per mesh every skeleton bone
// as a skin joint (inverse bind = Bone::inverse_bind) with the processed weights (Mesh::skin as
// weight / 255; computed with default WeightOptions on a copy when the mesh has none).
// Positions, normals, tangents (+ sign), uv0 and uv1 are written as they are; Mesh::colours,
// when filled, as COLOR_0 (glTF) / the first vertex colour set (FBX).
// Scene::material_info (glTF only; FBX gets names): base colour factor and texture (embedded
// PNG with a sampler for its wrap modes; wrap_note in the material's extras), alpha mode,
// KHR_materials_unlit. Materials without an entry are written as names, as before.
//
// Round trip (tested): glb/gltf export -> import_file with default options gives the same
// vertices in the same order, bit for bit (UVs too, except negative V components smaller than
// 2^-13 in magnitude that glTF's V flip cannot represent), and process_weights reproduces the
// same SkinWeights. FBX stores one vertex per triangle corner; after import and weld() the
// vertex set is the same, in first-use order (tangents are not written to FBX: regenerated).

#include "libmod/scene/model.hpp"

#include "libmod/core/bytes.hpp"

#include <filesystem>
#include <span>
#include <string>
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
// scene is inconsistent (check_mesh; Mesh::colours neither empty nor one per vertex; more
// material_info entries than materials; a texture with a zero size or pixels that are not
// 4 × width × height bytes; for fbx a '"' in a bone, mesh or material name, which ASCII FBX
// cannot store) or Assimp refuses it, limit for glb / gltf when the skeleton has more than
// 65,536 bones (JOINTS_0 is 16-bit), io when writing fails.
void export_file(const Scene& scene, const std::filesystem::path& path,
                 std::span<const std::filesystem::path> inputs = {});

// The GLB export_file would write, in memory (the report page's 3D view embeds it). Same checks
// and errors as export_file, with `name` where they name the file.
Bytes export_glb(const Scene& scene, const std::string& name);

}  // namespace mod::scene
