#pragma once
// A model from elsewhere for the tutorials and tests (`modkit sample DIR` writes it to
// DIR/models/): `fox.glb`, a standing fox-like figure 1.2 units tall on +Y, named like nothing
// in any game (mesh "fox_body", material "fox_fur" with its own 32x32 texture, bones
// "fox_hips" -> "fox_chest" -> "fox_head" with blended weights). Deterministic; synthetic.

#include "libmod/scene/model.hpp"

#include <filesystem>
#include <vector>

namespace mod::sample {

inline constexpr const char* fox_mesh_name = "fox_body";
inline constexpr const char* fox_material_name = "fox_fur";
inline constexpr const char* fox_bone_names[3] = {"fox_hips", "fox_chest", "fox_head"};

// The fox as a scene (what fox.glb holds).
scene::Scene foreign_fox();

// Writes DIR/fox.glb; returns its path.
std::vector<std::filesystem::path> write_foreign_models(const std::filesystem::path& dir);

}  // namespace mod::sample
