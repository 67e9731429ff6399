#pragma once
// Walks a Pokémon model FRAGMENT the way the game reads it (root → layout scripts → commands →
// texture/palette tables → display lists; root → animation headers) and collects every word
// that holds a link address, then compares that set with the relocation table.
// Spec: doc/formats/fragment.md (§ "model structures" and "cross-check").
//
// The walk is bounded (each command, table and display-list word is visited once) and
// bounds-checked: a pointer leaving the body or a malformed command is a format error naming
// `<path>.layout[i]@0x…` / `.dl@0x…`. Only the minimal F3DEX2 scanning the cross-check needs
// is here: G_VTX 0x01, G_DL 0xDE (0x01 in byte 1 = branch, ends the list), G_SETTIMG 0xFD,
// G_MTX 0xDA and G_MOVEMEM 0xDC carry addresses in w1; G_ENDDL 0xDF ends a list.

#include "libmod/stadium/fragment.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mod::stadium {

// Byte size of each layout command 0x00..0x26 (0 = never valid: 0x12 loops forever in the
// game's interpreter). From geo_layout.c [decomp].
std::uint32_t layout_command_size(std::uint8_t op) noexcept;
inline constexpr std::uint8_t layout_last_op = 0x26;

struct PointerSite {
    std::uint32_t site = 0;     // offset of the word in the fragment
    std::uint32_t target = 0;   // the link address it holds
    std::string what;           // e.g. "layout[0]@0x40.cmd17.texture_table"
};

struct LayoutCommand {
    std::uint32_t offset = 0;
    std::uint8_t op = 0;
};

struct TextureEntry {
    std::uint32_t offset = 0;  // of the 12-byte table entry
    std::uint8_t fmt = 0, siz = 0;
    std::uint16_t width = 0, height = 0, texel_count = 0;
    std::uint32_t texels = 0;  // link address
};

struct PaletteEntry {
    std::uint32_t offset = 0;  // of the 12-byte table entry
    std::uint32_t color_count = 0;
    std::uint32_t colors = 0;   // link address of RGBA5551 entries
    std::uint32_t tlut_dl = 0;  // link address of the DL that loads this TLUT
};

struct ModelTables {
    std::uint32_t command_offset = 0;  // the 0x17 command
    std::uint32_t vertex_array = 0;    // link address
    std::uint16_t vertex_count = 0;
    std::vector<TextureEntry> textures;
    std::vector<PaletteEntry> palettes;
};

struct ModelMap {
    ModelRoot root;
    RootGetter getter;
    std::vector<std::uint32_t> layout_scripts;  // offsets
    std::vector<LayoutCommand> commands;        // every command visited, in walk order
    std::vector<ModelTables> tables;            // one per 0x17 command
    std::vector<std::uint32_t> display_lists;   // offsets of every DL start, sorted
    std::vector<std::uint32_t> animations;      // offsets of skeletal animation headers
    std::vector<std::uint32_t> aux_animations;  // offsets of texture animation headers
    std::vector<PointerSite> pointers;          // sorted by site, unique
    // Findings that do not stop the walk: a root pointer array (layouts, animations, aux
    // animations) whose word after the counted pointers is not the NULL terminator public
    // readers stop at (the game reads by count).
    std::vector<std::string> notes;
};

// Walks the model. Throws format errors for structures the game could not read.
ModelMap walk_model(const Fragment& fragment, const std::string& path = "fragment");

struct CrossCheck {
    // Pointer words the walk found that have no R_MIPS_32 entry (the game would not relocate them).
    std::vector<PointerSite> missing;
    // R_MIPS_32 entries on words the walk did not reach (unknown structures, or an entry that
    // corrupts a non-pointer word).
    std::vector<Reloc> unexplained;
    // Problems with the non-R_MIPS_32 entries: the R_MIPS_26 at 0 and the getter's HI16/LO16.
    std::vector<std::string> getter_problems;
    std::size_t matched = 0;
    bool ok() const noexcept { return missing.empty() && unexplained.empty() && getter_problems.empty(); }
};

CrossCheck cross_check(const Fragment& fragment, const ModelMap& map);

// ---- the order the game runs a model's display lists in [pret/pokestadium 756f7e3, src/12D80.c]
// Each draw node (0x1E, 0x20, 0x21, 0x22; the layer byte is +1) is appended, when the tree is
// drawn, to the display list of its render bucket (func_800160E0 → func_80015F64, :1288-1305);
// at the end of the frame the buckets are chained 0 → 9 (func_8001660C, :1465-1485). So the
// RSP runs bucket 0's draws in walk order, then bucket 1's, …, with ONE vertex cache carried
// through: a triangle can only reuse slots that a draw earlier in THIS order loaded.
// The bucket of an opaque model (alpha 255) is layer & 0xF (func_80016060, :1315-1336); for a
// translucent one the game remaps 1→8, 2→6, 3→7, 4→5 (not modelled: alpha is set at run time).
// Export, preview, the model reader and the mesh-replacement writer all use game_draw_order.
inline constexpr unsigned render_bucket_count = 10;  // D_800ABB28[10]
// The bucket a draw with layer byte `layer` goes to in an opaque model: layer & 0xF. A value
// ≥ render_bucket_count indexes past the game's 10 buckets (undefined; the reader reports it).
unsigned render_bucket(std::uint8_t layer) noexcept;
// Indices of `layers` (one per draw, in walk order) in the order the game runs them: stable by
// bucket (walk order inside a bucket); out-of-range buckets come last, in bucket order.
std::vector<std::size_t> game_draw_order(std::span<const std::uint8_t> layers);

}  // namespace mod::stadium
