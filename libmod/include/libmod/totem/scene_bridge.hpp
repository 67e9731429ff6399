#pragma once
// Between TotemTech SKIN/MESH and the neutral scene (libmod/scene): export a SKIN's meshes as
// a skinned scene, and reweight a SKIN from an imported FBX/glTF. Spec: doc/formats/totem-skin.md
// ("Export" and "Reweighting").

#include "libmod/scene/model.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/mesh.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/reweight.hpp"
#include "libmod/totem/skin.hpp"

#include <string>
#include <utility>
#include <vector>

namespace mod::totem {

// OUR CHOICE, not game data: SKIN stores no bind pose, so every joint is a root placed at
// the weighted centre of the positions it moves (sum of weight × position over all its
// vertex entries on exported MESHes, divided by the sum of weights; the origin when that sum
// is 0), with identity rotation. Chum World makes the same choice. The text below is what
// the export tells the user.
inline constexpr const char* synthetic_bind_pose_note =
    "SKIN stores no bind pose: each joint is a root placed at the weighted centre of the vertices it moves "
    "(modkit's choice, not game data)";

struct SkinExportReport {
    std::vector<std::string> skipped_targets;  // mesh ids that are not MESHes we were given
    std::size_t joints = 0;
    std::size_t vertices = 0;   // scene vertices (one per distinct position/UV/normal triple)
    std::size_t triangles = 0;
};

// The scene of a SKIN: one skeleton bone per section (named from the table, or the hash),
// one scene mesh per (MESH, material) with per-corner attributes unwelded into vertices
// (first-use order), raw influences from the per-position vertex lists (normal weights are
// not exported: they stay in the SKIN), triangles wound (0, 2, 1) as Chum World's export does.
// `meshes`: the MESH models by name id. Throws format when a MESH's strips cannot be
// triangulated (see build_triangles).
scene::Scene skin_to_scene(const Skin& skin, const std::vector<std::pair<std::int32_t, Mesh>>& meshes,
                           const NameTable& names, SkinExportReport* report = nullptr);

// Every vertex of the scene meshes with their raw influences by bone name (processed skin
// weights / 255 when a mesh has no raw influences), in scene order. With `mesh_name`, only
// meshes named exactly so or "<mesh_name>/<anything>" (what skin_to_scene writes).
std::vector<WeightSourceVertex> weight_source_from_scene(const scene::Scene& scene, std::string_view mesh_name = {});

struct ArchiveReweightReport {
    std::vector<std::pair<std::string, ReweightReport>> meshes;  // per reweighted MESH (name)
    std::vector<std::string> skipped_targets;                    // targets that are not MESH records
};

// Reweights SKIN record `skin_index` of `archive` (decoded from the file `dgc`) for each of
// its MESH targets (or only `only_mesh` when given) from `source`, and returns the new payload
// (same zero2 reading, same byte order). Each MESH is matched against the source meshes named
// after it (as skin_to_scene names them) when there are any, else against every source
// vertex. Throws usage when `only_mesh` is not a target.
Bytes reweight_skin_record(const ByteReader& dgc, const Archive& archive, std::size_t skin_index,
                           const NameTable& names, const scene::Scene& source,
                           std::optional<std::int32_t> only_mesh, const ReweightOptions& options,
                           ArchiveReweightReport* report = nullptr);

}  // namespace mod::totem
