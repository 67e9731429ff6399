// Our own bounded reading of a glTF 2.0 file beside Assimp (contract in gltf_reader.hpp).
#include "scene/gltf_reader.hpp"

#include "libmod/core/error.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"
#include "libmod/core/rapidjson.hpp"

#include <rapidjson/document.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <optional>

namespace mod::scene {
namespace {

constexpr std::uint32_t glb_magic = 0x46546C67, chunk_json = 0x4E4F534A, chunk_bin = 0x004E4942;
constexpr unsigned gl_float = 5126;

std::uint32_t le32(ByteView d, std::size_t at) {
    return std::uint32_t(d[at]) | std::uint32_t(d[at + 1]) << 8 | std::uint32_t(d[at + 2]) << 16 |
           std::uint32_t(d[at + 3]) << 24;
}

struct Reader {
    std::string name;
    std::filesystem::path base_dir;
    std::uint64_t max_bytes;
    rapidjson::Document doc;
    ByteView glb_bin;
    bool is_glb = false;
    std::vector<std::optional<Bytes>> loaded;  // buffers read from a URI, by index

    [[noreturn]] void fail(const std::string& what) const {
        throw Error(ErrorKind::format, "glTF: " + what, name);
    }

    const rapidjson::Value* array(const rapidjson::Value& v, const char* key) const {
        if (!v.IsObject()) return nullptr;
        auto it = v.FindMember(key);
        if (it == v.MemberEnd()) return nullptr;
        if (!it->value.IsArray()) fail(std::string("'") + key + "' is not an array");
        return &it->value;
    }
    std::uint64_t uint(const rapidjson::Value& v, const char* key, std::uint64_t fallback,
                       const std::string& where) const {
        auto it = v.FindMember(key);
        if (it == v.MemberEnd()) return fallback;
        if (!it->value.IsUint64()) fail(where + "." + key + " is not a non-negative integer");
        return it->value.GetUint64();
    }
    const rapidjson::Value& element(const char* key, std::uint64_t index, const std::string& where) const {
        const rapidjson::Value* a = array(doc, key);
        if (!a || index >= a->Size() || !(*a)[static_cast<rapidjson::SizeType>(index)].IsObject())
            fail(where + " names " + key + "[" + std::to_string(index) + "], which does not exist");
        return (*a)[static_cast<rapidjson::SizeType>(index)];
    }

    // The bytes of buffer `index`, bounded by its declared byteLength.
    ByteView buffer(std::uint64_t index, const std::string& where) {
        const rapidjson::Value& b = element("buffers", index, where);
        const std::string at = "buffers[" + std::to_string(index) + "]";
        const std::uint64_t length = uint(b, "byteLength", 0, at);
        auto uri = b.FindMember("uri");
        ByteView bytes;
        if (uri == b.MemberEnd()) {
            if (!is_glb || index != 0) fail(at + " has no uri and is not the GLB's BIN chunk");
            bytes = glb_bin;
        } else {
            if (!uri->value.IsString()) fail(at + ".uri is not a string");
            if (loaded.size() <= index) loaded.resize(index + 1);
            if (!loaded[index]) loaded[index] = load_uri(std::string(uri->value.GetString(), uri->value.GetStringLength()), at);
            bytes = *loaded[index];
        }
        if (length > bytes.size()) fail(at + ".byteLength " + std::to_string(length) + " exceeds its " +
                                        std::to_string(bytes.size()) + " bytes of data");
        return bytes.first(length);
    }

    Bytes load_uri(const std::string& uri, const std::string& at) const {
        if (uri.rfind("data:", 0) == 0) {
            auto comma = uri.find(',');
            if (comma == std::string::npos || uri.substr(0, comma).find(";base64") == std::string::npos)
                fail(at + ".uri is a data URI without base64 data");
            return decode_base64(std::string_view(uri).substr(comma + 1), at);
        }
        if (base_dir.empty()) fail(at + " refers to an external file, which cannot be read from memory");
        if (uri.find("..") != std::string::npos || uri.find(':') != std::string::npos || uri.starts_with("/"))
            fail(at + ".uri '" + uri + "' leaves the file's folder");
        return read_file_in_folder(base_dir, uri, max_bytes);  // refuses a symbolic link in the way
    }

    Bytes decode_base64(std::string_view text, const std::string& at) const {
        if (text.size() / 4 * 3 > max_bytes) fail(at + " data URI exceeds the import limit");
        Bytes out;
        out.reserve(text.size() / 4 * 3);
        std::uint32_t acc = 0;
        int bits = 0;
        for (char c : text) {
            int v;
            if (c >= 'A' && c <= 'Z') v = c - 'A';
            else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
            else if (c >= '0' && c <= '9') v = c - '0' + 52;
            else if (c == '+') v = 62;
            else if (c == '/') v = 63;
            else if (c == '=') break;
            else fail(at + " data URI holds a character outside base64");
            acc = (acc << 6) | std::uint32_t(v);
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                out.push_back(std::uint8_t(acc >> bits));
            }
        }
        return out;
    }

    // Checks every element of a float accessor with `components` per element; calls
    // bad(element, component, value) for the first negative or NaN value.
    template <class Bad>
    void check_float_accessor(std::uint64_t index, const std::string& where, Bad&& bad) {
        const rapidjson::Value& a = element("accessors", index, where);
        const std::string at = "accessors[" + std::to_string(index) + "]";
        if (uint(a, "componentType", 0, at) != gl_float) return;  // integers: never negative or NaN
        auto type = a.FindMember("type");
        if (type == a.MemberEnd() || !type->value.IsString()) fail(at + ".type is missing");
        const std::string t = type->value.GetString();
        const std::uint64_t comps = t == "SCALAR" ? 1 : t == "VEC2" ? 2 : t == "VEC3" ? 3 : t == "VEC4" ? 4 : 0;
        if (comps == 0) fail(at + ".type '" + t + "' is not a weight type");
        const std::uint64_t count = uint(a, "count", 0, at);
        const std::uint64_t element_size = 4 * comps;
        auto view_it = a.FindMember("bufferView");
        if (view_it != a.MemberEnd()) {
            const std::uint64_t vi = uint(a, "bufferView", 0, at);
            const rapidjson::Value& view = element("bufferViews", vi, at);
            const std::string vat = "bufferViews[" + std::to_string(vi) + "]";
            ByteView buf = buffer(uint(view, "buffer", 0, vat), vat);
            const std::uint64_t voff = uint(view, "byteOffset", 0, vat), vlen = uint(view, "byteLength", 0, vat);
            if (voff > buf.size() || vlen > buf.size() - voff)
                fail(vat + " (offset " + std::to_string(voff) + ", length " + std::to_string(vlen) +
                     ") lies outside its buffer of " + std::to_string(buf.size()) + " bytes");
            ByteView data = buf.subspan(voff, vlen);
            const std::uint64_t stride = uint(view, "byteStride", element_size, vat);
            const std::uint64_t aoff = uint(a, "byteOffset", 0, at);
            if (stride < element_size) fail(vat + ".byteStride is smaller than an element of " + at);
            if (count > 0) {
                if (aoff > data.size() || element_size > data.size() - aoff ||
                    (count - 1) > (data.size() - aoff - element_size) / stride)
                    fail(at + " (" + std::to_string(count) + " elements from offset " + std::to_string(aoff) +
                         ") does not fit in " + vat + " of " + std::to_string(data.size()) + " bytes");
                for (std::uint64_t e = 0; e < count; ++e)
                    for (std::uint64_t c = 0; c < comps; ++c) {
                        const float x = std::bit_cast<float>(le32(data, aoff + e * stride + c * 4));
                        if (std::isnan(x) || x < 0) return bad(e, c, x, at);
                    }
            }
        }
        auto sparse = a.FindMember("sparse");
        if (sparse != a.MemberEnd() && sparse->value.IsObject()) {
            const std::string sat = at + ".sparse";
            const std::uint64_t scount = uint(sparse->value, "count", 0, sat);
            auto values = sparse->value.FindMember("values");
            if (values == sparse->value.MemberEnd() || !values->value.IsObject()) fail(sat + ".values is missing");
            const std::uint64_t vi = uint(values->value, "bufferView", 0, sat + ".values");
            const rapidjson::Value& view = element("bufferViews", vi, sat);
            const std::string vat = "bufferViews[" + std::to_string(vi) + "]";
            ByteView buf = buffer(uint(view, "buffer", 0, vat), vat);
            const std::uint64_t voff = uint(view, "byteOffset", 0, vat), vlen = uint(view, "byteLength", 0, vat);
            if (voff > buf.size() || vlen > buf.size() - voff) fail(vat + " lies outside its buffer");
            const std::uint64_t off = uint(values->value, "byteOffset", 0, sat + ".values");
            if (off > vlen || scount > (vlen - off) / element_size)
                fail(sat + " values do not fit in " + vat);
            ByteView data = buf.subspan(voff + off, scount * element_size);
            for (std::uint64_t e = 0; e < scount; ++e)
                for (std::uint64_t c = 0; c < comps; ++c) {
                    const float x = std::bit_cast<float>(le32(data, (e * comps + c) * 4));
                    if (std::isnan(x) || x < 0) return bad(e, c, x, sat + " value");
                }
        }
    }
};

std::string describe(float x) {
    if (std::isnan(x)) return "NaN";
    char text[32];
    std::snprintf(text, sizeof text, "%g", double(x));
    return text;
}

}  // namespace

bool looks_like_gltf(ByteView data, std::string_view name) {
    if (data.size() >= 4 && le32(data, 0) == glb_magic) return true;
    auto dot = name.rfind('.');
    if (dot == std::string_view::npos) return false;
    std::string ext(name.substr(dot + 1));
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext == "gltf" || ext == "glb";
}

GltfExtras check_gltf(ByteView data, std::string_view name, const std::filesystem::path& base_dir,
                      std::uint64_t max_bytes) {
    Reader r{std::string(name), base_dir, max_bytes, {}, {}, false, {}};
    ByteView json = data;
    if (data.size() >= 4 && le32(data, 0) == glb_magic) {
        r.is_glb = true;
        if (data.size() < 20) r.fail("GLB shorter than its header");
        const std::uint64_t total = std::min<std::uint64_t>(le32(data, 8), data.size());
        std::uint64_t at = 12;
        bool have_json = false;
        while (at + 8 <= total) {
            const std::uint64_t length = le32(data, at), type = le32(data, at + 4);
            if (length > total - at - 8) r.fail("GLB chunk at offset " + std::to_string(at) + " runs past the file");
            ByteView chunk = data.subspan(at + 8, length);
            if (type == chunk_json && !have_json) json = chunk, have_json = true;
            else if (type == chunk_bin && r.glb_bin.empty()) r.glb_bin = chunk;
            at += 8 + length;
        }
        if (!have_json) r.fail("GLB without a JSON chunk");
    }
    r.doc.Parse<rapidjson::kParseStopWhenDoneFlag>(reinterpret_cast<const char*>(json.data()), json.size());
    GltfExtras extras;
    if (r.doc.HasParseError() || !r.doc.IsObject()) return extras;  // Assimp reports unreadable JSON
    if (const rapidjson::Value* nodes = r.array(r.doc, "nodes"))
        for (const auto& node : nodes->GetArray()) {
            if (!node.IsObject()) continue;
            auto ex = node.FindMember("extras");
            auto nm = node.FindMember("name");
            if (ex != node.MemberEnd() && ex->value.IsObject() && nm != node.MemberEnd() && nm->value.IsString()) {
                auto flag = ex->value.FindMember("modkit_synthetic_root");
                if (flag != ex->value.MemberEnd() && flag->value.IsTrue()) extras.synthetic_root = nm->value.GetString();
            }
        }
    const rapidjson::Value* meshes = r.array(r.doc, "meshes");
    if (!meshes) return extras;
    for (rapidjson::SizeType mi = 0; mi < meshes->Size(); ++mi) {
        const rapidjson::Value& mesh = (*meshes)[mi];
        std::string mesh_name = "meshes[" + std::to_string(mi) + "]";
        if (mesh.IsObject()) {
            auto nm = mesh.FindMember("name");
            if (nm != mesh.MemberEnd() && nm->value.IsString() && nm->value.GetStringLength())
                mesh_name = "mesh '" + std::string(nm->value.GetString()) + "' (meshes[" + std::to_string(mi) + "])";
        }
        const rapidjson::Value* prims = r.array(mesh, "primitives");
        if (!prims) continue;
        for (rapidjson::SizeType pi = 0; pi < prims->Size(); ++pi) {
            const rapidjson::Value& prim = (*prims)[pi];
            GltfExtras::Primitive out;
            if (!prim.IsObject()) {
                extras.primitives.push_back(out);
                continue;
            }
            const std::string where = mesh_name + " primitive " + std::to_string(pi);
            auto attrs = prim.FindMember("attributes");
            if (attrs != prim.MemberEnd() && attrs->value.IsObject()) {
                for (auto it = attrs->value.MemberBegin(); it != attrs->value.MemberEnd(); ++it) {
                    const std::string key(it->name.GetString(), it->name.GetStringLength());
                    if (key == "POSITION" && it->value.IsUint64()) {
                        const rapidjson::Value& a = r.element("accessors", it->value.GetUint64(), where);
                        out.vertex_count = r.uint(a, "count", 0, where);
                    }
                    if (key.rfind("WEIGHTS_", 0) != 0) continue;
                    if (!it->value.IsUint64()) r.fail(where + " " + key + " is not an accessor index");
                    r.check_float_accessor(it->value.GetUint64(), where, [&](std::uint64_t v, std::uint64_t c, float x,
                                                                            const std::string& at) {
                        throw Error(ErrorKind::format,
                                    where + " " + key + " (" + at + ") vertex " + std::to_string(v) + " weight " +
                                        std::to_string(c) + " is " + describe(x) +
                                        ": weights must be finite and not negative (Assimp would drop it and import "
                                        "other weights than the file holds); fix the weights in the source",
                                    std::string(name));
                    });
                }
            }
            auto ex = prim.FindMember("extras");
            if (ex != prim.MemberEnd() && ex->value.IsObject()) {
                auto bits = ex->value.FindMember("modkit_nonfinite_normals");
                if (bits != ex->value.MemberEnd() && bits->value.IsArray() && bits->value.Size() % 4 == 0) {
                    const auto& arr = bits->value;
                    for (rapidjson::SizeType k = 0; k < arr.Size(); k += 4) {
                        bool ok = true;
                        for (rapidjson::SizeType j = 0; j < 4; ++j) ok = ok && arr[k + j].IsUint();
                        if (!ok) continue;
                        out.normal_bits.push_back(
                            {arr[k].GetUint(), {arr[k + 1].GetUint(), arr[k + 2].GetUint(), arr[k + 3].GetUint()}});
                    }
                }
            }
            extras.primitives.push_back(std::move(out));
        }
    }
    return extras;
}

void apply_gltf_extras(Scene& scene, const GltfExtras& extras) {
    bool any_bits = false;
    for (const auto& p : extras.primitives) any_bits = any_bits || !p.normal_bits.empty();
    if (any_bits && extras.primitives.size() == scene.meshes.size()) {
        for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
            Mesh& mesh = scene.meshes[m];
            const auto& p = extras.primitives[m];
            if (p.vertex_count != mesh.vertex_count() || mesh.normals.size() != mesh.vertex_count()) continue;
            for (const auto& [v, bits] : p.normal_bits)
                if (v < mesh.normals.size())
                    for (int i = 0; i < 3; ++i) mesh.normals[v][i] = std::bit_cast<float>(bits[i]);
        }
    }
    if (extras.synthetic_root.empty()) return;
    auto& bones = scene.skeleton.bones;
    auto found = scene.skeleton.find(extras.synthetic_root);
    if (!found || bones[*found].parent != -1) return;
    const std::uint32_t root = *found;
    for (const Mesh& mesh : scene.meshes) {
        for (std::size_t v = 0; v < mesh.influences.size(); ++v)
            for (const Influence& e : mesh.influences[v])
                if (e.bone == root && e.weight != 0) return;
        for (const SkinWeights& s : mesh.skin)
            for (std::size_t k = 0; k < s.count && k < 4; ++k)
                if (s.bones[k] == root) return;
    }
    auto remap = [root](std::uint32_t b) { return b > root ? b - 1 : b; };
    for (Mesh& mesh : scene.meshes) {
        // Zero weights on the root (kept as stored) are dropped with it.
        InfluenceLists lists;
        std::vector<Influence> list;
        for (std::size_t v = 0; v < mesh.influences.size(); ++v) {
            list.clear();
            for (const Influence& e : mesh.influences[v])
                if (e.bone != root) list.push_back({remap(e.bone), e.weight});
            lists.push_back(std::span<const Influence>(list));
        }
        if (!mesh.influences.empty()) mesh.influences = std::move(lists);
        for (SkinWeights& s : mesh.skin)
            for (std::size_t k = 0; k < s.count && k < 4; ++k) s.bones[k] = remap(s.bones[k]);
    }
    for (auto& b : bones)
        if (b.parent == std::int32_t(root)) {
            b.parent = -1;
            b.local = b.bind;
        } else if (b.parent > std::int32_t(root)) {
            --b.parent;
        }
    bones.erase(bones.begin() + root);
}

}  // namespace mod::scene
