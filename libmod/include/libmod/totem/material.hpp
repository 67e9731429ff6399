#pragma once
// MATERIAL, MATERIALANIM and MATERIALOBJ records (no common header). Spec:
// doc/formats/totem-material.md.
//
//   MATERIAL (109 bytes): rgba colour (4 f32) | rgb emission | f32 unknown | 3x3 f32 UV transform |
//     f32 rotation | vec2 offset | vec2 scale | u32 flags_a | u32 flags_b | u32 unknown2 |
//     u8 unknown3 | i32 texture (BITMAP id, unaligned) | i32 reflection (BITMAP id)
//   MATERIALANIM: u8 unknown | f32 length (s, 60 frames/s) | texture track | scroll, stretch
//     (vec2) | rotation (f32) | colour, emission (rgb) | alpha (f32) | 3 tracks of 4 bytes |
//     i32 material id.  Track: u16 interpolation, u32 key count, keys; a texture key is
//     {i32 bitmap; u16 frame}, every other key {u16 frame; u16 pad; value}.
//   MATERIALOBJ: u32 n; i32 MATERIALANIM ids[n].
// Bytes after a record's known fields are kept verbatim (`tail`).

#include "libmod/totem/object.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace mod::totem {

inline constexpr std::size_t material_size = 109;

struct Material {
    std::array<F32, 4> colour{};    // r, g, b, a (diffuse factor)
    std::array<F32, 3> emission{};
    F32 unknown28;
    std::array<F32, 9> uv_transform{};  // row vector (u, v, 1) x M, translation in 6, 7
    F32 rotation;
    std::array<F32, 2> offset{}, scale{};
    std::uint32_t flags_a = 0, flags_b = 0, unknown2 = 0;
    std::uint8_t unknown3 = 0;
    std::int32_t texture = 0, reflection = 0;  // BITMAP name ids (0 = none)
    Bytes tail;
    bool operator==(const Material&) const = default;
};

Material decode_material(const ByteReader& payload);
Bytes encode_material(const Material& m, Endian endian);

// A key of a MATERIALANIM track. Texture keys keep the bitmap id in value[0] (its bits) and
// no pad; other keys use value[0 .. track width).
struct AnimKey {
    std::uint16_t frame = 0;
    std::uint16_t pad = 0;
    std::array<F32, 3> value{};
    bool operator==(const AnimKey&) const = default;
};

struct AnimTrack {
    std::uint16_t interpolation = 0;  // Chum World's enum: 0 invalid, 1 discrete, 2 linear, 3 unknown (>= 4: it refuses)
    std::vector<AnimKey> keys;
    bool operator==(const AnimTrack&) const = default;
};

enum MaterialAnimTrack : std::size_t {
    track_texture, track_scroll, track_stretch, track_rotation, track_colour, track_emission, track_alpha,
    track_unknown1, track_unknown2, track_unknown3, track_count
};
// Track names ("texture", "scroll", …) and value widths in 4-byte words (texture: 1).
const char* track_name(std::size_t track) noexcept;
unsigned track_width(std::size_t track) noexcept;

struct MaterialAnim {
    std::uint8_t unknown = 0;
    F32 length;  // seconds
    std::array<AnimTrack, track_count> tracks;
    std::int32_t material = 0;
    Bytes tail;
    bool operator==(const MaterialAnim&) const = default;
};

MaterialAnim decode_material_anim(const ByteReader& payload);
Bytes encode_material_anim(const MaterialAnim& m, Endian endian);

struct MaterialObj {
    std::vector<std::int32_t> anims;  // MATERIALANIM ids
    Bytes tail;
    bool operator==(const MaterialObj&) const = default;
};

MaterialObj decode_material_obj(const ByteReader& payload);
Bytes encode_material_obj(const MaterialObj& m, Endian endian);

// Observations: a tail after the known fields, interpolation outside 1..3, non-zero key pads,
// key frames past the length.
std::vector<Finding> check_material(const Material& m);
std::vector<Finding> check_material_anim(const MaterialAnim& m);

}  // namespace mod::totem
