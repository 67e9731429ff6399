#pragma once
// SHRED <-> scene glue: replacing a quartet mesh from any file Assimp reads (FBX, glTF, DAE…)
// and converting SHRED meshes and SCP skeletons to the neutral scene model for export.
// Pipeline and rationale: doc/formats/scene-import.md ("SHRED replacement").

#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/scene/model.hpp"
#include "libmod/scene/weights.hpp"
#include "libmod/shred/mesh.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/shred/quartet.hpp"
#include "libmod/shred/skeleton.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mod::shred {

// HYPOTHESIS "scp-bind/1" (the one place it lives; doc/formats/scene-import.md): the 64-byte
// matrix an SCP bone record points to is that bone's bind matrix (bone space -> model space),
// written for row vectors when its translation sits in row 3 (then transposed here) and for
// column vectors when it sits in column 3. The seed proves only that the matrices are finite
// and affine. Returns the matrix in the scene convention (column vectors).
scene::Mat4 scp_bind_matrix(const ScpBone& bone);

// The SCP skeleton as a scene skeleton, bone i = SCP bone i (same names and parents; bind from
// scp_bind_matrix, local and inverse bind derived; a singular matrix becomes identity and a
// warning in `warnings` when given).
scene::Skeleton to_scene_skeleton(const Skeleton& scp, std::vector<std::string>* warnings = nullptr);

// A decoded quartet mesh as a scene mesh: vertices in stream order, positions / normals /
// tangents exactly as stored, tangent sign from the stream, UVs from the halves (exact),
// skin = the palette bones and byte weights (the raw influences carry the same as weight/255),
// triangles from the MMP slice.
scene::Mesh to_scene_mesh(const QuartetMesh& mesh, std::string name, std::uint32_t material = 0);

// The quartet (all meshes, or only `mesh_index`) as a scene: SCP skeleton + meshes, material
// names "material_<hash>" from the records' material hashes. Ready for scene::export_file.
scene::Scene quartet_to_scene(const QuartetModel& model, std::optional<std::size_t> mesh_index = std::nullopt);

// A scene mesh whose skin was processed against the quartet skeleton as a SHRED SkinnedMesh:
// influences = skin bones with weight bytes / 255 (exact for the preprocessor), extra and
// trailing zero. Throws format when the mesh has no processed skin or a bone >= 255.
SkinnedMesh to_skinned_mesh(const scene::Mesh& mesh);

// The size rule of every game (scene/scale_check.hpp): a new mesh whose box diagonal differs
// from the replaced one's by more than 10x either way (a wrong unit: a centimetre FBX read as
// metres) is refused, kind limit, unless allowed. Apart from it, an extent that differs by more
// than 4x along one axis (a wrong up axis) is always a warning naming the options that fix it.
enum class ScaleCheck {
    warn,    // allowed: the 10x text becomes a warning (--allow-scale-change, "allow_scale_change")
    refuse,  // refused beyond 10x (the default, CLI and manifest alike)
};

struct SceneReplaceOptions {
    scene::BoneMap bone_map;              // explicit source -> SCP bone names
    std::optional<std::size_t> source_mesh;  // which mesh of the source scene; all merged when unset
    // The same by name (exact, then case-insensitive; a usage error listing the meshes when no
    // mesh or several match). At most one of source_mesh / source_mesh_name.
    std::optional<std::string> source_mesh_name;
    ScaleCheck scale_check = ScaleCheck::refuse;
    bool weld = true;                     // weld with the full attribute set before preprocessing
    // Weld tolerance for normals, tangents and UVs (scene::WeldOptions): 1e-5 merges the float
    // noise of FBX corner normals; 0 demands identical bits. Positions and weights always exact.
    float weld_tolerance = 1e-5f;
    // Degenerate triangles (two corners with the same vertex or the same position bits) and
    // duplicates (the same three vertices as an earlier triangle, in any order) are counted and
    // reported as a warning; true drops them as well (--drop-degenerate, "drop_degenerate").
    bool drop_degenerate = false;
    ReplaceOptions replace;               // preprocessor ordering rule
};

struct SceneReplaceReport {
    ReplaceReport counts;                    // vertex / batch / triangle counts before and after
    scene::RetargetReport retarget;
    scene::WeightReport weights;             // source and final influence histograms
    std::array<std::uint32_t, 5> old_batches_by_influence{};   // [n]: batches with n influences
    std::array<std::uint32_t, 5> new_batches_by_influence{};
    std::array<std::uint64_t, 5> old_vertices_by_influence{};  // [n]: stream vertices with n influences
    std::array<std::uint64_t, 5> new_vertices_by_influence{};
    // The source meshes that went into the replacement (name, vertices), in merge order.
    std::vector<std::pair<std::string, std::size_t>> merged_meshes;
    // Bounding boxes (min x y z, max x y z) of the replaced stream and of the new mesh, and
    // the scale warning when an extent differs by more than 4x (empty otherwise).
    std::array<float, 6> old_box{}, new_box{};
    std::string scale_mismatch;  // the 4x per-axis warning (empty within it)
    std::string scale_change;    // the 10x size-rule text when allowed (a warning), else empty
    std::size_t source_vertices = 0;         // before welding
    std::size_t welded_vertices = 0;
    // The source had no tangents and matched the target vertex for vertex (position and first
    // UV bits): the target's tangents and signs were kept (doc/formats/scene-import.md).
    bool kept_target_tangents = false;
    std::size_t degenerate_triangles = 0;    // after welding (see drop_degenerate)
    std::size_t duplicate_triangles = 0;
    bool dropped_degenerate = false;         // they were removed
    std::vector<std::string> warnings;       // the scene's warnings and ours
};

// The whole replacement: retarget the source onto the quartet's SCP skeleton (by name, then
// the bone map; unmapped bones carrying weight are an error listing them), our weight
// processing (4 largest, renormalised, bytes summing to 255), merge the chosen meshes, weld,
// validate (indices, finite data, f16 UV range), then replace_mesh_in_pak (preprocessor,
// new record with recomputed box, MMP slice). Returns the new PAK bytes. Errors are mod::Error
// naming the source file or the quartet.
Bytes replace_from_scene(const Pak& pak, std::string_view quartet_base, std::size_t mesh_index,
                         scene::Scene source, const SceneReplaceOptions& options = {},
                         SceneReplaceReport* report = nullptr);

// Reads the quartet `quartet_base` of `pak` under shred-quartet/1 (usage error when absent).
QuartetModel read_pak_quartet(const Pak& pak, std::string_view quartet_base);

}  // namespace mod::shred
