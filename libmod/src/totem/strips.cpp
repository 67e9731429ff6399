// Triangle lists to MESH strips: meshoptimizer's stripifier, cut at degenerate windows.
#include "libmod/totem/strips.hpp"

#include "libmod/core/error.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <string>

namespace mod::totem {

namespace {

using Tri = std::array<std::uint32_t, 3>;

// The same triangle with the same orientation, rotated so the smallest id comes first.
Tri canonical(const Tri& t) {
    const int m = t[0] <= t[1] && t[0] <= t[2] ? 0 : (t[1] <= t[2] ? 1 : 2);
    return {t[m], t[(m + 1) % 3], t[(m + 2) % 3]};
}

bool degenerate(const Tri& t) { return t[0] == t[1] || t[1] == t[2] || t[0] == t[2]; }

}  // namespace

std::vector<Tri> strip_triangles(const BuiltStrip& s) {
    std::vector<Tri> out;
    const std::uint32_t a = s.tri_order, b = 3 - a;
    for (std::size_t k = 0; k + 2 < s.corners.size(); ++k) {
        const std::size_t o1 = k % 2 == 0 ? a : b, o2 = k % 2 == 0 ? b : a;
        out.push_back({s.corners[k], s.corners[k + o1], s.corners[k + o2]});
    }
    return out;
}

std::vector<BuiltStrip> make_strips(std::span<const Tri> triangles, std::size_t vertex_count, StripStats* stats_out) {
    StripStats stats;
    stats.triangles = triangles.size();
    std::vector<unsigned> indices;
    indices.reserve(triangles.size() * 3);
    for (std::size_t i = 0; i < triangles.size(); ++i) {
        const Tri& t = triangles[i];
        for (auto v : t)
            if (v >= vertex_count)
                throw Error(ErrorKind::usage, "triangle " + std::to_string(i) + " names vertex " + std::to_string(v) +
                                                  " of " + std::to_string(vertex_count));
        if (degenerate(t)) {
            ++stats.degenerate_dropped;
            continue;
        }
        indices.insert(indices.end(), t.begin(), t.end());
    }
    std::vector<BuiltStrip> out;
    if (!indices.empty()) {
        constexpr unsigned restart = ~0u;
        std::vector<unsigned> stripped(meshopt_stripifyBound(indices.size()));
        stripped.resize(meshopt_stripify(stripped.data(), indices.data(), indices.size(), vertex_count, restart));
        // Runs between restart markers are standard strips (tri_order 1); cut each at its
        // degenerate windows.
        std::size_t begin = 0;
        while (begin < stripped.size()) {
            std::size_t end = begin;
            while (end < stripped.size() && stripped[end] != restart) ++end;
            const std::span<const unsigned> run(stripped.data() + begin, end - begin);
            std::size_t k = 0;
            while (k + 2 < run.size()) {
                if (degenerate({run[k], run[k + 1], run[k + 2]})) {
                    ++k;
                    continue;
                }
                std::size_t last = k;  // last good window of this piece
                while (last + 3 < run.size() && !degenerate({run[last + 1], run[last + 2], run[last + 3]})) ++last;
                BuiltStrip s;
                s.corners.assign(run.begin() + std::ptrdiff_t(k), run.begin() + std::ptrdiff_t(last + 3));
                s.tri_order = k % 2 == 0 ? 1 : 2;
                out.push_back(std::move(s));
                k = last + 1;
            }
            begin = end + 1;
        }
    }
    // The decoded triangles must be exactly the input's (non-degenerate) triangles.
    std::vector<Tri> want, got;
    for (std::size_t i = 0; i + 2 < indices.size(); i += 3) want.push_back(canonical({indices[i], indices[i + 1], indices[i + 2]}));
    for (const auto& s : out) {
        for (const auto& t : strip_triangles(s)) got.push_back(canonical(t));
        stats.entries += s.corners.size();
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    if (want != got)
        throw Error(ErrorKind::format, "the strips do not decode to the source triangles (" + std::to_string(got.size()) +
                                           " decoded, " + std::to_string(want.size()) +
                                           " wanted): refusing to write a different mesh");
    stats.strips = out.size();
    if (stats_out) *stats_out = stats;
    return out;
}

}  // namespace mod::totem
