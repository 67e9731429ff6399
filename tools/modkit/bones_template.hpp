#pragma once
// The body of every game's `bones` command (shred, totem, stadium; issue 29 item 4): a source's
// bones with their weight, matched against the target's names (scene/bone_suggest.hpp), printed
// (or as --json) and, with --out, written as a bone-map template for that game's replace.
#include "cli.hpp"

#include "libmod/scene/model.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace modkit {

struct BonesTarget {
    std::vector<std::string> names;       // what the source's bones may map onto (empty: none given)
    std::string what;                     // "the quartet's SCP bones", "the SKIN's vertex groups", …
    std::vector<std::filesystem::path> inputs;  // files read for the target (never overwritten)
    // The target's skeleton (bind poses), when it has one: source bones no name matches are then
    // suggested by shape (scene/bone_shape.hpp). TotemTech vertex groups have none.
    std::optional<mod::scene::Skeleton> skeleton;
    // Without a skeleton: each name's weighted vertex centroid, when the target has them
    // (TotemTech vertex groups): matched against the source bones' centroids.
    std::vector<std::pair<std::string, mod::scene::Vec3>> centroids;
};

// Imports `source`, prints the table (or JSON), writes the template to `out` when given (a
// usage error when there is no target to map onto). Returns the exit code.
int run_bones(const std::filesystem::path& source, const BonesTarget& target, const std::optional<std::filesystem::path>& out,
              const Global& g);

}  // namespace modkit
