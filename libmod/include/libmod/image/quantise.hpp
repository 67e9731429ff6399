#pragma once
// Palette quantisation to RGBA5551 palettes (CI4/CI8 TLUTs). Spec: doc/formats/n64-texels.md
// ("Quantisation").
//
// Algorithm: the opaque colours of every input image form one weighted histogram (shared
// quantisation = several images, one palette). Median cut in Oklab seeds the free slots;
// k-means in Oklab refines them, with locked slots acting as fixed centroids (texels may use
// them, the quantiser never changes them). A second candidate moves each cluster to its weighted
// geometric median (where that serves it better once snapped); it replaces the k-means palette
// only when its count-weighted CIEDE2000 over the images' colours is lower, so the result is
// never worse than k-means alone by that measure. Centroids are then snapped to the RGBA5551 lattice;
// centroids that collapse onto another entry are dropped (their slot stays free) and every
// texel is re-assigned to the nearest final entry. Texels with alpha below the threshold all
// use one transparent slot (a locked entry with alpha bit 0, or one reserved slot written as
// 0x0000). When the distinct lattice colours fit the free slots, the palette is exact.
//
// Deterministic: same images and options give the same palette and indices for any thread
// count (fixed work chunks, results combined in chunk order, ties broken by lowest index).

#include "libmod/image/image.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace mod::image {

struct LockedSlot {
    unsigned index = 0;
    std::uint16_t colour = 0;  // RGBA5551
};

struct QuantiseOptions {
    unsigned palette_size = 256;      // 2..256 (16 for CI4)
    std::vector<LockedSlot> locked;   // fixed entries
    // Values of slots the result does not use (palette_size entries, or empty for 0x0000):
    // lets a constrained re-quantisation keep the rest of an existing palette.
    std::vector<std::uint16_t> base;
    // Slot reserved for transparent texels when the images have some and no locked slot is
    // transparent; -1 picks the lowest slot that is not locked.
    int transparent_slot = -1;
    std::uint8_t alpha_threshold = 128;  // alpha below this is transparent
    unsigned max_iterations = 16;        // k-means rounds (stops early when stable)
    unsigned threads = 0;                // 0 = all cores; never changes the result
};

struct ImageReport {
    double mean_delta_e = 0;  // over opaque texels (ΔE: Oklab distance × 100, colour.hpp)
    double max_delta_e = 0;
    std::uint64_t opaque_texels = 0;
    std::uint64_t transparent_texels = 0;
};

struct QuantiseResult {
    std::vector<std::uint16_t> palette;  // palette_size RGBA5551 entries
    std::vector<Bytes> indices;          // per image, one index per pixel
    std::vector<ImageReport> reports;    // per image
    std::optional<unsigned> transparent_slot;
    std::vector<unsigned> written_slots;  // slots the quantiser set (not locked, not base), ascending
    unsigned distinct_colours = 0;        // distinct opaque input colours
    unsigned collapsed = 0;               // centroids dropped after snapping to RGBA5551
    bool exact = false;                   // every opaque colour's lattice point got its own entry
};

// Quantises `images` (each checked; at least one) into one palette. Usage error for bad
// options (palette size, locked index out of range or repeated, base of the wrong size);
// conflict error when no slot is left for transparent texels.
QuantiseResult quantise(std::span<const RgbaImage> images, const QuantiseOptions& options = {});

struct RemapOptions {
    std::uint8_t alpha_threshold = 128;
    // Slots the remap may use (empty = all). Transparent texels use the lowest usable entry
    // whose alpha bit is 0; opaque texels the nearest (Oklab) usable opaque entry.
    std::vector<unsigned> usable;
    unsigned threads = 0;
};

struct RemapResult {
    std::vector<Bytes> indices;
    std::vector<ImageReport> reports;
};

// Maps images onto an existing RGBA5551 palette ("reindex"). Conflict error when an image has
// transparent texels and no usable transparent entry, or opaque texels and no opaque entry.
RemapResult remap(std::span<const RgbaImage> images, std::span<const std::uint16_t> palette,
                  const RemapOptions& options = {});

}  // namespace mod::image
