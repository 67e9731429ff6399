#pragma once
// Importing skinned meshes with Assimp (FBX, glTF/GLB, DAE and anything else Assimp reads).
//
// What the importer does, in order (details and the Assimp 5.2.5 traps it avoids:
// doc/formats/scene-import.md):
//  1. Assimp reads the file with Triangulate | ValidateDataStructure | SortByPType |
//     GenSmoothNormals (only fills missing normals) and FBX pivots NOT preserved. It never uses
//     LimitBoneWeights, JoinIdenticalVertices or GlobalScale.
//  2. The skeleton is built from the node tree: every node named by a mesh bone, plus the
//     nodes between those and the skeleton's top (see scene-import.md "skeleton"); bind
//     matrices come from the bones' offset matrices, falling back to the node pose for joints
//     that skin nothing. Bind/node pose disagreements become Scene::warnings.
//  3. Per-vertex influences are gathered by bone NAME across all meshes (so the same joint is
//     one skeleton bone everywhere); weights are kept exactly as stored.
//  4. Every mesh's node transform is baked into its vertices, then the unit and axis
//     conversion below is applied to vertices and bone matrices alike; a conversion with a
//     negative determinant flips triangle winding and tangent signs so faces stay outward.
//  5. Normals, tangents and sign are taken from the file; missing tangents are generated
//     (per-triangle UV derivatives accumulated per vertex, Gram-Schmidt against the normal).
//  6. Two UV sets: uv0 from channel 0 (zero when absent), uv1 from channel 1 or per SecondUv.

#include "libmod/core/bytes.hpp"
#include "libmod/scene/model.hpp"

#include <array>
#include <filesystem>
#include <string>
#include <string_view>

// Assimp's types, for the two-step entry points at the end (only their users include Assimp).
struct aiScene;
namespace Assimp {
class Importer;
}

namespace mod::scene {

// A signed axis permutation: out[i] = sign[i] * in[axis[i]]. Proper rotations and reflections
// only (each input axis used once).
struct AxisMap {
    std::array<std::uint8_t, 3> axis{0, 1, 2};
    std::array<std::int8_t, 3> sign{1, 1, 1};

    bool is_identity() const noexcept;
    int determinant() const noexcept;  // +1 rotation, -1 reflection
    Mat4 matrix() const noexcept;
    AxisMap inverse() const noexcept;
    std::string to_string() const;  // "x,z,-y"

    friend bool operator==(const AxisMap&, const AxisMap&) = default;
};

// Parses "x,z,-y" (what source axis each output axis takes, with an optional sign; commas or
// spaces optional: "+x+z-y" also works) or a preset: "identity", "zup-to-yup" (= "x,z,-y"),
// "yup-to-zup" (= "x,-z,y"). Throws mod::Error (usage) with the accepted forms otherwise.
AxisMap parse_axis_map(std::string_view text);

// The default honours the file's declared unit (issue 29: Blender's default FBX, written in
// centimetres with UnitScaleFactor 1, comes out the right size with no option).
enum class Units {
    file,    // keep the file's own numbers (after baking node transforms)
    metres,  // multiply by Scene::file_unit_metres (1 when the file declares no unit; glTF is metres)
};

enum class SecondUv {
    copy_first,  // uv1 = uv0 when the file has one UV set
    zero,        // uv1 = (0, 0) when the file has one UV set
};

struct ImportOptions {
    Units units = Units::metres;
    float scale = 1.0f;   // extra uniform factor applied after `units`
    AxisMap axes;         // applied after baking node transforms (and before scale)
    SecondUv second_uv = SecondUv::copy_first;
    // A mesh without any bone (rigid) is imported with empty influences when true; when false
    // the import fails (format) naming the mesh, since a skinned target needs weights.
    bool allow_unskinned = true;
    std::uint64_t max_input_bytes = 512ull << 20;  // larger files are refused (kind limit)
    // Fill Scene::material_info (import_materials.cpp): per material the base-colour factor, the
    // unlit flag and the base-colour (or diffuse) texture decoded to RGBA with its U/V wrap modes:
    // embedded ("*N" or by name) or a file beside the source. PNG or JPEG (what glTF allows):
    // another format or an image the reader refuses is a format error naming the image; a file that does not exist
    // is a Scene::warnings line (the base colour stands in). Off by
    // default (the SHRED and TotemTech imports do not use textures).
    bool read_textures = false;

    // Containment (doc/formats/scene-import.md, "Contained import"): import_file and
    // import_memory run Assimp and the conversion in a child process (fork, no exec) that sends
    // the Scene back in the bounds-checked wire format (scene_wire.hpp). A child that crashes,
    // runs longer than contained_timeout_ms, needs more than contained_memory_bytes of address
    // space beyond what this process already maps, or sends more than contained_output_bytes
    // becomes one mod::Error (format, naming the file: "the FBX importer failed on this file
    // (crashed with signal 11)"); errors the import throws in the child come back as they were.
    // false imports in this process (tests, benchmarks; Assimp's crashes are then ours).
    // The memory limit is not applied in AddressSanitizer builds (its shadow memory needs the
    // address space).
    bool contained = true;
    std::uint32_t contained_timeout_ms = 120'000;
    std::uint64_t contained_memory_bytes = 4ull << 30;
    std::uint64_t contained_output_bytes = 1ull << 30;
    // Tests only: called in the child before the import (to crash or hang it on purpose).
    void (*contained_child_hook)() = nullptr;
};

// Reads `path` (format chosen by Assimp from content and extension). Throws mod::Error with
// the file name: io when unreadable, limit when larger than max_input_bytes, format when
// Assimp rejects the file or the scene is unusable (no mesh, duplicate bone names, a bone not
// found in the node tree, non-finite data).
Scene import_file(const std::filesystem::path& path, const ImportOptions& options = {});

// The same from memory; `name` names the data in errors and its extension ("x.fbx") is
// Assimp's format hint.
Scene import_memory(ByteView data, std::string_view name, const ImportOptions& options = {});

// The two steps of import_file / import_memory, for callers that hold the Assimp scene
// themselves (the benchmark times them apart; the fuzz target and hostile-scene tests drive
// step 2 directly).
//
// Step 1: configures `importer` exactly as import_file does and reads the file (or the data)
// with the same flags. The scene belongs to `importer` and lives until it reads again or is
// destroyed. Throws what import_file / import_memory throw before conversion (io, limit, and
// format with Assimp's message when it refuses the input).
const aiScene& read_with_assimp(Assimp::Importer& importer, const std::filesystem::path& path,
                                const ImportOptions& options = {});
const aiScene& read_with_assimp(Assimp::Importer& importer, ByteView data, std::string_view name,
                                const ImportOptions& options = {});

// Step 2: steps 2-6 of the header comment on a scene Assimp produced (or one built by hand).
// `name` names the source in errors; its extension selects the format's unit conventions.
// The scene is not trusted: a missing root, null arrays or entries, a node reached twice
// (cycle or shared subtree), node mesh indices out of range, bones naming no node or vertices
// out of range, faces with out-of-range indices, a material index beyond the materials and
// positions that are (or become, after transform and conversion) non-finite are format
// errors naming the file, never a crash. Metadata of the wrong type is ignored; meshes
// without a triangle face are skipped; weights are kept as stored (process_weights refuses
// non-finite or negative ones).
Scene convert_assimp_scene(const aiScene& scene, std::string_view name, const ImportOptions& options = {});

}  // namespace mod::scene
