// Tangent generation (contract in tangents.hpp).
#include "scene/tangents.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace mod::scene {
namespace {

struct D3 {
    double x = 0, y = 0, z = 0;
    D3 operator-(const D3& o) const { return {x - o.x, y - o.y, z - o.z}; }
    D3 operator+(const D3& o) const { return {x + o.x, y + o.y, z + o.z}; }
    D3 operator*(double s) const { return {x * s, y * s, z * s}; }
    double dot(const D3& o) const { return x * o.x + y * o.y + z * o.z; }
    D3 cross(const D3& o) const { return {y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x}; }
    double length() const { return std::sqrt(dot(*this)); }
};

D3 d3(const Vec3& v) { return {v[0], v[1], v[2]}; }

// Any unit vector perpendicular to n (the axis least aligned with n, made orthogonal).
D3 perpendicular(const D3& n) {
    D3 axis = std::abs(n.x) < 0.9 ? D3{1, 0, 0} : D3{0, 1, 0};
    D3 t = axis - n * n.dot(axis);
    double l = t.length();
    return l > 0 ? t * (1 / l) : D3{1, 0, 0};
}

}  // namespace

std::vector<Vec4> generate_tangents(std::span<const Vec3> positions, std::span<const Vec3> normals,
                                    std::span<const Vec2> uv, std::span<const std::array<std::uint32_t, 3>> triangles) {
    std::size_t n = positions.size();
    // Vertices with identical position and UV share one accumulator: files that store one
    // vertex per triangle corner (FBX, with float noise in the corner normals) would otherwise
    // get one tangent per face. Each vertex then orthogonalises against its own normal.
    std::vector<std::uint32_t> group(n);
    std::uint32_t groups = 0;
    {
        // Key: the bits of x, y, z, u, v; open addressing over the first vertex of each group.
        using Key = std::array<std::uint32_t, 5>;
        auto key_of = [&](std::size_t v) {
            Key key{};
            std::memcpy(key.data(), positions[v].data(), sizeof(Vec3));
            if (v < uv.size()) std::memcpy(key.data() + 3, uv[v].data(), sizeof(Vec2));
            return key;
        };
        std::size_t capacity = 16;
        while (capacity < 2 * n) capacity *= 2;
        std::vector<std::uint32_t> table(capacity, 0);  // first vertex + 1, 0 = empty
        for (std::size_t v = 0; v < n; ++v) {
            Key key = key_of(v);
            std::uint64_t h = 0;
            for (auto w : key) h = (h ^ w) * 0x9E3779B97F4A7C15ull;
            h ^= h >> 29;
            for (std::size_t at = h & (capacity - 1);; at = (at + 1) & (capacity - 1)) {
                if (table[at] == 0) {
                    table[at] = static_cast<std::uint32_t>(v + 1);
                    group[v] = groups++;
                    break;
                }
                std::size_t first = table[at] - 1;
                if (key_of(first) == key) {
                    group[v] = group[first];
                    break;
                }
            }
        }
    }
    // One accumulator per group (FBX: about one per control point and UV, not per corner).
    std::vector<D3> sdir(groups), tdir(groups);
    if (uv.size() == n) {
        for (const auto& tri : triangles) {
            if (tri[0] >= n || tri[1] >= n || tri[2] >= n) continue;
            D3 e1 = d3(positions[tri[1]]) - d3(positions[tri[0]]);
            D3 e2 = d3(positions[tri[2]]) - d3(positions[tri[0]]);
            double du1 = double(uv[tri[1]][0]) - uv[tri[0]][0], dv1 = double(uv[tri[1]][1]) - uv[tri[0]][1];
            double du2 = double(uv[tri[2]][0]) - uv[tri[0]][0], dv2 = double(uv[tri[2]][1]) - uv[tri[0]][1];
            double det = du1 * dv2 - du2 * dv1;
            if (!(std::abs(det) > 1e-20) || !std::isfinite(det)) continue;
            double r = 1 / det;
            D3 s = (e1 * dv2 - e2 * dv1) * r;
            D3 t = (e2 * du1 - e1 * du2) * r;
            if (!std::isfinite(s.dot(s)) || !std::isfinite(t.dot(t))) continue;  // = the lengths are finite
            for (auto v : tri) {
                sdir[group[v]] = sdir[group[v]] + s;
                tdir[group[v]] = tdir[group[v]] + t;
            }
        }
    }
    std::vector<Vec4> out(n);
    for (std::size_t v = 0; v < n; ++v) {
        D3 nrm = v < normals.size() ? d3(normals[v]) : D3{0, 0, 1};
        double nl = nrm.length();
        nrm = nl > 0 && std::isfinite(nl) ? nrm * (1 / nl) : D3{0, 0, 1};
        const D3& sv = sdir[group[v]];
        D3 t = sv - nrm * nrm.dot(sv);
        double tl = t.length();
        double sign = 1;
        if (tl > 1e-12 && std::isfinite(tl)) {
            t = t * (1 / tl);
            sign = nrm.cross(t).dot(tdir[group[v]]) < 0 ? -1 : 1;
        } else {
            t = perpendicular(nrm);
        }
        out[v] = {static_cast<float>(t.x), static_cast<float>(t.y), static_cast<float>(t.z), static_cast<float>(sign)};
    }
    return out;
}

}  // namespace mod::scene
