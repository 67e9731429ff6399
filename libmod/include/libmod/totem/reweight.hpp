#pragma once
// skin.reweight: replace a SKIN's weights for one MESH with weights taken from another model
// whose vertex positions match the MESH's (matched by position within a tolerance).
// Spec: doc/formats/totem-skin.md ("Reweighting").
//
// What is kept: group ids, section order, subsection order and count, mesh ids, the animation
// block, zero/zero2, the unknown entries, and every entry of vertices that found no match.
// What is rewritten, for each subsection targeting the MESH: its vertex list (matched
// vertices get the source's weight for that group, ascending vertex id, zero weights omitted)
// and its normal list (a normal takes the weights of the position it is paired with in the
// strip corner lists; normals paired with no matched position keep their entries).
//
// Refused before anything is returned (mod::Error, kind format): a MESH none of whose
// positions matches the source (a wrong unit, scale or axis is the usual cause); a matched
// position none of whose source weights is in a group the SKIN can store for this MESH (it
// would be left unweighted); a group that had entries and would have none; a result with
// mismatches check_skin did not find in the input (what `totem verify` flags).
// A matched position's weights are normalised to sum 1 over the groups that are stored (a
// source sum within 1e-5 of 1 is kept as it is). A matched position whose new weights
// quantise (scene::quantise_influences, as every export does) to the same bytes as its stored
// weights keeps its stored entries untouched (ReweightReport::unchanged): reweighting from an
// unedited export is a no-op, byte for byte.

#include "libmod/totem/mesh.hpp"
#include "libmod/totem/skin.hpp"

#include <array>
#include <span>
#include <string>
#include <vector>

namespace mod::totem {

struct NamedWeight {
    std::string group;  // vertex group (bone) name, or "0x1A2B3C4D" for a bare hash
    float weight = 0;
};

// One vertex of the weight source, in the MESH's own coordinates.
struct WeightSourceVertex {
    std::array<float, 3> position{};
    std::vector<NamedWeight> weights;
};

struct ReweightOptions {
    float tolerance = 1e-4f;  // largest distance at which a source vertex matches a position
    // Appended to the "no position matched" error: how the caller's user fixes it (the CLI
    // names its options, a manifest its fields).
    std::string no_match_hint =
        "raise the tolerance, or bring the model to the MESH's unit and axes (units, scale, axis)";
};

// Below this fraction of matched positions a reweight is worth a warning (partial_match_warning).
inline constexpr double reweight_partial_match_warning = 0.9;

struct ReweightReport {
    std::size_t mesh_positions = 0;
    std::size_t matched = 0;
    std::vector<std::uint32_t> unmatched;        // MESH position ids with no source vertex in range
    std::size_t conflicting = 0;                 // positions whose in-range sources disagree (nearest used)
    std::vector<std::string> unknown_groups;     // source groups naming no section of the SKIN
    std::vector<std::string> groups_without_subsection;  // sections with weights but no subsection for the MESH
    std::size_t normals_rewritten = 0;
    std::size_t normals_kept = 0;
    std::size_t normalised = 0;                  // matched positions whose stored weights were rescaled to sum 1
    // Matched positions whose new weights export to the bytes their stored ones export to (one
    // scene::quantise_influences step apart, e.g. an unedited export read back): their stored
    // entries are kept as they are, so an unchanged round trip writes the SKIN it read.
    std::size_t unchanged = 0;
    std::vector<Finding> findings;               // check_skin's mismatches on the result (only ones the input had)
};

// "12 of 340 positions matched ..." when fewer than reweight_partial_match_warning of the
// MESH's positions matched, else empty.
std::string partial_match_warning(const ReweightReport& report);

// The group id a source name stands for: parse_id for "0x…" texts, else name_id(name).
std::int32_t group_id_of(std::string_view name);

// Rewrites `skin`'s lists for the MESH `mesh_id` (which must be one of skin.mesh_ids; usage
// error otherwise) from `source`. Throws format when a source weight is negative or not
// finite, and for every refusal listed at the top (paths "positions[i]", "groups[NAME]",
// or check_skin's). Deterministic: the result depends only on the inputs.
Skin reweight_skin(const Skin& skin, std::int32_t mesh_id, const Mesh& mesh,
                   std::span<const WeightSourceVertex> source, const ReweightOptions& options = {},
                   ReweightReport* report = nullptr);

}  // namespace mod::totem
