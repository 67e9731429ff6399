// Bone-map suggestions by skeleton shape (contract in bone_shape.hpp).
#include "libmod/scene/bone_shape.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace mod::scene {
namespace {

using P = std::array<double, 3>;

P head(const Bone& b) { return {double(b.bind[3]), double(b.bind[7]), double(b.bind[11])}; }

std::size_t depth(const Skeleton& s, std::size_t b) {
    std::size_t d = 0;
    for (std::int32_t p = s.bones[b].parent; p >= 0 && std::size_t(p) < s.bones.size() && d <= s.bones.size();
         p = s.bones[std::size_t(p)].parent)
        ++d;
    return d;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Heads centred on their per-axis median and divided by their median distance from it (robust:
// a few far bones, IK targets or props, move neither); a zero median distance: not scaled.
std::vector<P> normalised(std::vector<P> h) {
    std::array<std::vector<double>, 3> axis;
    for (const auto& p : h) {
        for (int c = 0; c < 3; ++c)
            if (std::isfinite(p[c])) axis[c].push_back(p[c]);
    }
    const P centre{median(axis[0]), median(axis[1]), median(axis[2])};
    std::vector<double> radius;
    for (const auto& p : h) {
        double d = 0;
        for (int c = 0; c < 3; ++c) d += (p[c] - centre[c]) * (p[c] - centre[c]);
        if (std::isfinite(d)) radius.push_back(std::sqrt(d));
    }
    const double scale = median(radius);
    for (auto& p : h)
        for (int c = 0; c < 3; ++c) p[c] = scale > 0 ? (p[c] - centre[c]) / scale : p[c] - centre[c];
    return h;
}

struct Orientation {
    const char* name;
    P (*apply)(const P&);
};
constexpr Orientation orientations[] = {
    {"as it is", [](const P& p) { return p; }},
    {"Z-up read as Y-up", [](const P& p) { return P{p[0], p[2], -p[1]}; }},
    {"Y-up read as Z-up", [](const P& p) { return P{p[0], -p[2], p[1]}; }},
};

double distance(const P& a, const P& b) {
    double d = 0;
    for (int c = 0; c < 3; ++c) d += (a[c] - b[c]) * (a[c] - b[c]);
    return std::sqrt(d);
}

// The nearest target (distance, depth difference, index order), or npos.
std::pair<std::size_t, double> nearest(const P& p, std::size_t depth_of_source, const std::vector<P>& targets,
                                       const std::vector<std::size_t>& target_depth) {
    std::size_t best = std::numeric_limits<std::size_t>::max();
    double best_d = HUGE_VAL;
    std::size_t best_dd = 0;
    for (std::size_t j = 0; j < targets.size(); ++j) {
        const double d = distance(p, targets[j]);
        if (!std::isfinite(d)) continue;
        const std::size_t dd = target_depth[j] > depth_of_source ? target_depth[j] - depth_of_source : depth_of_source - target_depth[j];
        // Heads closer than 1e-9 of the size are the same place: the depth decides.
        if (best == std::numeric_limits<std::size_t>::max() || d < best_d - 1e-9 || (std::fabs(d - best_d) <= 1e-9 && dd < best_dd))
            best = j, best_d = d, best_dd = dd;
    }
    return {best, best_d};
}

// The matching on points already chosen: src[i] for source bone i, dst[j] for target name j.
ShapeReport match(BoneMapTemplate& t, const std::vector<BoneUsage>& usage, const std::vector<P>& src_raw,
                  const std::vector<std::size_t>& src_depth, const std::vector<std::string>& dst_names,
                  const std::vector<P>& dst_raw, const std::vector<std::size_t>& dst_depth, double max_distance) {
    ShapeReport report;
    const std::vector<P> src = normalised(src_raw), dst = normalised(dst_raw);
    std::map<std::string, std::size_t> target_index;
    for (std::size_t j = 0; j < dst_names.size(); ++j) target_index.emplace(dst_names[j], j);

    // The orientation: name-matched pairs closest, else weighted bones closest to any target.
    std::size_t chosen = 0;
    double best_cost = HUGE_VAL;
    for (std::size_t o = 0; o < std::size(orientations); ++o) {
        double named = 0, nearest_sum = 0;
        std::size_t pairs = 0;
        for (std::size_t i = 0; i < t.bones.size(); ++i) {
            const P p = orientations[o].apply(src[i]);
            if (auto it = target_index.find(t.bones[i].target); !t.bones[i].target.empty() && it != target_index.end()) {
                named += distance(p, dst[it->second]);
                ++pairs;
            } else if (usage[i].vertices) {
                nearest_sum += nearest(p, src_depth[i], dst, dst_depth).second;
            }
        }
        const double cost = pairs ? named / double(pairs) : nearest_sum;
        if (cost < best_cost - 1e-12) best_cost = cost, chosen = o;
    }
    report.orientation = orientations[chosen].name;

    for (std::size_t i = 0; i < t.bones.size(); ++i) {
        BoneSuggestion& b = t.bones[i];
        if (!b.target.empty() || !usage[i].vertices) continue;
        const auto [j, d] = nearest(orientations[chosen].apply(src[i]), src_depth[i], dst, dst_depth);
        if (j >= dst.size()) continue;
        if (d > max_distance) {
            ++report.too_far;
            continue;
        }
        b.target = dst_names[j];
        b.by_shape = true;
        b.shape_distance = d;
        ++report.matched;
    }
    t.text = bone_map_text(t, usage);
    return report;
}

}  // namespace

ShapeReport suggest_by_shape(BoneMapTemplate& t, const std::vector<BoneUsage>& usage, const Skeleton& source,
                             const Skeleton& target, double max_distance) {
    if (source.bones.empty() || target.bones.empty() || usage.size() != source.bones.size() ||
        t.bones.size() != source.bones.size())
        return {};
    std::vector<P> src, dst;
    std::vector<std::size_t> src_depth, dst_depth;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < source.bones.size(); ++i) src.push_back(head(source.bones[i])), src_depth.push_back(depth(source, i));
    for (std::size_t j = 0; j < target.bones.size(); ++j) {
        dst.push_back(head(target.bones[j]));
        dst_depth.push_back(depth(target, j));
        names.push_back(target.bones[j].name);
    }
    return match(t, usage, src, src_depth, names, dst, dst_depth, max_distance);
}

std::vector<std::optional<Vec3>> bone_centroids(const Scene& scene) {
    std::vector<std::array<double, 4>> sum(scene.skeleton.bones.size(), {0, 0, 0, 0});
    for (const Mesh& m : scene.meshes)
        for (std::size_t v = 0; v < m.influences.size() && v < m.positions.size(); ++v)
            for (const Influence& e : m.influences[v]) {
                if (e.bone >= sum.size() || !(e.weight > 0) || !std::isfinite(e.weight)) continue;
                for (int c = 0; c < 3; ++c) sum[e.bone][c] += double(e.weight) * m.positions[v][c];
                sum[e.bone][3] += e.weight;
            }
    std::vector<std::optional<Vec3>> out(sum.size());
    for (std::size_t b = 0; b < sum.size(); ++b)
        if (sum[b][3] > 0)
            out[b] = Vec3{float(sum[b][0] / sum[b][3]), float(sum[b][1] / sum[b][3]), float(sum[b][2] / sum[b][3])};
    return out;
}

ShapeReport suggest_by_centroids(BoneMapTemplate& t, const std::vector<BoneUsage>& usage,
                                 const std::vector<std::optional<Vec3>>& source,
                                 const std::vector<std::pair<std::string, Vec3>>& target, double max_distance) {
    if (source.empty() || target.empty() || usage.size() != source.size() || t.bones.size() != source.size()) return {};
    std::vector<P> src, dst;
    std::vector<std::string> names;
    for (const auto& c : source) src.push_back(c ? P{(*c)[0], (*c)[1], (*c)[2]} : P{NAN, NAN, NAN});
    for (const auto& [name, c] : target) names.push_back(name), dst.push_back({c[0], c[1], c[2]});
    // No hierarchy on the target side: depth plays no part.
    return match(t, usage, src, std::vector<std::size_t>(src.size(), 0), names, dst, std::vector<std::size_t>(dst.size(), 0),
                 max_distance);
}

}  // namespace mod::scene
