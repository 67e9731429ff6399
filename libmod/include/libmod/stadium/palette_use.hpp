#pragma once
// What each palette of a model colours: the materials and textures drawn through it, how many
// texels use each of its slots, and the hue most of those texels have. The figure that settles
// which palette colours which part of a Pokémon on a real dump (patches/README.md, issue 33),
// printed by `modkit apply --dry-run` for palette edits. Spec: doc/formats/stadium-model.md.

#include "libmod/stadium/model.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mod::stadium {

struct PaletteUse {
    std::size_t palette = 0;
    std::uint32_t color_count = 0;
    std::vector<std::size_t> materials;         // materials whose palette this is
    std::vector<std::size_t> textures;          // CI textures those materials draw (ascending, once each)
    std::vector<std::uint64_t> texels_per_slot; // color_count counts: texels of those textures per slot
    std::uint64_t texels = 0;                   // sum of texels_per_slot
    // Hue of the colours weighted by texel count, in 12 bins of 30° (0: 345..15° red, 2: 45..75°
    // yellow, 4: 105..135° green, 8: 225..255° blue, …); grey slots (saturation < 0.15) and
    // transparent ones go to `grey_texels`.
    std::array<std::uint64_t, 12> hue_texels{};
    std::uint64_t grey_texels = 0;
    std::vector<std::string> notes;  // textures that could not be counted, and why
};

// One entry per palette of `model`, in palette order. A CI4 texture counts the slots of its
// material's render-tile bank; indices past the palette are not counted (noted).
std::vector<PaletteUse> palette_use(const Model& model);

// "red", "orange", "yellow", … for a hue bin of PaletteUse::hue_texels.
const char* hue_bin_name(std::size_t bin) noexcept;

// One line: "palette P (N colours, FORMAT): materials …, textures …; T texels, most of them
// HUE (x %)", or "colours no texture" when no material draws through it.
std::string palette_use_text(const PaletteUse& use);

}  // namespace mod::stadium
