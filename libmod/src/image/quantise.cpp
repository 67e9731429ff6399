// The quantiser's orchestration: slot bookkeeping (locked, transparent, free), the exact path,
// median cut + k-means, snapping to RGBA5551 with de-duplication, and the final mapping.
#include "quantise_detail.hpp"

#include <algorithm>
#include <string>

namespace mod::image {

namespace {

struct Slots {
    std::vector<bool> locked;
    std::optional<unsigned> transparent;
    std::vector<unsigned> free;  // ascending
    // Locked opaque entries: the fixed centroids.
    std::vector<unsigned> fixed_slots;
    std::vector<Oklab> fixed_labs;
};

void validate(std::span<const RgbaImage> images, const QuantiseOptions& o) {
    if (images.empty()) throw Error(ErrorKind::usage, "quantise: no images");
    if (o.palette_size < 2 || o.palette_size > 256)
        throw Error(ErrorKind::usage, "quantise: palette size " + std::to_string(o.palette_size) + " (2..256)");
    if (!o.base.empty() && o.base.size() != o.palette_size)
        throw Error(ErrorKind::usage, "quantise: base palette has " + std::to_string(o.base.size()) +
                                          " entries, palette size is " + std::to_string(o.palette_size));
    if (o.transparent_slot >= static_cast<int>(o.palette_size))
        throw Error(ErrorKind::usage, "quantise: transparent slot " + std::to_string(o.transparent_slot) +
                                          " outside the palette");
}

Slots plan_slots(const QuantiseOptions& o, bool need_transparent) {
    Slots s;
    s.locked.assign(o.palette_size, false);
    for (const auto& l : o.locked) {
        if (l.index >= o.palette_size)
            throw Error(ErrorKind::usage, "quantise: locked slot " + std::to_string(l.index) + " outside a " +
                                              std::to_string(o.palette_size) + "-entry palette");
        if (s.locked[l.index])
            throw Error(ErrorKind::usage, "quantise: slot " + std::to_string(l.index) + " locked twice");
        s.locked[l.index] = true;
    }
    std::vector<const LockedSlot*> by_index;
    for (const auto& l : o.locked) by_index.push_back(&l);
    std::sort(by_index.begin(), by_index.end(), [](auto* x, auto* y) { return x->index < y->index; });
    for (const auto* l : by_index) {
        if (l->colour & 1) {
            s.fixed_slots.push_back(l->index);
            s.fixed_labs.push_back(to_oklab(from_rgba5551(l->colour)));
        } else if (need_transparent && !s.transparent) {
            s.transparent = l->index;
        }
    }
    if (need_transparent && !s.transparent) {
        if (o.transparent_slot >= 0) {
            if (s.locked[o.transparent_slot])
                throw Error(ErrorKind::conflict, "quantise: the transparent slot " + std::to_string(o.transparent_slot) +
                                                     " is locked to an opaque colour");
            s.transparent = static_cast<unsigned>(o.transparent_slot);
        } else {
            for (unsigned i = 0; i < o.palette_size && !s.transparent; ++i)
                if (!s.locked[i]) s.transparent = i;
            if (!s.transparent)
                throw Error(ErrorKind::conflict, "quantise: the images have transparent texels but every slot is "
                                                 "locked to an opaque colour");
        }
    }
    for (unsigned i = 0; i < o.palette_size; ++i)
        if (!s.locked[i] && s.transparent != i) s.free.push_back(i);
    return s;
}

// Free-slot colours, as RGBA5551 with alpha set, in the order they fill the free slots.
std::vector<std::uint16_t> choose_colours(const detail::Histogram& h, const std::vector<detail::Bin>& bins, const Slots& s,
                                          const QuantiseOptions& o, QuantiseResult& result) {
    std::vector<std::uint16_t> taken;  // locked opaque entries
    for (auto slot : s.fixed_slots)
        for (const auto& l : o.locked)
            if (l.index == slot) taken.push_back(l.colour);
    auto is_taken = [&](std::uint16_t c) { return std::find(taken.begin(), taken.end(), c) != taken.end(); };

    std::vector<std::uint16_t> exact;
    for (const auto& b : bins)
        if (!is_taken(b.lattice)) exact.push_back(b.lattice);
    if (exact.size() <= s.free.size()) {
        result.exact = true;
        return exact;  // bins are sorted by lattice value: a deterministic order
    }

    std::vector<Oklab> centroids = detail::median_cut(bins, static_cast<unsigned>(s.free.size()));
    std::vector<double> weight = detail::kmeans(bins, s.fixed_labs, centroids, o.max_iterations, o.threads);
    // Heaviest centroids claim their lattice colour first; later ones that land on a colour
    // already in the palette are dropped.
    std::vector<std::size_t> order(centroids.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return weight[x] > weight[y]; });
    auto snapped = [&](const std::vector<Oklab>& points, unsigned& collapsed) {
        std::vector<std::uint16_t> kept;
        for (auto i : order) {
            if (weight[i] <= 0) continue;
            auto c = static_cast<std::uint16_t>(to_rgba5551(from_oklab(points[i])) | 1);
            if (is_taken(c) || std::find(kept.begin(), kept.end(), c) != kept.end()) {
                ++collapsed;
                continue;
            }
            kept.push_back(c);
        }
        return kept;
    };
    unsigned collapsed = 0, collapsed_median = 0;
    std::vector<std::uint16_t> kept = snapped(centroids, collapsed);
    // The second candidate (refine.cpp), kept only when its CIEDE2000 over the images' colours
    // is smaller: the result is never worse than k-means alone by that measure.
    std::vector<std::uint16_t> median = snapped(detail::median_refined(bins, s.fixed_labs, centroids), collapsed_median);
    if (median != kept) {
        std::vector<std::uint16_t> a = taken, b = taken;
        a.insert(a.end(), kept.begin(), kept.end());
        b.insert(b.end(), median.begin(), median.end());
        if (detail::ciede2000_difference(h, a, b, o.threads) < 0) {
            kept = std::move(median);
            collapsed = collapsed_median;
        }
    }
    result.collapsed += collapsed;
    // Fill free slots dark to light so palettes read naturally; the value breaks ties.
    std::vector<std::pair<double, std::uint16_t>> sorted;
    for (auto c : kept) sorted.emplace_back(to_oklab(from_rgba5551(c)).L, c);
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::uint16_t> out;
    for (const auto& p : sorted) out.push_back(p.second);
    return out;
}

}  // namespace

QuantiseResult quantise(std::span<const RgbaImage> images, const QuantiseOptions& o) {
    validate(images, o);
    detail::Histogram h = detail::build_histogram(images, o.alpha_threshold);
    Slots s = plan_slots(o, h.transparent > 0);
    std::vector<detail::Bin> bins = detail::build_bins(h);

    QuantiseResult result;
    result.distinct_colours = static_cast<unsigned>(h.keys.size());
    result.transparent_slot = s.transparent;
    result.palette = o.base.empty() ? std::vector<std::uint16_t>(o.palette_size, 0) : o.base;
    for (const auto& l : o.locked) result.palette[l.index] = l.colour;

    std::vector<unsigned> slots = s.fixed_slots;
    std::vector<Oklab> labs = s.fixed_labs;
    if (s.transparent && !s.locked[*s.transparent]) {
        result.palette[*s.transparent] = 0x0000;
        result.written_slots.push_back(*s.transparent);
    }
    std::vector<std::uint16_t> colours = choose_colours(h, bins, s, o, result);
    for (std::size_t i = 0; i < colours.size(); ++i) {
        unsigned slot = s.free[i];
        result.palette[slot] = colours[i];
        result.written_slots.push_back(slot);
        slots.push_back(slot);
        labs.push_back(to_oklab(from_rgba5551(colours[i])));
    }
    std::sort(result.written_slots.begin(), result.written_slots.end());
    if (!h.keys.empty() && slots.empty())
        throw Error(ErrorKind::conflict, "quantise: the images have opaque texels but no slot can hold a colour");
    // Candidates in slot order, so equal distances pick the lowest slot.
    std::vector<std::size_t> order(slots.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return slots[x] < slots[y]; });
    std::vector<unsigned> sorted_slots;
    std::vector<Oklab> sorted_labs;
    for (auto i : order) sorted_slots.push_back(slots[i]), sorted_labs.push_back(labs[i]);
    detail::map_images(images, h, sorted_slots, sorted_labs, s.transparent, o.alpha_threshold, o.threads,
                       result.indices, result.reports);
    return result;
}

RemapResult remap(std::span<const RgbaImage> images, std::span<const std::uint16_t> palette, const RemapOptions& o) {
    if (palette.empty() || palette.size() > 256)
        throw Error(ErrorKind::usage, "remap: palette of " + std::to_string(palette.size()) + " entries (1..256)");
    std::vector<unsigned> usable = o.usable;
    if (usable.empty())
        for (unsigned i = 0; i < palette.size(); ++i) usable.push_back(i);
    std::sort(usable.begin(), usable.end());
    usable.erase(std::unique(usable.begin(), usable.end()), usable.end());
    std::optional<unsigned> transparent;
    std::vector<unsigned> slots;
    std::vector<Oklab> labs;
    for (auto i : usable) {
        if (i >= palette.size())
            throw Error(ErrorKind::usage, "remap: usable slot " + std::to_string(i) + " outside the palette");
        if (palette[i] & 1) slots.push_back(i), labs.push_back(to_oklab(from_rgba5551(palette[i])));
        else if (!transparent) transparent = i;
    }
    detail::Histogram h = detail::build_histogram(images, o.alpha_threshold);
    if (h.transparent && !transparent)
        throw Error(ErrorKind::conflict, "remap: the image has transparent texels but the palette has no usable "
                                         "transparent entry");
    if (!h.keys.empty() && slots.empty())
        throw Error(ErrorKind::conflict, "remap: the image has opaque texels but the palette has no usable opaque entry");
    RemapResult r;
    detail::map_images(images, h, slots, labs, transparent, o.alpha_threshold, o.threads, r.indices, r.reports);
    return r;
}

}  // namespace mod::image
