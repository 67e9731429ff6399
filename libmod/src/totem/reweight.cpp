#include "libmod/totem/reweight.hpp"

#include "libmod/totem/mesh_compare.hpp"
#include "libmod/totem/names.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
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

namespace {

std::string coord_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v == 0 ? 0.0 : v);  // no "-0"
    return buf;
}

// "[x0, y0, z0] to [x1, y1, z1]" of the finite points, or "no finite point".
template <class Points, class Get>
std::string box_text(const Points& points, Get get) {
    std::array<double, 3> lo{HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    bool any = false;
    for (const auto& p : points) {
        const std::array<double, 3> v = get(p);
        if (!std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2])) continue;
        any = true;
        for (int c = 0; c < 3; ++c) {
            lo[c] = std::min(lo[c], v[c]);
            hi[c] = std::max(hi[c], v[c]);
        }
    }
    if (!any) return "no finite point";
    return "[" + coord_text(lo[0]) + ", " + coord_text(lo[1]) + ", " + coord_text(lo[2]) + "] to [" + coord_text(hi[0]) +
           ", " + coord_text(hi[1]) + ", " + coord_text(hi[2]) + "]";
}

std::string id_list(const std::vector<std::uint32_t>& ids, std::size_t max = 8) {
    std::string out;
    for (std::size_t i = 0; i < ids.size() && i < max; ++i) out += (i ? ", " : "") + std::to_string(ids[i]);
    if (ids.size() > max) out += ", ... (" + std::to_string(ids.size()) + " in all)";
    return out;
}

std::size_t entry_count(const Skin& skin, std::int32_t group) {
    std::size_t n = 0;
    for (const auto& sec : skin.sections)
        if (sec.group_id == group)
            for (const auto& sub : sec.subsections) n += sub.vertices.size();
    return n;
}

// A matched position whose new weights export to the bytes its stored ones export to keeps its
// stored entries (mesh_compare.hpp's pieces: the same rule as an unedited TotemTech replace).
void keep_unchanged_positions(const Skin& skin, std::int32_t mesh_id,
                              std::vector<std::optional<std::map<std::int32_t, float>>>& new_weights,
                              ReweightReport& report) {
    const auto rank = group_ranks(skin);
    const auto stored = position_weights(skin, mesh_id, new_weights.size());
    for (std::size_t k = 0; k < new_weights.size(); ++k) {
        if (!new_weights[k] || stored[k].empty()) continue;
        const auto before = exported_weights(stored[k], rank);
        if (!before || before->count == 0) continue;
        const std::map<std::int32_t, double> now(new_weights[k]->begin(), new_weights[k]->end());
        if (exported_weights(now, rank) != before) continue;
        new_weights[k].reset();
        ++report.unchanged;
    }
}

}  // namespace

std::string partial_match_warning(const ReweightReport& r) {
    if (r.mesh_positions == 0 || double(r.matched) >= reweight_partial_match_warning * double(r.mesh_positions)) return {};
    return "only " + std::to_string(r.matched) + " of " + std::to_string(r.mesh_positions) +
           " positions matched a model vertex (" + std::to_string(r.unmatched.size()) +
           " keep their old weights): is the model the same mesh, in the same unit and axes?";
}

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
    auto group_text = [&](std::int32_t g) { return group_names.count(g) ? group_names[g] : hash_text(g); };
    if (report.matched == 0 && !mesh.positions.empty())
        throw Error(ErrorKind::format,
                    "none of the " + std::to_string(mesh.positions.size()) + " positions of MESH " + hash_text(mesh_id) +
                        " matched a model vertex within tolerance " + coord_text(options.tolerance) + " (MESH spans " +
                        box_text(mesh.positions, [](const Vec3& v) {
                            return std::array<double, 3>{v[0].value(), v[1].value(), v[2].value()};
                        }) +
                        ", the model " +
                        box_text(source, [](const WeightSourceVertex& v) {
                            return std::array<double, 3>{v.position[0], v.position[1], v.position[2]};
                        }) +
                        "): " + options.no_match_hint);

    // 2. Which section stores each group for this MESH: the first section of that group with a
    // subsection on the MESH. A matched position keeps only those groups, normalised to sum 1.
    std::map<std::int32_t, std::size_t> storing_section;
    for (std::size_t i = 0; i < skin.sections.size(); ++i)
        for (const auto& sub : skin.sections[i].subsections)
            if (targets.count(sub.mesh_index)) {
                storing_section.emplace(skin.sections[i].group_id, i);
                break;
            }
    std::vector<std::uint32_t> weightless;
    for (std::size_t k = 0; k < new_weights.size(); ++k) {
        if (!new_weights[k]) continue;
        std::map<std::int32_t, float> kept;
        double sum = 0;
        for (const auto& [g, wt] : *new_weights[k])
            if (storing_section.count(g)) {
                kept.emplace(g, wt);
                sum += wt;
            }
        if (!(sum > 0)) {
            weightless.push_back(static_cast<std::uint32_t>(k));
            continue;
        }
        if (std::abs(sum - 1.0) > 1e-5) {
            for (auto& [g, wt] : kept) wt = static_cast<float>(double(wt) / sum);
            ++report.normalised;
        }
        new_weights[k] = std::move(kept);
    }
    if (!weightless.empty()) {
        std::string groups;
        for (auto g : used_groups)
            if (!storing_section.count(g)) groups += (groups.empty() ? "" : ", ") + group_text(g);
        throw Error(ErrorKind::format,
                    std::to_string(weightless.size()) + " matched position(s) of MESH " + hash_text(mesh_id) +
                        " (" + id_list(weightless) + ") would be left without weight: the model weights them only in " +
                        (groups.empty() ? std::string("no group at all")
                                        : "groups the SKIN has no section or no subsection for on this MESH (" + groups + ")"),
                    {}, no_offset, index_path("positions", weightless.front()));
    }

    // 2b. A matched position whose new weights export to the same bytes as its stored ones (what
    // an unedited export gives back) keeps its stored entries where they are: an unchanged round
    // trip writes the SKIN it read. It still counts as matched.
    keep_unchanged_positions(skin, mesh_id, new_weights, report);

    // 3. Which position each normal is paired with (first pairing in strip order).
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

    // 4. Rewrite each targeting subsection: the storing section's first one gets the new entries.
    Skin out = skin;
    std::set<std::int32_t> section_groups;
    for (std::size_t si = 0; si < out.sections.size(); ++si) {
        auto& sec = out.sections[si];
        section_groups.insert(sec.group_id);
        bool first = true;
        const auto storing = storing_section.find(sec.group_id);
        const bool stores = storing != storing_section.end() && storing->second == si;
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
            if (first && stores) {
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
            }
            first = false;
            auto by_id = [](const SkinWeight& a, const SkinWeight& b) { return a.id < b.id; };
            std::stable_sort(verts.begin(), verts.end(), by_id);
            std::stable_sort(norms.begin(), norms.end(), by_id);
            sub.vertices = std::move(verts);
            sub.normals = std::move(norms);
        }
        if (first && used_groups.count(sec.group_id) && !storing_section.count(sec.group_id))
            report.groups_without_subsection.push_back(group_text(sec.group_id));
    }
    for (auto g : used_groups)
        if (!section_groups.count(g)) report.unknown_groups.push_back(group_text(g));

    // 5. Refusals on the result: a group emptied, or an invariant the input kept broken.
    for (const auto& sec : skin.sections)
        if (entry_count(skin, sec.group_id) > 0 && entry_count(out, sec.group_id) == 0)
            throw Error(ErrorKind::format,
                        "group " + group_text(sec.group_id) + " would lose all its " +
                            std::to_string(entry_count(skin, sec.group_id)) + " vertex weight(s): the model gives it no weight "
                            "on the positions it moved; a SKIN group that moves nothing is refused",
                        {}, no_offset, "groups[" + group_text(sec.group_id) + "]");
    // The seed's unknown table: one value per subsection, at most its list's length. Said in the
    // SKIN's own terms (issue 30 item 5, ux-review D6), with what to do, before the generic check.
    for (std::size_t i = 0; i < std::min(out.unknown.size(), out.sections.size()); ++i) {
        const auto& subs = out.sections[i].subsections;
        const auto& u = out.unknown[i];
        for (std::size_t j = 0; j < std::min(u.vertices.size(), subs.size()); ++j) {
            const bool broken_before = i < skin.unknown.size() && i < skin.sections.size() &&
                                       j < skin.unknown[i].vertices.size() && j < skin.sections[i].subsections.size() &&
                                       skin.unknown[i].vertices[j] > skin.sections[i].subsections[j].vertices.size();
            if (u.vertices[j] <= subs[j].vertices.size() || broken_before) continue;
            const std::int32_t mesh = subs[j].mesh_index < out.mesh_ids.size() ? out.mesh_ids[subs[j].mesh_index] : 0;
            throw Error(ErrorKind::format,
                        "group " + group_text(out.sections[i].group_id) + " would weight " +
                            std::to_string(subs[j].vertices.size()) + " vertices of MESH " + hash_text(mesh) +
                            ", but the SKIN's unknown table holds " + std::to_string(u.vertices[j]) +
                            " for that subsection and a value above its vertex count is what `totem verify` refuses "
                            "(doc/formats/totem-skin.md): in the model, weight at least " + std::to_string(u.vertices[j]) +
                            " vertices of that MESH to " + group_text(out.sections[i].group_id) +
                            ", or leave the group's weights as they were",
                        {}, no_offset, index_path(index_path("skin.unknown", i) + ".vertices", j));
        }
    }
    const auto lookup = [&](std::int32_t id) -> std::optional<MeshExtent> {
        if (id != mesh_id) return std::nullopt;
        return MeshExtent{static_cast<std::uint32_t>(mesh.positions.size()), static_cast<std::uint32_t>(mesh.normals.size())};
    };
    std::set<std::pair<std::string, std::string>> before;
    for (const auto& f : check_skin(skin, lookup))
        if (f.level == Finding::Level::mismatch) before.emplace(f.path, f.message);
    // Only contradictions: notes about the other targets (not range-checked here) are noise.
    for (auto& f : check_skin(out, lookup)) {
        if (f.level != Finding::Level::mismatch) continue;
        if (!before.count({f.path, f.message}))
            throw Error(ErrorKind::format,
                        "the reweighted SKIN would break an invariant `totem verify` checks: " + f.message,
                        {}, no_offset, f.path);
        report.findings.push_back(std::move(f));
    }
    if (report_out) *report_out = std::move(report);
    return out;
}

}  // namespace mod::totem
