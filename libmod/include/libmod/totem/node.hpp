#pragma once
// NODE and LOD: the records that hold a character together (NODE → LOD → SKIN/MESH), read far
// enough to follow that chain. Spec: doc/formats/totem-node.md.
//
//   NODE (no common header): i32 parent NODE, 3 × i32 unknown NODE ids, i32 resource (MESH,
//     SKIN, LOD, SURFACE, ROTSHAPE, …), i32 union tag (CRC-32 of MESHDATA, SKEL, LODDATA, …),
//     then the tag's payload and the transforms (kept opaque here).
//   LOD (common header, item type 5, subtype 0 or 2): a run of optional blocks (u8 0/1 then a
//     fixed-size body), 2 × f32 + u16, array<i32> resources (SKIN or MESH), array<{u32 symbol,
//     i32 ANIMATION}>, and when subtype == 2 array<{u32 symbol, i32 SOUND}>.

#include "libmod/totem/archive.hpp"
#include "libmod/totem/object.hpp"

#include <optional>
#include <string>
#include <vector>

namespace mod::totem {

inline constexpr std::size_t node_links_size = 0x18;

struct NodeLinks {
    std::int32_t parent = 0;
    std::array<std::int32_t, 3> unknown{};
    std::int32_t resource = 0;
    std::int32_t tag = 0;  // union tag: CRC-32 of the tag name, 0 = none
    bool operator==(const NodeLinks&) const = default;
};

// Reads the first 0x18 bytes of a NODE payload (path `node.…`); the rest is not read.
NodeLinks decode_node_links(const ByteReader& payload);
// "LODDATA", "SKEL", … for a known union tag, else "".
const char* node_tag_name(std::int32_t tag) noexcept;

struct LodEntry {
    std::uint32_t symbol = 0;
    std::int32_t id = 0;
    bool operator==(const LodEntry&) const = default;
};

struct Lod {
    ObjectHeader header;
    Bytes blocks;  // the optional blocks and the 2 × f32 + u16 before the resources, verbatim (validated)
    std::vector<std::int32_t> resources;  // SKIN or MESH name ids
    std::vector<LodEntry> anims;
    std::optional<std::vector<LodEntry>> sounds;  // present iff header.item_subtype == 2
    bool operator==(const Lod&) const = default;
};

// Decodes a LOD payload; the payload must be consumed. Format errors name `lod.…`: an optional
// flag other than 0/1, the never-present optional present, subtype other than 0/2.
Lod decode_lod(const ByteReader& payload);
// Writes the payload. Usage error when `sounds` disagrees with subtype 2.
Bytes encode_lod(const Lod& lod, Endian endian);
// The `blocks` of a LOD whose optional blocks are all absent (the two floats and the u16 given).
Bytes empty_lod_blocks(Endian endian, float f0, float f1, std::uint16_t u);

// The chain under a record, as `totem show` prints it.
struct CharacterNode {
    std::size_t record = 0;            // index in the archive
    std::string kind;                  // "NODE", "LOD", "SKIN", "MESH", or the type's name
    std::vector<CharacterNode> children;
    std::string note;                  // e.g. "not in this archive", "already listed above", a decode error
    std::int32_t missing_id = 0;       // for a child that is not a record of the archive (record unused)
    bool missing = false;
};

// Follows NODE → resource (and NODEs whose parent is this NODE), LOD → resources, SKIN →
// MESH targets. A record reached twice is listed with a note, not followed again. Records that
// do not decode are listed with the error as their note.
CharacterNode character_tree(const ByteReader& dgc, const Archive& archive, std::size_t index);

// The MESH records under `index` through resources only (NODE → resource → LOD → SKIN → MESH;
// child NODEs are not followed), each once, in tree order. Throws format when a record on the
// way does not decode.
std::vector<std::size_t> character_meshes(const ByteReader& dgc, const Archive& archive, std::size_t index);

}  // namespace mod::totem
