#pragma once
// Palette recolouring on a Pokémon model: set TLUT slots to colours, or shift hue/saturation/
// value of whole palettes or chosen slots, never touching locked slots. Spec:
// doc/formats/stadium-model.md ("Recolouring").
//
// Edits are in place (a palette keeps its colour count, address and TLUT DL), written into a
// FragmentImage that was made from the same fragment as `model`; the caller builds the image and
// repacks it (apply_model_edit). Because several materials may draw different textures through
// one palette, every report lists the textures the palette colours.

#include "libmod/image/recolour.hpp"
#include "libmod/stadium/fragment_image.hpp"
#include "libmod/stadium/model.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace mod::stadium {

struct PaletteEditReport {
    std::size_t palette = 0;
    std::vector<image::SlotChange> changes;  // per slot processed (see recolour.hpp)
    std::vector<std::size_t> textures;       // textures drawn with this palette (ascending)
    std::size_t rounded() const noexcept;    // changes the RGBA5551 lattice rounded
    double max_rounding_delta_e() const noexcept;
};

// Sets slots of palette `palette` (RGBA5551 rounding reported per slot). Usage error for an
// unknown palette or slot, for an IA16 palette (ModelPalette::format; set and hsv compute in
// RGBA5551 — texture replacement quantises IA16 palettes), conflict for a locked slot (see image::set_slots); nothing is
// written unless every request is valid.
PaletteEditReport set_palette_slots(const Model& model, FragmentImage& image, std::size_t palette,
                                    std::span<const image::SlotColour> requests,
                                    std::span<const unsigned> locked = {});

// Shifts hue/saturation/value of `slots` (all when empty) of palette `palette`, except locked
// ones; transparent entries keep their alpha bit. Usage error for an IA16 palette.
PaletteEditReport shift_palette_hsv(const Model& model, FragmentImage& image, std::size_t palette,
                                    const image::HsvShift& shift, std::span<const unsigned> slots = {},
                                    std::span<const unsigned> locked = {});

// ---- models inside a ROM -------------------------------------------------------------------

// Reads archive entry `index` as a model (format error naming `archive[index].fragment` when
// the entry is not a model FRAGMENT).
Model read_archive_model(const Archive& archive, std::size_t index);

// Checks the model's hard limits on an edited fragment (limit error): at most 255 textures and
// palettes, fewer than 32768 vertices, and the repacker's per-entry budgets (fragment size,
// decompressed size; the compressed budget is checked when repacking).
void check_model_limits(const Fragment& fragment, std::size_t index, const RuntimeLimits& limits = {});

// Replaces archive entry `index` with `fragment` (re-read as a model first, so a broken edit
// never reaches the ROM; the relocation cross-check must pass) and returns the whole ROM in
// the input's byte order.
Bytes apply_model_edit(const StadiumRom& rom, const Archive& archive, std::size_t index, const Fragment& fragment,
                       const RepackOptions& options = {});
// The same checks and repack without the image: the archive region with entry `index`
// replaced, for apply_archive (written into the ROM in place, no copy of the image) or
// write_archive (a new image, which apply_model_edit returns).
RepackResult repack_model_edit(const Archive& archive, std::size_t index, const Fragment& fragment,
                               const RepackOptions& options = {});
// The same repack written over `region` (repack_archive_into: no second region).
RepackResult repack_model_edit_into(const Archive& archive, std::size_t index, const Fragment& fragment,
                                    const RepackOptions& options, std::span<std::uint8_t> region);

}  // namespace mod::stadium
