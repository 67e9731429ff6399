#pragma once
// Shared steps of the mesh replacement (mesh_replace.hpp); one file per algorithm:
//   mesh_replace_bones.cpp    retargeting, dominant bones, rest-space s16, triangle partition
//   mesh_replace_dl.cpp       vertex-cache display lists (meshlets, seam chunks)
//   mesh_replace_texture.cpp  source materials → N64 textures, palettes, shading choice
//   mesh_replace.cpp          layout, kept commands and animations, build, checks, ROM
#include "libmod/scene/model.hpp"
#include "libmod/stadium/builder.hpp"
#include "libmod/stadium/mesh_replace.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mod::stadium::mesh_detail {

// A source vertex: flat index over every mesh (MeshPartition::first[mesh] + index).
struct SourceRef {
    std::uint32_t mesh = 0, index = 0;
};

// One triangle to draw: each corner is a source vertex stored in the space of `bone[k]`.
struct PartTriangle {
    std::array<std::uint32_t, 3> v{};    // flat source vertex ids
    std::array<std::int32_t, 3> bone{};  // Model::bones index per corner
    std::uint32_t material = 0;          // scene material index
};

struct MeshPartition {
    std::vector<SourceRef> vertices;        // flat id → (mesh, index)
    std::vector<std::int32_t> dominant;     // flat id → bone
    // own[bone]: triangles wholly in that bone's space (including reassigned ones)
    std::vector<std::vector<PartTriangle>> own;
    // seam[child]: triangles with corners on the child and its parent (each in its own bone's space)
    std::vector<std::vector<PartTriangle>> seam;
};

// Retargets `source` onto the model's bones (unmapped weighted bones: one format error listing
// them with suggestions), assigns dominant bones, partitions the triangles and fills the plan's
// counts. Checks finiteness and the size ratio (allow_scale_change).
MeshPartition partition_mesh(const Model& model, scene::Scene& source, const MeshReplaceOptions& options, MeshPlan& plan);

// Per scene material: what the builder got.
struct MaterialOut {
    bool used = false;
    bool lit = true;
    std::int16_t texture = -1, palette = -1;
    DlId material_dl = 0;
    std::uint32_t width = 0, height = 0;  // texture size (for S10.5 coordinates)
    std::uint8_t combiner = 0;
};

// Encodes every used material's texture (or a base-colour swatch) into `b`.
std::vector<MaterialOut> build_materials(const Model& model, const scene::Scene& source, const MeshPartition& part,
                                         ModelBuilder& b, MeshPlan& plan);

// The Vtx of source vertex `v` in bone `bone`'s rest space.
Vertex make_vertex(const Model& model, const scene::Scene& source, const MeshPartition& part,
                   const std::vector<scene::Mat4>& inverse_binds, const MaterialOut& mat, std::uint32_t v,
                   std::int32_t bone, MeshPlan& plan);

// Display lists per bone, in the order the layout draws them.
struct SeamChunk {
    std::uint32_t material = 0;
    DlId parent_load = 0;  // drawn with the parent's matrix
    DlId child_draw = 0;   // drawn with the child's
};
struct BoneLists {
    std::vector<std::pair<std::uint32_t, DlId>> own;  // (material, list)
    std::vector<SeamChunk> seams;                      // as the child
};
std::vector<BoneLists> build_lists(const Model& model, const scene::Scene& source, const MeshPartition& part,
                                   const std::vector<MaterialOut>& materials, ModelBuilder& b, MeshPlan& plan);

// Geometry modes written at the start of each list (G_ZBUFFER | G_SHADE | G_CULL_BACK |
// G_SHADING_SMOOTH, with G_LIGHTING when lit), set with gSPGeometryMode(~0, mode).
inline constexpr std::uint32_t lit_geometry_mode = 0x00220405u;
inline constexpr std::uint32_t unlit_geometry_mode = 0x00200405u;

}  // namespace mod::stadium::mesh_detail
