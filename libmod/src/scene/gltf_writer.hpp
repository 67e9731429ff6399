#pragma once
// Our glTF 2.0 writer (private to the scene layer). Assimp 5.2.5's glTF exporter cannot be
// used for editable round trips: it never writes TANGENT and it forces JoinIdenticalVertices,
// which merges vertices that differ only in their weights (doc/formats/scene-import.md).
//
// Layout written: one node per skeleton bone (local matrix, children as the parents say, roots
// under the scene), one node per mesh (identity, with the skin), one skin listing every bone
// in skeleton order (JOINTS_0 values are skeleton bone indices; inverseBindMatrices =
// Bone::inverse_bind), one primitive per mesh with POSITION, NORMAL, TANGENT (w = sign),
// TEXCOORD_0/1, COLOR_0 (float RGBA, when Mesh::colours is filled), JOINTS_0 (u16), WEIGHTS_0
// (weight bytes / 255) and u32 indices, vertices in mesh order. glTF's V axis points down, so V
// is written as 1 - v (the importers, Assimp's included, flip it back).
// Materials: a name only, unless Scene::material_info describes them: then pbrMetallicRoughness
// (baseColorFactor, baseColorTexture, metallic 0, roughness 1), alphaMode/alphaCutoff,
// KHR_materials_unlit and extras.wrap_note. Textures: each image a PNG (image::write_png) in
// its own bufferView of the one buffer (so in the GLB's BIN chunk or the .bin), mimeType
// image/png; identical images and identical samplers (wrapS, wrapT) are written once. The
// caller has checked the scene (export.cpp: sizes of colours and texture pixels).

#include "libmod/core/bytes.hpp"
#include "libmod/scene/model.hpp"

#include <string>
#include <vector>

namespace mod::scene {

// Names shared with the reader (gltf_reader.hpp): a primitive whose mesh has non-finite
// normals carries extras.modkit_nonfinite_normals = [vertex, x bits, y bits, z bits, ...] (u32)
// and a substitute unit normal in NORMAL (glTF forbids NaN there); a skeleton with several
// root bones gets a node named gltf_synthetic_root_name with extras.modkit_synthetic_root =
// true above them (glTF wants one common root for a skin's joints).
inline constexpr const char* gltf_normal_bits_key = "modkit_nonfinite_normals";
inline constexpr const char* gltf_synthetic_root_key = "modkit_synthetic_root";
inline constexpr const char* gltf_synthetic_root_name = "modkit_skeleton_root";

// `skins[m]` are the processed weights of scene.meshes[m] (empty for an unskinned mesh).
struct GltfOutput {
    std::string json;
    Bytes bin;
};
// buffer_uri empty: GLB layout (the buffer has no uri); otherwise the .bin file's name.
GltfOutput write_gltf(const Scene& scene, const std::vector<std::vector<SkinWeights>>& skins,
                      const std::string& buffer_uri);
// The GLB container of a write_gltf("") result.
Bytes pack_glb(const GltfOutput& gltf);

}  // namespace mod::scene
