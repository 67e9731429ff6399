#pragma once
// Our own skin-weight processing (never Assimp's LimitBoneWeights, which deletes bones and
// renormalises only the vertices it trimmed): per vertex
//   1. merge entries naming the same bone (sum), reject negative / non-finite weights,
//      ignore zero weights;
//   2. keep the `max_influences` largest (ties: lower bone index first);
//   3. renormalise what is kept (every vertex, trimmed or not);
//   4. quantise to bytes summing to exactly 255 by largest remainder: floor(w * 255) each,
//      then the missing units go to the largest fractional parts (ties: earlier slot of step
//      2's order first);
//   5. drop slots that quantised to zero; order the rest by weight descending, then bone
//      index ascending.
// Deterministic: the result depends only on the input values.

#include "libmod/scene/model.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace mod::scene {

inline constexpr std::size_t max_skin_influences = 4;

struct WeightOptions {
    std::size_t max_influences = max_skin_influences;  // 1..4
    // When false (default) a vertex with no positive weight is an error (format) naming the
    // mesh and vertex; when true it gets count 0.
    bool allow_unweighted = false;
};

// Steps 1-5 for one vertex. `where` names the vertex in errors ("mesh 'Body' vertex 12").
SkinWeights quantise_influences(std::span<const Influence> influences, const WeightOptions& options = {},
                                std::string_view where = {});

struct WeightReport {
    // histogram[n]: vertices left with n influences after processing (n = 0..4).
    std::array<std::size_t, 5> histogram{};
    // source_histogram[n]: vertices with n positive source influences (n >= 8 counted in [8]).
    std::array<std::size_t, 9> source_histogram{};
    std::size_t trimmed_vertices = 0;       // had more than max_influences positive weights
    std::size_t renormalised_vertices = 0;  // positive weight sum not within 1e-6 of 1
    std::size_t dropped_by_rounding = 0;    // slots kept by step 2 that quantised to zero
};

// Fills mesh.skin from mesh.influences for every vertex and adds to `report` when given.
// When it throws, mesh.skin is unchanged and `report` is unspecified.
void process_weights(Mesh& mesh, const WeightOptions& options = {}, WeightReport* report = nullptr);

// process_weights on every mesh of the scene.
WeightReport process_weights(Scene& scene, const WeightOptions& options = {});

}  // namespace mod::scene
