// Exact welding with every attribute, weights included, in the key (contract: weld.hpp).
#include "libmod/scene/weld.hpp"

#include "libmod/core/error.hpp"

#include <cmath>
#include <cstring>
#include <string>
#include <unordered_map>

namespace mod::scene {
namespace {

template <class T>
void append_bits(std::string& key, const T& value) {
    key.append(reinterpret_cast<const char*>(&value), sizeof value);
}

template <class T>
void append_at(std::string& key, const std::vector<T>& values, std::size_t v) {
    if (v < values.size()) append_bits(key, values[v]);
    else key.push_back('\0');
}

// Components rounded to the tolerance grid (NaN and infinities keep their bits).
template <class A>
void append_rounded(std::string& key, const A& values, std::size_t count, float tolerance) {
    for (std::size_t i = 0; i < count; ++i) {
        float f = values[i];
        if (!std::isfinite(f) || tolerance <= 0) {
            append_bits(key, f);
        } else {
            auto q = static_cast<long long>(std::llround(double(f) / tolerance));
            append_bits(key, q);
        }
    }
}

template <class T>
void append_rounded_at(std::string& key, const std::vector<T>& values, std::size_t v, std::size_t count,
                       float tolerance) {
    if (v < values.size()) append_rounded(key, values[v], count, tolerance);
    else key.push_back('\0');
}

const std::string& vertex_key(const Mesh& m, std::size_t v, float tolerance) {
    static thread_local std::string key;
    key.clear();
    append_bits(key, m.positions[v]);
    if (tolerance > 0) {
        append_rounded_at(key, m.normals, v, 3, tolerance);
        append_rounded_at(key, m.tangents, v, 3, tolerance);
        if (v < m.tangents.size()) append_bits(key, m.tangents[v][3]);
        append_rounded_at(key, m.uv0, v, 2, tolerance);
        append_rounded_at(key, m.uv1, v, 2, tolerance);
    } else {
        append_at(key, m.normals, v);
        append_at(key, m.tangents, v);
        append_at(key, m.uv0, v);
        append_at(key, m.uv1, v);
    }
    if (!m.skin.empty()) {
        append_bits(key, m.skin[v].count);
        append_bits(key, m.skin[v].bones);
        append_bits(key, m.skin[v].weights);
    } else if (v < m.influences.size()) {
        append_bits(key, static_cast<std::uint32_t>(m.influences[v].size()));
        for (const auto& inf : m.influences[v]) {
            append_bits(key, inf.bone);
            append_bits(key, inf.weight);
        }
    }
    return key;
}

template <class T>
void keep(std::vector<T>& values, const std::vector<std::uint32_t>& first_of) {
    if (values.empty()) return;
    std::vector<T> out;
    out.reserve(first_of.size());
    for (auto old : first_of) out.push_back(values[old]);
    values = std::move(out);
}

}  // namespace

WeldResult weld(const Mesh& mesh, const WeldOptions& options) {
    if (!(options.tolerance >= 0) || !std::isfinite(options.tolerance))
        throw Error(ErrorKind::usage, "the weld tolerance must be a finite value >= 0");
    std::size_t n = mesh.vertex_count();
    WeldResult result;
    result.remap.resize(n);
    // All keys in one buffer first (no allocation per vertex), then a map of views into it.
    std::string keys;
    std::vector<std::size_t> ends(n);
    keys.reserve(n * 96);
    for (std::size_t v = 0; v < n; ++v) {
        keys += vertex_key(mesh, v, options.tolerance);
        ends[v] = keys.size();
    }
    std::vector<std::uint32_t> first_of;  // new vertex -> its first old vertex
    std::unordered_map<std::string_view, std::uint32_t> seen;
    seen.reserve(n);
    for (std::size_t v = 0; v < n; ++v) {
        std::size_t begin = v == 0 ? 0 : ends[v - 1];
        std::string_view key(keys.data() + begin, ends[v] - begin);
        auto [it, inserted] = seen.try_emplace(key, static_cast<std::uint32_t>(first_of.size()));
        if (inserted) first_of.push_back(static_cast<std::uint32_t>(v));
        result.remap[v] = it->second;
    }
    result.mesh = mesh;
    Mesh& out = result.mesh;
    keep(out.positions, first_of);
    keep(out.normals, first_of);
    keep(out.tangents, first_of);
    keep(out.uv0, first_of);
    keep(out.uv1, first_of);
    keep(out.influences, first_of);
    keep(out.skin, first_of);
    for (auto& tri : out.triangles)
        for (auto& index : tri) {
            if (index >= n)
                throw Error(ErrorKind::format, "mesh '" + mesh.name + "' triangle index " + std::to_string(index) +
                                                   " is out of range (" + std::to_string(n) + " vertices)");
            index = result.remap[index];
        }
    return result;
}

}  // namespace mod::scene
