// Pre-encoding checks (contract: validate.hpp).
#include "libmod/scene/validate.hpp"

#include "libmod/core/error.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>

namespace mod::scene {
namespace {

std::string vertex_path(std::string_view where, std::size_t v, std::string_view attribute) {
    return index_path(join_path(where, "vertex"), v) + "." + std::string(attribute);
}

template <class A>
bool finite(const A& a) {
    return std::all_of(a.begin(), a.end(), [](float f) { return std::isfinite(f); });
}

// Every component of every element finite: a branch-free pass the compiler vectorises. The
// per-vertex checks, which name the first offender, run only when it fails.
template <class A>
bool all_finite(const std::vector<A>& values) {
    std::uint32_t bad = 0;
    for (const A& a : values)
        for (float f : a) {
            const auto bits = std::bit_cast<std::uint32_t>(f);
            bad |= static_cast<std::uint32_t>((bits & 0x7f800000u) == 0x7f800000u);  // all-ones exponent
        }
    return bad == 0;
}

template <class T>
void check_size(const T& values, std::size_t n, bool may_be_empty, std::string_view where,
                std::string_view attribute) {
    if (values.size() == n || (may_be_empty && values.empty())) return;
    throw Error(ErrorKind::format, std::string(attribute) + " has " + std::to_string(values.size()) +
                                       " entries for " + std::to_string(n) + " vertices", {}, no_offset,
                std::string(where));
}

}  // namespace

bool BoundingBox::contains(const Vec3& p) const noexcept {
    if (empty) return false;
    for (int i = 0; i < 3; ++i)
        if (!(p[i] >= min[i] && p[i] <= max[i])) return false;
    return true;
}

namespace {
void extend(BoundingBox& box, std::span<const Vec3> positions) {
    for (const auto& p : positions) {
        if (!finite(p)) continue;
        if (box.empty) {
            box.min = box.max = p;
            box.empty = false;
            continue;
        }
        for (int i = 0; i < 3; ++i) {
            box.min[i] = std::min(box.min[i], p[i]);
            box.max[i] = std::max(box.max[i], p[i]);
        }
    }
}
}  // namespace

BoundingBox bounding_box(std::span<const Vec3> positions) {
    BoundingBox box;
    extend(box, positions);
    return box;
}

BoundingBox bounding_box(const Mesh& mesh) { return bounding_box(mesh.positions); }

BoundingBox bounding_box(const Scene& scene) {
    BoundingBox box;
    for (const auto& mesh : scene.meshes) extend(box, mesh.positions);
    return box;
}

namespace {

[[noreturn]] void fail(std::string path, const std::string& message) {
    throw Error(ErrorKind::format, message, {}, no_offset, std::move(path));
}

void check_finite(const Mesh& mesh, std::size_t v, std::string_view where, const MeshCheckOptions& options) {
    if (!finite(mesh.positions[v])) fail(vertex_path(where, v, "position"), "position is not finite");
    if (!options.allow_nan_normals && !finite(mesh.normals[v])) fail(vertex_path(where, v, "normal"), "normal is not finite");
    if (!finite(mesh.tangents[v])) fail(vertex_path(where, v, "tangent"), "tangent is not finite");
    if (!finite(mesh.uv0[v])) fail(vertex_path(where, v, "uv0"), "UV is not finite");
    if (!finite(mesh.uv1[v])) fail(vertex_path(where, v, "uv1"), "UV is not finite");
}

}  // namespace

void check_mesh(const Mesh& mesh, std::string_view where, const MeshCheckOptions& options) {
    std::size_t n = mesh.vertex_count();
    check_size(mesh.normals, n, false, where, "normals");
    check_size(mesh.tangents, n, false, where, "tangents");
    check_size(mesh.uv0, n, false, where, "uv0");
    check_size(mesh.uv1, n, false, where, "uv1");
    check_size(mesh.influences, n, true, where, "influences");
    check_size(mesh.skin, n, true, where, "skin");
    const bool every_component_finite = all_finite(mesh.positions) &&
                                        (options.allow_nan_normals || all_finite(mesh.normals)) &&
                                        all_finite(mesh.tangents) && all_finite(mesh.uv0) && all_finite(mesh.uv1);
    for (std::size_t v = 0; v < n; ++v) {
        if (!every_component_finite) check_finite(mesh, v, where, options);
        if (!mesh.skin.empty()) {
            const auto& s = mesh.skin[v];
            unsigned sum = 0;
            for (std::size_t k = 0; k < s.count && k < 4; ++k) {
                if (s.bones[k] >= options.bone_count)
                    fail(vertex_path(where, v, "skin"), "bone " + std::to_string(s.bones[k]) + " is outside the " +
                                                            std::to_string(options.bone_count) + "-bone skeleton");
                sum += s.weights[k];
            }
            if (s.count > 4 || (s.count > 0 && sum != 255))
                fail(vertex_path(where, v, "skin"), "weights do not sum to 255");
        }
        if (v < mesh.influences.size())
            for (const auto& inf : mesh.influences[v])
                if (inf.bone >= options.bone_count)
                    fail(vertex_path(where, v, "influences"), "bone " + std::to_string(inf.bone) + " is outside the skeleton");
    }
    std::uint32_t largest = 0;  // one vectorisable pass; the first offender is looked for only when there is one
    for (const auto& tri : mesh.triangles) largest = std::max({largest, tri[0], tri[1], tri[2]});
    if (mesh.triangles.empty() || largest < n) return;
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
        for (auto index : mesh.triangles[t])
            if (index >= n)
                fail(index_path(join_path(where, "triangle"), t),
                     "index " + std::to_string(index) + " is out of range (" + std::to_string(n) + " vertices)");
}

void check_uv_f16_range(const Mesh& mesh, std::string_view where) {
    auto check = [&](const std::vector<Vec2>& uv, std::string_view name) {
        // Magnitude bits order like the magnitudes, NaN and infinities above every finite value:
        // one vectorisable pass, and the per-vertex search for the message only on failure.
        std::uint32_t largest = 0;
        for (const Vec2& p : uv)
            for (float c : p) largest = std::max(largest, std::bit_cast<std::uint32_t>(c) & 0x7fffffffu);
        if (largest <= std::bit_cast<std::uint32_t>(f16_max)) return;
        for (std::size_t v = 0; v < uv.size(); ++v)
            for (float c : uv[v])
                if (!std::isfinite(c) || std::abs(c) > f16_max) {
                    char buf[64];
                    std::snprintf(buf, sizeof buf, "%g", double(c));
                    throw Error(ErrorKind::limit,
                                std::string("UV component ") + buf + " does not fit a half float (|v| <= 65504)", {},
                                no_offset, vertex_path(where, v, name));
                }
    };
    check(mesh.uv0, "uv0");
    check(mesh.uv1, "uv1");
}

}  // namespace mod::scene
