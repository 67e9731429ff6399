#pragma once
// Exporting a Pokémon model for viewing: the bind-pose skeleton and the triangles through the
// scene layer (glb / gltf), and every texture and palette as PNG with a JSON index.
// Spec: doc/formats/stadium-model.md ("Export").
//
// Scene: one bone per 0x1D command (name "bone<i>_id<id>", hierarchy from the layout's node
// stack, local = T · Rz · Ry · Rx · S with translation in model units, rotation in binary
// angles (65536 = 360°), scale 16.16, and the flags' matrix paths (bit 0: scale kept out of the
// inherited matrix; bit 1: camera-relative, drawn for an identity view) — the decomp's, see the
// doc "Bone matrices"), the root scale (first 0x1C)
// applied to root bones. One mesh per material in force at the draws ("mat<i>_tex<t>_pal<p>",
// "untextured" for draws before any 0x23); each vertex belongs wholly to the bone whose matrix
// drew the G_VTX that loaded it (weight 1), positions in model space (bone bind · vertex).
// UVs: s/32/width, 1 - t/32/height. Lit vertices (G_LIGHTING when drawn) give their s8 normals;
// unlit ones get face normals, and their RGBA becomes the mesh's vertex colours (sRGB bytes →
// linear; lit vertices of a mesh that also has unlit triangles get white with their alpha).
//
// Materials (Scene::material_info, one per mesh): the texture decoded as that material draws
// it (its palette, its CI4 bank), embedded in the glb/gltf as PNG with a sampler whose wrap
// modes come from the material DL's render tile (gltf_wrap; what glTF cannot express is noted
// in the material's extras.wrap_note), alpha mode from the texels and vertex alphas (a
// hypothesis, see the doc), unlit (KHR_materials_unlit) when no triangle of the mesh is lit.
// A texture that cannot be decoded is left out with a Scene::warnings entry.

#include "libmod/scene/model.hpp"
#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/battle_table.hpp"
#include "libmod/stadium/model.hpp"

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mod::stadium {

// The scene for a model (deterministic). Format errors from the scene layer (singular bone
// matrices) name the bone.
scene::Scene model_scene(const Model& model, const std::string& name = "model");

// The game's global matrix of every bone (scene convention: column vectors, row-major) when each
// bone i is posed with poses[i] (translation in model units, rotation in binary angles, scale
// factors): the flags' matrix paths and the root scale as in the bind pose above. With
// bind_poses(model) these are the scene's bind matrices; with sample_bones(model, a, f) the
// pose of animation a at frame f (animation.hpp). Usage error unless one pose per bone.
std::vector<scene::Mat4> bone_globals(const Model& model, std::span<const ChannelPose> poses);

// model_scene with every vertex posed as the game draws it with skeletal animation `animation`
// at integer frame `frame`: a vertex of bone b moves by G_pose[b] · inverse(G_rest[b])
// (bone_globals of sample_bones and of bind_poses), normals by its 3×3 part, renormalised. The
// skeleton stays the bind pose. Format errors as model_scene's; usage error when the animation
// does not belong to the model's bone count (export_pose.cpp).
scene::Scene posed_scene(const Model& model, const SkeletalAnimationData& animation, std::int32_t frame,
                         const std::string& name = "model");

// The glTF wrap mode nearest to what the RDP does along one axis of a render tile, with `note`
// empty when it is exact and saying what differs otherwise. RDP facts (doc/formats/n64-texels.md
// §4): mask 0 = no wrapping, coordinates clamp to the tile rectangle (`tile_extent` texels,
// from SETTILESIZE); mask m > 0 wraps (mirror bit: mirrors) every 2^m texels, and the clamp
// bit clamps at the tile edge as well. glTF wraps and clamps at the image edge
// (`texture_size` texels) and has no wrap-then-clamp: such axes get REPEAT/MIRRORED_REPEAT
// and a note; a clamp reached before the first wrap is an exact CLAMP_TO_EDGE.
scene::TextureWrap gltf_wrap(const n64::TileAxis& axis, std::uint32_t tile_extent, std::uint32_t texture_size,
                             std::string& note);

struct TextureFile {
    std::size_t texture = 0;
    std::string file;                   // PNG name in the folder
    std::optional<std::size_t> palette; // palette used to decode (CI)
    std::string wrap_s, wrap_t;         // "repeat", "mirror", "clamp", "mirror+clamp"
    std::string wrap_note;              // what a glTF sampler cannot express (gltf_wrap), or empty
};

struct TextureExport {
    std::vector<TextureFile> textures;
    std::vector<std::string> palettes;  // PNG names (one row of colour_count swatches each)
    std::vector<std::string> warnings;  // textures that could not be decoded, etc.
};

// Writes DIR/texNNN.png (RGBA; CI textures also DIR/texNNN_ci.png as an indexed PNG with the
// palette's bank), DIR/palNNN.png (colour_count × 1) and DIR/textures.json. Creates DIR. A DIR
// that already holds files but no textures.json (so is not an earlier export) is refused
// (conflict) before anything is written: unrelated files are never overwritten.
TextureExport export_textures(const Model& model, const std::filesystem::path& dir);

struct ModelExport {
    std::filesystem::path file;           // the glb / gltf written
    std::filesystem::path texture_dir;    // where export_textures wrote the PNGs
    std::size_t embedded_textures = 0;    // materials whose texture is in the glb / gltf
    std::vector<std::string> wrap_notes;  // "material NAME: …" where a glTF sampler is approximate
    std::vector<std::string> warnings;    // scene and texture-folder warnings (textures left out)
    std::size_t animations = 0;           // glTF animations written
};

// Adds the model's animations to its scene (doc/formats/stadium-animation.md "Export"):
//  * one glTF animation per skeletal animation, named "anim<i>" (plus " (moves a,b,…)" when
//    `tables` is given: the moves whose battle row for archive entry `entry` plays it), keys at
//    every frame 0 .. frame_count − 1 at 30 fps (LINEAR between them), each bone's local
//    translation / rotation / scale taken from bone_globals of sample_bones (so the joints'
//    globals are the game's matrices; a flags path whose local matrix has shear is warned);
//    extras.modkit_skeletal: mode, flags, hold/loop, start and loop frames, frame count, +2 bytes;
//  * texture animations as switch joints: for each material with a texture channel that an aux
//    animation changes, one copy of its mesh per texture shown (material "<name>_tex<T>"), its
//    vertices bound to joints "texswitch_mat<M>_tex<T>_<bone>" (children of their bones, scale 1
//    while that texture is shown, else 0; at rest the material's own texture shows); one glTF
//    animation "texanim<i>" per aux animation with STEP scale keys per frame, and the exact data
//    (channels, stream, texture per frame and channel) in extras.modkit_texture_animation.
void add_animations(scene::Scene& sc, const Model& model, const ModelAnimations& anims, const BattleTables* tables = nullptr,
                    std::size_t entry = 0);

// What export_model adds besides the bind pose.
struct ExportAnimations {
    bool enabled = false;
    const BattleTables* tables = nullptr;  // names animations after the moves playing them
    std::size_t entry = 0;                 // the model's archive entry (its battle rows)
    std::string path = "fragment";         // structure path for decode errors
};

// Writes the scene to OUT (.glb/.gltf) with export_textures into a folder of its own beside it,
// OUT's name without the extension plus "_textures" (m.glb: m_textures/), or, when OUT is a
// folder (no .glb/.gltf extension), OUT/model.glb plus the textures in OUT. Either folder must
// be new, empty or an earlier export (see export_textures); OUT.glb/.gltf itself is replaced.
// With animations.enabled, add_animations (after reading them: format errors as read_animations).
ModelExport export_model(const Model& model, const std::filesystem::path& out,
                         std::span<const std::filesystem::path> inputs = {}, const ExportAnimations& animations = {});

}  // namespace mod::stadium
