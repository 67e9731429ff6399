// MATERIAL, MATERIALANIM and MATERIALOBJ codecs. Spec: doc/formats/totem-material.md.
#include "libmod/totem/material.hpp"

#include <cmath>

namespace mod::totem {

namespace {

template <std::size_t N>
void read_f32s(ByteReader& r, std::array<F32, N>& out) {
    for (auto& f : out) f.bits = r.u32();
}
template <std::size_t N>
void write_f32s(ByteWriter& w, const std::array<F32, N>& in) {
    for (auto f : in) w.u32(f.bits);
}

Bytes rest(ByteReader& r) {
    auto b = r.bytes(r.remaining());
    return Bytes(b.begin(), b.end());
}

}  // namespace

Material decode_material(const ByteReader& payload) {
    ByteReader r = payload.sub(0, payload.size(), "material");
    if (!r.has(material_size))
        r.fail_at(0, "truncated: a MATERIAL needs 109 bytes, " + std::to_string(r.size()) + " available");
    Material m;
    read_f32s(r, m.colour);
    read_f32s(r, m.emission);
    m.unknown28.bits = r.u32();
    read_f32s(r, m.uv_transform);
    m.rotation.bits = r.u32();
    read_f32s(r, m.offset);
    read_f32s(r, m.scale);
    m.flags_a = r.u32();
    m.flags_b = r.u32();
    m.unknown2 = r.u32();
    m.unknown3 = r.u8();
    m.texture = r.i32();
    m.reflection = r.i32();
    m.tail = rest(r);
    return m;
}

Bytes encode_material(const Material& m, Endian endian) {
    ByteWriter w(endian);
    write_f32s(w, m.colour);
    write_f32s(w, m.emission);
    w.u32(m.unknown28.bits);
    write_f32s(w, m.uv_transform);
    w.u32(m.rotation.bits);
    write_f32s(w, m.offset);
    write_f32s(w, m.scale);
    w.u32(m.flags_a);
    w.u32(m.flags_b);
    w.u32(m.unknown2);
    w.u8(m.unknown3);
    w.i32(m.texture);
    w.i32(m.reflection);
    w.bytes(m.tail);
    return w.take();
}

const char* track_name(std::size_t t) noexcept {
    static const char* const names[track_count] = {"texture", "scroll",   "stretch",  "rotation", "colour",
                                                    "emission", "alpha", "unknown1", "unknown2", "unknown3"};
    return t < track_count ? names[t] : "?";
}

unsigned track_width(std::size_t t) noexcept {
    static const unsigned widths[track_count] = {1, 2, 2, 1, 3, 3, 1, 1, 1, 1};
    return t < track_count ? widths[t] : 0;
}

MaterialAnim decode_material_anim(const ByteReader& payload) {
    ByteReader r = payload.sub(0, payload.size(), "materialanim");
    MaterialAnim m;
    m.unknown = r.u8();
    m.length.bits = r.u32();
    for (std::size_t t = 0; t < track_count; ++t) {
        AnimTrack& track = m.tracks[t];
        const std::string path = std::string(".") + track_name(t);
        const std::size_t at = r.tell();
        if (!r.has(6)) r.fail_at_path(at, path, "truncated: a track header needs 6 bytes, " + std::to_string(r.remaining()) + " available");
        track.interpolation = r.u16();
        const std::uint32_t count = r.u32();
        const std::size_t key_size = t == track_texture ? 6 : 4 + 4 * track_width(t);
        if (std::uint64_t(count) * key_size > r.remaining())
            r.fail_at_path(at + 2, path + ".count", "truncated: " + std::to_string(count) + " keys of " + std::to_string(key_size) +
                                                        " bytes need " + std::to_string(std::uint64_t(count) * key_size) +
                                                        ", " + std::to_string(r.remaining()) + " available");
        track.keys.resize(count);
        for (auto& k : track.keys) {
            if (t == track_texture) {
                k.value[0].bits = r.u32();
                k.frame = r.u16();
            } else {
                k.frame = r.u16();
                k.pad = r.u16();
                for (unsigned i = 0; i < track_width(t); ++i) k.value[i].bits = r.u32();
            }
        }
    }
    if (!r.has(4)) r.fail_at_path(r.tell(), ".material", "truncated: the material id needs 4 bytes, " + std::to_string(r.remaining()) + " available");
    m.material = r.i32();
    m.tail = rest(r);
    return m;
}

Bytes encode_material_anim(const MaterialAnim& m, Endian endian) {
    ByteWriter w(endian);
    w.u8(m.unknown);
    w.u32(m.length.bits);
    for (std::size_t t = 0; t < track_count; ++t) {
        w.u16(m.tracks[t].interpolation);
        w.u32(static_cast<std::uint32_t>(m.tracks[t].keys.size()));
        for (const auto& k : m.tracks[t].keys) {
            if (t == track_texture) {
                w.u32(k.value[0].bits);
                w.u16(k.frame);
            } else {
                w.u16(k.frame);
                w.u16(k.pad);
                for (unsigned i = 0; i < track_width(t); ++i) w.u32(k.value[i].bits);
            }
        }
    }
    w.i32(m.material);
    w.bytes(m.tail);
    return w.take();
}

MaterialObj decode_material_obj(const ByteReader& payload) {
    ByteReader r = payload.sub(0, payload.size(), "materialobj");
    MaterialObj m;
    if (!r.has(4)) r.fail_at(0, "truncated: the MATERIALANIM count needs 4 bytes, " + std::to_string(r.size()) + " available");
    const std::uint32_t n = r.u32();
    r.require_array(n, 4);
    m.anims.resize(n);
    for (auto& id : m.anims) id = r.i32();
    m.tail = rest(r);
    return m;
}

Bytes encode_material_obj(const MaterialObj& m, Endian endian) {
    ByteWriter w(endian);
    w.u32(static_cast<std::uint32_t>(m.anims.size()));
    for (auto id : m.anims) w.i32(id);
    w.bytes(m.tail);
    return w.take();
}

std::vector<Finding> check_material(const Material& m) {
    std::vector<Finding> out;
    if (!m.tail.empty())
        out.push_back({Finding::Level::mismatch, "material.tail",
                       std::to_string(m.tail.size()) + " byte(s) after the 109 known bytes (kept verbatim)"});
    const std::uint32_t uv8 = m.uv_transform[8].bits, one = F32::of(1.0f).bits;
    if (m.uv_transform[2].bits != 0 || m.uv_transform[5].bits != 0 || uv8 != one)
        out.push_back({Finding::Level::note, "material.uv_transform",
                       "the third column is not 0, 0, 1 (Chum World writes 0, 0, 1 there)"});
    return out;
}

std::vector<Finding> check_material_anim(const MaterialAnim& m) {
    std::vector<Finding> out;
    const double frames = double(m.length.value()) * 60.0;
    for (std::size_t t = 0; t < track_count; ++t) {
        const auto& track = m.tracks[t];
        const std::string path = std::string("materialanim.") + track_name(t);
        if (track.interpolation > 3 && !track.keys.empty())
            out.push_back({Finding::Level::mismatch, path + ".interpolation",
                           "interpolation " + std::to_string(track.interpolation) +
                               " (Chum World's enum: 0 invalid, 1 discrete, 2 linear, 3 unknown; it refuses 4 and above)"});
        else if (track.interpolation == 0 && !track.keys.empty())
            out.push_back({Finding::Level::note, path + ".interpolation",
                           "interpolation 0 on a track with keys (Chum World reads it as its 'Invalid' member; what the "
                           "game does with it is unknown)"});
        for (std::size_t k = 0; k < track.keys.size(); ++k) {
            if (track.keys[k].pad)
                out.push_back({Finding::Level::note, path + ".keys[" + std::to_string(k) + "].pad", "padding is " + std::to_string(track.keys[k].pad)});
            if (std::isfinite(frames) && double(track.keys[k].frame) > frames + 0.5)
                out.push_back({Finding::Level::note, path + ".keys[" + std::to_string(k) + "].frame",
                               "frame " + std::to_string(track.keys[k].frame) + " is after the animation's end (" +
                                   std::to_string(frames) + " frames)"});
        }
    }
    if (!m.tail.empty())
        out.push_back({Finding::Level::mismatch, "materialanim.tail", std::to_string(m.tail.size()) + " byte(s) after the material id (kept verbatim)"});
    return out;
}

}  // namespace mod::totem
