// IA16 palette quantisation and remapping (contract: ia16_palette.hpp).
#include "libmod/stadium/ia16_palette.hpp"

#include "libmod/core/error.hpp"
#include "libmod/image/colour.hpp"
#include "libmod/n64/texel.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <set>

namespace mod::stadium {

namespace {

[[noreturn]] void usage(const std::string& m) { throw Error(ErrorKind::usage, m); }

// The clustering plane: Oklab lightness of the grey × 100, alpha × 100 / 255.
struct Point {
    double x = 0, y = 0;
};

double dist2(const Point& a, const Point& b) { return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y); }

const std::array<double, 256>& lightness() {
    static const std::array<double, 256> table = [] {
        std::array<double, 256> t{};
        for (unsigned i = 0; i < 256; ++i) {
            const double lin = image::srgb8_to_linear(static_cast<std::uint8_t>(i));
            t[i] = image::linear_to_oklab(lin, lin, lin).L * 100.0;
        }
        return t;
    }();
    return table;
}

Point point_of(std::uint16_t ia) { return {lightness()[ia >> 8], double(ia & 0xFF) * 100.0 / 255.0}; }

std::uint16_t entry_of(const Bytes& pixels, std::size_t i) {
    const std::uint8_t* p = &pixels[4 * i];
    return static_cast<std::uint16_t>(n64::intensity(p[0], p[1], p[2]) << 8 | p[3]);
}

bool transparent(std::uint16_t ia) { return (ia & 0xFF) == 0; }

// The IA16 entry nearest to a point: intensity by lightness (monotonic, ties low), alpha rounded.
std::uint16_t snap(const Point& p) {
    const auto& l = lightness();
    const auto it = std::lower_bound(l.begin(), l.end(), p.x);
    std::size_t i = static_cast<std::size_t>(it - l.begin());
    if (i == l.size()) i = l.size() - 1;
    else if (i > 0 && p.x - l[i - 1] <= l[i] - p.x) i = i - 1;
    const long a = std::lround(std::clamp(p.y, 0.0, 100.0) * 255.0 / 100.0);
    return static_cast<std::uint16_t>(i << 8 | static_cast<unsigned>(std::clamp(a, 1L, 255L)));
}

struct Bin {
    std::uint16_t key;
    double weight;
    Point p;
};

Point weighted_mean(const std::vector<Bin>& bins, const std::vector<std::size_t>& members) {
    Point m;
    double w = 0;
    for (std::size_t i : members) {
        m.x += bins[i].p.x * bins[i].weight;
        m.y += bins[i].p.y * bins[i].weight;
        w += bins[i].weight;
    }
    if (w > 0) {
        m.x /= w;
        m.y /= w;
    }
    return m;
}

double weighted_sse(const std::vector<Bin>& bins, const std::vector<std::size_t>& members) {
    const Point m = weighted_mean(bins, members);
    double e = 0;
    for (std::size_t i : members) e += bins[i].weight * dist2(bins[i].p, m);
    return e;
}

// Median cut: splits the box with the largest weighted squared error along its wider axis at
// the weighted median until there are `k` boxes (or none can be split); their means.
std::vector<Point> median_cut(const std::vector<Bin>& bins, std::size_t k) {
    std::vector<std::vector<std::size_t>> boxes(1);
    for (std::size_t i = 0; i < bins.size(); ++i) boxes[0].push_back(i);
    while (boxes.size() < k) {
        std::size_t pick = SIZE_MAX;
        double worst = 0;
        for (std::size_t b = 0; b < boxes.size(); ++b) {
            if (boxes[b].size() < 2) continue;
            const double e = weighted_sse(bins, boxes[b]);
            if (pick == SIZE_MAX || e > worst) pick = b, worst = e;
        }
        if (pick == SIZE_MAX) break;
        auto& box = boxes[pick];
        double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
        for (std::size_t i : box) {
            lo[0] = std::min(lo[0], bins[i].p.x), hi[0] = std::max(hi[0], bins[i].p.x);
            lo[1] = std::min(lo[1], bins[i].p.y), hi[1] = std::max(hi[1], bins[i].p.y);
        }
        const bool by_x = hi[0] - lo[0] >= hi[1] - lo[1];
        std::stable_sort(box.begin(), box.end(), [&](std::size_t a, std::size_t b) {
            return by_x ? bins[a].p.x < bins[b].p.x : bins[a].p.y < bins[b].p.y;
        });
        double total = 0;
        for (std::size_t i : box) total += bins[i].weight;
        double run = 0;
        std::size_t cut = 1;
        for (; cut < box.size(); ++cut) {
            run += bins[box[cut - 1]].weight;
            if (run >= total / 2) break;
        }
        cut = std::min(cut, box.size() - 1);
        std::vector<std::size_t> upper(box.begin() + static_cast<std::ptrdiff_t>(cut), box.end());
        box.resize(cut);
        boxes.push_back(std::move(upper));
    }
    std::vector<Point> out;
    for (const auto& box : boxes) out.push_back(weighted_mean(bins, box));
    return out;
}

// Weighted k-means over the bins with `fixed` points as immovable centroids; returns the
// weight each free centroid ends with.
std::vector<double> refine(const std::vector<Bin>& bins, std::vector<Point>& centroids, const std::vector<Point>& fixed,
                           unsigned iterations) {
    std::vector<std::size_t> owner(bins.size(), SIZE_MAX);
    std::vector<double> weight(centroids.size(), 0);
    for (unsigned round = 0; round < std::max(1u, iterations); ++round) {
        bool changed = false;
        for (std::size_t i = 0; i < bins.size(); ++i) {
            std::size_t best = SIZE_MAX;  // index into fixed then centroids
            double d = INFINITY;
            for (std::size_t f = 0; f < fixed.size(); ++f)
                if (const double e = dist2(bins[i].p, fixed[f]); e < d) d = e, best = f;
            for (std::size_t c = 0; c < centroids.size(); ++c)
                if (const double e = dist2(bins[i].p, centroids[c]); e < d) d = e, best = fixed.size() + c;
            changed = changed || owner[i] != best;
            owner[i] = best;
        }
        std::vector<std::vector<std::size_t>> members(centroids.size());
        for (std::size_t i = 0; i < bins.size(); ++i)
            if (owner[i] >= fixed.size()) members[owner[i] - fixed.size()].push_back(i);
        for (std::size_t c = 0; c < centroids.size(); ++c) {
            weight[c] = 0;
            for (std::size_t i : members[c]) weight[c] += bins[i].weight;
            if (!members[c].empty()) centroids[c] = weighted_mean(bins, members[c]);
        }
        if (!changed && round > 0) break;
    }
    return weight;
}

void check_options(const image::QuantiseOptions& o) {
    if (o.palette_size < 2 || o.palette_size > 256) usage("palette size " + std::to_string(o.palette_size) + " is not 2..256");
    if (!o.base.empty() && o.base.size() != o.palette_size)
        usage("base palette has " + std::to_string(o.base.size()) + " entries, not " + std::to_string(o.palette_size));
    std::set<unsigned> seen;
    for (const auto& l : o.locked) {
        if (l.index >= o.palette_size) usage("locked slot " + std::to_string(l.index) + " is outside the palette");
        if (!seen.insert(l.index).second) usage("locked slot " + std::to_string(l.index) + " is given twice");
    }
    if (o.transparent_slot >= int(o.palette_size)) usage("transparent slot is outside the palette");
}

// The nearest candidate entry (ties to the lowest slot; candidates ascending).
unsigned nearest(const Point& p, const std::vector<unsigned>& candidates, const std::vector<std::uint16_t>& palette) {
    unsigned best = candidates.front();
    double d = INFINITY;
    for (unsigned s : candidates)
        if (const double e = dist2(p, point_of(palette[s])); e < d) d = e, best = s;
    return best;
}

image::ImageReport report_for(const image::RgbaImage& img, const Bytes& indices, const std::vector<std::uint16_t>& palette) {
    image::ImageReport r;
    double sum = 0;
    for (std::size_t i = 0; i < img.pixel_count(); ++i) {
        const image::Rgba8 want = img.at(i);
        if (want.a < 128) {
            ++r.transparent_texels;
            continue;
        }
        std::uint8_t drawn[4];
        n64::ia16_to_rgba8(palette[indices[i]], drawn);
        const double e = image::delta_e(want, image::Rgba8{drawn[0], drawn[1], drawn[2], drawn[3]});
        sum += e;
        r.max_delta_e = std::max(r.max_delta_e, e);
        ++r.opaque_texels;
    }
    if (r.opaque_texels) r.mean_delta_e = sum / double(r.opaque_texels);
    return r;
}

// Maps every texel: transparent ones to `transparent_slot`, the others to the nearest opaque candidate.
Bytes assign(const image::RgbaImage& img, const std::vector<std::uint16_t>& palette, const std::vector<unsigned>& opaque,
             std::optional<unsigned> transparent_slot) {
    Bytes out(img.pixel_count());
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::uint16_t e = entry_of(img.pixels, i);
        out[i] = static_cast<std::uint8_t>(transparent(e) ? *transparent_slot : nearest(point_of(e), opaque, palette));
    }
    return out;
}

}  // namespace

image::QuantiseResult quantise_ia16(std::span<const image::RgbaImage> images, const image::QuantiseOptions& o) {
    if (images.empty()) usage("nothing to quantise");
    check_options(o);
    for (const auto& img : images) img.check();
    std::vector<double> histogram(65536, 0);
    std::uint64_t transparent_texels = 0;
    for (const auto& img : images)
        for (std::size_t i = 0; i < img.pixel_count(); ++i) {
            const std::uint16_t e = entry_of(img.pixels, i);
            if (transparent(e)) ++transparent_texels;
            else histogram[e] += 1;
        }

    image::QuantiseResult r;
    r.palette = o.base.empty() ? std::vector<std::uint16_t>(o.palette_size, 0) : o.base;
    std::vector<bool> taken(o.palette_size, false);
    std::set<std::uint16_t> present;  // entries texels may use so far (locked, opaque)
    std::vector<Point> fixed;
    std::vector<unsigned> candidates;
    for (const auto& l : o.locked) {
        r.palette[l.index] = l.colour;
        taken[l.index] = true;
        candidates.push_back(l.index);
        if (!transparent(l.colour) && present.insert(l.colour).second) fixed.push_back(point_of(l.colour));
    }
    if (transparent_texels) {
        for (const auto& l : o.locked)
            if (transparent(l.colour) && (!r.transparent_slot || l.index < *r.transparent_slot)) r.transparent_slot = l.index;
        if (!r.transparent_slot) {
            if (o.transparent_slot >= 0 && !taken[unsigned(o.transparent_slot)]) r.transparent_slot = unsigned(o.transparent_slot);
            for (unsigned s = 0; s < o.palette_size && !r.transparent_slot; ++s)
                if (!taken[s]) r.transparent_slot = s;
            if (!r.transparent_slot)
                throw Error(ErrorKind::conflict, "the images have transparent texels and every palette slot is locked to an opaque entry");
            r.palette[*r.transparent_slot] = 0x0000;
            taken[*r.transparent_slot] = true;
            r.written_slots.push_back(*r.transparent_slot);
        }
    }
    std::vector<unsigned> free;
    for (unsigned s = 0; s < o.palette_size; ++s)
        if (!taken[s]) free.push_back(s);

    std::vector<Bin> bins;
    for (unsigned k = 0; k < histogram.size(); ++k)
        if (histogram[k] > 0) {
            ++r.distinct_colours;
            if (!present.count(static_cast<std::uint16_t>(k)))
                bins.push_back({static_cast<std::uint16_t>(k), histogram[k], point_of(static_cast<std::uint16_t>(k))});
        }
    std::vector<std::uint16_t> kept;
    if (bins.size() <= free.size()) {
        r.exact = true;
        for (const auto& b : bins) kept.push_back(b.key);
    } else if (!free.empty()) {
        std::vector<Point> centroids = median_cut(bins, free.size());
        const std::vector<double> weight = refine(bins, centroids, fixed, o.max_iterations);
        std::vector<std::size_t> order(centroids.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return weight[a] > weight[b]; });
        for (std::size_t c : order) {
            if (weight[c] <= 0) continue;
            const std::uint16_t e = snap(centroids[c]);
            if (present.insert(e).second) kept.push_back(e);
            else ++r.collapsed;
        }
    }
    // Dark to light (intensity, then alpha): key order.
    std::sort(kept.begin(), kept.end());
    for (std::size_t i = 0; i < kept.size(); ++i) {
        r.palette[free[i]] = kept[i];
        r.written_slots.push_back(free[i]);
        candidates.push_back(free[i]);
    }
    std::sort(r.written_slots.begin(), r.written_slots.end());
    std::sort(candidates.begin(), candidates.end());
    std::vector<unsigned> opaque;
    for (unsigned s : candidates)
        if (!transparent(r.palette[s])) opaque.push_back(s);
    if (opaque.empty()) opaque = candidates;
    if (opaque.empty() && r.distinct_colours)
        throw Error(ErrorKind::conflict, "no palette slot is left for the images' opaque texels");
    for (const auto& img : images) {
        r.indices.push_back(assign(img, r.palette, opaque, r.transparent_slot));
        r.reports.push_back(report_for(img, r.indices.back(), r.palette));
    }
    return r;
}

image::RemapResult remap_ia16(std::span<const image::RgbaImage> images, std::span<const std::uint16_t> palette,
                              const image::RemapOptions& o) {
    const std::vector<std::uint16_t> pal(palette.begin(), palette.end());
    std::vector<unsigned> usable = o.usable;
    if (usable.empty())
        for (unsigned s = 0; s < pal.size(); ++s) usable.push_back(s);
    std::sort(usable.begin(), usable.end());
    std::vector<unsigned> opaque;
    std::optional<unsigned> clear;
    for (unsigned s : usable) {
        if (s >= pal.size()) usage("usable slot " + std::to_string(s) + " is outside the palette");
        if (!transparent(pal[s])) opaque.push_back(s);
        else if (!clear) clear = s;
    }
    image::RemapResult r;
    for (const auto& img : images) {
        img.check();
        bool wants_clear = false, wants_opaque = false;
        for (std::size_t i = 0; i < img.pixel_count(); ++i) (transparent(entry_of(img.pixels, i)) ? wants_clear : wants_opaque) = true;
        if (wants_clear && !clear)
            throw Error(ErrorKind::conflict, "the image has transparent texels and the palette has no usable entry with alpha 0");
        if (wants_opaque && opaque.empty())
            throw Error(ErrorKind::conflict, "the image has visible texels and the palette has no usable entry with alpha above 0");
        r.indices.push_back(assign(img, pal, opaque.empty() ? usable : opaque, clear));
        r.reports.push_back(report_for(img, r.indices.back(), pal));
    }
    return r;
}

}  // namespace mod::stadium
