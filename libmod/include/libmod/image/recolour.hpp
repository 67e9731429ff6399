#pragma once
// Palette recolouring on RGBA5551 palettes: set chosen slots to colours, or shift hue,
// saturation and value of chosen slots, never touching locked slots. Every change is reported
// with the colour asked for, the colour the 5-bit lattice gives, and the ΔE between them.

#include "libmod/image/colour.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace mod::image {

struct SlotChange {
    unsigned slot = 0;
    std::uint16_t before = 0, after = 0;  // RGBA5551
    Rgba8 requested;                      // what was asked for (8 bits per channel)
    Rgba8 result;                         // from_rgba5551(after)
    double rounding_delta_e = 0;          // ΔE(requested, result): the lattice's rounding
    bool rounded() const noexcept { return !(requested == result); }
};

struct SlotColour {
    unsigned slot = 0;
    Rgba8 colour;
};

// Sets each slot to the nearest RGBA5551 colour (alpha bit = a >= 128). Usage error for a slot
// outside the palette or listed twice, conflict error for a locked slot; nothing changes
// unless every request is valid. Returns one change per request, in request order.
std::vector<SlotChange> set_slots(std::vector<std::uint16_t>& palette, std::span<const SlotColour> requests,
                                  std::span<const unsigned> locked = {});

struct HsvShift {
    double hue_degrees = 0;  // added to the hue (wraps)
    double saturation = 1;   // multiplies the saturation (clamped to [0, 1])
    double value = 1;        // multiplies the value (clamped to [0, 1])
};

// Applies the shift to `slots` (every slot when empty) except locked ones; transparent
// entries (alpha bit 0) keep their alpha bit. Usage error for a slot outside the palette.
// Returns a change per slot processed, in ascending slot order (after may equal before).
std::vector<SlotChange> hsv_shift(std::vector<std::uint16_t>& palette, const HsvShift& shift,
                                  std::span<const unsigned> slots = {}, std::span<const unsigned> locked = {});

}  // namespace mod::image
