#pragma once
// mesh.replace for TotemTech: new MESH records from an FBX/glTF scene, the SKINs that move
// them rebuilt from the scene's bone weights, everything else byte for byte.
// Spec: doc/formats/totem-mesh.md ("Replacing a character's meshes").
//
// The target may be a NODE, LOD, SKIN or MESH: the MESHes are found by following NODE →
// resource → LOD → SKIN → MESH (character_meshes). A source mesh goes to the MESH the mesh map
// names for it; else with one target MESH every source mesh goes into it; else to the MESH it
// is named after (exactly, or "NAME/…", as `totem export` names them); when no source mesh is
// named after any MESH and there are as many source meshes as MESHes, by order (the k-th
// source mesh into the k-th MESH, with a warning); otherwise a source mesh named after none is
// an error listing the MESHes. Materials likewise: the material map, then the same name, then
// by order of first use onto the MESH's own material list (more distinct unmatched source
// materials than the MESH lists is an error). ReplaceReport::pairings lists every decision.
// A target MESH no source mesh is named after is kept unchanged (reported).
// Every SKIN of the archive that lists a replaced MESH is rebuilt for it (rebuild_skin); the
// source's bones are mapped onto the SKINs' vertex groups as `shred replace` maps bones
// (scene::retarget: explicit bone map, then the same name — a group's name from the table, or
// its 0xHASH — then the map's strip rules); a bone carrying weight that maps to no group is an
// error listing every such bone with its total weight.

#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/model.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/bitmap.hpp"
#include "libmod/totem/mesh_build.hpp"
#include "libmod/totem/repack.hpp"
#include "libmod/totem/skin.hpp"

#include <optional>
#include <string>
#include <vector>

namespace mod::totem {

struct SkinRebuildReport {
    std::size_t subsections_rewritten = 0;
    std::size_t subsections_added = 0;    // a group that had no subsection on the MESH now has weights there
    std::size_t subsections_emptied = 0;  // kept with empty lists (counts of the unknown entries unchanged)
    std::size_t unknown_values_clamped = 0;
    std::vector<std::string> notes;
};

// `skin` with every subsection on MESH `mesh_id` rebuilt from `built` (per position / normal
// group weights). Kept: group ids, section order, subsection order (a section's first
// subsection on the MESH gets the new lists, others on it are emptied), mesh ids, anims,
// zero/zero2, the unknown entries except values now larger than their list (clamped, hypothesis
// totem-unknown-entries/1) and a 0 appended for an added subsection. Throws usage when the SKIN
// does not list the MESH at an index a subsection can name, format when a weight names a group
// the SKIN has no section for, or the result breaks a check_skin invariant the input kept.
//
// With `context` (what replace_meshes passes): weights on a group the SKIN has no section for
// but another SKIN listing the MESH stores are left to that SKIN (a note), not an error; and a
// section whose group the source carries no weight for keeps its old weights where the new
// MESH has a position (normal) with the same bits as an old one the group moved — an unedited
// round trip of an export that left the group out (CRATE_LID.TSKIN's CRATE_HINGE) stays
// exact; a note counts what was carried and what was lost.
struct SkinRebuildContext {
    const Mesh* old_mesh = nullptr;                 // the replaced MESH as it was
    std::vector<std::int32_t> groups_elsewhere;     // groups other SKINs listing the MESH store
};
Skin rebuild_skin(const Skin& skin, std::int32_t mesh_id, const BuiltMesh& built, const NameTable& names,
                  SkinRebuildReport* report = nullptr, const SkinRebuildContext& context = {});

struct ReplaceOptions {
    scene::BoneMap bone_map;
    // Source mesh name -> target MESH (name, 0xHASH or #index) and source material name ->
    // MATERIAL/MATERIALANIM record (name or 0xHASH), `source = target` lines as for bone maps
    // (parse_bone_map; `strip PREFIX` rules apply too). A map entry whose target is not one of
    // the character's MESHes (or not a material record) is a usage error naming it; an entry
    // whose source does not exist is a warning.
    scene::BoneMap mesh_map;
    scene::BoneMap material_map;
    // The size rule (scene/scale_check.hpp): new MESHes whose box diagonal differs from the
    // replaced ones' by more than 10x are refused (limit) unless this is set (then a warning).
    bool allow_scale_change = false;
    // When the rebuilt records draw what the old ones drew (ReplaceReport::unchanged), keep the
    // old ones (default); false returns the rebuilt records anyway (`--rebuild`).
    bool keep_unchanged = true;
    // The source's own textures (doc/formats/totem-mesh.md, "The source's textures"): a source
    // material whose base-colour image differs from the one its MATERIAL wears becomes a new
    // BITMAP (the worn BITMAP's format and header; the archive's first writable BITMAP when the
    // MATERIAL has none) and a new MATERIAL (a copy of the worn one with that texture and the
    // source's base-colour factor); only the factor differing gives a new MATERIAL alone. The
    // new names go into ReplaceReport::names_added. false keeps every MATERIAL as it is
    // (`--keep-textures`, "textures": "keep").
    bool source_textures = true;
    // Decides the BITMAP layout with the byte order (texture_scene.hpp bitmap_layout); PC has
    // none, so a PC archive refuses source textures.
    std::optional<Platform> platform;
};

// One source material that came with its own texture (or colour): the records made for it.
struct NewTexture {
    std::string source_material;
    std::string replaces;           // the MATERIAL/MATERIALANIM it was paired with
    std::string material;           // the new MATERIAL's name
    std::string bitmap;             // the new BITMAP's name ("" when only the colour is new)
    std::string template_bitmap;    // the BITMAP whose format and header the new one copies
    std::string format;             // "C8", "RGB5A3", …
    std::uint32_t width = 0, height = 0;
    BitmapEncodeReport encode;      // ΔE of the stored texture against the source image
};

struct ReplacedMesh {
    std::size_t record = 0;
    std::string name;
    std::vector<std::string> source_meshes;
    MeshBuildReport build;
    std::size_t positions = 0, texcoords = 0, normals = 0, triangles = 0;
    std::size_t normalised = 0;  // vertices whose weights were rescaled to sum 1
};

struct ReplacedSkin {
    std::size_t record = 0;
    std::string name;
    SkinRebuildReport rebuild;
};

struct ReplaceReport {
    // Every pairing and what decided it, one line each: "source mesh 'fox1' -> MESH
    // DB:>…HERO_BODY.TMESH (mesh map)" / "(name)" / "(only MESH)" / "(order)"; "source material
    // 'fox_material' -> DB:>…CLOTH.TMAT (material map)" / "(name)" / "(order)".
    std::vector<std::string> pairings;
    std::vector<ReplacedMesh> meshes;
    std::vector<ReplacedSkin> skins;
    std::vector<std::string> kept_meshes;  // target MESHes no source mesh is named after
    scene::RetargetReport bones;
    bool skinned = false;  // some SKIN lists a replaced MESH
    // Every new MESH draws what the old one drew and every SKIN weights it as before, at the
    // precision an export stores (mesh_compare.hpp): the source is the character's own unedited
    // export, and the returned items are the archive's own (a no-op, byte for byte) unless
    // ReplaceOptions::keep_unchanged is false.
    bool unchanged = false;
    std::vector<NewTexture> textures;
    // Names of the new records, in the order made: the caller adds them to its name table
    // (NameTable::add) and writes the table with the archive, so the pair stays consistent.
    std::vector<std::string> names_added;
    std::vector<std::string> warnings;
};

// The whole replacement on an archive decoded from `dgc`: returns the new record list (for
// repack), every record not replaced untouched. `source` is taken by value (retargeting edits
// it). Errors: usage (target leads to no MESH), format (unassigned source meshes, unknown
// material names, unmapped weighted bones, unweighted vertices of a skinned MESH, bad source
// data), limit (mesh_max_ids; the size rule unless allow_scale_change).
std::vector<RepackItem> replace_meshes(const ByteReader& dgc, const Archive& archive, const NameTable& names,
                                       std::size_t target, scene::Scene source, const ReplaceOptions& options = {},
                                       ReplaceReport* report = nullptr);

// Repacks `items` over `archive` (decoded from `dgc`) and checks the result as `totem verify`
// would: every SKIN and MESH must decode and re-encode to its bytes, and the number of
// mismatches with the documented facts must not grow. Throws format (nothing is returned)
// otherwise. Returns the new archive's bytes.
Bytes repack_checked(const ByteReader& dgc, const Archive& archive, std::vector<RepackItem> items,
                     RepackReport* report = nullptr, Archive* packed = nullptr);

}  // namespace mod::totem
