#pragma once
// Replacing a Pokémon model's mesh from any scene the scene layer imports (FBX, glTF/GLB, DAE),
// keeping the target skeleton and every animation (issue 28). Spec: doc/formats/stadium-mesh-write.md.
//
// What is kept: the root (model id, unknown bytes), every bone (0x1D bytes: id, flags, channel,
// rest translation/rotation/scale, nesting and walk order), the root scale (0x1C), every
// skeletal and aux animation (descriptors and arrays word for word, same indices, so the battle
// rows outside the archive still name the same animations), and the layout commands that are
// neither mesh nor flow and hold no fragment pointer (0x18 shadow, 0x24 attachment points, …),
// under the same bone. What is new: the texture and palette tables, the materials (0x23), the
// display lists and the Vtx array. The fragment is written whole by ModelBuilder in the one-root
// layout form `17 05 1C 05 1D … 06 06 01`, every draw on render layer `mesh_layer`, in walk order.
//
// Geometry: the source is retargeted onto the target bones (scene::retarget: by name, the bone
// map, strip rules); a bone carrying weight without a target is refused in one message listing
// every such bone with the suggestions of scene::suggest_bone_map. Each vertex goes to the bone
// with the most weight (ties: the lower bone index; vertices without influences go to bone 0)
// and is stored in that bone's rest space (the inverse of its bind matrix, root scale included)
// rounded to s16. The root scale is kept (bone and animation translations are in the same
// units); a coordinate past ±32767 is a limit error with the numbers. Seams (a triangle on a
// bone and its parent) are drawn as the game draws them: the parent's vertices are loaded with
// the parent's matrix just before the child's list (0x22 under the parent for the first chunk,
// 0x1E naming the parent for further chunks) and the child's list draws the triangles from those
// cache slots plus its own. Triangles on three bones or on two bones that are not parent and
// child are given to the bone of most of their corners (a copy of the other corners in its
// space) and counted. Every G_VTX loads at most 32 vertices (runs of the Vtx array); a bone's
// own triangles are ordered by meshoptimizer (vertex cache, then meshlets of ≤ 32 vertices).
//
// Errors (nothing is written): usage (no such model, bad options), format (no mesh, every
// triangle degenerate, non-finite positions, unmapped bones), limit (s16 coordinates, 32767
// vertices, 255 textures/palettes, the runtime budgets of stadium.md §2.3 with the numbers),
// conflict (the rebuilt model does not read back as planned, which would be our defect).

#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/model.hpp"
#include "libmod/stadium/archive.hpp"
#include "libmod/stadium/model.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mod::stadium {

// The render layer of every draw the replacement writes (0x22/0x1E byte +1).
inline constexpr std::uint8_t mesh_layer = 1;
// A source whose box diagonal (in the target's model space) differs from the model's by more
// than scene::scale_change_limit (10x) either way is refused, kind limit, without
// allow_scale_change (a unit mistake: scene/scale_check.hpp); beyond this factor it is a warning.
inline constexpr double mesh_scale_warning = 4.0;

struct MeshReplaceOptions {
    scene::BoneMap bone_map;
    bool allow_scale_change = false;
    unsigned threads = 0;
    // When the new model draws what the old one drew (MeshPlan::unchanged), keep the ROM as it
    // is (default); false writes the rebuilt model anyway (`--rebuild`).
    bool keep_unchanged = true;
};

struct MeshBonePlan {
    std::size_t bone = 0;       // Model::bones index
    std::string name;           // "bone<i>_id<id>" (the export's name)
    std::size_t vertices = 0;   // source vertices whose dominant bone this is
    std::size_t triangles = 0;  // triangles drawn by its lists (own + seams to its parent + given)
    std::size_t seam_triangles = 0;  // of those, blended with its parent through the cache
};

struct MeshMaterialPlan {
    std::string name;     // source material name
    bool lit = true;      // s8 normals (G_LIGHTING) or vertex colours
    std::string shading_reason;
    std::int16_t texture = -1;
    std::int16_t palette = -1;
    std::uint8_t combiner = 0;
};

struct MeshTexturePlan {
    std::string material;
    std::string source;          // image name, or "base colour" for an untextured material
    std::string format;          // "ci4", "ci8", "i8", "ia8", "rgba16"
    std::uint32_t width = 0, height = 0;
    std::uint32_t source_width = 0, source_height = 0;
    double mean_delta_e = 0, max_delta_e = 0;  // Oklab × 100 against the resized image
    std::string wrap_s, wrap_t;  // "repeat", "mirror", "clamp"
    std::uint32_t tmem_bytes = 0;
    std::string shared_with;     // the material whose identical texture this one uses (none written)
};

struct MeshPlan {
    std::size_t model = 0;
    std::size_t source_vertices = 0, source_triangles = 0;
    std::size_t triangles = 0;       // drawn
    std::size_t vtx_entries = 0;     // Vtx array entries written
    std::size_t vtx_loads = 0;       // G_VTX commands
    std::size_t vertices_loaded = 0; // sum of their counts
    double loaded_per_triangle() const noexcept { return triangles ? double(vertices_loaded) / double(triangles) : 0; }
    std::size_t seams_blended = 0;     // triangles on a bone and its parent, drawn through the cache
    std::size_t reassigned_three_bones = 0, reassigned_not_adjacent = 0;
    std::size_t unweighted_vertices = 0;  // given to bone 0
    std::size_t uv_clamped = 0;           // corners whose S10.5 coordinate was clamped
    std::int32_t root_scale = 0x10000;    // 16.16, kept
    std::int32_t max_coordinate = 0;      // largest |s16| written
    double size_ratio = 1;                // source box diagonal / model box diagonal
    std::vector<MeshBonePlan> bones;
    std::vector<MeshMaterialPlan> materials;
    std::vector<MeshTexturePlan> textures;  // parallel to materials
    std::size_t textures_written = 0, palettes_written = 0;
    std::size_t kept_commands = 0, dropped_commands = 0;
    std::size_t animations = 0, aux_animations = 0;
    // Sizes (bytes): FRAGMENT, stored entry (ALIGN16 of the PERS-SZP/Yay0 blob, or the raw
    // fragment), the model block (ALIGN16(decompressed) + 0x10); 0 when not known yet.
    std::uint32_t old_fragment = 0, new_fragment = 0;
    std::uint32_t old_entry = 0, new_entry = 0;
    std::uint32_t old_block = 0, new_block = 0;
    RuntimeLimits limits;
    std::vector<std::string> warnings;
    // The rebuilt model draws what the old one drew: its export (model_scene) and the old one's
    // compare equal under scene::draws_alike (same skeleton, triangles as values, weights,
    // material looks). With keep_unchanged the ROM call returns the input's bytes.
    bool unchanged = false;
};

struct MeshReplacement {
    MeshPlan plan;
    Bytes fragment;  // the new FRAGMENT (read back and checked)
};

// Plans and builds the replacement of `model`'s mesh by `source` (moved in: retargeting rewrites
// it). `path` names the model in errors ("archive[3].fragment"). Errors: see the top.
MeshReplacement replace_mesh(const Model& model, scene::Scene source, const MeshReplaceOptions& options = {},
                             const std::string& path = "fragment");

// The whole edit on a ROM: archive entry `model` replaced, the archive repacked (PERS-SZP/Yay0,
// limits checked with the numbers), the ROM in the input's byte order. The plan's entry sizes are
// filled in.
struct RomMeshReplace {
    Bytes rom;
    MeshPlan plan;
};
RomMeshReplace replace_mesh_in_rom(const StadiumRom& rom, const Archive& archive, std::size_t model,
                                   scene::Scene source, const MeshReplaceOptions& options = {},
                                   const RepackOptions& repack = {});

// The plan as text, one fact per line (what `--dry-run` prints).
std::string format_mesh_plan(const MeshPlan& plan);

// ---- parts (mesh_replace_*.cpp), exposed for tests ---------------------------------------------

// The target skeleton as a scene skeleton: bone i named "bone<i>_id<id>", bind = the game's rest
// matrix (bone_globals of the bind poses, root scale included).
scene::Skeleton target_skeleton(const Model& model);

// s16 of a coordinate already in the bone's rest space: round half away from zero; limit error
// (naming `what`) past ±32767 or when not finite.
std::int16_t to_s16(double value, const std::string& what);

}  // namespace mod::stadium
