// Building a MESH record from triangle meshes: de-duplication, materials, strips, corner lists.
#include "libmod/totem/mesh_build.hpp"

#include "libmod/totem/names.hpp"
#include "libmod/totem/strips.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <tuple>

namespace mod::totem {

namespace {

using Bits3 = std::array<std::uint32_t, 3>;
using Bits2 = std::array<std::uint32_t, 2>;
using WeightBits = std::vector<std::pair<std::int32_t, std::uint32_t>>;

Bits3 bits(const std::array<float, 3>& v) {
    return {std::bit_cast<std::uint32_t>(v[0]), std::bit_cast<std::uint32_t>(v[1]), std::bit_cast<std::uint32_t>(v[2])};
}
Bits2 bits(const std::array<float, 2>& v) { return {std::bit_cast<std::uint32_t>(v[0]), std::bit_cast<std::uint32_t>(v[1])}; }
WeightBits bits(const GroupWeights& w) {
    WeightBits out;
    for (const auto& [g, x] : w) out.emplace_back(g, std::bit_cast<std::uint32_t>(x));
    return out;
}
Vec3 f32(const Bits3& b) { return {F32{b[0]}, F32{b[1]}, F32{b[2]}}; }
Vec2 f32(const Bits2& b) { return {F32{b[0]}, F32{b[1]}}; }
float up(double v) { return std::nextafter(static_cast<float>(v), HUGE_VALF); }

// One corner of the source: what a strip entry stores (position with its weights, UV, normal).
struct Key {
    Bits3 position;
    WeightBits weights;
    Bits2 uv;
    Bits3 normal;
    auto tie() const { return std::tie(position, weights, uv, normal); }
    bool operator<(const Key& o) const { return tie() < o.tie(); }
};

void check_part(const MeshSourcePart& p, const std::string& label) {
    const std::string where = "MESH " + label + ", source mesh '" + p.name + "'";
    const std::size_t n = p.positions.size();
    if (p.normals.size() != n || p.uvs.size() != n || (!p.weights.empty() && p.weights.size() != n))
        throw Error(ErrorKind::format, where + ": per-vertex arrays of different lengths");
    for (std::size_t v = 0; v < n; ++v) {
        for (float x : p.positions[v])
            if (!std::isfinite(x)) throw Error(ErrorKind::format, where + ": vertex " + std::to_string(v) + " has a non-finite position");
        for (float x : p.normals[v])
            if (!std::isfinite(x)) throw Error(ErrorKind::format, where + ": vertex " + std::to_string(v) + " has a non-finite normal");
        for (float x : p.uvs[v])
            if (!std::isfinite(x)) throw Error(ErrorKind::format, where + ": vertex " + std::to_string(v) + " has a non-finite UV");
    }
    for (std::size_t t = 0; t < p.triangles.size(); ++t)
        for (auto i : p.triangles[t])
            if (i >= n)
                throw Error(ErrorKind::format, where + ": triangle " + std::to_string(t) + " names vertex " + std::to_string(i) +
                                                   " of " + std::to_string(n));
}

void check_limit(std::size_t count, const char* what, const std::string& label) {
    if (count > mesh_max_ids)
        throw Error(ErrorKind::limit, "MESH " + label + " would need " + std::to_string(count) + " " + what +
                                          "; a MESH stores at most 65,536 (strip entries and corner lists hold 16-bit ids): "
                                          "split the model into several MESHes or simplify it");
}

}  // namespace

BoundingSphere bounding_sphere(std::span<const Vec3> points) {
    BoundingSphere s;
    if (points.empty()) return s;
    std::array<double, 3> lo{HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (const auto& p : points)
        for (int c = 0; c < 3; ++c) {
            lo[c] = std::min(lo[c], double(p[c].value()));
            hi[c] = std::max(hi[c], double(p[c].value()));
        }
    for (int c = 0; c < 3; ++c) s.centre[c] = static_cast<float>((lo[c] + hi[c]) / 2);
    double r2 = 0;
    for (const auto& p : points) {
        double d2 = 0;
        for (int c = 0; c < 3; ++c) d2 += (double(p[c].value()) - s.centre[c]) * (double(p[c].value()) - s.centre[c]);
        r2 = std::max(r2, d2);
    }
    s.radius = up(std::sqrt(r2));
    return s;
}

bool sphere_holds(std::span<const Vec3> points, const std::array<float, 3>& centre, float radius, double slack) {
    if (!std::isfinite(radius) || radius < 0) return false;
    const double limit = double(radius) * (1 + slack);
    for (const auto& p : points) {
        double d2 = 0;
        for (int c = 0; c < 3; ++c) d2 += (double(p[c].value()) - centre[c]) * (double(p[c].value()) - centre[c]);
        if (!(std::sqrt(d2) <= limit)) return false;
    }
    return true;
}

void recompute_shapes(Mesh& m) {
    if (m.positions.empty()) return;
    std::array<double, 3> lo{HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (const auto& p : m.positions)
        for (int c = 0; c < 3; ++c) {
            lo[c] = std::min(lo[c], double(p[c].value()));
            hi[c] = std::max(hi[c], double(p[c].value()));
        }
    if (!m.spheres.empty()) {
        const BoundingSphere s = bounding_sphere(m.positions);
        m.spheres.resize(1);
        m.spheres[0] = {{F32::of(s.centre[0]), F32::of(s.centre[1]), F32::of(s.centre[2])}, F32::of(s.radius)};
    }
    if (!m.cuboids.empty()) {
        m.cuboids.resize(1);
        auto& mat = m.cuboids[0].matrix;
        mat.fill(F32::of(0.0f));
        for (int c = 0; c < 3; ++c) {
            mat[c * 5] = F32::of(up((hi[c] - lo[c]) / 2));
            mat[12 + c] = F32::of(static_cast<float>((lo[c] + hi[c]) / 2));
        }
        mat[15] = F32::of(1.0f);
    }
    if (!m.cylinders.empty()) {
        m.cylinders.resize(1);
        MeshCylinder& cyl = m.cylinders[0];
        std::array<double, 3> axis{cyl.axis[0].value(), cyl.axis[1].value(), cyl.axis[2].value()};
        double len = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        if (!std::isfinite(len) || len == 0) axis = {0, 1, 0}, len = 1;
        for (auto& a : axis) a /= len;
        const std::array<double, 3> centre{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
        double tmin = HUGE_VAL, tmax = -HUGE_VAL, r2 = 0;
        for (const auto& p : m.positions) {
            std::array<double, 3> d;
            for (int c = 0; c < 3; ++c) d[c] = double(p[c].value()) - centre[c];
            const double t = d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2];
            tmin = std::min(tmin, t);
            tmax = std::max(tmax, t);
            double q2 = 0;
            for (int c = 0; c < 3; ++c) q2 += (d[c] - t * axis[c]) * (d[c] - t * axis[c]);
            r2 = std::max(r2, q2);
        }
        for (int c = 0; c < 3; ++c) {
            cyl.position[c] = F32::of(static_cast<float>(centre[c] + tmin * axis[c]));
            cyl.axis[c] = F32::of(static_cast<float>(axis[c]));
        }
        cyl.height = F32::of(up(tmax - tmin));
        cyl.radius = F32::of(up(std::sqrt(r2)));
    }
}

BuiltMesh build_mesh(const Mesh& old, std::span<const MeshSourcePart> parts, const std::string& label,
                     MeshBuildReport* report_out) {
    MeshBuildReport report;
    if (old.unknown_shape_count != 0)
        throw Error(ErrorKind::format, "MESH " + label + " has " + std::to_string(old.unknown_shape_count) +
                                           " entries in the shape list whose layout nobody knows; it cannot be rebuilt "
                                           "without losing them");
    for (const auto& p : parts) check_part(p, label);

    // Materials: the old list first (strip material indices keep their meaning), new ones in
    // order of first use.
    BuiltMesh out;
    Mesh& m = out.mesh;
    m.header = old.header;
    m.materials = old.materials;
    std::vector<std::uint32_t> part_material(parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
        auto it = std::find(m.materials.begin(), m.materials.end(), parts[i].material);
        if (it == m.materials.end()) {
            m.materials.push_back(parts[i].material);
            it = m.materials.end() - 1;
            report.notes.push_back("material " + hash_text(parts[i].material) + " appended to the MESH's material list");
        }
        part_material[i] = static_cast<std::uint32_t>(it - m.materials.begin());
    }
    // noclip reads a subtype-4 MESH's strips relative to the smallest index (totem-mesh.md,
    // hypothesis totem-strip-material-index/1): when no source part uses the list's first
    // material, the used materials move to the front (old order kept within each group) so
    // Chum World's and noclip's rules name the same material for every new strip.
    if (m.header.item_subtype == 4 && !parts.empty() && !m.materials.empty() &&
        std::find(part_material.begin(), part_material.end(), 0u) == part_material.end()) {
        std::vector<bool> used(m.materials.size(), false);
        for (auto pm : part_material) used[pm] = true;
        std::vector<std::uint32_t> new_position(m.materials.size());
        std::vector<std::int32_t> reordered;
        for (int pass = 0; pass < 2; ++pass)
            for (std::size_t i = 0; i < m.materials.size(); ++i)
                if (used[i] == (pass == 0)) {
                    new_position[i] = static_cast<std::uint32_t>(reordered.size());
                    reordered.push_back(m.materials[i]);
                }
        m.materials = std::move(reordered);
        for (auto& pm : part_material) pm = new_position[pm];
        report.notes.push_back("material list reordered so its first material is used: the MESH has subtype 4, where "
                               "noclip reads strip indices relative to the smallest one (hypothesis "
                               "totem-strip-material-index/1); both public readers then name the same materials");
    }
    const bool corners = !old.strip_corners.empty() || old.strips.empty();
    if (!corners)
        report.notes.push_back("the old MESH has no corner lists (the PS2 case): positions, UVs and normals are written "
                               "as parallel arrays indexed by the strip entry (hypothesis totem-ps2-corners/1)");

    // Canonical corner ids: every distinct corner, sorted by value, so the strips depend only
    // on the set of triangles (a replace from our own export of a replaced MESH is a fixpoint).
    std::map<Key, std::uint32_t> key_ids;
    std::vector<std::vector<std::uint32_t>> part_ids(parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto& p = parts[i];
        part_ids[i].resize(p.positions.size(), 0);
        for (std::size_t v = 0; v < p.positions.size(); ++v)
            key_ids.emplace(Key{bits(p.positions[v]), p.weights.empty() ? WeightBits{} : bits(p.weights[v]), bits(p.uvs[v]),
                                bits(p.normals[v])},
                            0);
    }
    std::vector<const Key*> keys;
    for (auto& [k, id] : key_ids) {
        id = static_cast<std::uint32_t>(keys.size());
        keys.push_back(&k);
    }
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto& p = parts[i];
        for (std::size_t v = 0; v < p.positions.size(); ++v)
            part_ids[i][v] = key_ids.at(Key{bits(p.positions[v]), p.weights.empty() ? WeightBits{} : bits(p.weights[v]),
                                            bits(p.uvs[v]), bits(p.normals[v])});
    }

    // Strips per material, in material-list order; triangles turned to the game's order
    // (scene (A, B, C) counter-clockwise = MESH (A, C, B), as totem export writes (0, 2, 1)).
    std::vector<std::pair<std::uint32_t, BuiltStrip>> strips;
    for (std::uint32_t mi = 0; mi < m.materials.size(); ++mi) {
        std::vector<std::array<std::uint32_t, 3>> tris;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            if (part_material[i] != mi) continue;
            for (const auto& t : parts[i].triangles) {
                std::array<std::uint32_t, 3> g{part_ids[i][t[0]], part_ids[i][t[2]], part_ids[i][t[1]]};
                const int r = g[0] <= g[1] && g[0] <= g[2] ? 0 : (g[1] <= g[2] ? 1 : 2);
                tris.push_back({g[r], g[(r + 1) % 3], g[(r + 2) % 3]});
            }
        }
        if (tris.empty()) continue;
        std::sort(tris.begin(), tris.end());
        StripStats st;
        for (auto& s : make_strips(tris, keys.size(), &st)) strips.emplace_back(mi, std::move(s));
        report.source_triangles += st.triangles;
        report.degenerate_dropped += st.degenerate_dropped;
    }

    // Array ids in order of first use in the strips.
    std::map<std::pair<Bits3, WeightBits>, std::uint16_t> pos_ids;
    std::map<Bits2, std::uint16_t> uv_ids;
    std::map<std::pair<Bits3, WeightBits>, std::uint16_t> normal_ids;
    std::map<std::uint32_t, std::uint16_t> flat_ids;  // parallel arrays: one id per corner
    auto fresh = [&](std::size_t size, const char* what) {
        check_limit(size + 1, what, label);
        return static_cast<std::uint16_t>(size);
    };
    // The old record's index base: when its strips name materials past the list (Chum World
    // reads index % n), new strips keep the largest multiple of the new list length not above
    // the old smallest index, so they resolve to their list position under that rule too.
    std::uint32_t base = 0;
    if (!old.strips.empty() && !m.materials.empty()) {
        const auto n = static_cast<std::uint32_t>(m.materials.size());
        base = smallest_strip_index(old) / n * n;
        if (base > 0xFFFFFFFFu - (n - 1)) base -= n;
        if (base != 0)
            report.notes.push_back("strip material indices start at " + std::to_string(base) +
                                   " as the old record's did (read as index % " + std::to_string(n) +
                                   ", hypothesis totem-strip-material-index/1)");
    }
    for (auto& [mi, s] : strips) {
        MeshStrip ms;
        ms.material_index = base + mi;
        ms.tri_order = s.tri_order;
        std::vector<StripCorner> list;
        for (auto c : s.corners) {
            const Key& k = *keys[c];
            GroupWeights w;
            for (const auto& [g, b] : k.weights) w.emplace_back(g, std::bit_cast<float>(b));
            if (!corners) {
                auto [it, added] = flat_ids.try_emplace(c, 0);
                if (added) {
                    it->second = fresh(m.positions.size(), "vertices");
                    m.positions.push_back(f32(k.position));
                    m.texcoords.push_back(f32(k.uv));
                    m.normals.push_back(f32(k.normal));
                    out.position_weights.push_back(w);
                    out.normal_weights.push_back(w);
                }
                ms.vertex_ids.push_back(it->second);
                continue;
            }
            auto [p, p_new] = pos_ids.try_emplace({k.position, k.weights}, 0);
            if (p_new) {
                p->second = fresh(m.positions.size(), "positions");
                m.positions.push_back(f32(k.position));
                out.position_weights.push_back(w);
            }
            auto [u, u_new] = uv_ids.try_emplace(k.uv, 0);
            if (u_new) {
                u->second = fresh(m.texcoords.size(), "UVs");
                m.texcoords.push_back(f32(k.uv));
            }
            auto [n, n_new] = normal_ids.try_emplace({k.normal, k.weights}, 0);
            if (n_new) {
                n->second = fresh(m.normals.size(), "normals");
                m.normals.push_back(f32(k.normal));
                out.normal_weights.push_back(w);
            }
            ms.vertex_ids.push_back(p->second);
            list.push_back({u->second, n->second});
        }
        report.strip_entries += ms.vertex_ids.size();
        m.strips.push_back(std::move(ms));
        if (corners) m.strip_corners.push_back(std::move(list));
    }
    report.strips = m.strips.size();
    if (m.strips.size() > 0xFFFFFFFFu) throw Error(ErrorKind::limit, "MESH " + label + ": too many strips");

    // Per-strip group ids (subtype bit 2): meaning unknown (Chum World's research calls the bit
    // COLLISION). Hypothesis: a strip takes the id of the first old strip of its material.
    if (old.has_strip_groups_flag()) {
        std::vector<std::int32_t> groups;
        for (const auto& s : m.strips) {
            std::int32_t g = 0;
            if (old.strip_groups)
                for (std::size_t i = 0; i < old.strips.size() && i < old.strip_groups->size(); ++i)
                    if (const std::uint32_t k = strip_material(old, old.strips[i].material_index);
                        k < old.materials.size() && old.materials[k] == m.materials[s.material_index - base]) {
                        g = (*old.strip_groups)[i];
                        break;
                    }
            groups.push_back(g);
        }
        m.strip_groups = std::move(groups);
        report.notes.push_back("per-strip group ids (meaning unknown) copied from the first old strip of the same "
                               "material, 0 for a new material (hypothesis totem-strip-groups/1)");
    }
    for (std::size_t i = 0; i < m.strips.size(); ++i) m.strip_order.push_back(static_cast<std::uint32_t>(i));
    if (const StripIndexCensus c = strip_index_census(m); c.strips_rules_differ)
        report.notes.push_back(std::to_string(c.strips_rules_differ) + " strip(s) would show another material under "
                               "noclip's rule (subtype 4: minus the smallest index " + std::to_string(smallest_strip_index(m)) +
                               ") than under Chum World's (index % n), which this MESH is written for: the first "
                               "material of the list is not used (hypothesis totem-strip-material-index/1)");

    m.spheres = old.spheres;
    m.cuboids = old.cuboids;
    m.cylinders = old.cylinders;
    recompute_shapes(m);

    // The header's four leading floats: recomputed as a bounding sphere only when the old values
    // were one for the old geometry (hypothesis totem-header-sphere/1); otherwise kept.
    const std::array<float, 3> old_centre{old.header.unknown[0].value(), old.header.unknown[1].value(),
                                          old.header.unknown[2].value()};
    const float old_radius = old.header.unknown[3].value();
    const BoundingSphere old_tight = bounding_sphere(old.positions);
    if (!old.positions.empty() && old_radius > 0 && sphere_holds(old.positions, old_centre, old_radius) &&
        old_radius <= 2 * old_tight.radius + 1e-6f && !m.positions.empty()) {
        const BoundingSphere s = bounding_sphere(m.positions);
        m.header.unknown = {F32::of(s.centre[0]), F32::of(s.centre[1]), F32::of(s.centre[2]), F32::of(s.radius)};
        report.notes.push_back("header floats 0..3 were a bounding sphere of the old geometry: recomputed for the new one");
    } else {
        report.notes.push_back("header floats 0..3 kept: the old values are not a bounding sphere of the old geometry "
                               "(their meaning is unknown)");
    }
    if (report_out) *report_out = std::move(report);
    return out;
}

}  // namespace mod::totem
