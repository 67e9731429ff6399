#pragma once
// The SHRED preprocessor: turns a neutral SkinnedMesh into a skinning stream (palette batches)
// plus the triangle indices renumbered to the new vertex order, as the game's loader does for
// an unprocessed mesh. Spec and evidence: doc/formats/shred-stream.md ("Ordering rule").
//
// THE ORDERING RULE (OrderingRule::weight_desc, our reference hypothesis):
//   1. per vertex, influences are merged by bone and quantised to bytes summing to exactly 255
//      (quantise_weights below);
//   2. the influences are ordered by byte weight descending, ties by bone id ascending; the
//      palette is those bones padded with 255; influence count = number of influences;
//   3. vertices are STABLY sorted by (influence count ascending, palette lexicographic);
//   4. maximal runs of equal palette form a batch, split every 65,535 vertices;
//   5. triangle indices are renumbered to the sorted order.
// Evidence: the seed's sample mesh begins with palette 83,84,82 (weights 139,113,3: weight
// order, not bone order) followed by palette 89,90,88 (lexicographically greater).
// Variants behind the same interface (for `modkit shred conformance`):
//   count_desc  - as weight_desc but influence count DEScending in step 3;
//   bone_sorted - as weight_desc but the palette (and weights) ordered by bone id ascending.
//
// Properties (tested): deterministic; idempotent (preprocess(mesh_from_stream(s)) == s for a
// stream s it produced, same rule and templates); a mesh already in rule order is not moved.

#include "libmod/shred/mesh.hpp"
#include "libmod/shred/stream.hpp"

#include <array>
#include <span>
#include <string_view>
#include <vector>

namespace mod::shred {

enum class OrderingRule { weight_desc, count_desc, bone_sorted };
inline constexpr std::array<OrderingRule, 3> all_ordering_rules = {
    OrderingRule::weight_desc, OrderingRule::count_desc, OrderingRule::bone_sorted};
const char* to_string(OrderingRule rule) noexcept;  // "weight-desc", "count-desc", "bone-sorted"
OrderingRule parse_ordering_rule(std::string_view name);  // usage error when unknown

// Largest-remainder quantisation of one vertex's weights to bytes summing to exactly 255:
// x_i = w_i / sum(w) * 255; each gets floor(x_i + 1e-4) (the epsilon makes k/255 inputs exact);
// the units still missing go one each to the largest remainders x_i - floor, ties to the
// lower bone id, then the lower input slot. Output slot i belongs to input i. Throws
// mod::Error (format) on a negative or non-finite weight or a zero sum.
std::array<std::uint8_t, 4> quantise_weights(std::span<const Influence> influences);

struct PreprocessOptions {
    OrderingRule rule = OrderingRule::weight_desc;
    // Raw words written where the seed proves nothing: the envelope after its first word and
    // the terminal header. Conformance passes the stored stream's own records.
    Record envelope = default_envelope();
    BatchHeader terminal = default_terminal();
    // When set, bones must be below it (usage of the quartet skeleton).
    std::optional<std::uint32_t> bone_count;
};

struct PreprocessResult {
    Stream stream;
    // order[new_index] = index of that vertex in the input mesh.
    std::vector<std::uint32_t> order;
    // The input triangles with indices renumbered to the stream's vertex order.
    std::vector<std::array<std::uint32_t, 3>> triangles;
};

// Throws mod::Error (format, path "mesh.vertex[i]" / "mesh.triangle[i]") on a vertex with
// 0 or more than 4 influences, a bone of 255 or more (or >= bone_count), a bad weight, a
// triangle index out of range, or non-finite positions/UVs/tangents (the stream invariants).
PreprocessResult preprocess(const SkinnedMesh& mesh, const PreprocessOptions& options = {});

// The neutral mesh of a decoded stream, vertices in stored order: influences are the active
// palette slots (bone, weight / 255), extra/trailing copied, no triangles. Exact: preprocessing
// it with the rule that made the stream gives the same bytes.
SkinnedMesh mesh_from_stream(const Stream& stream);

// For each rule of all_ordering_rules: does re-running it on the decoded vertices (with the
// stream's own envelope and terminal records) reproduce the stream's bytes exactly?
struct ConformanceResult {
    std::array<bool, all_ordering_rules.size()> reproduces{};
    // First differing byte offset (in the stream) for each rule, when it does not reproduce.
    std::array<std::uint64_t, all_ordering_rules.size()> first_difference{};
};
ConformanceResult check_conformance(const Stream& stream);

}  // namespace mod::shred
