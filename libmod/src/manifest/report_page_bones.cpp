// The report page's 3D "bones" views (report_page_viewer.hpp): the model see-through, its
// skeleton drawn opaque inside it as Blender draws armatures — an octahedral stick from each
// bone's parent's head to its own, and a small diamond at every head — skinned to the bones, so
// the sticks move with an animation.
#include "report_page_viewer.hpp"

#include "libmod/scene/vec3.hpp"

#include <algorithm>
#include <cmath>

namespace mod::manifest::detail::page {

namespace {

using scene::Vec3;
using scene::cross;
using scene::dot;
using scene::length;
using scene::sub;

Vec3 head_of(const scene::Bone& b) { return {b.bind[3], b.bind[7], b.bind[11]}; }

Vec3 add_scaled(const Vec3& a, const Vec3& d, double s) {
    return {float(a[0] + s * d[0]), float(a[1] + s * d[1]), float(a[2] + s * d[2])};
}
Vec3 unit(const Vec3& a) {
    const double l = length(a);
    return l > 0 ? Vec3{float(a[0] / l), float(a[1] / l), float(a[2] / l)} : Vec3{0, 0, 1};
}

// Appends an octahedron (tips a and b, a square ring of half-width w at `ring` from a to b),
// its eight faces wound outwards, every corner weighted to `bone`.
void octahedron(scene::Mesh& m, const Vec3& a, const Vec3& b, double ring, double w, std::uint32_t bone) {
    const Vec3 d = sub(b, a);
    const Vec3 axis = unit(d);
    const Vec3 helper = std::fabs(axis[0]) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
    const Vec3 u = unit(cross(axis, helper)), v = cross(axis, u);
    const Vec3 mid = add_scaled(a, d, ring);
    const Vec3 rim[4] = {add_scaled(mid, u, w), add_scaled(mid, v, w), add_scaled(mid, u, -w), add_scaled(mid, v, -w)};
    const Vec3 centre = add_scaled(a, d, 0.5);
    auto face = [&](Vec3 p, Vec3 q, Vec3 r) {
        Vec3 n = unit(cross(sub(q, p), sub(r, p)));
        const Vec3 c = {(p[0] + q[0] + r[0]) / 3, (p[1] + q[1] + r[1]) / 3, (p[2] + q[2] + r[2]) / 3};
        if (dot(n, sub(c, centre)) < 0) {
            std::swap(q, r);
            n = {-n[0], -n[1], -n[2]};
        }
        const auto first = static_cast<std::uint32_t>(m.positions.size());
        for (const Vec3& x : {p, q, r}) {
            m.positions.push_back(x);
            m.normals.push_back(n);
            m.tangents.push_back({u[0], u[1], u[2], 1});
            m.uv0.push_back({0, 0});
            m.uv1.push_back({0, 0});
            scene::SkinWeights s;
            s.count = 1;
            s.bones[0] = bone;
            s.weights[0] = 255;
            m.skin.push_back(s);
        }
        m.triangles.push_back({first, first + 1, first + 2});
    };
    for (int k = 0; k < 4; ++k) {
        face(a, rim[k], rim[(k + 1) % 4]);
        face(b, rim[(k + 1) % 4], rim[k]);
    }
}

// The diagonal of the box around every vertex and bone head (the joints' size scale).
double extent_of(const scene::Scene& sc) {
    Vec3 lo{1e30f, 1e30f, 1e30f}, hi{-1e30f, -1e30f, -1e30f};
    auto grow = [&](const Vec3& p) {
        for (int k = 0; k < 3; ++k) {
            lo[k] = std::min(lo[k], p[k]);
            hi[k] = std::max(hi[k], p[k]);
        }
    };
    for (const auto& m : sc.meshes)
        for (const auto& p : m.positions) grow(p);
    for (const auto& b : sc.skeleton.bones) grow(head_of(b));
    return lo[0] <= hi[0] ? length(sub(hi, lo)) : 0;
}

}  // namespace

std::optional<scene::Scene> bones_view(scene::Scene sc) {
    if (sc.skeleton.bones.empty()) return std::nullopt;
    const double extent = extent_of(sc);
    if (!(extent > 0) || !std::isfinite(extent)) return std::nullopt;
    // The model see-through: every material blended at 30 % of its alpha.
    sc.material_info.resize(sc.materials.size());
    for (auto& info : sc.material_info) {
        info.alpha = scene::AlphaMode::blend;
        info.base_colour[3] *= 0.3f;
    }
    scene::Mesh sticks;
    sticks.name = "modkit_bones";
    sticks.material = static_cast<std::uint32_t>(sc.materials.size());
    const double joint = 0.012 * extent;
    const auto& bones = sc.skeleton.bones;
    for (std::size_t b = 0; b < bones.size(); ++b) {
        const Vec3 head = head_of(bones[b]);
        // The joint: a diamond around the head, along the model's up (y) axis.
        octahedron(sticks, add_scaled(head, {0, 1, 0}, -joint), add_scaled(head, {0, 1, 0}, joint), 0.5, joint,
                   static_cast<std::uint32_t>(b));
        const std::int32_t p = bones[b].parent;
        if (p < 0 || std::size_t(p) >= bones.size()) continue;
        const Vec3 from = head_of(bones[std::size_t(p)]);
        const double len = length(sub(head, from));
        if (len < 2 * joint) continue;  // a bone on its parent's head: its diamond says it
        octahedron(sticks, from, head, 0.15, 0.08 * len, static_cast<std::uint32_t>(p));
    }
    sc.materials.push_back("modkit_bones");
    scene::MaterialInfo bone_colour;
    bone_colour.base_colour = {1.0f, 0.55f, 0.05f, 1.0f};  // orange, linear
    bone_colour.unlit = true;
    sc.material_info.push_back(bone_colour);
    sc.meshes.push_back(std::move(sticks));
    return sc;
}

}  // namespace mod::manifest::detail::page
