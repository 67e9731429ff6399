// The quantiser's second candidate palette and the measure that picks between the two.
//
// k-means minimises squared Oklab error; a texel sees plain distance, and CIEDE2000 (the
// literature's measure) even less of the large errors squared error fears. So the quantiser
// also tries each cluster at its weighted geometric median and keeps whichever palette gives
// the smaller count-weighted CIEDE2000 over the images' colours: never worse than k-means alone.
#include "quantise_detail.hpp"

#include "libmod/core/parallel.hpp"

#include <cmath>

namespace mod::image::detail {

namespace {

double distance(const Oklab& x, const Oklab& y) noexcept {
    const double dl = x.L - y.L, da = x.a - y.a, db = x.b - y.b;
    return std::sqrt(dl * dl + da * da + db * db);
}

std::uint16_t snap(const Oklab& c) noexcept { return static_cast<std::uint16_t>(to_rgba5551(from_oklab(c)) | 1); }

}  // namespace

std::vector<Oklab> median_refined(std::span<const Bin> bins, std::span<const Oklab> fixed,
                                  const std::vector<Oklab>& centroids) {
    std::vector<Oklab> all(fixed.begin(), fixed.end());
    all.insert(all.end(), centroids.begin(), centroids.end());
    const NearestSearch search(all);
    std::vector<std::vector<std::uint32_t>> members(centroids.size());
    unsigned hint = 0;
    for (std::uint32_t i = 0; i < bins.size(); ++i) {
        hint = search.find(bins[i].lab, hint);
        if (hint >= fixed.size()) members[hint - fixed.size()].push_back(i);
    }
    std::vector<Oklab> out = centroids;
    for (std::size_t k = 0; k < centroids.size(); ++k) {
        if (members[k].size() < 2) continue;
        // Weiszfeld's iteration from the mean; bins on the current point are skipped.
        Oklab m = centroids[k];
        for (int it = 0; it < 12; ++it) {
            double l = 0, a = 0, b = 0, den = 0;
            for (auto i : members[k]) {
                const double d = distance(bins[i].lab, m);
                if (d < 1e-9) continue;
                const double w = bins[i].weight / d;
                l += w * bins[i].lab.L, a += w * bins[i].lab.a, b += w * bins[i].lab.b, den += w;
            }
            if (den <= 0) break;
            m = {l / den, a / den, b / den};
        }
        // Judged as the palette will hold it: snapped to the lattice.
        auto cost = [&](const Oklab& p) {
            const Oklab q = to_oklab(from_rgba5551(snap(p)));
            double c = 0;
            for (auto i : members[k]) c += bins[i].weight * distance(bins[i].lab, q);
            return c;
        };
        if (cost(m) < cost(centroids[k])) out[k] = m;
    }
    return out;
}

double ciede2000_difference(const Histogram& h, std::span<const std::uint16_t> a, std::span<const std::uint16_t> b,
                            unsigned threads) {
    struct Entries {
        std::vector<Oklab> labs;
        std::vector<CieLab> cielabs;
        explicit Entries(std::span<const std::uint16_t> values) {
            for (auto e : values) {
                labs.push_back(to_oklab(from_rgba5551(e)));
                cielabs.push_back(to_cielab(from_rgba5551(e)));
            }
        }
    };
    const Entries ea(a), eb(b);
    const NearestSearch sa(ea.labs), sb(eb.labs);
    const std::size_t chunks = (h.keys.size() + chunk_size - 1) / chunk_size;
    auto parts = parallel_map(chunks, [&](std::size_t c) {
        double sum = 0;
        unsigned ka = 0, kb = 0;
        const std::size_t end = std::min(h.keys.size(), (c + 1) * chunk_size);
        for (std::size_t i = c * chunk_size; i < end; ++i) {
            ka = sa.find(h.labs[i], ka), kb = sb.find(h.labs[i], kb);  // the entries map_images would choose
            if (a[ka] == b[kb]) continue;  // same colour shown: no difference
            const std::uint32_t key = h.keys[i];
            const CieLab colour = to_cielab({static_cast<std::uint8_t>(key >> 16), static_cast<std::uint8_t>(key >> 8),
                                             static_cast<std::uint8_t>(key), 255});
            sum += static_cast<double>(h.counts[i]) * (ciede2000(colour, eb.cielabs[kb]) - ciede2000(colour, ea.cielabs[ka]));
        }
        return sum;
    }, threads);
    double total = 0;
    for (double p : parts) total += p;  // chunk order: the same sum for any thread count
    return total;
}

}  // namespace mod::image::detail
