#pragma once
// mod::shred::SkinnedMesh — the neutral skinned mesh the SHRED preprocessor consumes and the
// quartet replacement takes. It is deliberately plain: one struct per vertex, no game layout.
//
// How to fill it (e.g. from an Assimp/scene import):
//  * position, normal, tangent: bind-space floats as the game stores them (the SHRED stream
//    keeps their IEEE bits exactly; no arithmetic is done on them). The game's basis is not
//    established: convert axes before filling if your source uses another one.
//  * tangent_sign: +1 or -1 (bitangent handedness; the seed calls the field "inferred").
//  * uv0, uv1: floats written as IEEE half floats (round to nearest even). Every half value
//    round-trips exactly through float, so a mesh made by mesh_from_stream() re-encodes to the
//    same half bits.
//  * influences[0 .. influence_count): 1 to 4 (bone, weight) pairs. `bone` indexes the
//    quartet's SCP skeleton (0..254; 255 means "unused slot" in the stream, so it is refused
//    as a bone). Weights are any non-negative finite floats; the preprocessor normalises them
//    and quantises to bytes summing to exactly 255 (largest remainder, deterministic; see
//    preprocess.hpp). Weights that are exact multiples of 1/255 (e.g. bytes / 255.0f, as the
//    scene layer's SkinWeights give) come back as exactly those bytes. Two pairs naming the
//    same bone are merged (summed). List only influences you mean: a zero-weight pair still
//    occupies a palette slot.
//  * extra, trailing: the stream's unknown per-vertex words (0 and zeros in all stock data),
//    copied verbatim by the preprocessor. Leave them zero for new meshes.
//  * triangles: vertex indices (counter-clockwise as the source gives them; the preprocessor
//    only renumbers them).

#include <array>
#include <cstdint>
#include <vector>

namespace mod::shred {

struct Influence {
    std::uint32_t bone = 0;  // skeleton bone index, 0..254
    float weight = 0;        // relative weight, >= 0
};

struct SkinnedVertex {
    std::array<float, 3> position{};
    std::array<float, 3> normal{};
    std::array<float, 3> tangent{};
    float tangent_sign = 1.0f;
    std::array<float, 2> uv0{};
    std::array<float, 2> uv1{};
    std::array<Influence, 4> influences{};
    std::uint8_t influence_count = 0;  // 1..4 used entries of `influences`
    std::uint32_t extra = 0;                 // unknown word at +0x1C, kept verbatim
    std::array<std::uint8_t, 8> trailing{};  // unknown bytes at +0x38, kept verbatim
};

struct SkinnedMesh {
    std::vector<SkinnedVertex> vertices;
    std::vector<std::array<std::uint32_t, 3>> triangles;
};

}  // namespace mod::shred
