#pragma once
// Building Pokémon model FRAGMENTs from parts: a tiny linker (FragmentLinker) and a model
// builder on top of it (ModelBuilder) that writes every structure the game reads — root,
// layout scripts, texture/palette tables with TLUT display lists, material and geometry
// display lists (F3DEX2), the vertex array, texels, palettes and skeletal/texture animation
// headers — with a complete relocation table. The sample ROM forge uses it; model editors can
// use it to emit new models. Spec of what is written: doc/formats/fragment.md.
//
// Usage:
//   ModelBuilder m(25);                                   // model id (species)
//   auto pal = m.add_palette(colors16);                   // 16 or 256 RGBA5551 colours
//   auto tex = m.add_texture(TexFormat::ci, TexSize::b4, 32, 32, texels);
//   auto mat = m.add_material_dl(tex, pal);               // SETTILE/LOADBLOCK/… no SETTIMG
//   auto v0  = m.add_vertices(vertices);                  // index into the one Vtx array
//   DisplayList geo; geo.vtx(v0, 8, 0).tri2(0,1,2, 2,3,0).end();
//   auto g = m.add_display_list(std::move(geo));
//   auto& s = m.layout();                                 // script 0 (add_layout() for more)
//   s.model_header().open().scale(0x10000,0x10000,0x10000).open()
//    .bone(0, 0, 0, {0,0,0}, {0,0,0}).open().material(1, -1, mat, tex, pal, 0xFFFFFFFF)
//    .draw(1, g).close().close().close().end();          // 17 05 1C 05 1D 05 23 22 06 06 06 01
//   Bytes fragment = m.build();                           // linked at 0x8FF00000
//
// All indices (texture, palette, display list, vertex) are the builder's own and become
// pointers or table indices at build(). build() is deterministic: same calls, same bytes.
// Errors: usage (kind) for inconsistent requests (unknown ids, counts past the u8/s16 limits
// of command 0x17, a palette that is not 16 or 256 colours, …).

#include "libmod/core/bytes.hpp"
#include "libmod/stadium/fragment.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace mod::stadium {

// ---- the linker -------------------------------------------------------------------------
class FragmentLinker {
public:
    using Blob = std::uint32_t;

    explicit FragmentLinker(std::uint32_t link_base = model_link_base) : base_(link_base) {}

    // Adds a blob; blobs are placed in the order added, after the header and the root getter,
    // each at the next multiple of `alignment` (zero fill).
    Blob add(Bytes data, std::uint32_t alignment = 8);
    Bytes& data(Blob blob);
    // The word at `offset` in `from` will hold the link address of `to` + addend and get an
    // R_MIPS_32 entry.
    void pointer(Blob from, std::uint32_t offset, Blob to, std::uint32_t addend = 0);
    // Offset of a blob in the linked fragment.
    std::uint32_t offset_of(Blob blob) const;
    // Places `blob` after every other blob (the others keep their order).
    void place_last(Blob blob);
    // The getter's form. simple: lui v0 / jr ra / addiu v0 / nop (HI16 @0x20, LO16 @0x28).
    // shared_hi16: lui v1, %hi(root) / addiu v0, v1, %lo(root) / jr ra / lw t0, %lo(root + 0x14)(v1)
    // (HI16 @0x20, LO16 @0x24 and @0x2C on the one HI16: Memmap_RelocateFragment pairs both with
    // it by register v1; the load in the delay slot has no effect the game sees).
    enum class Getter { simple, shared_hi16 };
    void set_getter(Getter getter) noexcept { getter_ = getter; }

    // Links: header (J 0x0BFC0008-style jump to base+0x20, nop, "FRAGMENT", 0x20, relocOffset,
    // sizeInRom, sizeInRam = relocOffset), getter at 0x20 (set_getter; default lui v0 / jr ra /
    // addiu v0 / nop) returning `root`, the blobs, then the table: R_MIPS_26 @0, HI16 @0x20,
    // the getter's LO16(s) (@0x28; shared_hi16: @0x24, @0x2C), one R_MIPS_32 per pointer in site
    // order, zero padding to 16.
    Bytes link(Blob root) const;

private:
    struct Fixup {
        Blob from;
        std::uint32_t offset;
        Blob to;
        std::uint32_t addend;
    };
    std::vector<Blob> order() const;
    std::uint32_t base_;
    std::vector<Bytes> blobs_;
    std::vector<std::uint32_t> align_;
    std::vector<Fixup> fixups_;
    std::optional<Blob> last_;
    Getter getter_ = Getter::simple;
};

// ---- F3DEX2 display lists ------------------------------------------------------------------
enum class TexFormat : std::uint8_t { rgba = 0, yuv = 1, ci = 2, ia = 3, i = 4 };
enum class TexSize : std::uint8_t { b4 = 0, b8 = 1, b16 = 2, b32 = 3 };

struct Vertex {
    std::int16_t x = 0, y = 0, z = 0;
    std::uint16_t flag = 0;
    std::int16_t s = 0, t = 0;  // S10.5 (texel · 32)
    std::array<std::uint8_t, 4> color{255, 255, 255, 255};  // rgba, or s8 normal + alpha
};

// Display-list ids, texture/palette indices as returned by ModelBuilder.
using DlId = std::uint32_t;

class DisplayList {
public:
    // G_VTX: `count` vertices of the model's array starting at `first_vertex`, into cache slots
    // [slot, slot + count) (count 1..32, slot + count <= 32; checked at build()).
    DisplayList& vtx(std::uint32_t first_vertex, std::uint32_t count, std::uint32_t slot);
    DisplayList& tri1(std::uint8_t a, std::uint8_t b, std::uint8_t c);
    DisplayList& tri2(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d, std::uint8_t e, std::uint8_t f);
    DisplayList& call(DlId dl);    // G_DL push
    DisplayList& branch(DlId dl);  // G_DL no-push (ends this list)
    DisplayList& raw(std::uint32_t w0, std::uint32_t w1);  // a command without an address
    DisplayList& end();            // G_ENDDL

    struct Command {
        std::uint32_t w0 = 0, w1 = 0;
        enum class Ref { none, vertex, dl, palette_colors } ref = Ref::none;
        std::uint32_t id = 0;  // vertex index / dl id / palette index
    };
    const std::vector<Command>& commands() const noexcept { return commands_; }

private:
    std::vector<Command> commands_;
};

// ---- layout scripts --------------------------------------------------------------------------
struct Vec3s {
    std::int16_t x = 0, y = 0, z = 0;
};

// The game draws only the root of a script's node tree and what hangs under it: the first node
// registered at level 0 is the root, a later level-0 node is attached to nothing
// (src/geo_layout.c func_80017AC4; doc/formats/stadium-model.md "The root rule"). So a script
// is `model_header().open() … close().end()`: the 0x17 header is the one level-0 node and
// everything else is opened under it. The script follows the node level as commands are added
// (05 +1, 06 −1; a 0x00 call comes back at its level) and refuses, with a usage error, a
// node command at level 0 other than a first model_header(), and a close() at level 0. After
// end(), ret(), jump() and branch() the level is unknown until place() reaches a label whose
// level a 0x00/0x02/0x03 recorded; raw() commands are not checked (hostile fixtures use them).
// Draws run in render-layer order, not walk order (game_draw_order, model_walk.hpp).
class LayoutScript {
public:
    LayoutScript& model_header();  // 0x17: the model's counts and table pointers
    LayoutScript& scale(std::int32_t x, std::int32_t y, std::int32_t z);  // 0x1C (16.16)
    LayoutScript& open();   // 0x05
    LayoutScript& close();  // 0x06
    LayoutScript& end();    // 0x01
    // 0x1D bone: id (matrix slot), flags, animation channel, translation, rotation (binary
    // angles, 65536 = 360°: 0x4000 is 90°), scale 16.16.
    LayoutScript& bone(std::uint8_t id, std::uint8_t flags, std::uint8_t channel, Vec3s translation,
                       Vec3s rotation, std::int32_t sx = 0x10000, std::int32_t sy = 0x10000,
                       std::int32_t sz = 0x10000);
    // 0x23 material: combiner mode, texture-animation channel (-1 none), material DL, texture
    // and palette indices (-1 = no palette), prim colour RGBA.
    LayoutScript& material(std::uint8_t mode, std::int16_t tex_anim_channel, DlId material_dl,
                           std::int16_t texture, std::int16_t palette, std::uint32_t prim_rgba);
    LayoutScript& draw(std::uint8_t layer, DlId dl);                            // 0x22
    LayoutScript& draw_with_bone(std::uint8_t layer, std::int16_t bone, DlId dl);  // 0x1E
    // 0x20: a DL node with its own transform: rotation in degrees (+4/+6/+8; the game converts
    // each with (d << 15) / 180), translation (+0xA); +2 is written 0.
    LayoutScript& draw_transformed(std::uint8_t layer, Vec3s degrees, Vec3s translation, DlId dl);
    // 0x21: a billboard DL node: translation (+2), uniform 16.16 scale (+8).
    LayoutScript& draw_billboard(std::uint8_t layer, Vec3s translation, std::uint32_t scale, DlId dl);
    // Control flow inside this script (geo_layout.c): a label is a position placed with place();
    // 0x00 branch_and_link (returns with 0x01, which also restores the node level of the call),
    // 0x03 branch (returns with 0x04), 0x02 jump. Every label used must be placed before build().
    using Label = std::uint32_t;
    Label new_label();
    LayoutScript& place(Label label);
    LayoutScript& branch_and_link(Label target);  // 0x00
    LayoutScript& branch(Label target);           // 0x03
    LayoutScript& jump(Label target);             // 0x02
    LayoutScript& ret();                          // 0x04
    // Offset of a placed label in this script (usage error when not placed).
    std::uint32_t label_offset(Label label) const;
    // Any command without pointer fields (size must match layout_command_size(op)).
    LayoutScript& raw(ByteView command);

    struct Ref {
        std::uint32_t offset;  // in the script
        enum class Kind { dl, texture_table, palette_table, vertices, label } kind;
        DlId dl = 0;  // the DL, or the label (Kind::label)
    };
    const Bytes& bytes() const noexcept { return bytes_; }
    const std::vector<Ref>& refs() const noexcept { return refs_; }
    // The node level the next command is added at (nullopt when unknown, see above).
    std::optional<int> level() const noexcept { return level_; }

private:
    LayoutScript& to_label(std::uint8_t op, Label target);
    void node_at_level(std::uint8_t op);  // the root rule check for a command registering a node
    Bytes bytes_;
    std::vector<Ref> refs_;
    std::vector<std::optional<std::uint32_t>> labels_;
    std::vector<std::optional<int>> label_levels_;  // level recorded by the first 00/02/03 to it
    std::optional<int> level_ = 0;
    bool has_root_ = false;
};

// ---- animations --------------------------------------------------------------------------------
// A skeletal animation (stadium_animation.md §4.2): header 0x1C, 10-byte descriptors, s16
// scale/rotation/translation arrays (packed bit fields or Hermite keys are the caller's words).
// Each `channels` entry is ONE descriptor (one axis): bone channel c uses entries 3c, 3c+1, 3c+2
// (x, y, z), and the header's descriptor count (+0x08) is channels.size().
struct SkeletalAnimation {
    std::uint16_t flags = 0;
    std::array<std::uint8_t, 2> unknown2{};  // +0x02, kept as given
    std::int16_t start_frame = 0, loop_frame = 0;
    std::uint16_t frame_count = 1;
    struct Channel {
        std::uint8_t n_scale = 1, n_rot = 1, n_trans = 1, interp = 0;
        std::uint16_t scale_off = 0, rot_off = 0, trans_off = 0;
    };
    std::vector<Channel> channels;  // descriptors; header count = channels.size()
    std::vector<std::int16_t> scale, rotation, translation;
};

// A texture (aux) animation (§7.3): 4-byte channel entries {count, offset}, u8 index stream.
struct AuxAnimation {
    std::uint16_t flags = 0;
    std::array<std::uint8_t, 2> unknown2{};  // +0x02, kept as given
    std::int16_t start_frame = 0, loop_frame = 0;
    std::uint16_t frame_count = 1;
    struct Channel {
        std::uint16_t count = 1, offset = 0;
    };
    std::vector<Channel> channels;
    std::vector<std::uint8_t> stream;
};

// ---- the model -------------------------------------------------------------------------------
class ModelBuilder {
public:
    explicit ModelBuilder(std::uint16_t model_id) : model_id_(model_id) {}

    // Texture with its texel bytes (size must be width·height·bits/8). Returns its index.
    std::int16_t add_texture(TexFormat fmt, TexSize siz, std::uint16_t width, std::uint16_t height, Bytes texels);
    // Palette of 16 or 256 RGBA5551 colours with its TLUT DL (SETTIMG + LOADTLUT). Returns its index.
    std::int16_t add_palette(std::vector<std::uint16_t> colors);
    // A palette of 16 or 256 IA16 entries: its TLUT DL also selects IA16 TLUTs
    // (gDPSetTextureLUT(G_TT_IA16) = E3001001 0000C000 before the ENDDL).
    std::int16_t add_palette_ia16(std::vector<std::uint16_t> entries);
    // Appends vertices to the model's single Vtx array; returns the index of the first.
    std::uint32_t add_vertices(std::span<const Vertex> vertices);
    DlId add_display_list(DisplayList dl);
    // The material DL shape the engine expects for texture `texture` (no SETTIMG: the engine
    // emits it): SETTILE(load) LOADSYNC LOADBLOCK PIPESYNC SETTILE(render, CI4 palette 0)
    // SETTILESIZE ENDDL.
    DlId add_material_dl(std::int16_t texture);
    // The same with the render tile's wrap bits per axis (G_TX_MIRROR 1 | G_TX_CLAMP 2; masks
    // stay log2 of the size).
    DlId add_material_dl(std::int16_t texture, std::uint8_t cms, std::uint8_t cmt);
    LayoutScript& layout();      // script 0 (created on first use)
    LayoutScript& add_layout();  // another script
    void add_animation(SkeletalAnimation animation);
    void add_aux_animation(AuxAnimation animation);
    // Root struct bytes the reference lists as unknown (+0x02, +0x06..0x07), kept as given.
    void set_root_unknowns(std::uint8_t unknown2, std::uint16_t unknown6);
    // Links the root struct after all other data (default: first, at 0x30) and picks the
    // getter's form (FragmentLinker::Getter).
    void set_root_last(bool last) noexcept { root_last_ = last; }
    void set_getter(FragmentLinker::Getter getter) noexcept { getter_ = getter; }

    std::size_t texture_count() const noexcept { return textures_.size(); }
    std::size_t palette_count() const noexcept { return palettes_.size(); }
    std::size_t vertex_count() const noexcept { return vertices_.size(); }

    // Links the fragment at 0x8FF00000.
    Bytes build() const;

private:
    struct Texture {
        TexFormat fmt;
        TexSize siz;
        std::uint16_t width, height;
        Bytes texels;
    };
    std::uint16_t model_id_;
    bool root_last_ = false;
    FragmentLinker::Getter getter_ = FragmentLinker::Getter::simple;
    std::uint8_t unknown2_ = 0;
    std::uint16_t unknown6_ = 0;
    std::vector<Texture> textures_;
    std::vector<std::vector<std::uint16_t>> palettes_;
    std::vector<bool> palette_ia16_;  // per palette: the TLUT DL selects IA16
    std::vector<Vertex> vertices_;
    std::vector<DisplayList> dls_;
    std::vector<LayoutScript> layouts_;
    std::vector<SkeletalAnimation> animations_;
    std::vector<AuxAnimation> aux_animations_;
};

// GBI2 word helpers shared by the builder and tests.
namespace gbi {
inline constexpr std::uint8_t op_vtx = 0x01, op_tri1 = 0x05, op_tri2 = 0x06, op_dl = 0xDE, op_enddl = 0xDF,
                              op_settimg = 0xFD, op_loadtlut = 0xF0, op_settile = 0xF5, op_loadblock = 0xF3,
                              op_settilesize = 0xF2, op_loadsync = 0xE6, op_pipesync = 0xE7, op_tilesync = 0xE8;
std::uint32_t settimg_w0(TexFormat fmt, TexSize siz, std::uint32_t width);
std::uint32_t loadtlut_w1(std::uint32_t tile, std::uint32_t count);  // count = ((w1>>14)&0x3FF)+1
}  // namespace gbi

}  // namespace mod::stadium
