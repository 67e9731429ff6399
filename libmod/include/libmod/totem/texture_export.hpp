#pragma once
// `modkit totem textures`: every BITMAP (or those a record leads to) as PNG, with an index of
// the bitmaps (header fields, palette, findings), MATERIALs (colours, texture links),
// MATERIALANIM tracks and MATERIALOBJ lists. Spec: doc/formats/totem-bitmap.md ("Textures
// folder").

#include "libmod/totem/archive.hpp"
#include "libmod/totem/bitmap.hpp"
#include "libmod/totem/names.hpp"

#include <optional>
#include <string>
#include <vector>

namespace mod::totem {

// The BITMAP records a record leads to (sorted, unique): a BITMAP itself; a MATERIAL's texture
// and reflection; a MATERIALANIM's material and texture keys; a MATERIALOBJ's anims; a MESH's
// materials; a SKIN's meshes. Records that do not decode are skipped (the index says why).
std::vector<std::size_t> bitmaps_of(const ByteReader& dgc, const Archive& archive, std::size_t record);
// The MATERIAL / MATERIALANIM / MATERIALOBJ records on the same chains.
std::vector<std::size_t> materials_of(const ByteReader& dgc, const Archive& archive, std::size_t record);

struct TextureFile {
    std::string file;  // relative path, '/'-separated (the extract name + ".png")
    Bytes png;
};

struct TextureExport {
    std::vector<TextureFile> files;
    std::string index_json;
    std::size_t bitmaps = 0, decoded = 0;
    std::vector<std::string> warnings;  // one line per bitmap not decoded, per mismatch
};

inline constexpr const char* textures_index_name = "index.json";

// `bitmaps` / `materials`: record indices to describe (all of their type when nullopt).
TextureExport export_textures(const ByteReader& dgc, const Archive& archive, const NameTable& names,
                              std::optional<BitmapLayout> layout, const std::string& platform,
                              const std::optional<std::vector<std::size_t>>& bitmaps = std::nullopt,
                              const std::optional<std::vector<std::size_t>>& materials = std::nullopt);

}  // namespace mod::totem
