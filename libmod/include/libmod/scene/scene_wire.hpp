#pragma once
// mod::scene wire format — a Scene as bytes, for passing an imported scene from the contained
// importer's child process back to modkit (import.hpp, ImportOptions::contained).
//
// modkit owns this format and the decoder treats its input as hostile: every count is checked
// against the bytes left before anything is allocated, enums and flags must hold a known value,
// a texture's pixel count must match its size, and trailing bytes are refused. The round trip
// is exact: decode(encode(s)) holds the same values and the same float bits (NaN payloads and
// -0 included) in every field of `s`.
//
// Layout (little-endian): "MKSW", u32 version (2), then the Scene's fields in declaration
// order (except Mesh::tangents_generated: a u32 0/1 right after the material); strings and
// arrays as u32 count + items; optionals as a u8 flag (0/1) + value.
// Spec: doc/formats/scene-import.md, "Contained import".

#include "libmod/core/bytes.hpp"
#include "libmod/scene/model.hpp"

#include <string_view>

namespace mod::scene {

// Throws mod::Error (limit) when a string or array holds more than 2^32-1 items.
Bytes encode_wire(const Scene& scene);

// Throws mod::Error (format) naming `name`, the offset and the field on anything but the bytes
// encode_wire writes.
Scene decode_wire(ByteView bytes, std::string_view name = "scene wire data");

}  // namespace mod::scene
