// Weighted k-means (Lloyd) in Oklab with fixed centroids, deterministic for any thread count.
#include "quantise_detail.hpp"

#include "libmod/core/parallel.hpp"

#include <algorithm>

namespace mod::image::detail {

namespace {

struct Partial {
    std::vector<double> sum;  // 4 per free centroid: L, a, b, weight
    std::vector<std::uint32_t> assignment;
};

// Moves each free centroid that attracted nothing onto the bin with the largest weighted
// squared error (each bin used once, lowest index on ties), so no slot is wasted while
// colours are still poorly served. Returns whether any centroid moved.
bool reseed_empty(std::span<const Bin> bins, const std::vector<Oklab>& all, const std::vector<std::uint32_t>& assignment,
                  const std::vector<double>& weights, std::vector<Oklab>& free_centroids) {
    if (std::find(weights.begin(), weights.end(), 0.0) == weights.end()) return false;  // none empty
    std::vector<std::pair<double, std::size_t>> error;
    for (std::size_t i = 0; i < bins.size(); ++i) {
        const Oklab& c = all[assignment[i]];
        const double dl = bins[i].lab.L - c.L, da = bins[i].lab.a - c.a, db = bins[i].lab.b - c.b;
        const double e = bins[i].weight * (dl * dl + da * da + db * db);
        if (e > 0) error.emplace_back(-e, i);
    }
    std::sort(error.begin(), error.end());
    std::size_t next = 0;
    bool moved = false;
    for (std::size_t k = 0; k < free_centroids.size() && next < error.size(); ++k) {
        if (weights[k] > 0) continue;
        free_centroids[k] = bins[error[next++].second].lab;
        moved = true;
    }
    return moved;
}

}  // namespace

std::vector<double> kmeans(std::span<const Bin> bins, std::span<const Oklab> fixed, std::vector<Oklab>& free_centroids,
                           unsigned max_iterations, unsigned threads) {
    const std::size_t nf = fixed.size(), nc = free_centroids.size();
    std::vector<double> weights(nc, 0.0);
    std::vector<std::uint32_t> previous, hints;
    const std::size_t chunks = (bins.size() + chunk_size - 1) / chunk_size;
    for (unsigned round = 0; round <= max_iterations; ++round) {
        std::vector<Oklab> all(fixed.begin(), fixed.end());
        all.insert(all.end(), free_centroids.begin(), free_centroids.end());
        const NearestSearch search(all);
        auto parts = parallel_map(chunks, [&](std::size_t c) {
            Partial p;
            p.sum.assign(4 * nc, 0.0);
            const std::size_t end = std::min(bins.size(), (c + 1) * chunk_size);
            for (std::size_t i = c * chunk_size; i < end; ++i) {
                // Last round's centroid is usually still the nearest: a tight first bound.
                const unsigned hint = hints.size() == bins.size() ? hints[i] : 0;
                unsigned k = search.find(bins[i].lab, hint);
                p.assignment.push_back(k);
                if (k < nf) continue;
                double* s = &p.sum[4 * (k - nf)];
                const double w = bins[i].weight;
                s[0] += w * bins[i].lab.L, s[1] += w * bins[i].lab.a, s[2] += w * bins[i].lab.b, s[3] += w;
            }
            return p;
        }, threads);
        std::vector<double> sum(4 * nc, 0.0);
        std::vector<std::uint32_t> assignment;
        assignment.reserve(bins.size());
        for (const auto& p : parts) {
            for (std::size_t j = 0; j < sum.size(); ++j) sum[j] += p.sum[j];
            assignment.insert(assignment.end(), p.assignment.begin(), p.assignment.end());
        }
        for (std::size_t k = 0; k < nc; ++k) weights[k] = sum[4 * k + 3];
        // The last round only measures the weights of the centroids the previous one produced.
        if (round == max_iterations) break;
        const bool reseeded = reseed_empty(bins, all, assignment, weights, free_centroids);
        if (!reseeded && assignment == previous) break;
        for (std::size_t k = 0; k < nc; ++k)
            if (weights[k] > 0)
                free_centroids[k] = {sum[4 * k] / weights[k], sum[4 * k + 1] / weights[k], sum[4 * k + 2] / weights[k]};
        hints = assignment;
        previous = reseeded ? std::vector<std::uint32_t>{} : std::move(assignment);
    }
    return weights;
}

}  // namespace mod::image::detail
