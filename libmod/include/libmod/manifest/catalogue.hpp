#pragma once
// `modkit manifest new`: a starter manifest for some base files, with a `_catalogue` that lists
// what can be edited in them (Stadium models with their textures and palettes, SHRED quartets
// and meshes, TotemTech SKINs and MESHes) and an example edit of each kind, so a new user never
// has to guess ids.

#include <filesystem>
#include <span>
#include <string>

namespace mod::manifest {

// The manifest text (valid against the schema, no edits yet). `inputs` must lie inside the
// folder of `manifest_path` (paths in a manifest may not leave its folder): usage error
// otherwise, and for an unknown game. Format errors of the inputs propagate.
std::string starter_manifest(const std::string& game, std::span<const std::filesystem::path> inputs,
                             const std::filesystem::path& manifest_path);

}  // namespace mod::manifest
