// Palette slot edits with RGBA5551 rounding reports.
#include "libmod/image/recolour.hpp"

#include "libmod/core/error.hpp"

#include <algorithm>
#include <string>

namespace mod::image {

namespace {

bool contains(std::span<const unsigned> list, unsigned v) { return std::find(list.begin(), list.end(), v) != list.end(); }

SlotChange change(unsigned slot, std::uint16_t before, Rgba8 requested) {
    SlotChange c;
    c.slot = slot;
    c.before = before;
    c.requested = requested;
    c.after = to_rgba5551(requested);
    c.result = from_rgba5551(c.after);
    c.rounding_delta_e = delta_e(requested, c.result);
    return c;
}

}  // namespace

std::vector<SlotChange> set_slots(std::vector<std::uint16_t>& palette, std::span<const SlotColour> requests,
                                  std::span<const unsigned> locked) {
    std::vector<unsigned> seen;
    for (const auto& r : requests) {
        if (r.slot >= palette.size())
            throw Error(ErrorKind::usage, "palette slot " + std::to_string(r.slot) + " outside a " +
                                              std::to_string(palette.size()) + "-entry palette");
        if (contains(seen, r.slot)) throw Error(ErrorKind::usage, "palette slot " + std::to_string(r.slot) + " set twice");
        if (contains(locked, r.slot))
            throw Error(ErrorKind::conflict, "palette slot " + std::to_string(r.slot) + " is locked");
        seen.push_back(r.slot);
    }
    std::vector<SlotChange> out;
    for (const auto& r : requests) {
        out.push_back(change(r.slot, palette[r.slot], r.colour));
        palette[r.slot] = out.back().after;
    }
    return out;
}

std::vector<SlotChange> hsv_shift(std::vector<std::uint16_t>& palette, const HsvShift& shift,
                                  std::span<const unsigned> slots, std::span<const unsigned> locked) {
    std::vector<unsigned> chosen(slots.begin(), slots.end());
    if (chosen.empty())
        for (unsigned i = 0; i < palette.size(); ++i) chosen.push_back(i);
    for (auto s : chosen)
        if (s >= palette.size())
            throw Error(ErrorKind::usage, "palette slot " + std::to_string(s) + " outside a " +
                                              std::to_string(palette.size()) + "-entry palette");
    std::sort(chosen.begin(), chosen.end());
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    std::vector<SlotChange> out;
    for (auto s : chosen) {
        if (contains(locked, s)) continue;
        const Rgba8 before = from_rgba5551(palette[s]);
        Hsv h = to_hsv(before);
        h.h += shift.hue_degrees;
        h.s = std::clamp(h.s * shift.saturation, 0.0, 1.0);
        h.v = std::clamp(h.v * shift.value, 0.0, 1.0);
        out.push_back(change(s, palette[s], from_hsv(h, before.a)));
        palette[s] = out.back().after;
    }
    return out;
}

}  // namespace mod::image
