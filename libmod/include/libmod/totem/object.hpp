#pragma once
// The common header of TotemTech objects (Chum World's "TransformationHeader" / THeader) and
// the raw-bits float used wherever a round trip must keep the exact bits.
// Spec: doc/formats/totem-skin.md ("Common header").
//
//   +0x00 4 × f32 (meaning unknown)   +0x10 4×4 f32 matrix (file order)
//   +0x50 16 bytes (junk; zero in what Chum World writes)   +0x60 u16 item type
//   +0x62 u16 item subtype / flags     +0x64 type-specific body

#include "libmod/core/bytes.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <string>

namespace mod::totem {

// One observation a checker makes about a decoded object. `mismatch`: the data contradicts a
// documented fact or hypothesis (the tool says so loudly); `note`: worth knowing, not wrong.
struct Finding {
    enum class Level { note, mismatch };
    Level level = Level::mismatch;
    std::string path;     // structure path, e.g. "skin.sections[2].subsections[0].vertices[7]"
    std::string message;
};

// An IEEE single kept as its bits, so NaN payloads and -0 survive a round trip.
struct F32 {
    std::uint32_t bits = 0;
    float value() const noexcept { return std::bit_cast<float>(bits); }
    static F32 of(float v) noexcept { return F32{std::bit_cast<std::uint32_t>(v)}; }
    bool operator==(const F32&) const = default;
};

inline constexpr std::size_t object_header_size = 0x64;

// Item type values (Chum World, libchum/src/common.rs).
enum ItemType : std::uint16_t {
    item_surface = 1, item_spline = 2, item_skin = 3, item_rotshape = 4, item_lod = 5, item_mesh = 6,
    item_camera = 7, item_occluder = 10, item_camerazone = 11, item_light = 12, item_hfog = 13,
    item_collisionvol = 14, item_omni = 16, item_particles = 18,
};
// "SKIN", "MESH", … or "" for a value not in the list.
const char* item_type_name(std::uint16_t type) noexcept;

struct ObjectHeader {
    std::array<F32, 4> unknown{};
    std::array<F32, 16> matrix{};  // file order
    std::array<std::uint8_t, 16> junk{};
    std::uint16_t item_type = 0;
    std::uint16_t item_subtype = 0;
    bool operator==(const ObjectHeader&) const = default;
};

// Reads the 0x64-byte header at the cursor (path `.header`).
ObjectHeader read_object_header(ByteReader& r);
void write_object_header(ByteWriter& w, const ObjectHeader& h);

}  // namespace mod::totem
