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

}  // namespace mod::stadium
