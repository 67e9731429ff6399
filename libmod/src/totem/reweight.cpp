#include "libmod/totem/reweight.hpp"

#include "libmod/totem/names.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

namespace mod::totem {

std::int32_t group_id_of(std::string_view name) {
    if (name.starts_with("0x") || name.starts_with("0X"))
        if (auto id = parse_id(name)) return *id;
    return name_id(name);
}

namespace {

// Buckets source vertices on a grid of cell = tolerance, so a lookup visits 27 cells.
class PositionGrid {
public:
    PositionGrid(std::span<const WeightSourceVertex> source, float tolerance)
        : source_(source), cell_(std::max(tolerance, 1e-12f)) {
        for (std::size_t i = 0; i < source.size(); ++i) cells_[key(source[i].position)].push_back(i);
    }

    // Source indices within `tolerance` of p, nearest first (ties: lower index first).
    std::vector<std::size_t> near(const std::array<float, 3>& p, float tolerance) const {
        std::vector<std::pair<double, std::size_t>> found;
        const auto k = key(p);
        for (std::int64_t dx = -1; dx <= 1; ++dx)
            for (std::int64_t dy = -1; dy <= 1; ++dy)
                for (std::int64_t dz = -1; dz <= 1; ++dz) {
                    auto it = cells_.find({k[0] + dx, k[1] + dy, k[2] + dz});
                    if (it == cells_.end()) continue;
                    for (auto i : it->second) {
                        double d2 = 0;
                        for (int c = 0; c < 3; ++c) {
                            const double d = double(source_[i].position[c]) - double(p[c]);
                            d2 += d * d;
                        }
                        if (d2 <= double(tolerance) * double(tolerance)) found.emplace_back(d2, i);
                    }
                }
        std::sort(found.begin(), found.end());
        std::vector<std::size_t> out;
        for (auto& f : found) out.push_back(f.second);
        return out;
    }

private:
    using Key = std::array<std::int64_t, 3>;
    struct KeyHash {
        std::size_t operator()(const Key& k) const noexcept {
            // Unsigned: cells reach +-4e18 (a tolerance of 1e-30 gives cells of 1e-12), whose
            // products with these primes overflowed a signed multiply (undefined behaviour).
            const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
            return std::hash<std::uint64_t>()(u(k[0]) * 73856093u ^ u(k[1]) * 19349663u ^ u(k[2]) * 83492791u);
        }
    };
    Key key(const std::array<float, 3>& p) const {
        Key k;
        for (int c = 0; c < 3; ++c) {
            const double v = std::floor(double(p[c]) / double(cell_));
            // NaN (a NaN coordinate, or inf / an infinite tolerance) has no cell; converting
            // it would be undefined. Cell 0 is as good as any: a NaN distance matches nothing.
            k[c] = std::isnan(v) ? 0 : static_cast<std::int64_t>(std::clamp(v, -4e18, 4e18));
        }
        return k;
    }
    std::span<const WeightSourceVertex> source_;
    float cell_;
    std::unordered_map<Key, std::vector<std::size_t>, KeyHash> cells_;
};

// A source vertex's weights by group id (same group named twice: summed).
std::map<std::int32_t, float> weights_by_group(const WeightSourceVertex& v, std::size_t index) {
    std::map<std::int32_t, float> out;
    for (const auto& w : v.weights) {
        if (!std::isfinite(w.weight) || w.weight < 0)
            throw Error(ErrorKind::format, "weight " + std::to_string(w.weight) + " for group \"" + w.group +
                                               "\" is negative or not finite",
                        {}, no_offset, "source.vertex[" + std::to_string(index) + "]");
        if (w.weight > 0) out[group_id_of(w.group)] += w.weight;
    }
    return out;
}

}  // namespace

Skin reweight_skin(const Skin& skin, std::int32_t mesh_id, const Mesh& mesh,
                   std::span<const WeightSourceVertex> source, const ReweightOptions& options,
                   ReweightReport* report_out) {
    ReweightReport report;
    std::set<std::uint16_t> targets;
    // Subsections name their mesh with a u16: ids past index 0xFFFF cannot be targeted (and
    // must not wrap onto the index of another mesh).
    for (std::size_t i = 0; i < skin.mesh_ids.size() && i <= 0xFFFF; ++i)
        if (skin.mesh_ids[i] == mesh_id) targets.insert(static_cast<std::uint16_t>(i));
    if (targets.empty())
        throw Error(ErrorKind::usage, "the SKIN does not list mesh " + hash_text(mesh_id) +
                                          (std::find(skin.mesh_ids.begin(), skin.mesh_ids.end(), mesh_id) !=
                                                   skin.mesh_ids.end()
                                               ? " at an index a subsection can name (0-65535)"
                                               : ""));
    if (!(options.tolerance >= 0)) throw Error(ErrorKind::usage, "reweight tolerance must be >= 0");

    // 1. Match every MESH position to its nearest source vertex in range.
    PositionGrid grid(source, options.tolerance);
    report.mesh_positions = mesh.positions.size();
    std::vector<std::optional<std::map<std::int32_t, float>>> new_weights(mesh.positions.size());
    std::set<std::int32_t> used_groups;
    std::map<std::int32_t, std::string> group_names;
    for (std::size_t k = 0; k < mesh.positions.size(); ++k) {
        const std::array<float, 3> p{mesh.positions[k][0].value(), mesh.positions[k][1].value(),
                                     mesh.positions[k][2].value()};
        auto near = grid.near(p, options.tolerance);
        if (near.empty()) {
            report.unmatched.push_back(static_cast<std::uint32_t>(k));
            continue;
        }
        auto w = weights_by_group(source[near[0]], near[0]);
        for (std::size_t j = 1; j < near.size(); ++j)
            if (weights_by_group(source[near[j]], near[j]) != w) {
                ++report.conflicting;
                break;
            }
        for (const auto& nw : source[near[0]].weights) group_names.emplace(group_id_of(nw.group), nw.group);
        for (auto& [g, _] : w) used_groups.insert(g);
        new_weights[k] = std::move(w);
        ++report.matched;
    }

    // 2. Which position each normal is paired with (first pairing in strip order).
    std::vector<std::optional<std::uint32_t>> normal_position(mesh.normals.size());
    for (std::size_t s = 0; s < mesh.strips.size() && s < mesh.strip_corners.size(); ++s) {
        const auto& ids = mesh.strips[s].vertex_ids;
        const auto& corners = mesh.strip_corners[s];
        for (std::size_t c = 0; c < std::min(ids.size(), corners.size()); ++c) {
            const auto n = corners[c].normal_id;
            if (n < normal_position.size() && !normal_position[n]) normal_position[n] = ids[c];
        }
    }
    auto normal_matched = [&](std::uint32_t n) {
        return n < normal_position.size() && normal_position[n] && *normal_position[n] < new_weights.size() &&
               new_weights[*normal_position[n]].has_value();
    };

    // 3. Rewrite each targeting subsection: first one per section gets the new entries.
    Skin out = skin;
    std::set<std::int32_t> section_groups;
    for (auto& sec : out.sections) {
        section_groups.insert(sec.group_id);
        bool first = true;
        for (auto& sub : sec.subsections) {
            if (!targets.count(sub.mesh_index)) continue;
            std::vector<SkinWeight> verts, norms;
            for (const auto& e : sub.vertices)
                if (e.id >= new_weights.size() || !new_weights[e.id]) verts.push_back(e);
            for (const auto& e : sub.normals)
                if (!normal_matched(e.id)) {
                    norms.push_back(e);
                    ++report.normals_kept;
                }
            if (first) {
                for (std::size_t k = 0; k < new_weights.size(); ++k) {
                    if (!new_weights[k]) continue;
                    auto it = new_weights[k]->find(sec.group_id);
                    if (it != new_weights[k]->end()) verts.push_back({static_cast<std::uint32_t>(k), F32::of(it->second)});
                }
                for (std::size_t n = 0; n < normal_position.size(); ++n) {
                    if (!normal_matched(static_cast<std::uint32_t>(n))) continue;
                    const auto& w = *new_weights[*normal_position[n]];
                    auto it = w.find(sec.group_id);
                    if (it != w.end()) {
                        norms.push_back({static_cast<std::uint32_t>(n), F32::of(it->second)});
                        ++report.normals_rewritten;
                    }
                }
                first = false;
            }
            auto by_id = [](const SkinWeight& a, const SkinWeight& b) { return a.id < b.id; };
            std::stable_sort(verts.begin(), verts.end(), by_id);
            std::stable_sort(norms.begin(), norms.end(), by_id);
            sub.vertices = std::move(verts);
            sub.normals = std::move(norms);
        }
        if (first && used_groups.count(sec.group_id))
            report.groups_without_subsection.push_back(group_names.count(sec.group_id) ? group_names[sec.group_id]
                                                                                       : hash_text(sec.group_id));
    }
    for (auto g : used_groups)
        if (!section_groups.count(g)) report.unknown_groups.push_back(group_names.count(g) ? group_names[g] : hash_text(g));

    // Only contradictions: notes about the other targets (not range-checked here) are noise.
    for (auto& f : check_skin(out, [&](std::int32_t id) -> std::optional<MeshExtent> {
             if (id != mesh_id) return std::nullopt;
             return MeshExtent{static_cast<std::uint32_t>(mesh.positions.size()),
                               static_cast<std::uint32_t>(mesh.normals.size())};
         }))
        if (f.level == Finding::Level::mismatch) report.findings.push_back(std::move(f));
    if (report_out) *report_out = std::move(report);
    return out;
}

}  // namespace mod::totem
