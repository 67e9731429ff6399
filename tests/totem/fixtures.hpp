#pragma once
// Hand-built TotemTech payloads for the tests, written field by field with ByteWriter (not
// with our encoders), so decoders are checked against an independent statement of the layout.

#include "libmod/core/bytes.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/mesh.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/skin.hpp"

#include <bit>
#include <string>
#include <vector>

namespace totemtest {

using mod::Bytes;
using mod::ByteWriter;
using mod::Endian;

inline void header(ByteWriter& w, std::uint16_t type, std::uint16_t subtype) {
    for (int i = 0; i < 4; ++i) w.f32(float(i) + 0.5f);  // unknown floats
    for (int i = 0; i < 16; ++i) w.f32(i % 5 == 0 ? 1.0f : 0.0f);
    for (int i = 0; i < 16; ++i) w.u8(static_cast<std::uint8_t>(i == 5 ? 0xAB : 0));  // junk
    w.u16(type);
    w.u16(subtype);
}

// The unknown-entry tail shared by the skins below: one entry for one section with one
// subsection holding 2 vertices and 1 normal.
inline void unknown_tail(ByteWriter& w) {
    w.u32(1);             // unknown_count
    w.u32(1); w.u32(2);   // vertices: [2]
    w.u32(1); w.u32(1);   // normals: [1]
}

// One section (group "BONE_A"), one subsection on mesh 0 with vertices {0: 1.0, 2: 0.5} and
// normals {1: 0.25}; has_anims then the anim entries, then zero2 when `with_zero2`.
inline Bytes skin_payload(Endian e, bool anims, bool with_zero2, std::uint32_t zero2 = 0) {
    ByteWriter w(e);
    header(w, 3, anims ? 2 : 0);
    w.u32(1);
    w.i32(mod::totem::name_id("MESH_A"));
    w.u32(0);                                  // zero
    w.u32(1);                                  // sections
    w.i32(mod::totem::name_id("BONE_A"));
    w.u32(1);                                  // subsections
    w.u16(0);                                  // mesh_index
    w.u32(2); w.u32(0); w.f32(1.0f); w.u32(2); w.f32(0.5f);
    w.u32(1); w.u32(1); w.f32(0.25f);
    w.u8(anims ? 1 : 0);
    if (anims) {
        w.u32(2);
        w.u32(0); w.i32(mod::totem::name_id("ANIM_IDLE"));
        w.u32(5); w.i32(mod::totem::name_id("ANIM_RUN"));
        if (with_zero2) w.u32(zero2);
    }
    unknown_tail(w);
    return w.take();
}

// A MESH with 4 positions, 3 UVs, 2 normals, one 5-entry strip (tri_order given), corner
// lists, 1 material, one shape of each kind, strip order [0]. `groups`: subtype 4 + group ids.
inline Bytes mesh_payload(Endian e, std::uint32_t tri_order = 1, bool groups = false, bool corners = true) {
    ByteWriter w(e);
    header(w, 6, groups ? 4 : 0);
    w.u32(4);
    for (int i = 0; i < 4; ++i) { w.f32(float(i)); w.f32(float(i % 2)); w.f32(-float(i)); }
    w.u32(3);
    for (int i = 0; i < 3; ++i) { w.f32(0.25f * float(i)); w.f32(1.0f - 0.25f * float(i)); }
    w.u32(2);
    for (int i = 0; i < 2; ++i) { w.f32(0); w.f32(i ? -1.0f : 1.0f); w.f32(0); }
    w.u32(1);                                    // strips
    w.u32(5);
    for (int v : {0, 1, 2, 3, 0}) w.u16(static_cast<std::uint16_t>(v));
    w.u32(0);                                    // material index
    w.u32(tri_order);
    if (groups) w.i32(7);
    if (corners) {
        w.u32(1);
        w.u32(5);
        for (std::uint16_t k = 0; k < 5; ++k) { w.u16(static_cast<std::uint16_t>(k % 3)); w.u16(static_cast<std::uint16_t>(k % 2)); }
    } else {
        w.u32(0);
    }
    w.u32(1); w.i32(mod::totem::name_id("MAT_A"));
    w.u32(1); w.f32(1); w.f32(2); w.f32(3); w.f32(4);                    // sphere
    w.u32(1); for (int i = 0; i < 16; ++i) w.f32(float(i)); w.fill(16);  // cuboid
    w.u32(1); for (int i = 0; i < 7; ++i) w.f32(float(i)); w.u32(0xDEADBEEF); w.f32(9);  // cylinder
    w.u32(0);                                    // unknown shapes
    w.u32(1); w.u32(0);                          // strip order
    return w.take();
}

struct RawRecord {
    std::string type, name, subtype;
    Bytes payload;
};

// An archive written by hand: header (notice, chunk size, padding byte `pad`), then chunks as
// given (each a list of records), each padded with `chunk_pad` bytes to the chunk size.
inline Bytes archive_bytes(Endian e, std::uint32_t chunk_size, const std::vector<std::vector<RawRecord>>& chunks,
                           std::uint8_t pad = 0, std::uint8_t chunk_pad = 0) {
    ByteWriter w(e);
    std::string notice = "test notice";
    w.string(notice);
    w.fill(0x100 - notice.size());
    w.u32(chunk_size);
    w.fill(0x6FC, pad);
    for (const auto& c : chunks) {
        const std::size_t start = w.size();
        w.u32(static_cast<std::uint32_t>(c.size()));
        for (const auto& r : c) {
            w.u32(static_cast<std::uint32_t>(16 + r.payload.size()));
            w.i32(mod::totem::name_id(r.type));
            w.i32(mod::totem::name_id(r.name));
            w.i32(mod::totem::name_id(r.subtype));
            w.bytes(r.payload);
        }
        w.fill(chunk_size - (w.size() - start), chunk_pad);
    }
    return w.take();
}

inline Bytes filler(std::size_t n, std::uint8_t seed) {
    Bytes b(n);
    for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(seed + i * 7);
    return b;
}

inline Bytes text(std::string_view s) { return Bytes(s.begin(), s.end()); }

// MESH_A decoded: positions (i, i % 2, -i) for i = 0..3; strip 0 1 2 3 0 whose entry k uses
// normal k % 2, so normal 0 pairs with position 0 and normal 1 with position 1.
inline mod::totem::Mesh fixture_mesh() {
    return mod::totem::decode_mesh(mod::ByteReader(mesh_payload(Endian::big, 1), Endian::big));
}

// A skin weight of vertex `id`.
inline mod::totem::SkinWeight w(std::uint32_t id, float v) { return {id, mod::totem::F32::of(v)}; }

}  // namespace totemtest
