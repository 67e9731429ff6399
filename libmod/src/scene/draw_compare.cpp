#include "libmod/scene/draw_compare.hpp"

#include "libmod/scene/weights.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <vector>

namespace mod::scene {

namespace {

using Words = std::vector<std::uint32_t>;

void put(Words& w, float f) { w.push_back(std::bit_cast<std::uint32_t>(f)); }

// A value on a grid of `step` (0: its bits), so that float noise below the step compares equal.
void put_on(Words& w, float f, float step) {
    if (step <= 0.0f || !std::isfinite(f)) return put(w, f);
    const double q = std::nearbyint(double(f) / double(step));
    const auto i = static_cast<std::int64_t>(std::clamp(q, -9.0e18, 9.0e18));
    w.push_back(static_cast<std::uint32_t>(std::uint64_t(i) >> 32));
    w.push_back(static_cast<std::uint32_t>(std::uint64_t(i)));
}

// The look of a material as words (texture pixels included), so equal looks compare equal.
Words material_look(const Scene& s, std::uint32_t material) {
    Words w;
    if (material >= s.material_info.size()) {
        w.push_back(0xFFFFFFFFu);  // no record: looks like every other scene's plain material
        return w;
    }
    const MaterialInfo& m = s.material_info[material];
    for (float c : m.base_colour) put(w, c);
    w.push_back(static_cast<std::uint32_t>(m.alpha));
    put(w, m.alpha == AlphaMode::mask ? m.alpha_cutoff : 0.0f);
    w.push_back(m.unlit);
    if (m.texture) {
        const auto& t = *m.texture;
        w.insert(w.end(), {1u, t.width, t.height, std::uint32_t(t.wrap_s), std::uint32_t(t.wrap_t)});
        for (std::size_t i = 0; i + 3 < t.rgba.size(); i += 4) {
            std::uint32_t px;
            std::memcpy(&px, t.rgba.data() + i, 4);
            w.push_back(px);
        }
    } else {
        w.push_back(0u);
    }
    return w;
}

// Per vertex: the weights as (bone name, byte) pairs, processed as an export stores them.
std::vector<std::vector<std::pair<std::string, std::uint32_t>>> vertex_weights(const Scene& s, const Mesh& m) {
    std::vector<std::vector<std::pair<std::string, std::uint32_t>>> out(m.vertex_count());
    std::vector<SkinWeights> skin = m.skin;
    if (skin.empty() && !m.influences.empty()) {
        Mesh copy = m;
        try {
            WeightOptions o;
            o.allow_unweighted = true;
            process_weights(copy, o);
            skin = std::move(copy.skin);
        } catch (const Error&) {
            for (std::size_t v = 0; v < m.vertex_count() && v < m.influences.size(); ++v)
                for (const auto& inf : m.influences[v])
                    out[v].emplace_back(inf.bone < s.skeleton.bones.size() ? s.skeleton.bones[inf.bone].name : "?",
                                        std::bit_cast<std::uint32_t>(inf.weight));
            return out;
        }
    }
    for (std::size_t v = 0; v < skin.size() && v < out.size(); ++v)
        for (std::uint8_t k = 0; k < skin[v].count && k < 4; ++k) {
            const auto b = skin[v].bones[k];
            out[v].emplace_back(b < s.skeleton.bones.size() ? s.skeleton.bones[b].name : "?", skin[v].weights[k]);
        }
    for (auto& list : out) std::sort(list.begin(), list.end());
    return out;
}

struct Corner {
    Words values;
    std::vector<std::pair<std::string, std::uint32_t>> weights;
    auto operator<=>(const Corner&) const = default;
};
using Triangle = std::pair<std::size_t, std::array<Corner, 3>>;  // look id, corners from the smallest

std::multiset<Triangle> triangles(const Scene& s, std::map<Words, std::size_t>& looks, const DrawTolerance& tol) {
    std::multiset<Triangle> out;
    for (const auto& m : s.meshes) {
        const auto look = looks.emplace(material_look(s, m.material), looks.size()).first->second;
        const auto weights = vertex_weights(s, m);
        auto corner = [&](std::uint32_t v) {
            Corner c;
            if (v >= m.vertex_count()) {
                c.values = {0xFFFFFFFFu};
                return c;
            }
            for (float f : m.positions[v]) put_on(c.values, f, tol.position);
            if (v < m.normals.size())
                for (float f : m.normals[v]) put_on(c.values, f, tol.normal);
            if (v < m.uv0.size())
                for (float f : m.uv0[v]) put_on(c.values, f, tol.uv);
            // No COLOR_0 is white (glTF), so a producer that writes white colours draws alike.
            const Vec4 colour = v < m.colours.size() ? m.colours[v] : Vec4{1, 1, 1, 1};
            for (float f : colour) put_on(c.values, f, tol.colour);
            c.weights = weights[v];
            return c;
        };
        for (const auto& t : m.triangles) {
            std::array<Corner, 3> c{corner(t[0]), corner(t[1]), corner(t[2])};
            const int r = c[0] <= c[1] && c[0] <= c[2] ? 0 : (c[1] <= c[2] ? 1 : 2);
            out.insert({look, {c[r], c[(r + 1) % 3], c[(r + 2) % 3]}});
        }
    }
    return out;
}

bool same_skeleton(const Skeleton& a, const Skeleton& b, float step) {
    if (a.bones.size() != b.bones.size()) return false;
    for (std::size_t i = 0; i < a.bones.size(); ++i) {
        const auto &x = a.bones[i], &y = b.bones[i];
        if (x.name != y.name || x.parent != y.parent) return false;
        for (int k = 0; k < 16; ++k) {
            Words wx, wy;
            put_on(wx, x.bind[k], step);
            put_on(wy, y.bind[k], step);
            if (wx != wy) return false;
        }
    }
    return true;
}

}  // namespace

bool draws_alike(const Scene& a, const Scene& b, const DrawTolerance& tolerance) {
    if (!same_skeleton(a.skeleton, b.skeleton, tolerance.position)) return false;
    std::map<Words, std::size_t> looks;
    return triangles(a, looks, tolerance) == triangles(b, looks, tolerance);
}

}  // namespace mod::scene
