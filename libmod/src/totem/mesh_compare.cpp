#include "libmod/totem/mesh_compare.hpp"

#include "libmod/scene/weights.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <bit>
#include <map>
#include <set>
#include <vector>

namespace mod::totem {

namespace {

using Corner = std::array<std::uint32_t, 8>;  // position xyz, uv, normal xyz bits
using Triangle = std::pair<std::uint32_t, std::array<Corner, 3>>;  // material id, corners from the smallest

std::optional<std::multiset<Triangle>> value_triangles(const Mesh& m, bool as_exported) {
    std::multiset<Triangle> out;
    std::vector<MeshTriangle> tris;
    try {
        tris = build_triangles(m);
    } catch (const Error&) {
        return std::nullopt;
    }
    for (const auto& t : tris) {
        std::array<Corner, 3> v{};
        for (int c = 0; c < 3; ++c) {
            const auto& k = t.corners[c];
            if (k.position >= m.positions.size() || k.texcoord >= m.texcoords.size() || k.normal >= m.normals.size())
                return std::nullopt;
            const auto& p = m.positions[k.position];
            const auto& uv = m.texcoords[k.texcoord];
            const auto& n = m.normals[k.normal];
            const std::uint32_t v_bits = as_exported ? std::bit_cast<std::uint32_t>(1.0f - (1.0f - uv[1].value())) : uv[1].bits;
            v[c] = {p[0].bits, p[1].bits, p[2].bits, uv[0].bits, v_bits, n[0].bits, n[1].bits, n[2].bits};
        }
        const int r = v[0] <= v[1] && v[0] <= v[2] ? 0 : (v[1] <= v[2] ? 1 : 2);
        const std::uint32_t material = m.materials.empty() ? t.material_index : strip_material(m, t.material_index);
        const std::uint32_t id = material < m.materials.size() ? std::uint32_t(m.materials[material]) : material;
        out.insert({id, {v[r], v[(r + 1) % 3], v[(r + 2) % 3]}});
    }
    return out;
}

using PositionKey = std::array<std::uint32_t, 3>;

// Quantised weights per position value; nullopt when two positions of one value disagree.
std::optional<std::map<PositionKey, scene::SkinWeights>> weights_by_value(const Skin& s, const Mesh& m, std::int32_t mesh_id,
                                                                          const std::map<std::int32_t, std::uint32_t>& rank) {
    const auto per_id = position_weights(s, mesh_id, m.positions.size());
    std::map<PositionKey, scene::SkinWeights> out;
    for (std::size_t i = 0; i < per_id.size(); ++i) {
        const auto q = exported_weights(per_id[i], rank);
        if (!q) return std::nullopt;  // a group `before` has no section for
        const auto& p = m.positions[i];
        const auto [it, fresh] = out.emplace(PositionKey{p[0].bits, p[1].bits, p[2].bits}, *q);
        if (!fresh && !(it->second == *q)) return std::nullopt;
    }
    return out;
}

}  // namespace

bool same_drawn_triangles(const Mesh& before, const Mesh& after) {
    const auto a = value_triangles(before, true), b = value_triangles(after, false);
    return a && b && *a == *b;
}

bool same_weights(const Skin& before, const Mesh& before_mesh, const Skin& after, const Mesh& after_mesh,
                  std::int32_t mesh_id) {
    const auto rank = group_ranks(before);
    const auto a = weights_by_value(before, before_mesh, mesh_id, rank), b = weights_by_value(after, after_mesh, mesh_id, rank);
    return a && b && *a == *b;
}

std::map<std::int32_t, std::uint32_t> group_ranks(const Skin& skin) {
    std::map<std::int32_t, std::uint32_t> rank;
    for (std::size_t i = 0; i < skin.sections.size(); ++i) rank.emplace(skin.sections[i].group_id, static_cast<std::uint32_t>(i));
    return rank;
}

std::vector<std::map<std::int32_t, double>> position_weights(const Skin& skin, std::int32_t mesh_id, std::size_t positions) {
    std::vector<std::map<std::int32_t, double>> out(positions);
    for (const auto& sec : skin.sections)
        for (const auto& sub : sec.subsections)
            if (sub.mesh_index < skin.mesh_ids.size() && skin.mesh_ids[sub.mesh_index] == mesh_id)
                for (const auto& e : sub.vertices)
                    if (e.id < positions && std::isfinite(e.weight.value())) out[e.id][sec.group_id] += e.weight.value();
    return out;
}

std::optional<scene::SkinWeights> exported_weights(const std::map<std::int32_t, double>& weights,
                                                   const std::map<std::int32_t, std::uint32_t>& rank) {
    std::vector<scene::Influence> influences;
    for (const auto& [g, w] : weights) {
        if (!(w > 0)) continue;
        const auto r = rank.find(g);
        if (r == rank.end()) return std::nullopt;
        influences.push_back({r->second, float(w)});
    }
    scene::WeightOptions options;
    options.allow_unweighted = true;
    return scene::quantise_influences(influences, options);
}

}  // namespace mod::totem
