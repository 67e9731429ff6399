#pragma once
// A bone-map template (the text read_bone_map reads) for a source skeleton and a target
// skeleton, for `modkit shred bones` (issue 16). Source and target names are compared
// case-insensitively after removing what producers put in front of bone names: everything up
// to the last ':' or '|' ("mixamorig:", "Armature|"), then one of the common rig prefixes
// ("Bip01 ", "Bip001 ", "DEF-", "ORG-", "b_", "bn_", "bone_", "jnt_"), then spaces, '_', '-'
// and '.'. A source bone maps when exactly one target normalises like it.

#include "libmod/scene/model.hpp"

#include <string>
#include <vector>

namespace mod::scene {

struct BoneUsage {
    std::string name;
    double total_weight = 0;      // sum of the bone's raw weights over every mesh vertex
    std::size_t vertices = 0;     // vertices with a non-zero weight on it
};

// Per skeleton bone, in skeleton order, from the meshes' raw influences.
std::vector<BoneUsage> bone_usage(const Scene& scene);

// The comparison key of a bone name (see above).
std::string normalised_bone_name(std::string_view name);

struct BoneSuggestion {
    std::string source;
    std::string target;       // empty when no target (or more than one) normalises alike
    bool same_name = false;   // the target has the source's exact name (needs no line)
    bool by_strip = false;    // covered by one of strip_prefixes
    std::size_t candidates = 0;
    bool by_shape = false;       // target chosen by suggest_by_shape (bone_shape.hpp), not by name
    double shape_distance = 0;   // its distance, as a fraction of the skeleton's size
};

struct BoneMapTemplate {
    std::vector<std::string> strip_prefixes;  // "mixamorig:" when it maps ≥ 2 bones exactly
    std::vector<BoneSuggestion> bones;        // source order
    std::string text;                         // the file: strip lines, pairs, unmatched as comments
};

BoneMapTemplate suggest_bone_map(const std::vector<BoneUsage>& source, const std::vector<std::string>& target);

// The template's text for `t` (what suggest_bone_map puts in t.text; call it again after
// changing t.bones): strip lines, then one line per source bone that needs one — "a = b",
// "a = b" after a "# by shape (…), check:" line, or "# a = ?    # …" with its weight.
std::string bone_map_text(const BoneMapTemplate& t, const std::vector<BoneUsage>& source);

}  // namespace mod::scene
