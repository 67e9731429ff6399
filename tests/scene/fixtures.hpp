#pragma once
// Skinned test fixtures for the scene tests, built as Assimp scenes and written with Assimp's
// ASCII FBX exporter ("fbxa"; the binary writer of Assimp 5.2.5 is broken) or its glTF writer.
// Every expected value is computed from the FixtureSpec, independently of the importer.

#include "libmod/scene/model.hpp"

#include <filesystem>
#include <string>
#include <vector>

struct aiNode;

namespace scenetest {

// Appends `child` to `parent`'s children (Assimp owns them through the parent) and sets its
// parent pointer.
void add_child(aiNode* parent, aiNode* child);

struct FixtureSpec {
    int rings = 6;            // vertex rings along the cylinder
    int segments = 8;         // vertices per ring
    int bones = 7;            // chain "Bone0" .. "Bone<n-1>"
    int max_influences = 6;   // vertex k gets 1 + k % max_influences influences
    float weight_scale = 0.8f;   // raw weights are (n - j) * scale / n: deliberately not normalised
    bool unmapped_bone = false;  // adds bone "Extra" (child of Bone0) weighting every 5th vertex by 0.1
    bool idle_bone = true;       // adds bone "Idle" (leaf of the chain) that weights nothing
    bool blender_transform = true;  // Armature and mesh nodes carry x100 scale and -90 deg about X
    bool second_uv = false;
};

// One vertex of the fixture as the file stores it (mesh-local), with its expected influences.
struct FixtureVertex {
    mod::scene::Vec3 position;
    mod::scene::Vec2 uv0, uv1;
    std::vector<std::pair<std::string, float>> influences;  // bone name, raw weight
};

struct Fixture {
    std::vector<FixtureVertex> vertices;
    std::vector<std::array<unsigned, 3>> triangles;
    mod::scene::Mat4 mesh_transform;  // node transform of the mesh (model space = this * local)
    std::vector<std::string> bone_names;  // every joint node, pre-order
};

Fixture make_fixture(const FixtureSpec& spec);

// Writes the fixture with Assimp's exporter: format "fbxa", "glb2" or "gltf2".
void write_fixture(const Fixture& fixture, const FixtureSpec& spec, const std::filesystem::path& path,
                   const std::string& format = "fbxa");

// The vertex of `fixture` whose model-space position (mesh_transform * position) is nearest to
// `p`, with the distance.
std::pair<std::size_t, float> nearest_vertex(const Fixture& fixture, const mod::scene::Vec3& p);

}  // namespace scenetest
