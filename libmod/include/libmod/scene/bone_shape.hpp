#pragma once
// Bone-map suggestions by skeleton shape, for sources whose bone names share nothing with the
// target's (issue 29 item 4): a source bone that carries weight and found no target by name
// takes the target bone whose bind-pose head is nearest, once both skeletons are brought to one
// frame. Suggestions, marked as such in the template for the user to check (bone_suggest.hpp).
//
// The frame: each skeleton's bone heads (the translation of Bone::bind) are centred on their
// per-axis median and divided by their median distance from it (the skeleton's "size" below),
// so units and placement do not matter and a few far bones (IK targets, props) change nothing. Three
// orientations of the source are tried — as it is, Z-up read as Y-up (x, z, −y) and Y-up read as
// Z-up (x, −z, y); none mirrors x, so left stays left — and the one is kept whose name-matched
// pairs lie closest (with no name match: whose weighted bones lie closest to target heads). A
// bone then takes the nearest target head, ties broken by the smaller difference in hierarchy
// depth, then by target order; a nearest head farther than `max_distance` (a fraction of the
// size) leaves the bone unmatched. Several source bones may take one target (a source with more
// bones than the target). Deterministic: depends only on the two skeletons and the usage.
// Hypothesis, not a fact: bones at the same place play the same part. Proportions differ
// between rigs (a Mixamo arm is not a game's), so every suggestion is a line to check.

#include "libmod/scene/bone_suggest.hpp"
#include "libmod/scene/model.hpp"

#include <optional>
#include <utility>

namespace mod::scene {

inline constexpr double shape_match_max_distance = 0.25;

struct ShapeReport {
    std::size_t matched = 0;   // source bones given a target by shape
    std::size_t too_far = 0;   // weighted unmatched bones whose nearest head was beyond the limit
    std::string orientation;   // "as it is", "Z-up read as Y-up", "Y-up read as Z-up"
};

// Fills t.bones[i].target (by_shape, shape_distance) for every weighted source bone (usage[i],
// source.bones[i]) with an empty target, then rebuilds t.text. `target` is the skeleton whose
// bone names t was matched against. Does nothing (report all zero) when either skeleton has no
// bone or usage and t do not describe `source`'s bones.
ShapeReport suggest_by_shape(BoneMapTemplate& t, const std::vector<BoneUsage>& usage, const Skeleton& source,
                             const Skeleton& target, double max_distance = shape_match_max_distance);

// Per skeleton bone of `scene`, the weighted centroid of the vertices it moves (bind-pose
// positions, weight-averaged); nullopt for a bone that moves none.
std::vector<std::optional<Vec3>> bone_centroids(const Scene& scene);

// The same matching for a target with no skeleton (TotemTech vertex groups): each side's point
// is the weighted centroid of the vertices a bone / group moves (source: bone_centroids, one
// per usage entry; target: (group name, centroid)). Depth plays no part; everything else is as
// suggest_by_shape (frame, orientations, limit, template text).
ShapeReport suggest_by_centroids(BoneMapTemplate& t, const std::vector<BoneUsage>& usage,
                                 const std::vector<std::optional<Vec3>>& source,
                                 const std::vector<std::pair<std::string, Vec3>>& target,
                                 double max_distance = shape_match_max_distance);

}  // namespace mod::scene
