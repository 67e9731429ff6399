#pragma once
// The sample forge's animation cases (stadium_animations.cpp), called from stadium.cpp.
// Spec of what is written: doc/formats/stadium-sample.md ("Animations", "Battle tables").

#include "libmod/core/bytes.hpp"
#include "libmod/stadium/builder.hpp"

#include <cstdint>
#include <vector>

namespace mod::sample {

// The 0x1D channel byte of bone `bone` of model `index` (of `bones` bones): never the bone's
// own index, and 0xFF (no track) for the last bone of models with three or more bones.
std::uint8_t sample_bone_channel(std::size_t index, int bones, int bone);
// Whether model `index` has texture (aux) animations (every third model).
bool sample_has_aux(std::size_t index);
// The 0x23 texture-animation channel of the material drawn by bone `bone` (-1 none): on
// models with aux animations bones 0 and 1 take aux channels 0 and 1.
std::int16_t sample_material_channel(std::size_t index, int bone);

// Adds the model's skeletal and aux animations (see the doc): packed 12- and 16-bit
// translations, constants, streams, count-0 descriptors, Hermite narrow and wide keys, hold and
// loop flags; aux animations with several channels drawing `textures` (texture indices).
void add_sample_animations(stadium::ModelBuilder& m, std::size_t index, int bones,
                           const std::vector<std::int16_t>& textures);

// Skeletal and aux animation counts of model `index`.
std::size_t sample_skeletal_count(std::size_t index);
std::size_t sample_aux_count(std::size_t index);

// Writes the sample battle tables into a z64 image: the pointer table at 0x767D0 (word i =
// i * 0xB90 for each sample model i, word 152 = 14 * 0xB90, the others zero) and a block of 165
// 16-byte rows for each of those words at 0x70D3A0 + word. Call before the CRCs (the pointer
// table is in the checksummed megabyte).
void write_sample_battle_tables(Bytes& rom);

}  // namespace mod::sample
