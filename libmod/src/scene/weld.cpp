// Exact welding with every attribute, weights included, in the key (contract: weld.hpp).
#include "libmod/scene/weld.hpp"

#include "libmod/core/error.hpp"

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

std::string vertex_key(const Mesh& m, std::size_t v) {
    std::string key;
    key.reserve(96);
    append_bits(key, m.positions[v]);
    append_at(key, m.normals, v);
    append_at(key, m.tangents, v);
    append_at(key, m.uv0, v);
    append_at(key, m.uv1, v);
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

WeldResult weld(const Mesh& mesh) {
    std::size_t n = mesh.vertex_count();
    WeldResult result;
    result.remap.resize(n);
    std::vector<std::uint32_t> first_of;  // new vertex -> its first old vertex
    std::unordered_map<std::string, std::uint32_t> seen;
    seen.reserve(n);
    for (std::size_t v = 0; v < n; ++v) {
        auto [it, inserted] = seen.try_emplace(vertex_key(mesh, v), static_cast<std::uint32_t>(first_of.size()));
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
