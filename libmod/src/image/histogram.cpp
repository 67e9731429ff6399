// Colour histograms and RGBA5551 bins for the quantiser, and the texel mapping step.
#include "quantise_detail.hpp"

#include "libmod/core/parallel.hpp"

#include <algorithm>
#include <cmath>

namespace mod::image::detail {

namespace {

std::uint32_t key_of(const std::uint8_t* p) noexcept {
    return (std::uint32_t(p[0]) << 16) | (std::uint32_t(p[1]) << 8) | p[2];
}

Rgba8 colour_of(std::uint32_t key) noexcept {
    return {static_cast<std::uint8_t>(key >> 16), static_cast<std::uint8_t>(key >> 8), static_cast<std::uint8_t>(key),
            255};
}

}  // namespace

Histogram build_histogram(std::span<const RgbaImage> images, std::uint8_t alpha_threshold) {
    Histogram h;
    std::vector<std::uint32_t> all;
    for (const auto& img : images) {
        img.check();
        for (std::uint64_t i = 0; i < img.pixel_count(); ++i) {
            const std::uint8_t* p = &img.pixels[4 * i];
            if (p[3] < alpha_threshold) ++h.transparent;
            else all.push_back(key_of(p));
        }
    }
    std::sort(all.begin(), all.end());
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i;
        while (j < all.size() && all[j] == all[i]) ++j;
        h.keys.push_back(all[i]);
        h.counts.push_back(j - i);
        i = j;
    }
    h.labs.resize(h.keys.size());
    for (std::size_t i = 0; i < h.keys.size(); ++i) h.labs[i] = to_oklab(colour_of(h.keys[i]));

    // Every texel's colour index through an open-addressing table (at most half full) instead
    // of a binary search per texel.
    std::size_t size = 16;
    while (size < 2 * h.keys.size()) size *= 2;
    std::vector<std::uint32_t> slot_key(size), slot_index(size, Histogram::transparent_texel);
    auto home = [&](std::uint32_t key) { return static_cast<std::size_t>((key * 0x9E3779B1u) >> 8) & (size - 1); };
    for (std::uint32_t i = 0; i < h.keys.size(); ++i) {
        std::size_t s = home(h.keys[i]);
        while (slot_index[s] != Histogram::transparent_texel) s = (s + 1) & (size - 1);
        slot_key[s] = h.keys[i], slot_index[s] = i;
    }
    for (const auto& img : images) {
        auto& out = h.texel_colour.emplace_back(static_cast<std::size_t>(img.pixel_count()), Histogram::transparent_texel);
        for (std::size_t i = 0; i < out.size(); ++i) {
            const std::uint8_t* p = &img.pixels[4 * i];
            if (p[3] < alpha_threshold) continue;
            const std::uint32_t key = key_of(p);
            std::size_t s = home(key);
            while (slot_key[s] != key || slot_index[s] == Histogram::transparent_texel) s = (s + 1) & (size - 1);
            out[i] = slot_index[s];
        }
    }
    return h;
}

std::vector<Bin> build_bins(const Histogram& h) {
    std::vector<std::pair<std::uint16_t, std::size_t>> order(h.keys.size());
    for (std::size_t i = 0; i < h.keys.size(); ++i)
        order[i] = {static_cast<std::uint16_t>(to_rgba5551(colour_of(h.keys[i])) | 1), i};
    std::sort(order.begin(), order.end());
    std::vector<Bin> bins;
    for (std::size_t i = 0; i < order.size();) {
        Bin b;
        b.lattice = order[i].first;
        double l = 0, a = 0, bb = 0;
        std::size_t j = i;
        for (; j < order.size() && order[j].first == order[i].first; ++j) {
            const double w = static_cast<double>(h.counts[order[j].second]);
            const Oklab& c = h.labs[order[j].second];
            l += w * c.L, a += w * c.a, bb += w * c.b, b.weight += w;
        }
        b.lab = {l / b.weight, a / b.weight, bb / b.weight};
        bins.push_back(b);
        i = j;
    }
    return bins;
}

unsigned nearest(const Oklab& c, std::span<const Oklab> candidates) noexcept {
    unsigned best = 0;
    double best_d = INFINITY;
    for (unsigned i = 0; i < candidates.size(); ++i) {
        const double dl = c.L - candidates[i].L, da = c.a - candidates[i].a, db = c.b - candidates[i].b;
        const double d = dl * dl + da * da + db * db;
        if (d < best_d) best = i, best_d = d;
    }
    return best;
}

NearestSearch::NearestSearch(std::span<const Oklab> candidates) : by_index_(candidates.begin(), candidates.end()) {
    std::vector<unsigned> order(candidates.size());
    for (unsigned i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](unsigned x, unsigned y) {
        return candidates[x].L != candidates[y].L ? candidates[x].L < candidates[y].L : x < y;
    });
    for (auto i : order) {
        l_.push_back(candidates[i].L), a_.push_back(candidates[i].a), b_.push_back(candidates[i].b);
        index_.push_back(i);
    }
}

unsigned NearestSearch::find(const Oklab& c, unsigned hint) const noexcept {
    const std::size_t n = l_.size();
    if (n == 0) return 0;
    std::size_t up = static_cast<std::size_t>(std::lower_bound(l_.begin(), l_.end(), c.L) - l_.begin());
    std::size_t down = up;  // next candidate below is down - 1
    // The same expression as nearest(), so the distances (and the winner) are bit-identical.
    auto distance = [&](double l, double a, double b) {
        const double dl = c.L - l, da = c.a - a, db = c.b - b;
        return dl * dl + da * da + db * db;
    };
    unsigned best = hint < n ? hint : 0;
    double best_d = distance(by_index_[best].L, by_index_[best].a, by_index_[best].b);
    auto consider = [&](std::size_t j) {
        const double d = distance(l_[j], a_[j], b_[j]);
        if (d < best_d || (d == best_d && index_[j] < best)) best = index_[j], best_d = d;
    };
    bool go_up = up < n, go_down = down > 0;
    while (go_up || go_down) {
        if (go_up) {
            const double dl = c.L - l_[up];
            if (dl * dl > best_d) go_up = false;
            else consider(up++), go_up = up < n;
        }
        if (go_down) {
            const double dl = c.L - l_[down - 1];
            if (dl * dl > best_d) go_down = false;
            else consider(--down), go_down = down > 0;
        }
    }
    return best;
}

void map_images(std::span<const RgbaImage> images, const Histogram& h, std::span<const unsigned> slots,
                std::span<const Oklab> labs, std::optional<unsigned> transparent_slot, std::uint8_t alpha_threshold,
                unsigned threads, std::vector<Bytes>& indices, std::vector<ImageReport>& reports) {
    // Nearest entry of every distinct colour, in fixed chunks.
    const std::size_t chunks = (h.keys.size() + chunk_size - 1) / chunk_size;
    const NearestSearch search(labs);
    auto parts = parallel_map(chunks, [&](std::size_t c) {
        std::vector<std::pair<std::uint8_t, double>> out;
        const std::size_t end = std::min(h.keys.size(), (c + 1) * chunk_size);
        unsigned k = 0;
        for (std::size_t i = c * chunk_size; i < end; ++i) {
            k = search.find(h.labs[i], k);  // neighbouring keys have similar colours
            out.emplace_back(static_cast<std::uint8_t>(slots[k]), delta_e(h.labs[i], labs[k]));
        }
        return out;
    }, threads);
    std::vector<std::pair<std::uint8_t, double>> by_colour;
    by_colour.reserve(h.keys.size());
    for (auto& p : parts) by_colour.insert(by_colour.end(), p.begin(), p.end());

    indices.assign(images.size(), {});
    reports.assign(images.size(), {});
    for (std::size_t n = 0; n < images.size(); ++n) {
        const RgbaImage& img = images[n];
        Bytes& out = indices[n];
        ImageReport& r = reports[n];
        out.resize(static_cast<std::size_t>(img.pixel_count()));
        double sum = 0;
        for (std::uint64_t i = 0; i < img.pixel_count(); ++i) {
            const std::uint8_t* p = &img.pixels[4 * i];
            if (p[3] < alpha_threshold) {
                out[i] = static_cast<std::uint8_t>(*transparent_slot);
                ++r.transparent_texels;
                continue;
            }
            const auto& [slot, error] = by_colour[h.texel_colour[n][i]];
            out[i] = slot;
            sum += error;
            r.max_delta_e = std::max(r.max_delta_e, error);
            ++r.opaque_texels;
        }
        r.mean_delta_e = r.opaque_texels ? sum / static_cast<double>(r.opaque_texels) : 0.0;
    }
}

}  // namespace mod::image::detail
