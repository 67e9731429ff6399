// Tangent generation (contract in tangents.hpp).
#include "scene/tangents.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>

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

// The normal made unit length, or +z when it has no usable length.
D3 unit_normal(const Vec3& normal) {
    D3 nrm = d3(normal);
    double nl = nrm.length();
    return nl > 0 && std::isfinite(nl) ? nrm * (1 / nl) : D3{0, 0, 1};
}

bool same_bits(const Vec3& a, const Vec3& b) { return std::memcmp(a.data(), b.data(), sizeof(Vec3)) == 0; }

// Vertices with identical position and UV bits share one group; groups are numbered in the
// order of their first vertex (so the numbering does not depend on the hash).
struct Groups {
    std::unique_ptr<std::uint32_t[]> of;  // group of each vertex
    std::uint32_t count = 0;
};

Groups group_vertices(std::span<const Vec3> positions, std::span<const Vec2> uv) {
    const std::size_t n = positions.size();
    // The key's bits as three words: x and y, z, and u and v (zero for a vertex without UV).
    auto xy = [&](std::size_t v) {
        std::uint64_t w;
        std::memcpy(&w, positions[v].data(), sizeof w);
        return w;
    };
    auto z = [&](std::size_t v) { return std::bit_cast<std::uint32_t>(positions[v][2]); };
    auto uv_bits = [&](std::size_t v) {
        std::uint64_t w = 0;
        if (v < uv.size()) std::memcpy(&w, uv[v].data(), sizeof w);
        return w;
    };
    auto same_key = [&](std::size_t a, std::size_t b) { return xy(a) == xy(b) && z(a) == z(b) && uv_bits(a) == uv_bits(b); };

    Groups groups{std::make_unique_for_overwrite<std::uint32_t[]>(n)};
    // Open addressing over the first vertex of each group (+1, 0 = empty), at most two thirds
    // full; the slot is the top bits of a multiplicative hash.
    int bits = 4;
    while ((std::size_t{1} << bits) < n + n / 2) ++bits;
    const std::size_t mask = (std::size_t{1} << bits) - 1;
    std::vector<std::uint32_t> table(mask + 1, 0);
    for (std::size_t v = 0; v < n; ++v) {
        const std::uint64_t h = ((xy(v) ^ std::rotl(uv_bits(v), 21)) * 0x9E3779B97F4A7C15ull ^ z(v)) * 0xC2B2AE3D27D4EB4Full;
        for (std::size_t at = h >> (64 - bits);; at = (at + 1) & mask) {
            if (table[at] == 0) {
                table[at] = static_cast<std::uint32_t>(v + 1);
                groups.of[v] = groups.count++;
                break;
            }
            const std::size_t first = table[at] - 1;
            if (same_key(first, v)) {
                groups.of[v] = groups.of[first];
                break;
            }
        }
    }
    return groups;
}

// The u and v directions of the triangles around one group, summed in triangle order.
struct Accumulator {
    D3 s, t;
};

}  // namespace

std::vector<Vec4> generate_tangents(std::span<const Vec3> positions, std::span<const Vec3> normals,
                                    std::span<const Vec2> uv, std::span<const std::array<std::uint32_t, 3>> triangles) {
    const std::size_t n = positions.size();
    // Vertices with identical position and UV share one accumulator: files that store one
    // vertex per triangle corner (FBX, with float noise in the corner normals) would otherwise
    // get one tangent per face. Each vertex then orthogonalises against its own normal.
    const Groups groups = group_vertices(positions, uv);
    // One accumulator per group (FBX: about one per control point and UV, not per corner).
    std::vector<Accumulator> sum(groups.count);
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
                Accumulator& a = sum[groups.of[v]];
                a.s = a.s + s;
                a.t = a.t + t;
            }
        }
    }
    std::vector<Vec4> out;
    out.reserve(n);
    D3 nrm{0, 0, 1};
    for (std::size_t v = 0; v < n; ++v) {
        // The corners of a flat face share its normal bits: the unit normal is reused then.
        if (v >= normals.size()) nrm = D3{0, 0, 1};
        else if (v == 0 || !same_bits(normals[v], normals[v - 1])) nrm = unit_normal(normals[v]);
        const Accumulator& a = sum[groups.of[v]];
        D3 t = a.s - nrm * nrm.dot(a.s);
        double tl = t.length();
        double sign = 1;
        if (tl > 1e-12 && std::isfinite(tl)) {
            t = t * (1 / tl);
            sign = nrm.cross(t).dot(a.t) < 0 ? -1 : 1;
        } else {
            t = perpendicular(nrm);
        }
        out.push_back({static_cast<float>(t.x), static_cast<float>(t.y), static_cast<float>(t.z), static_cast<float>(sign)});
    }
    return out;
}

}  // namespace mod::scene
