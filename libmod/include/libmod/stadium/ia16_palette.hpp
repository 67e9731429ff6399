#pragma once
// Palette quantisation for CI textures whose TLUT is IA16 (iiiiiiii aaaaaaaa: 8-bit intensity,
// 8-bit alpha), the grey+alpha counterpart of image::quantise / image::remap (which target
// RGBA5551). Spec: doc/formats/stadium-model.md ("IA16 palettes").
//
// It lives in the stadium layer because only Stadium's texture replacement uses it; the image
// layer's quantiser is RGBA5551-only.
//
// Texels become (intensity, alpha) pairs: intensity by n64::intensity (r when grey, else the
// Rec. 601 weights), alpha as stored. Texels with alpha 0 are transparent: they all use one
// transparent entry (a locked entry with alpha 0, else one reserved slot written as 0x0000).
// The rest are clustered in a perceptual plane: x = Oklab lightness of the grey × 100, y =
// alpha × 100 / 255. When the distinct pairs fit the free slots the palette is exact; otherwise
// weighted median cut seeds the free slots and weighted k-means refines them (locked entries
// act as fixed centroids). Centroids snap to IA16 (nearest intensity by lightness, nearest
// alpha byte); heaviest first, a centroid landing on an entry already present is dropped (its
// slot keeps its base value). Every texel is then mapped to the nearest final entry (ties to
// the lowest slot). Deterministic and single-threaded (the histogram holds at most 65536
// pairs).
//
// Reports: per image, ΔE (Oklab × 100, image/colour.hpp) between each texel with alpha >= 128
// and the grey it now draws (alpha is not part of ΔE; the texel counts split at 128 as for
// RGBA5551 palettes).

#include "libmod/image/quantise.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace mod::stadium {

// image::QuantiseOptions with IA16 values: LockedSlot::colour and base hold IA16 entries;
// transparent_slot, max_iterations and palette_size as there (alpha_threshold and threads are
// not used: transparency is alpha 0, and the work is single-threaded).
// Result: image::QuantiseResult with IA16 entries in `palette`; `exact` when every distinct
// (intensity, alpha) pair got its own entry. Errors as image::quantise (usage for bad options,
// conflict when no slot is left for transparent texels).
image::QuantiseResult quantise_ia16(std::span<const image::RgbaImage> images, const image::QuantiseOptions& options = {});

// Maps images onto an existing IA16 palette (the reindex mode): transparent texels (alpha 0)
// to the lowest usable entry with alpha 0, the others to the nearest usable entry with alpha >
// 0 in the plane above. Conflict error when a needed kind of entry is missing.
image::RemapResult remap_ia16(std::span<const image::RgbaImage> images, std::span<const std::uint16_t> palette,
                              const image::RemapOptions& options = {});

}  // namespace mod::stadium
