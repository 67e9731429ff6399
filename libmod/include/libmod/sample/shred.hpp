#pragma once
// The SHRED sample forge: deterministic synthetic PAKs built from the documented facts and our
// hypotheses (shred-quartet/1, RIDE PAK layout), and the disc-scale synthetic set the
// benchmark uses. Same call, same bytes.

#include "libmod/core/bytes.hpp"
#include "libmod/shred/mesh.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

namespace mod::sample {

// A character PAK: two character quartets (skeletons of 120 and 96 named bones, LeftLeg=82,
// LeftLegRoll=83, LeftFoot=84 in the first) with several meshes, one of which ("shoes")
// begins with the batch 83,84,82,255 ("STR\xFF", first vertex weights 139,113,3,0) followed by
// a batch 89,90,88 ("YZX"), and one of which has NaN normals.
Bytes shred_character_pak();
// A layer PAK: male and female crowd-outfit quartets with 40-bone skeletons.
Bytes shred_layer_pak();
// Writes DIR/char_sample.pak and DIR/layer_sample.pak; returns their paths.
std::vector<std::filesystem::path> write_shred_sample(const std::filesystem::path& dir);

// The seed's disc-wide figures.
struct ShredDiscFigures {
    std::uint32_t meshes = 3412;
    std::array<std::uint32_t, 5> batches_by_influence{0, 31471, 69931, 94313, 116120};
    std::uint64_t vertices = 3302877;
};
// Calls `sink(index, mesh, bone_count)` for each of the figures' meshes, in order. Each mesh,
// preprocessed with the weight-desc rule, gives exactly its planned batches, so the set as a
// whole has exactly the figures' batch and vertex counts (tested on a scaled-down set).
void generate_shred_disc_set(const std::function<void(std::size_t, const shred::SkinnedMesh&, std::uint32_t)>& sink,
                             const ShredDiscFigures& figures = {});

}  // namespace mod::sample
