// MESH payload reading and writing.
#include "libmod/totem/mesh.hpp"

namespace mod::totem {

namespace {

ByteReader child(const ByteReader& r, std::string_view path) { return r.with_path(join_path(r.path(), path)); }

std::uint32_t read_count(ByteReader& r, std::size_t element_size) {
    const std::uint32_t n = r.u32();
    r.require_array(n, element_size);
    return n;
}

template <std::size_t N>
void read_floats(ByteReader& r, std::array<F32, N>& v) {
    for (auto& f : v) f.bits = r.u32();
}

template <std::size_t N>
void write_floats(ByteWriter& w, const std::array<F32, N>& v) {
    for (auto f : v) w.u32(f.bits);
}

template <class T, class Fn>
std::vector<T> read_list(ByteReader& r, std::string_view name, std::size_t min_size, Fn&& read_one) {
    ByteReader l = child(r, name);
    const std::uint32_t n = read_count(l, min_size);
    std::vector<T> out(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        ByteReader e = child(l, index_path("", i));
        read_one(e, out[i]);
        l.seek(e.tell());
    }
    r.seek(l.tell());
    return out;
}

std::uint32_t count32(std::size_t n) {
    if (n > 0xFFFFFFFFu) throw Error(ErrorKind::limit, "MESH list longer than 2^32 entries");
    return static_cast<std::uint32_t>(n);
}

}  // namespace

Mesh decode_mesh(const ByteReader& payload) {
    ByteReader r = child(payload, ".mesh");
    Mesh m;
    m.header = read_object_header(r);
    m.positions = read_list<Vec3>(r, ".positions", 12, [](ByteReader& e, Vec3& v) { read_floats(e, v); });
    m.texcoords = read_list<Vec2>(r, ".texcoords", 8, [](ByteReader& e, Vec2& v) { read_floats(e, v); });
    m.normals = read_list<Vec3>(r, ".normals", 12, [](ByteReader& e, Vec3& v) { read_floats(e, v); });
    m.strips = read_list<MeshStrip>(r, ".strips", 12, [](ByteReader& e, MeshStrip& s) {
        const std::uint32_t n = read_count(e, 2);
        s.vertex_ids.resize(n);
        for (auto& v : s.vertex_ids) v = e.u16();
        s.material_index = e.u32();
        s.tri_order = e.u32();
    });
    if (m.has_strip_groups_flag()) {
        ByteReader g = child(r, ".strip_groups");
        g.require_array(m.strips.size(), 4);
        std::vector<std::int32_t> groups(m.strips.size());
        for (auto& v : groups) v = g.i32();
        m.strip_groups = std::move(groups);
        r.seek(g.tell());
    }
    m.strip_corners = read_list<std::vector<StripCorner>>(r, ".strip_corners", 4, [](ByteReader& e, auto& list) {
        const std::uint32_t n = read_count(e, 4);
        list.resize(n);
        for (auto& c : list) {
            c.texcoord_id = e.u16();
            c.normal_id = e.u16();
        }
    });
    m.materials = read_list<std::int32_t>(r, ".materials", 4, [](ByteReader& e, std::int32_t& v) { v = e.i32(); });
    m.spheres = read_list<MeshSphere>(r, ".spheres", 16, [](ByteReader& e, MeshSphere& s) {
        read_floats(e, s.centre);
        s.radius.bits = e.u32();
    });
    m.cuboids = read_list<MeshCuboid>(r, ".cuboids", 80, [](ByteReader& e, MeshCuboid& c) {
        read_floats(e, c.matrix);
        auto t = e.bytes(16);
        std::copy(t.begin(), t.end(), c.trailing.begin());
    });
    m.cylinders = read_list<MeshCylinder>(r, ".cylinders", 36, [](ByteReader& e, MeshCylinder& c) {
        read_floats(e, c.position);
        c.height.bits = e.u32();
        read_floats(e, c.axis);
        c.junk = e.u32();
        c.radius.bits = e.u32();
    });
    m.unknown_shape_count = r.u32();
    if (m.unknown_shape_count != 0) {
        // Layout unknown: keep everything after the count raw (see the header comment).
        auto rest = r.bytes(r.remaining());
        m.unparsed_tail.assign(rest.begin(), rest.end());
        return m;
    }
    {
        ByteReader o = child(r, ".strip_order");
        const std::uint32_t n = read_count(o, 4);
        m.strip_order.resize(n);
        for (auto& v : m.strip_order) v = o.u32();
        r.seek(o.tell());
    }
    r.expect_end();
    return m;
}

Bytes encode_mesh(const Mesh& m, Endian endian) {
    if (m.strip_groups.has_value() != m.has_strip_groups_flag())
        throw Error(ErrorKind::usage, "MESH strip groups must be present exactly when subtype bit 2 is set");
    if (m.strip_groups && m.strip_groups->size() != m.strips.size())
        throw Error(ErrorKind::usage, "MESH needs one strip group per strip");
    if (m.unknown_shape_count == 0 && !m.unparsed_tail.empty())
        throw Error(ErrorKind::usage, "MESH unparsed tail without an unknown shape count");
    ByteWriter w(endian);
    write_object_header(w, m.header);
    w.u32(count32(m.positions.size()));
    for (const auto& v : m.positions) write_floats(w, v);
    w.u32(count32(m.texcoords.size()));
    for (const auto& v : m.texcoords) write_floats(w, v);
    w.u32(count32(m.normals.size()));
    for (const auto& v : m.normals) write_floats(w, v);
    w.u32(count32(m.strips.size()));
    for (const auto& s : m.strips) {
        w.u32(count32(s.vertex_ids.size()));
        for (auto v : s.vertex_ids) w.u16(v);
        w.u32(s.material_index);
        w.u32(s.tri_order);
    }
    if (m.strip_groups)
        for (auto g : *m.strip_groups) w.i32(g);
    w.u32(count32(m.strip_corners.size()));
    for (const auto& list : m.strip_corners) {
        w.u32(count32(list.size()));
        for (const auto& c : list) {
            w.u16(c.texcoord_id);
            w.u16(c.normal_id);
        }
    }
    w.u32(count32(m.materials.size()));
    for (auto v : m.materials) w.i32(v);
    w.u32(count32(m.spheres.size()));
    for (const auto& s : m.spheres) {
        write_floats(w, s.centre);
        w.u32(s.radius.bits);
    }
    w.u32(count32(m.cuboids.size()));
    for (const auto& c : m.cuboids) {
        write_floats(w, c.matrix);
        w.bytes(c.trailing);
    }
    w.u32(count32(m.cylinders.size()));
    for (const auto& c : m.cylinders) {
        write_floats(w, c.position);
        w.u32(c.height.bits);
        write_floats(w, c.axis);
        w.u32(c.junk);
        w.u32(c.radius.bits);
    }
    w.u32(m.unknown_shape_count);
    if (m.unknown_shape_count != 0) {
        w.bytes(m.unparsed_tail);
        return w.take();
    }
    w.u32(count32(m.strip_order.size()));
    for (auto v : m.strip_order) w.u32(v);
    return w.take();
}

}  // namespace mod::totem
