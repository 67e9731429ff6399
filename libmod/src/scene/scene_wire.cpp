// The scene wire format (contract: libmod/scene/scene_wire.hpp).
#include "libmod/scene/scene_wire.hpp"

#include "libmod/core/error.hpp"

#include <bit>
#include <cstring>
#include <limits>

namespace mod::scene {
namespace {

constexpr char magic[4] = {'M', 'K', 'S', 'W'};
constexpr std::uint32_t version = 2;  // 2: Mesh::tangents_generated after the material

// ---- writing ----

void put_count(ByteWriter& w, std::size_t n, const char* what) {
    if (n > std::numeric_limits<std::uint32_t>::max())
        throw Error(ErrorKind::limit, std::string("scene wire format: more than 2^32-1 ") + what);
    w.u32(static_cast<std::uint32_t>(n));
}
void put_string(ByteWriter& w, std::string_view s) {
    put_count(w, s.size(), "bytes in a string");
    w.string(s);
}
template <std::size_t N>
void put_floats(ByteWriter& w, const std::array<float, N>& a) {
    for (float f : a) w.f32(f);
}
template <std::size_t N>
void put_array(ByteWriter& w, const std::vector<std::array<float, N>>& v, const char* what) {
    put_count(w, v.size(), what);
    for (const auto& a : v) put_floats(w, a);
}
void put_bool(ByteWriter& w, bool b) { w.u8(b ? 1 : 0); }

// ---- reading ----

struct In {
    ByteReader r;

    std::uint32_t count(std::size_t element_size, std::string_view what) {
        const std::size_t at = r.tell();
        const std::uint32_t n = r.u32();
        if (element_size != 0 && n > r.remaining() / element_size)
            r.fail_at(at, std::string(what) + ": " + std::to_string(n) + " items of " + std::to_string(element_size) +
                              " bytes do not fit in the " + std::to_string(r.remaining()) + " bytes left");
        return n;
    }
    std::string string(std::string_view what) {
        const std::uint32_t n = count(1, what);
        return r.fixed_string(n);
    }
    bool flag(std::string_view what) {
        const std::size_t at = r.tell();
        const std::uint8_t v = r.u8();
        if (v > 1) r.fail_at(at, std::string(what) + ": flag " + std::to_string(v) + " is neither 0 nor 1");
        return v == 1;
    }
    template <class E>
    E enumeration(std::uint8_t last, std::string_view what) {
        const std::size_t at = r.tell();
        const std::uint8_t v = r.u8();
        if (v > last) r.fail_at(at, std::string(what) + ": unknown value " + std::to_string(v));
        return static_cast<E>(v);
    }
    template <std::size_t N>
    std::array<float, N> floats() {
        std::array<float, N> a;
        for (auto& f : a) f = r.f32();
        return a;
    }
    template <std::size_t N>
    std::vector<std::array<float, N>> float_arrays(std::string_view what) {
        const std::uint32_t n = count(4 * N, what);
        std::vector<std::array<float, N>> v(n);
        for (auto& a : v) a = floats<N>();
        return v;
    }
};

}  // namespace

Bytes encode_wire(const Scene& s) {
    ByteWriter w(Endian::little);
    w.string(std::string_view(magic, 4));
    w.u32(version);
    put_string(w, s.source);
    put_string(w, s.format);
    put_bool(w, s.file_unit_metres.has_value());
    if (s.file_unit_metres) w.u64(std::bit_cast<std::uint64_t>(*s.file_unit_metres));
    put_bool(w, s.file_up_axis.has_value());
    if (s.file_up_axis) {
        w.i32(s.file_up_axis->first);
        w.i32(s.file_up_axis->second);
    }
    put_count(w, s.skeleton.bones.size(), "bones");
    for (const auto& b : s.skeleton.bones) {
        put_string(w, b.name);
        w.i32(b.parent);
        put_floats(w, b.local);
        put_floats(w, b.bind);
        put_floats(w, b.inverse_bind);
    }
    put_count(w, s.meshes.size(), "meshes");
    for (const auto& m : s.meshes) {
        put_string(w, m.name);
        w.u32(m.material);
        w.u32(m.tangents_generated ? 1u : 0u);
        put_array(w, m.positions, "positions");
        put_array(w, m.normals, "normals");
        put_array(w, m.tangents, "tangents");
        put_array(w, m.uv0, "uv0");
        put_array(w, m.uv1, "uv1");
        put_count(w, m.influences.size(), "influence lists");
        for (auto list : m.influences) put_count(w, list.size(), "influences");
        for (const auto& inf : m.influences.entries()) {
            w.u32(inf.bone);
            w.f32(inf.weight);
        }
        put_count(w, m.skin.size(), "skin weights");
        for (const auto& sw : m.skin) {
            w.u8(sw.count);
            for (auto b : sw.bones) w.u32(b);
            for (auto x : sw.weights) w.u8(x);
        }
        put_count(w, m.triangles.size(), "triangles");
        for (const auto& t : m.triangles)
            for (auto i : t) w.u32(i);
        put_array(w, m.colours, "colours");
    }
    put_count(w, s.materials.size(), "materials");
    for (const auto& name : s.materials) put_string(w, name);
    put_count(w, s.material_info.size(), "material records");
    for (const auto& info : s.material_info) {
        put_bool(w, info.texture.has_value());
        if (info.texture) {
            const auto& t = *info.texture;
            put_string(w, t.name);
            w.u32(t.width);
            w.u32(t.height);
            put_count(w, t.rgba.size(), "texture bytes");
            w.bytes(t.rgba);
            w.u8(static_cast<std::uint8_t>(t.wrap_s));
            w.u8(static_cast<std::uint8_t>(t.wrap_t));
            put_string(w, t.wrap_note);
        }
        put_floats(w, info.base_colour);
        w.u8(static_cast<std::uint8_t>(info.alpha));
        w.f32(info.alpha_cutoff);
        put_bool(w, info.unlit);
    }
    put_count(w, s.warnings.size(), "warnings");
    for (const auto& warning : s.warnings) put_string(w, warning);
    return w.take();
}

Scene decode_wire(ByteView bytes, std::string_view name) {
    In in{ByteReader(bytes, Endian::little, std::string(name), "scene_wire")};
    ByteReader& r = in.r;
    if (r.fixed_string(4) != std::string_view(magic, 4)) r.fail_at(0, "not scene wire data (no MKSW magic)");
    if (const auto v = r.u32(); v != version) r.fail_at(4, "scene wire version " + std::to_string(v) + " is not 2");
    Scene s;
    s.source = in.string("source");
    s.format = in.string("format");
    if (in.flag("file_unit_metres")) s.file_unit_metres = std::bit_cast<double>(r.u64());
    if (in.flag("file_up_axis")) {
        const int axis = r.i32();
        const int sign = r.i32();
        s.file_up_axis = std::pair<int, int>(axis, sign);
    }
    // A bone takes at least 4 + 4 + 3 * 64 bytes.
    s.skeleton.bones.resize(in.count(200, "bones"));
    for (auto& b : s.skeleton.bones) {
        b.name = in.string("bone name");
        b.parent = r.i32();
        b.local = in.floats<16>();
        b.bind = in.floats<16>();
        b.inverse_bind = in.floats<16>();
    }
    // A mesh takes at least 4 + 4 + 4 + 9 counts of 4 bytes.
    s.meshes.resize(in.count(48, "meshes"));
    for (auto& m : s.meshes) {
        m.name = in.string("mesh name");
        m.material = r.u32();
        const std::uint32_t flags = r.u32();
        if (flags > 1) throw Error(ErrorKind::format, "mesh flags " + std::to_string(flags) + " are not 0 or 1");
        m.tangents_generated = flags == 1;
        m.positions = in.float_arrays<3>("positions");
        m.normals = in.float_arrays<3>("normals");
        m.tangents = in.float_arrays<4>("tangents");
        m.uv0 = in.float_arrays<2>("uv0");
        m.uv1 = in.float_arrays<2>("uv1");
        const std::uint32_t lists = in.count(4, "influence lists");
        if (lists > 0) {
            std::vector<std::uint32_t> sizes(lists);
            std::uint64_t total = 0;
            for (auto& n : sizes) total += (n = r.u32());
            const std::size_t at = r.tell();
            if (total > r.remaining() / 8)
                r.fail_at(at, "influences: " + std::to_string(total) + " entries of 8 bytes do not fit in the " +
                                  std::to_string(r.remaining()) + " bytes left");
            m.influences = InfluenceLists::with_sizes(sizes);
            for (std::size_t v = 0; v < lists; ++v)
                for (auto& inf : m.influences[v]) {
                    inf.bone = r.u32();
                    inf.weight = r.f32();
                }
        }
        m.skin.resize(in.count(21, "skin weights"));
        for (auto& sw : m.skin) {
            sw.count = r.u8();
            for (auto& b : sw.bones) b = r.u32();
            for (auto& x : sw.weights) x = r.u8();
        }
        m.triangles.resize(in.count(12, "triangles"));
        for (auto& t : m.triangles)
            for (auto& i : t) i = r.u32();
        m.colours = in.float_arrays<4>("colours");
    }
    s.materials.resize(in.count(4, "materials"));
    for (auto& material : s.materials) material = in.string("material name");
    // A record takes at least 1 + 16 + 1 + 4 + 1 bytes.
    s.material_info.resize(in.count(23, "material records"));
    for (auto& info : s.material_info) {
        if (in.flag("texture")) {
            MaterialTexture t;
            t.name = in.string("texture name");
            const std::size_t at = r.tell();
            t.width = r.u32();
            t.height = r.u32();
            const std::uint32_t n = in.count(1, "texture bytes");
            if (std::uint64_t(t.width) * t.height * 4 != n)
                r.fail_at(at, "texture of " + std::to_string(t.width) + "x" + std::to_string(t.height) + " holds " +
                                  std::to_string(n) + " bytes, not 4 per pixel");
            const ByteView px = r.bytes(n);
            t.rgba.assign(px.begin(), px.end());
            t.wrap_s = in.enumeration<TextureWrap>(2, "texture wrap_s");
            t.wrap_t = in.enumeration<TextureWrap>(2, "texture wrap_t");
            t.wrap_note = in.string("texture wrap note");
            info.texture = std::move(t);
        }
        info.base_colour = in.floats<4>();
        info.alpha = in.enumeration<AlphaMode>(2, "alpha mode");
        info.alpha_cutoff = r.f32();
        info.unlit = in.flag("unlit");
    }
    s.warnings.resize(in.count(4, "warnings"));
    for (auto& warning : s.warnings) warning = in.string("warning");
    r.expect_end();
    return s;
}

}  // namespace mod::scene
