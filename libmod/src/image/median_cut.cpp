// Median cut (Heckbert) in Oklab over weighted bins: repeatedly split the box with the largest
// weighted squared error, along its widest axis, at the weighted median.
#include "quantise_detail.hpp"

#include <algorithm>
#include <array>

namespace mod::image::detail {

namespace {

double axis(const Oklab& c, int a) noexcept { return a == 0 ? c.L : a == 1 ? c.a : c.b; }

struct Box {
    std::vector<std::uint32_t> members;  // bin indices
    Oklab mean;
    std::array<double, 3> variance{};    // weighted squared deviation per axis
    double weight = 0;
    double error() const noexcept { return variance[0] + variance[1] + variance[2]; }
};

Box make_box(std::span<const Bin> bins, std::vector<std::uint32_t> members) {
    Box b;
    b.members = std::move(members);
    double s[3] = {0, 0, 0};
    for (auto i : b.members) {
        b.weight += bins[i].weight;
        for (int a = 0; a < 3; ++a) s[a] += bins[i].weight * axis(bins[i].lab, a);
    }
    b.mean = {s[0] / b.weight, s[1] / b.weight, s[2] / b.weight};
    for (auto i : b.members)
        for (int a = 0; a < 3; ++a) {
            double d = axis(bins[i].lab, a) - axis(b.mean, a);
            b.variance[a] += bins[i].weight * d * d;
        }
    return b;
}

}  // namespace

std::vector<Oklab> median_cut(std::span<const Bin> bins, unsigned k) {
    std::vector<Oklab> out;
    if (bins.empty() || k == 0) return out;
    std::vector<std::uint32_t> all(bins.size());
    for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    std::vector<Box> boxes;
    boxes.push_back(make_box(bins, std::move(all)));
    while (boxes.size() < k) {
        std::size_t pick = boxes.size();
        for (std::size_t i = 0; i < boxes.size(); ++i)
            if (boxes[i].members.size() > 1 && (pick == boxes.size() || boxes[i].error() > boxes[pick].error()))
                pick = i;
        if (pick == boxes.size()) break;  // every box holds a single bin
        Box& box = boxes[pick];
        const int a = static_cast<int>(std::max_element(box.variance.begin(), box.variance.end()) - box.variance.begin());
        auto members = box.members;
        std::sort(members.begin(), members.end(), [&](std::uint32_t x, std::uint32_t y) {
            double cx = axis(bins[x].lab, a), cy = axis(bins[y].lab, a);
            return cx != cy ? cx < cy : x < y;
        });
        double half = box.weight / 2, cumulative = 0;
        std::size_t cut = 0;
        while (cut < members.size() - 1) {
            cumulative += bins[members[cut]].weight;
            ++cut;
            if (cumulative >= half) break;
        }
        if (cut == 0) cut = 1;
        std::vector<std::uint32_t> left(members.begin(), members.begin() + static_cast<std::ptrdiff_t>(cut));
        std::vector<std::uint32_t> right(members.begin() + static_cast<std::ptrdiff_t>(cut), members.end());
        box = make_box(bins, std::move(left));
        boxes.push_back(make_box(bins, std::move(right)));
    }
    for (const auto& b : boxes) out.push_back(b.mean);
    return out;
}

}  // namespace mod::image::detail
