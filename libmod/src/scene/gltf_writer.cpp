// glTF 2.0 / GLB writer (contract in gltf_writer.hpp).
#include "scene/gltf_writer.hpp"
#include "scene/gltf_animation.hpp"

#include "libmod/core/error.hpp"
#include "libmod/image/png.hpp"

#include "libmod/core/rapidjson.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

namespace mod::scene {
namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

constexpr unsigned gl_float = 5126, gl_unsigned_short = 5123, gl_unsigned_int = 5125;
constexpr unsigned gl_array_buffer = 34962, gl_element_array_buffer = 34963;
constexpr unsigned gl_repeat = 10497, gl_mirrored_repeat = 33648, gl_clamp_to_edge = 33071;

struct Accessor {
    std::size_t view;
    unsigned component;
    std::size_t count;
    const char* type;
    std::vector<float> min, max;  // POSITION needs them
};

struct View {
    std::size_t offset, length;
    unsigned target;  // 0 = none
};

class Buffer {
public:
    // Appends raw little-endian data 4-byte aligned; returns the view index.
    template <class T>
    std::size_t add(const std::vector<T>& values, unsigned target) {
        while (bytes_.size() % 4) bytes_.push_back(0);
        std::size_t offset = bytes_.size();
        std::size_t length = values.size() * sizeof(T);
        bytes_.resize(offset + length);
        if (length) std::memcpy(bytes_.data() + offset, values.data(), length);
        views_.push_back({offset, length, target});
        return views_.size() - 1;
    }
    Bytes& bytes() { return bytes_; }
    const std::vector<View>& views() const { return views_; }

private:
    Bytes bytes_;
    std::vector<View> views_;
};

static_assert(std::endian::native == std::endian::little, "the glTF buffer is written in host order");

void write_floats(JsonWriter& w, const float* v, std::size_t n) {
    w.StartArray();
    for (std::size_t i = 0; i < n; ++i) w.Double(std::isfinite(v[i]) ? double(v[i]) : 0.0);
    w.EndArray();
}

// glTF matrices are column-major.
void write_matrix(JsonWriter& w, const Mat4& m) {
    float cm[16];
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) cm[c * 4 + r] = m[r * 4 + c];
    write_floats(w, cm, 16);
}

std::vector<float> column_major(const std::vector<Mat4>& ms) {
    std::vector<float> out;
    out.reserve(ms.size() * 16);
    for (const auto& m : ms)
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) out.push_back(m[r * 4 + c]);
    return out;
}

unsigned gl_wrap(TextureWrap wrap) {
    switch (wrap) {
    case TextureWrap::mirrored_repeat: return gl_mirrored_repeat;
    case TextureWrap::clamp_to_edge: return gl_clamp_to_edge;
    case TextureWrap::repeat: break;
    }
    return gl_repeat;
}

const char* alpha_mode_name(AlphaMode mode) {
    switch (mode) {
    case AlphaMode::mask: return "MASK";
    case AlphaMode::blend: return "BLEND";
    case AlphaMode::opaque: break;
    }
    return "OPAQUE";
}

// Images, samplers and textures of the materials that have a texture. Identical images (same
// size and pixels) and identical samplers are written once; texture k pairs one of each.
struct TextureTables {
    struct Image {
        std::size_t view;
        std::string name;
    };
    std::vector<Image> images;
    std::vector<std::pair<unsigned, unsigned>> samplers;  // wrapS, wrapT
    std::vector<std::pair<std::size_t, std::size_t>> textures;  // image, sampler
    std::vector<std::size_t> material_texture;  // per material, SIZE_MAX when untextured
};

TextureTables add_textures(const Scene& scene, Buffer& buffer) {
    TextureTables t;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::pair<const MaterialTexture*, std::size_t>>> image_of;
    std::map<std::pair<unsigned, unsigned>, std::size_t> sampler_of;
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> texture_of;
    for (const MaterialInfo& info : scene.material_info) {
        if (!info.texture) {
            t.material_texture.push_back(SIZE_MAX);
            continue;
        }
        const MaterialTexture& tex = *info.texture;
        std::size_t image = SIZE_MAX;
        auto& same_size = image_of[{tex.width, tex.height}];
        for (const auto& [seen, index] : same_size)
            if (seen->rgba == tex.rgba) image = index;
        if (image == SIZE_MAX) {
            image::RgbaImage img{tex.width, tex.height, tex.rgba};
            image = t.images.size();
            t.images.push_back({buffer.add(image::write_png(img), 0), tex.name});
            same_size.emplace_back(&tex, image);
        }
        const std::pair<unsigned, unsigned> wraps{gl_wrap(tex.wrap_s), gl_wrap(tex.wrap_t)};
        auto [s, fresh_sampler] = sampler_of.try_emplace(wraps, t.samplers.size());
        if (fresh_sampler) t.samplers.push_back(wraps);
        auto [k, fresh_texture] = texture_of.try_emplace({image, s->second}, t.textures.size());
        if (fresh_texture) t.textures.emplace_back(image, s->second);
        t.material_texture.push_back(k->second);
    }
    return t;
}

void write_material(JsonWriter& w, const std::string& name, const MaterialInfo* info, std::size_t texture) {
    w.StartObject();
    w.Key("name");
    w.String(name.c_str());
    if (info) {
        w.Key("pbrMetallicRoughness");
        w.StartObject();
        w.Key("baseColorFactor");
        write_floats(w, info->base_colour.data(), 4);
        if (texture != SIZE_MAX) {
            w.Key("baseColorTexture");
            w.StartObject();
            w.Key("index");
            w.Uint64(texture);
            w.EndObject();
        }
        w.Key("metallicFactor");
        w.Double(0.0);
        w.Key("roughnessFactor");
        w.Double(1.0);
        w.EndObject();
        if (info->alpha != AlphaMode::opaque) {
            w.Key("alphaMode");
            w.String(alpha_mode_name(info->alpha));
            if (info->alpha == AlphaMode::mask) {
                w.Key("alphaCutoff");
                w.Double(double(info->alpha_cutoff));
            }
        }
        if (info->unlit) {
            w.Key("extensions");
            w.StartObject();
            w.Key("KHR_materials_unlit");
            w.StartObject();
            w.EndObject();
            w.EndObject();
        }
        if (info->texture && !info->texture->wrap_note.empty()) {
            // glTF has no field for it; a viewer ignores extras, a reader of the file finds it.
            w.Key("extras");
            w.StartObject();
            w.Key("wrap_note");
            w.String(info->texture->wrap_note.c_str());
            w.EndObject();
        }
    }
    w.EndObject();
}

// A unit normal for a vertex whose normal is not finite: perpendicular to its tangent when
// the tangent is usable (so cross(normal, tangent) keeps the tangent sign through importers
// that derive the bitangent from it), else +Z.
Vec3 substitute_normal(const Vec4& t) {
    const double tx = t[0], ty = t[1], tz = t[2];
    const double len = std::sqrt(tx * tx + ty * ty + tz * tz);
    if (!std::isfinite(len) || len < 1e-6) return {0.0f, 0.0f, 1.0f};
    // cross(t, the axis least aligned with t), normalised
    const double ax = std::abs(tx), ay = std::abs(ty), az = std::abs(tz);
    double a[3] = {0, 0, 0};
    (ax <= ay && ax <= az ? a[0] : ay <= az ? a[1] : a[2]) = 1;
    double c[3] = {ty * a[2] - tz * a[1], tz * a[0] - tx * a[2], tx * a[1] - ty * a[0]};
    const double cl = std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    return {float(c[0] / cl), float(c[1] / cl), float(c[2] / cl)};
}

}  // namespace

GltfOutput write_gltf(const Scene& scene, const std::vector<std::vector<SkinWeights>>& skins,
                      const std::string& buffer_uri) {
    Buffer buffer;
    std::vector<Accessor> accessors;
    auto accessor = [&](std::size_t view, unsigned component, std::size_t count, const char* type) {
        accessors.push_back({view, component, count, type, {}, {}});
        return accessors.size() - 1;
    };
    const auto& bones = scene.skeleton.bones;
    bool skinned = !bones.empty();
    const std::set<std::uint32_t> animated = (check_animations(scene), animated_bones(scene));  // TRS nodes

    struct Primitive {
        std::size_t position, normal, tangent, uv0, uv1, colour = SIZE_MAX, joints = SIZE_MAX, weights = SIZE_MAX,
                    indices;
        std::uint32_t material;
        // Vertices whose normal is not finite: vertex index and the three components' bits
        // (written to the primitive's extras; NORMAL holds a substitute unit normal).
        std::vector<std::uint32_t> normal_bits;
    };
    std::vector<Primitive> primitives;
    for (std::size_t mi = 0; mi < scene.meshes.size(); ++mi) {
        const Mesh& m = scene.meshes[mi];
        std::size_t n = m.vertex_count();
        Primitive p{};
        p.material = m.material;
        std::vector<float> pos, nrm, tan, uv0, uv1;
        pos.reserve(n * 3);
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (std::size_t v = 0; v < n; ++v) {
            for (int i = 0; i < 3; ++i) {
                pos.push_back(m.positions[v][i]);
                lo[i] = std::min(lo[i], m.positions[v][i]);
                hi[i] = std::max(hi[i], m.positions[v][i]);
            }
            const Vec3& normal = m.normals[v];
            if (std::isfinite(normal[0]) && std::isfinite(normal[1]) && std::isfinite(normal[2])) {
                nrm.insert(nrm.end(), normal.begin(), normal.end());
            } else {
                const Vec3 substitute = substitute_normal(m.tangents[v]);
                nrm.insert(nrm.end(), substitute.begin(), substitute.end());
                p.normal_bits.push_back(static_cast<std::uint32_t>(v));
                for (float x : normal) p.normal_bits.push_back(std::bit_cast<std::uint32_t>(x));
            }
            for (int i = 0; i < 4; ++i) tan.push_back(m.tangents[v][i]);
            uv0.push_back(m.uv0[v][0]);
            uv0.push_back(1.0f - m.uv0[v][1]);
            uv1.push_back(m.uv1[v][0]);
            uv1.push_back(1.0f - m.uv1[v][1]);
        }
        p.position = accessor(buffer.add(pos, gl_array_buffer), gl_float, n, "VEC3");
        if (n) {
            accessors[p.position].min.assign(lo, lo + 3);
            accessors[p.position].max.assign(hi, hi + 3);
        }
        p.normal = accessor(buffer.add(nrm, gl_array_buffer), gl_float, n, "VEC3");
        p.tangent = accessor(buffer.add(tan, gl_array_buffer), gl_float, n, "VEC4");
        p.uv0 = accessor(buffer.add(uv0, gl_array_buffer), gl_float, n, "VEC2");
        p.uv1 = accessor(buffer.add(uv1, gl_array_buffer), gl_float, n, "VEC2");
        if (!m.colours.empty()) {
            std::vector<float> colours;
            colours.reserve(n * 4);
            for (const Vec4& c : m.colours)
                for (float x : c) colours.push_back(std::isfinite(x) ? std::clamp(x, 0.0f, 1.0f) : 0.0f);
            p.colour = accessor(buffer.add(colours, gl_array_buffer), gl_float, n, "VEC4");
        }
        if (skinned && mi < skins.size() && skins[mi].size() == n) {
            std::vector<std::uint16_t> joints(n * 4, 0);
            std::vector<float> weights(n * 4, 0.0f);
            for (std::size_t v = 0; v < n; ++v)
                for (std::size_t k = 0; k < skins[mi][v].count && k < 4; ++k) {
                    joints[v * 4 + k] = static_cast<std::uint16_t>(skins[mi][v].bones[k]);
                    weights[v * 4 + k] = float(skins[mi][v].weights[k]) / 255.0f;
                }
            p.joints = accessor(buffer.add(joints, gl_array_buffer), gl_unsigned_short, n, "VEC4");
            p.weights = accessor(buffer.add(weights, gl_array_buffer), gl_float, n, "VEC4");
        }
        std::vector<std::uint32_t> indices;
        indices.reserve(m.triangles.size() * 3);
        for (const auto& t : m.triangles) indices.insert(indices.end(), t.begin(), t.end());
        p.indices = accessor(buffer.add(indices, gl_element_array_buffer), gl_unsigned_int, indices.size(), "SCALAR");
        primitives.push_back(p);
    }
    std::size_t inverse_binds = SIZE_MAX;
    if (skinned) {
        std::vector<Mat4> ibm;
        for (const auto& b : bones) ibm.push_back(b.inverse_bind);
        inverse_binds = accessor(buffer.add(column_major(ibm), 0), gl_float, bones.size(), "MAT4");
    }
    const TextureTables textures = add_textures(scene, buffer);
    while (buffer.bytes().size() % 4) buffer.bytes().push_back(0);
    bool unlit = false;
    for (const auto& info : scene.material_info) unlit = unlit || info.unlit;

    rapidjson::StringBuffer sb;
    JsonWriter w(sb);
    w.StartObject();
    w.Key("asset");
    w.StartObject();
    w.Key("version");
    w.String("2.0");
    w.Key("generator");
    w.String("modkit scene export");
    w.EndObject();
    if (unlit) {
        w.Key("extensionsUsed");
        w.StartArray();
        w.String("KHR_materials_unlit");
        w.EndArray();
    }
    // Nodes: bones first (node i = bone i), then one node per mesh.
    std::vector<std::vector<std::size_t>> children(bones.size());
    std::vector<std::size_t> roots;
    for (std::size_t b = 0; b < bones.size(); ++b) {
        if (bones[b].parent < 0) roots.push_back(b);
        else children[bones[b].parent].push_back(b);
    }
    // glTF wants the joints of a skin under one common root: a skeleton with several roots
    // gets a synthetic root node (after the mesh nodes, identity, marked in its extras, not a
    // joint), which modkit's importer removes again (gltf_reader.hpp).
    const bool synthetic_root = roots.size() > 1;
    const std::size_t synthetic_root_node = bones.size() + scene.meshes.size();
    std::vector<std::size_t> bone_roots;
    if (synthetic_root) bone_roots.swap(roots);
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) roots.push_back(bones.size() + m);
    if (synthetic_root) roots.push_back(synthetic_root_node);
    w.Key("scene");
    w.Uint(0);
    w.Key("scenes");
    w.StartArray();
    w.StartObject();
    w.Key("nodes");
    w.StartArray();
    for (auto r : roots) w.Uint64(r);
    w.EndArray();
    w.EndObject();
    w.EndArray();
    w.Key("nodes");
    w.StartArray();
    for (std::size_t b = 0; b < bones.size(); ++b) {
        w.StartObject();
        w.Key("name");
        w.String(bones[b].name.c_str());
        if (animated.count(static_cast<std::uint32_t>(b))) {
            write_node_trs(w, bones[b].local);
        } else if (bones[b].local != identity_matrix) {
            w.Key("matrix");
            write_matrix(w, bones[b].local);
        }
        if (!children[b].empty()) {
            w.Key("children");
            w.StartArray();
            for (auto c : children[b]) w.Uint64(c);
            w.EndArray();
        }
        w.EndObject();
    }
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
        w.StartObject();
        w.Key("name");
        w.String(scene.meshes[m].name.empty() ? ("mesh" + std::to_string(m)).c_str() : scene.meshes[m].name.c_str());
        w.Key("mesh");
        w.Uint64(m);
        if (primitives[m].joints != SIZE_MAX) {
            w.Key("skin");
            w.Uint(0);
        }
        w.EndObject();
    }
    if (synthetic_root) {
        w.StartObject();
        w.Key("name");
        w.String(gltf_synthetic_root_name);
        w.Key("children");
        w.StartArray();
        for (auto r : bone_roots) w.Uint64(r);
        w.EndArray();
        w.Key("extras");
        w.StartObject();
        w.Key(gltf_synthetic_root_key);
        w.Bool(true);
        w.EndObject();
        w.EndObject();
    }
    w.EndArray();
    w.Key("meshes");
    w.StartArray();
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
        const Primitive& p = primitives[m];
        w.StartObject();
        w.Key("name");
        w.String(scene.meshes[m].name.c_str());
        w.Key("primitives");
        w.StartArray();
        w.StartObject();
        w.Key("attributes");
        w.StartObject();
        w.Key("POSITION");
        w.Uint64(p.position);
        w.Key("NORMAL");
        w.Uint64(p.normal);
        w.Key("TANGENT");
        w.Uint64(p.tangent);
        w.Key("TEXCOORD_0");
        w.Uint64(p.uv0);
        w.Key("TEXCOORD_1");
        w.Uint64(p.uv1);
        if (p.colour != SIZE_MAX) {
            w.Key("COLOR_0");
            w.Uint64(p.colour);
        }
        if (p.joints != SIZE_MAX) {
            w.Key("JOINTS_0");
            w.Uint64(p.joints);
            w.Key("WEIGHTS_0");
            w.Uint64(p.weights);
        }
        w.EndObject();
        w.Key("indices");
        w.Uint64(p.indices);
        w.Key("material");
        w.Uint(p.material);
        w.Key("mode");
        w.Uint(4);
        if (!p.normal_bits.empty()) {
            // glTF forbids NaN in NORMAL: the file carries a substitute unit normal, and the
            // original bits here; modkit's importer puts them back (gltf_reader.hpp).
            w.Key("extras");
            w.StartObject();
            w.Key(gltf_normal_bits_key);
            w.StartArray();
            for (std::uint32_t x : p.normal_bits) w.Uint(x);
            w.EndArray();
            w.EndObject();
        }
        w.EndObject();
        w.EndArray();
        w.EndObject();
    }
    w.EndArray();
    w.Key("materials");
    w.StartArray();
    std::size_t material_count = scene.materials.size();
    for (const auto& m : scene.meshes) material_count = std::max<std::size_t>(material_count, m.material + 1);
    for (std::size_t i = 0; i < material_count; ++i) {
        const bool described = i < scene.material_info.size();
        write_material(w, i < scene.materials.size() ? scene.materials[i] : "material" + std::to_string(i),
                       described ? &scene.material_info[i] : nullptr,
                       described ? textures.material_texture[i] : SIZE_MAX);
    }
    w.EndArray();
    if (!textures.textures.empty()) {
        w.Key("images");
        w.StartArray();
        for (const auto& image : textures.images) {
            w.StartObject();
            if (!image.name.empty()) {
                w.Key("name");
                w.String(image.name.c_str());
            }
            w.Key("bufferView");
            w.Uint64(image.view);
            w.Key("mimeType");
            w.String("image/png");
            w.EndObject();
        }
        w.EndArray();
        w.Key("samplers");
        w.StartArray();
        for (const auto& [wrap_s, wrap_t] : textures.samplers) {
            w.StartObject();
            w.Key("wrapS");
            w.Uint(wrap_s);
            w.Key("wrapT");
            w.Uint(wrap_t);
            w.EndObject();
        }
        w.EndArray();
        w.Key("textures");
        w.StartArray();
        for (const auto& [image, sampler] : textures.textures) {
            w.StartObject();
            w.Key("sampler");
            w.Uint64(sampler);
            w.Key("source");
            w.Uint64(image);
            w.EndObject();
        }
        w.EndArray();
    }
    if (skinned) {
        w.Key("skins");
        w.StartArray();
        w.StartObject();
        w.Key("joints");
        w.StartArray();
        for (std::size_t b = 0; b < bones.size(); ++b) w.Uint64(b);
        w.EndArray();
        w.Key("inverseBindMatrices");
        w.Uint64(inverse_binds);
        if (synthetic_root) {
            w.Key("skeleton");
            w.Uint64(synthetic_root_node);
        }
        w.EndObject();
        w.EndArray();
    }
    if (!scene.animations.empty())  // gltf_animation.cpp
        write_animations(w, scene, [&](const std::vector<float>& data, const char* type, std::size_t n, MinMax bounds) {
            accessors.push_back({buffer.add(data, 0), gl_float, data.size() / n, type, bounds.min, bounds.max});
            return accessors.size() - 1;
        });
    w.Key("accessors");
    w.StartArray();
    for (const auto& a : accessors) {
        w.StartObject();
        w.Key("bufferView");
        w.Uint64(a.view);
        w.Key("componentType");
        w.Uint(a.component);
        w.Key("count");
        w.Uint64(a.count);
        w.Key("type");
        w.String(a.type);
        if (!a.min.empty()) {
            w.Key("min");
            write_floats(w, a.min.data(), a.min.size());
            w.Key("max");
            write_floats(w, a.max.data(), a.max.size());
        }
        w.EndObject();
    }
    w.EndArray();
    w.Key("bufferViews");
    w.StartArray();
    for (const auto& v : buffer.views()) {
        w.StartObject();
        w.Key("buffer");
        w.Uint(0);
        w.Key("byteOffset");
        w.Uint64(v.offset);
        w.Key("byteLength");
        w.Uint64(v.length);
        if (v.target) {
            w.Key("target");
            w.Uint(v.target);
        }
        w.EndObject();
    }
    w.EndArray();
    w.Key("buffers");
    w.StartArray();
    w.StartObject();
    w.Key("byteLength");
    w.Uint64(buffer.bytes().size());
    if (!buffer_uri.empty()) {
        w.Key("uri");
        w.String(buffer_uri.c_str());
    }
    w.EndObject();
    w.EndArray();
    w.EndObject();
    return {std::string(sb.GetString(), sb.GetSize()), std::move(buffer.bytes())};
}

Bytes pack_glb(const GltfOutput& gltf) {
    std::string json = gltf.json;
    while (json.size() % 4) json.push_back(' ');
    Bytes bin = gltf.bin;
    while (bin.size() % 4) bin.push_back(0);
    std::uint64_t total = 12 + 8 + json.size() + 8 + bin.size();
    if (total > 0xFFFFFFFFu) throw Error(ErrorKind::limit, "the GLB would exceed 4 GiB");
    ByteWriter out(Endian::little);
    out.u32(0x46546C67);  // "glTF"
    out.u32(2);
    out.u32(static_cast<std::uint32_t>(total));
    out.u32(static_cast<std::uint32_t>(json.size()));
    out.u32(0x4E4F534A);  // "JSON"
    out.string(json);
    out.u32(static_cast<std::uint32_t>(bin.size()));
    out.u32(0x004E4942);  // "BIN\0"
    out.bytes(bin);
    return out.take();
}

}  // namespace mod::scene
