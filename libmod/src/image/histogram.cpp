// Colour histograms and RGBA5551 bins for the quantiser, and the texel mapping step.
#include "quantise_detail.hpp"

#include "libmod/core/error.hpp"
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
    // Key in the top 24 bits, the texel's position over all images in the low 40: one sort
    // gives the distinct colours and, for every texel, the index of its colour.
    std::vector<std::uint64_t> all;
    std::uint64_t position = 0;
    for (const auto& img : images) {
        img.check();
        if (img.pixel_count() >= (std::uint64_t(1) << 40) - position)
            throw Error(ErrorKind::limit, "quantise: more than 2^40 texels");
        h.texel_colour.emplace_back(static_cast<std::size_t>(img.pixel_count()), Histogram::transparent_texel);
        for (std::uint64_t i = 0; i < img.pixel_count(); ++i, ++position) {
            const std::uint8_t* p = &img.pixels[4 * i];
            if (p[3] < alpha_threshold) ++h.transparent;
            else all.push_back(std::uint64_t(key_of(p)) << 40 | position);
        }
    }
    std::sort(all.begin(), all.end());
    // Image of a global position: images in order, so a running offset finds it.
    std::vector<std::uint64_t> starts;
    std::uint64_t start = 0;
    for (const auto& img : images) starts.push_back(start), start += img.pixel_count();
    for (std::size_t i = 0; i < all.size();) {
        const auto key = static_cast<std::uint32_t>(all[i] >> 40);
        const auto index = static_cast<std::uint32_t>(h.keys.size());
        std::size_t j = i;
        for (; j < all.size() && static_cast<std::uint32_t>(all[j] >> 40) == key; ++j) {
            const std::uint64_t pos = all[j] & ((std::uint64_t(1) << 40) - 1);
            const std::size_t n = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), pos) -
                                                           starts.begin()) - 1;
            h.texel_colour[n][static_cast<std::size_t>(pos - starts[n])] = index;
        }
        h.keys.push_back(key);
        h.counts.push_back(j - i);
        i = j;
    }
    h.labs.resize(h.keys.size());
    for (std::size_t i = 0; i < h.keys.size(); ++i) h.labs[i] = to_oklab(colour_of(h.keys[i]));
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
