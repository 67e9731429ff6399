#pragma once
// The TotemTech texture and material edits, one function each, used by both the CLI
// (`modkit totem texture|palette|material …`) and the manifest operations (texture.replace,
// palette.set, palette.hsv, material.colour for game totemtech). Each takes the record's
// payload and returns the new payload; the caller repacks (repack.hpp), which keeps every
// other record byte for byte. Spec: doc/formats/totem-bitmap.md, totem-material.md.

#include "libmod/totem/archive.hpp"
#include "libmod/totem/bitmap.hpp"
#include "libmod/totem/material.hpp"
#include "libmod/totem/names.hpp"

#include <optional>
#include <string>
#include <vector>

namespace mod::totem {

// The record `text` names (name, 0xHASH, decimal id or #index) if it has type `type`; usage
// error naming what it is otherwise.
std::size_t find_typed_record(const Archive& archive, const NameTable& names, const std::string& text, const char* type);

struct TextureReplaceResult {
    Bytes payload;
    Bitmap before, after;
    BitmapEncodeReport report;
};
TextureReplaceResult replace_texture(const ByteReader& payload, BitmapLayout layout, const image::RgbaImage& img,
                                     const BitmapEncodeOptions& options);

struct PaletteEditResult {
    Bytes payload;
    Bitmap before;
    std::vector<PaletteChange> changes;
};
PaletteEditResult set_palette(const ByteReader& payload, BitmapLayout layout, std::span<const image::SlotColour> colours,
                              std::span<const unsigned> locked);
PaletteEditResult shift_palette(const ByteReader& payload, BitmapLayout layout, const image::HsvShift& shift,
                                std::span<const unsigned> slots, std::span<const unsigned> locked);

struct MaterialColourEdit {
    std::optional<image::Rgba8> colour;    // diffuse colour (alpha too), 8-bit sRGB values / 255
    std::optional<image::Rgba8> emission;  // emission (alpha ignored)
};
struct MaterialColourResult {
    Bytes payload;
    Material before, after;
};
// Colour floats are written as value / 255 (the factor the viewers multiply the texture by).
MaterialColourResult set_material_colour(const ByteReader& payload, const MaterialColourEdit& edit);

}  // namespace mod::totem
