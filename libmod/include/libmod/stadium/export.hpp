#pragma once
// Exporting a Pokémon model for viewing: the bind-pose skeleton and the triangles through the
// scene layer (glb / gltf), and every texture and palette as PNG with a JSON index.
// Spec: doc/formats/stadium-model.md ("Export").
//
// Scene: one bone per 0x1D command (name "bone<i>_id<id>", hierarchy from the layout's node
// stack, local = T · Rz · Ry · Rx · S with translation in model units, rotation in degrees,
// scale 16.16 — the rotation order is OUR hypothesis, see the doc), the root scale (first 0x1C)
// applied to root bones. One mesh per material in force at the draws ("mat<i>_tex<t>_pal<p>",
// "untextured" for draws before any 0x23); each vertex belongs wholly to the bone whose matrix
// drew the G_VTX that loaded it (weight 1), positions in model space (bone bind · vertex).
// UVs: s/32/width, 1 - t/32/height. Lit vertices (G_LIGHTING when drawn) give their s8 normals;
// unlit ones get face normals (their vertex colours are not carried: the scene layer has none).
//
// The scene layer's materials are names only, so textures cannot be embedded in the glb: they
// are written as PNGs beside it (export_textures) and the material names reference them.
// glTF samplers would express wrap/mirror/clamp per axis; we record them in textures.json.

#include "libmod/scene/model.hpp"
#include "libmod/stadium/model.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace mod::stadium {

// The scene for a model (deterministic). Format errors from the scene layer (singular bone
// matrices) name the bone.
scene::Scene model_scene(const Model& model, const std::string& name = "model");

struct TextureFile {
    std::size_t texture = 0;
    std::string file;                   // PNG name in the folder
    std::optional<std::size_t> palette; // palette used to decode (CI)
    std::string wrap_s, wrap_t;         // "repeat", "mirror", "clamp", "mirror+clamp"
};

struct TextureExport {
    std::vector<TextureFile> textures;
    std::vector<std::string> palettes;  // PNG names (one row of colour_count swatches each)
    std::vector<std::string> warnings;  // textures that could not be decoded, etc.
};

// Writes DIR/texNNN.png (RGBA; CI textures also DIR/texNNN_ci.png as an indexed PNG with the
// palette's bank), DIR/palNNN.png (colour_count × 1) and DIR/textures.json. Creates DIR.
TextureExport export_textures(const Model& model, const std::filesystem::path& dir);

// Writes the scene to OUT (.glb/.gltf) with export_textures into OUT's folder, or, when OUT is
// a folder (no .glb/.gltf extension), OUT/model.glb plus the textures there.
void export_model(const Model& model, const std::filesystem::path& out,
                  std::span<const std::filesystem::path> inputs = {});

}  // namespace mod::stadium
