#pragma once
// Internal pieces of the quantiser shared by quantise.cpp, median_cut.cpp, kmeans.cpp and
// remap.cpp (not a public header).

#include "libmod/image/colour.hpp"
#include "libmod/image/quantise.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace mod::image::detail {

// Unique colours are processed in chunks of this many, whatever the thread count, so sums
// are always combined in the same order.
inline constexpr std::size_t chunk_size = 2048;

// The distinct opaque colours of a set of images (sorted 0xRRGGBB keys) with their counts.
struct Histogram {
    std::vector<std::uint32_t> keys;
    std::vector<std::uint64_t> counts;
    std::vector<Oklab> labs;
    std::uint64_t transparent = 0;
    // Per image, per texel: the index of its colour in keys (transparent_texel if transparent).
    static constexpr std::uint32_t transparent_texel = 0xFFFFFFFF;
    std::vector<std::vector<std::uint32_t>> texel_colour;
};

Histogram build_histogram(std::span<const RgbaImage> images, std::uint8_t alpha_threshold);

// Colours grouped by their RGBA5551 lattice point: weighted mean Oklab of the members.
struct Bin {
    std::uint16_t lattice = 0;  // RGBA5551 with alpha bit set
    Oklab lab;
    double weight = 0;
};

std::vector<Bin> build_bins(const Histogram& histogram);

// Index of the nearest candidate (squared Oklab distance, lowest index on ties).
unsigned nearest(const Oklab& colour, std::span<const Oklab> candidates) noexcept;

// The same answer as nearest(), found faster: candidates sorted by L and visited outward from
// the query's L; a direction stops once its L difference alone exceeds the best squared distance
// (so no candidate that could win or tie is skipped, and ties still go to the lowest index).
class NearestSearch {
public:
    explicit NearestSearch(std::span<const Oklab> candidates);
    // `hint` (a candidate index, e.g. the previous answer for a similar colour) only sets the
    // first bound: the answer does not depend on it.
    unsigned find(const Oklab& colour, unsigned hint = 0) const noexcept;

private:
    std::vector<Oklab> by_index_;
    std::vector<double> l_, a_, b_;  // by ascending L (then index)
    std::vector<unsigned> index_;
};

// Median cut: at most k weighted-mean centroids (fewer when there are fewer bins).
std::vector<Oklab> median_cut(std::span<const Bin> bins, unsigned k);

// Weighted k-means over bins; `fixed` centroids attract colours but never move. Updates
// `free_centroids` in place and returns the weight each free centroid ended with.
std::vector<double> kmeans(std::span<const Bin> bins, std::span<const Oklab> fixed, std::vector<Oklab>& free_centroids,
                           unsigned max_iterations, unsigned threads);

// The second candidate (refine.cpp): each free centroid moved to its cluster's weighted
// geometric median where that, snapped to RGBA5551, serves the cluster with a smaller summed
// Oklab distance.
std::vector<Oklab> median_refined(std::span<const Bin> bins, std::span<const Oklab> fixed,
                                  const std::vector<Oklab>& centroids);

// Count-weighted CIEDE2000 of every opaque colour to the entry the mapping gives it (nearest
// in Oklab, ties to the lowest index) among the RGBA5551 opaque entries `b`, minus the same
// among `a`. Only colours whose shown colour differs are evaluated.
double ciede2000_difference(const Histogram& histogram, std::span<const std::uint16_t> a,
                            std::span<const std::uint16_t> b, unsigned threads);

// Maps every image texel: transparent ones to `transparent_slot`, opaque ones to the
// nearest of `slots`/`labs` (parallel arrays). Fills indices and reports.
void map_images(std::span<const RgbaImage> images, const Histogram& histogram, std::span<const unsigned> slots,
                std::span<const Oklab> labs, std::optional<unsigned> transparent_slot, std::uint8_t alpha_threshold,
                unsigned threads, std::vector<Bytes>& indices, std::vector<ImageReport>& reports);

}  // namespace mod::image::detail
