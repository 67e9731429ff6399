#pragma once
// The typed Pokémon model read from a model FRAGMENT by interpreting its layout stream the way
// the game's geo-layout interpreter does (stadium.md §7.1): bone tree, root scale, materials,
// the texture and palette tables of command 0x17, the vertex array, every display list the
// layout draws and the triangles they produce through the RSP's 64-entry vertex cache (which
// carries over from one draw to the next). Spec: doc/formats/stadium-model.md.
//
// The walk keeps the interpreter's state exactly as src/geo_layout.c does: one word stack that
// starts as {0, 0} with return index 2; 00 pushes its return address and (node index << 16 |
// return index) and makes the stack index the return index; 01 unwinds to the return index,
// restores the node index and the return index saved by the last 00 and returns (a zero
// address ends the script: 01 ends the whole script when no 00 is pending, even after a 03);
// 03 pushes its return address; 04 pops one word and goes there (a 00's frame word there is a
// format error: the game would jump to it); 02 jumps. The node list of 05/06 is
// gCurGraphNodeList: 05 opens the last node registered at the current level, 06 closes a
// level, and 01 restores the level the matching 00 was called at (a bone's children are the
// nodes opened after it). The root rule (func_80017AC4: only the first level-0 node is the
// root; later level-0 nodes and their subtrees are attached to nothing) decides what is drawn
// (DetachedNode). Draws run in the game's render-bucket order (game_draw_order). The current
// tables (0x17), the current material (0x23, with its texture-animation channel). It stops with
// a format error on 0x12 (the game's handler never advances), on unknown opcodes, on a
// command outside the body, on return-stack overflow, and on loops (the same command reached
// twice with the same return stack). Every command is kept with its raw bytes, so fields the
// model does not name survive verbatim; the model is a read-only view: edits go through
// texture_edit.hpp / palette_edit.hpp, which patch the fragment through FragmentImage.
//
// The structure walk and relocation cross-check of model_walk.hpp run first (read_model calls
// walk_model), so a model that reads here also passed the pointer walk.

#include "libmod/n64/gbi.hpp"
#include "libmod/n64/gbi_walk.hpp"
#include "libmod/n64/texel.hpp"
#include "libmod/n64/texel_load.hpp"
#include "libmod/n64/tlut.hpp"
#include "libmod/stadium/fragment.hpp"
#include "libmod/stadium/model_walk.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mod::stadium {

// Hard limits (stadium.md §6.3, §7.1, §8 item 7): command 0x17 stores the counts as u8 / s16.
inline constexpr std::size_t max_model_textures = 255;
inline constexpr std::size_t max_model_palettes = 255;
inline constexpr std::size_t max_model_vertices = 32767;
// Nesting of 00/03 calls the walker follows before calling the script hostile.
inline constexpr std::size_t max_layout_call_depth = 64;

// One layout command as visited (walk order), with its bytes verbatim.
struct LayoutCommandRecord {
    std::uint32_t offset = 0;
    std::uint8_t op = 0;
    Bytes raw;              // layout_command_size(op) bytes
    std::uint32_t depth = 0;  // node depth (05/06) when visited
};

struct ModelBone {
    std::uint32_t command = 0;  // offset of the 0x1D command
    std::uint8_t id = 0;        // matrix slot
    std::uint8_t flags = 0;
    std::uint8_t channel = 0;   // animation channel
    std::array<std::int16_t, 3> translation{};
    std::array<std::int16_t, 3> rotation{};  // binary angles: 65536 = 360° (0x4000 = 90°)
    std::array<std::int32_t, 3> scale{};     // 16.16
    std::int32_t parent = -1;                // index in Model::bones, -1 for a root bone
};

struct ModelMaterial {
    std::uint32_t command = 0;  // offset of the 0x23 command
    std::uint8_t combiner = 0;  // preset (byte +1)
    std::int16_t texture_channel = -1;  // texture-animation channel, -1 = none
    std::uint32_t material_dl = 0;      // link address (0 = none)
    std::int16_t texture = -1;
    std::int16_t palette = -1;          // -1 = none
    std::uint32_t prim_colour = 0;      // RGBA8888
    std::int32_t bone = -1;             // innermost enclosing bone (index in Model::bones)
    // False when the game never attaches the node to the drawn tree (Model::detached): the
    // material is kept for edits (its DL and table indices are real data) but applies to nothing.
    bool drawn = true;
    // The material DL's texture load (render tile: wrap modes, CI4 bank, tile size), if any.
    std::optional<n64::TextureLoadInfo> load;
};

struct ModelTexture {
    std::uint32_t entry = 0;  // offset of the 12-byte table entry
    n64::TextureDescriptor descriptor;
    std::uint32_t texels = 0;   // link address
    std::uint32_t offset = 0;   // body offset of the texels (0 when the pointer is not ours)
    std::optional<n64::TexelFormat> format;
    Bytes data;                 // texel_bytes(format, w × h) bytes (empty for unknown formats)
};

// The TLUT display list is authoritative (seed 004 §17.4: the list may override the entry's
// pointer or colour count; the engine runs the list): color_count / colors / offset / entries
// are what the list's SETTIMG + LOADTLUT load. When they differ from the table entry
// (entry_count / entry_colors), the model warns and decodes, exports and edits what the list
// loads; when the list loads nothing usable (no LOADTLUT, an address outside this fragment, a
// count outside 1..256) the table entry is used, with a warning.
struct ModelPalette {
    std::uint32_t entry = 0;        // offset of the 12-byte table entry
    std::uint32_t color_count = 0;  // colours loaded (LOADTLUT count; the entry's s32 when it loads none)
    std::uint32_t colors = 0;       // link address loaded (SETTIMG; the entry's when it loads none)
    std::uint32_t offset = 0;       // body offset of the colours loaded
    std::uint32_t entry_count = 0;  // s32 as stored in the table entry
    std::uint32_t entry_colors = 0; // colours pointer as stored in the table entry
    std::uint32_t tlut_dl = 0;      // link address
    std::vector<std::uint16_t> entries;  // color_count values (RGBA5551 or IA16: `format`)
    std::optional<n64::TlutLoad> load;   // what the TLUT DL loads
    // True when the TLUT DL loads another address or count than the table entry says.
    bool overridden() const noexcept { return colors != entry_colors || color_count != entry_count; }
    // The TLUT type the TLUT DL selects (tlut_format_set_by); RGBA5551 when it selects none.
    n64::TlutFormat format = n64::TlutFormat::rgba5551;
};

// A display-list node with its own transform [decomp src/geo_layout.c, src/11BA0.c, src/12D80.c]:
//   0x20 (node type 0x17): +1 layer, +2 s16 (unused by the handler), +4/+6/+8 s16 rotation in
//        DEGREES, +0xA Vec3s translation, +0x10 Gfx*. The handler converts each angle with
//        (deg << 15) / 180 (C integer division, truncating toward zero) into a binary angle and
//        builds func_8000F2C4(t, r) (row form: Ry·Rx·Rz then T in column form); drawing pushes
//        that matrix × the current one (func_800148D8 → func_800122B4).
//   0x21 (node type 0x18): +1 layer, +2 Vec3s translation, +8 u32 16.16 uniform scale, +0xC Gfx*.
//        Drawing (func_80014980) builds func_8000F88C(view, current, t, s): a billboard whose
//        axes are the camera's, scaled by the current matrix's row lengths × s, at t carried
//        through the current matrix; it replaces (not multiplies) the stack top.
// Children opened under either node (05) draw with its matrix.
struct ModelNode {
    std::uint32_t command = 0;
    std::uint8_t op = 0;  // 0x20 or 0x21
    std::array<std::int16_t, 3> translation{};
    std::array<std::int16_t, 3> degrees{};  // 0x20 only
    std::uint32_t scale = 0x10000;          // 0x21 only (16.16, read as unsigned)
    std::int32_t parent = -1;               // enclosing 0x20/0x21 node below the bone, or -1
    std::int32_t bone = -1;                 // innermost enclosing bone, or -1
    // 0x20's angles as the handler converts them: (s32(deg) << 15) / 180, stored as s16.
    std::array<std::int16_t, 3> rotation() const noexcept;
};

// A display list the layout draws (0x1E, 0x20, 0x21, 0x22), in walk order.
struct ModelDraw {
    std::uint32_t command = 0;
    std::uint8_t op = 0;
    std::uint8_t layer = 0;
    std::uint32_t dl = 0;         // link address
    std::int32_t bone = -1;       // bone whose matrix draws it (0x1E: by id; others: enclosing)
    std::int32_t material = -1;   // the material in force (index in Model::materials)
    std::size_t list = 0;         // index in Model::lists
    // The 0x20/0x21 node whose matrix draws it (index in Model::nodes): its own for 0x20/0x21,
    // the innermost enclosing one (nearer than the bone) for 0x22; -1 when none (and for 0x1E,
    // which draws with the named bone's matrix).
    std::int32_t node = -1;
};

struct ModelList {
    std::uint32_t offset = 0;  // body offset
    n64::gbi::DisplayList list;
};

struct ModelVertex {
    std::array<std::int16_t, 3> position{};
    std::uint16_t flag = 0;
    std::array<std::int16_t, 2> st{};       // S10.5
    std::array<std::uint8_t, 4> colour{};   // rgba, or s8 normal + alpha when lit
};

// A byte range of the body the reader interprets.
struct ModelRange {
    std::uint32_t begin = 0, end = 0;  // [begin, end)
    std::string what;                  // e.g. "layout command 0x23", "display list"
};

// The game's root rule [pret/pokestadium 756f7e3, src/geo_layout.c:125-136 func_80017AC4]: a
// node registered at level 0 becomes the root only when there is no root yet; a later level-0
// node replaces gCurGraphNodeList[0] but is attached to nothing, and so is everything opened
// under it. process_geo_layout returns the root; func_80019328 (src/19840.c:196-214) keeps it
// and the draw walks only the root's descendants. The reader keeps such commands in `commands`
// but leaves their bones, 0x20/0x21 nodes and draws out of the model (export and preview never
// draw them) and reports them in `findings`.
struct DetachedNode {
    std::uint32_t command = 0;  // the node the detached subtree hangs from
    std::uint8_t op = 0;
    std::size_t bones = 0, draws = 0, materials = 0;  // commands under it the game never draws
};

struct Model {
    Fragment fragment;
    ModelMap map;  // the pointer walk (model_walk.hpp)
    ModelRoot root;
    std::vector<LayoutCommandRecord> commands;  // walk order
    std::optional<std::array<std::int32_t, 3>> root_scale;  // first 0x1C, 16.16
    std::vector<ModelBone> bones;
    std::vector<ModelMaterial> materials;
    std::uint32_t tables_command = 0;  // offset of the 0x17 command (0 when none)
    std::uint32_t texture_table = 0, palette_table = 0, vertex_array = 0;  // link addresses
    std::vector<ModelTexture> textures;
    std::vector<ModelPalette> palettes;
    std::uint16_t vertex_count = 0;
    std::vector<ModelVertex> vertices;
    std::vector<ModelDraw> draws;  // the draws the game attaches, walk order
    // Indices in `draws` in the order the game runs them (game_draw_order, model_walk.hpp):
    // render bucket 0 → 9, walk order inside a bucket. `triangles` come in this order.
    std::vector<std::size_t> draw_order;
    std::vector<DetachedNode> detached;  // per layout script, walk order
    std::vector<ModelNode> nodes;  // 0x20/0x21 transform nodes, walk order
    std::vector<ModelList> lists;  // every DL the draws start at (each once), in walk order
    // Triangles in the game's order (draw_order) through one vertex cache; a triangle using a
    // slot no draw before it (in that order) loaded is left out with a finding.
    // WalkTriangle::dl and Corner::dl are indices in `draws`.
    std::vector<n64::gbi::WalkTriangle> triangles;
    // Findings that do not stop the read (a descriptor whose texel count is not w × h, a texture
    // in a format models do not use, a palette count that is not 16 or 256, …).
    std::vector<std::string> warnings;
    // Where the game would not draw what the layout says (each also in `warnings`): subtrees it
    // never attaches ("the game draws nothing under …"), a root that is not the 0x17 header,
    // a layer past the 10 render buckets, triangles whose slots are not loaded in the game's
    // draw order. `modkit stadium show` and `verify` print them.
    std::vector<std::string> findings;
    // The structure the reader walked (layout commands, texture/palette table entries, every
    // display list decoded, the vertex array), sorted by begin: data edits must not overwrite it.
    std::vector<ModelRange> structure;

    // Indices of the materials that use texture `t` / palette `p`.
    std::vector<std::size_t> materials_with_texture(std::size_t t) const;
    std::vector<std::size_t> materials_with_palette(std::size_t p) const;
    // Body offset of a link address of this fragment (format error naming `what` otherwise).
    std::uint32_t offset_of(std::uint32_t address, const std::string& what) const;
};

// Reads the model. Errors: format (naming `path` and the offset) for anything the game could
// not read, including 0x12, loops, counts past the tables; unsupported (usage) when a second
// 0x17 names different tables. What the game reads but would not draw as the layout says
// (detached nodes, a root other than 0x17, layers past 9, triangles on slots not loaded in the
// game's draw order) is a finding (Model::findings), not an error.
Model read_model(Fragment fragment, const std::string& path = "fragment");
Model read_model(ByteView fragment_bytes, const std::string& file = {}, const std::string& path = "fragment");

// Conflict error naming `what` when [at, at + size) overlaps Model::structure: texels or palette
// colours that share bytes with a display list, a command or a table (only hostile input lays
// data out that way) cannot be rewritten in place without changing that structure.
void require_plain_data(const Model& model, std::uint32_t at, std::size_t size, const std::string& what);

// Hypothesis (one place; doc/formats/stadium-model.md "IA16 palettes"): the TLUT type a display
// list selects is the G_MDSFT_TEXTLUT field (othermode high bits 14..15) of its last
// G_SETOTHERMODE_H that covers it: 2 (G_TT_RGBA16) → rgba5551, 3 (G_TT_IA16) → ia16; nullopt
// when the list sets none, or sets G_TT_NONE (0) or the unused value 1. The model reads it from
// each palette's TLUT DL (the engine calls it before the material DL, §6.3) and warns when a
// material DL selects another type than its palette's.
std::optional<n64::TlutFormat> tlut_format_set_by(const n64::gbi::DisplayList& list);

// RGBA8 of a texture: CI through `palette` (the material's, or the first material that uses
// it; bank from its render tile), others directly. Format/usage errors as the codecs give.
// `bank` overrides the CI4 bank (a texture-animation frame drawn through another material's
// render tile, which keeps that tile's bank: 12D80.c swaps only the texture table entry).
Bytes decode_texture_rgba(const Model& model, std::size_t texture, std::optional<std::size_t> palette = std::nullopt,
                          std::optional<unsigned> bank = std::nullopt);
// The palette a texture is drawn with (first material using it), and the CI4 bank.
std::optional<std::size_t> palette_for_texture(const Model& model, std::size_t texture);
unsigned bank_for_texture(const Model& model, std::size_t texture);

}  // namespace mod::stadium
