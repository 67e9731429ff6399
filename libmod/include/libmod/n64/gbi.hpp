#pragma once
// F3DEX2 (GBI2) display lists: 8-byte big-endian commands decoded into typed commands for the
// subset models use, and encoded back. Spec: doc/formats/f3dex2.md.
//
// Every typed command keeps the bits of its two words that no field covers (`spare0` for the
// low 24 bits of w0, `spare1` for w1), and any other opcode is kept as Unknown{w0, w1}, so
// encode(decode(w)) == w for every pair of words, whatever the bits say.

#include "libmod/core/bytes.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace mod::n64::gbi {

// GBI2 opcodes (the top byte of w0).
enum Opcode : std::uint8_t {
    G_VTX = 0x01,
    G_TRI1 = 0x05,
    G_TRI2 = 0x06,
    G_TEXTURE = 0xD7,
    G_POPMTX = 0xD8,
    G_GEOMETRYMODE = 0xD9,
    G_MTX = 0xDA,
    G_DL = 0xDE,
    G_ENDDL = 0xDF,
    G_SETOTHERMODE_L = 0xE2,
    G_SETOTHERMODE_H = 0xE3,
    G_RDPLOADSYNC = 0xE6,
    G_RDPPIPESYNC = 0xE7,
    G_RDPTILESYNC = 0xE8,
    G_RDPFULLSYNC = 0xE9,
    G_LOADTLUT = 0xF0,
    G_SETTILESIZE = 0xF2,
    G_LOADBLOCK = 0xF3,
    G_LOADTILE = 0xF4,
    G_SETTILE = 0xF5,
    G_SETFILLCOLOR = 0xF7,
    G_SETFOGCOLOR = 0xF8,
    G_SETBLENDCOLOR = 0xF9,
    G_SETPRIMCOLOR = 0xFA,
    G_SETENVCOLOR = 0xFB,
    G_SETCOMBINE = 0xFC,
    G_SETTIMG = 0xFD,
};

inline constexpr unsigned vertex_cache_size = 64;
inline constexpr std::uint8_t tx_loadtile = 7;    // G_TX_LOADTILE
inline constexpr std::uint8_t tx_rendertile = 0;  // G_TX_RENDERTILE

struct Word {
    std::uint32_t w0 = 0, w1 = 0;
    friend bool operator==(const Word&, const Word&) = default;
};

// Bits of the words no field covers, kept verbatim.
struct Spare {
    std::uint32_t spare0 = 0;  // within w0's low 24 bits
    std::uint32_t spare1 = 0;  // within w1
    friend bool operator==(const Spare&, const Spare&) = default;
};

// 01: load `count` vertices from `address` into slots [end - count, end).
// w0 = count << 12 (8 bits) | end << 1 (7 bits).
struct Vertex : Spare {
    std::uint8_t count = 0;
    std::uint8_t end = 0;  // slot after the last one loaded
    std::uint32_t address = 0;
    int first() const noexcept { return int(end) - int(count); }
    friend bool operator==(const Vertex&, const Vertex&) = default;
};

// 05: one triangle; the stored bytes are slot × 2 (w0 bits 16, 8, 0).
struct Tri1 : Spare {
    std::array<std::uint8_t, 3> index{};  // raw bytes (slot × 2)
    friend bool operator==(const Tri1&, const Tri1&) = default;
};

// 06: two triangles, the first in w0, the second in w1 (same layout).
struct Tri2 : Spare {
    std::array<std::uint8_t, 3> first{}, second{};
    friend bool operator==(const Tri2&, const Tri2&) = default;
};

// D7: texture scale and tile (w0: level << 11 (3 bits), tile << 8 (3), on << 1 (7);
// w1: s << 16, t).
struct Texture : Spare {
    std::uint8_t level = 0, tile = 0, on = 0;
    std::uint16_t s = 0, t = 0;
    friend bool operator==(const Texture&, const Texture&) = default;
};

// D8: pop `w1 / 64` matrices (w0 is the DMA descriptor, kept in spare0).
struct PopMatrix : Spare {
    std::uint32_t bytes = 0;
    friend bool operator==(const PopMatrix&, const PopMatrix&) = default;
};

// D9: geometry mode = (mode & clear) | set; `clear` is the 24-bit AND mask as stored.
struct GeometryMode : Spare {
    std::uint32_t clear = 0;  // w0 & 0xFFFFFF
    std::uint32_t set = 0;    // w1
    friend bool operator==(const GeometryMode&, const GeometryMode&) = default;
};

// DA: load a matrix (params: G_MTX_NOPUSH/PUSH 1, LOAD 2, PROJECTION 4, xor'ed with PUSH).
struct Matrix : Spare {
    std::uint8_t params = 0;
    std::uint32_t address = 0;
    friend bool operator==(const Matrix&, const Matrix&) = default;
};

// DE: call (branch == 0) or jump to (branch == 1) another list.
struct CallList : Spare {
    std::uint8_t branch = 0;  // w0 bits 16..23 as stored
    std::uint32_t address = 0;
    bool is_branch() const noexcept { return branch != 0; }
    friend bool operator==(const CallList&, const CallList&) = default;
};

struct EndList : Spare {
    friend bool operator==(const EndList&, const EndList&) = default;
};

// E2/E3: set `length` bits of the other-mode word at bit `shift` to `data`.
// w0 = (32 - shift - length) << 8 | (length - 1), both stored bytes kept raw.
struct SetOtherMode : Spare {
    bool high = false;  // E3 (G_SETOTHERMODE_H) when true
    std::uint8_t shift_byte = 0, length_byte = 0;
    std::uint32_t data = 0;
    unsigned length() const noexcept { return unsigned(length_byte) + 1; }
    int shift() const noexcept { return 32 - int(shift_byte) - int(length()); }
    friend bool operator==(const SetOtherMode&, const SetOtherMode&) = default;
};

// E6 load, E7 pipe, E8 tile, E9 full sync.
struct Sync : Spare {
    Opcode op = G_RDPPIPESYNC;
    friend bool operator==(const Sync&, const Sync&) = default;
};

// Tile rectangle layout shared by F0, F2, F3 and F4: w0 = uls << 12 | ult (12 bits each),
// w1 = tile << 24 (3 bits) | lrs << 12 | lrt (12 bits each).
struct TileRect : Spare {
    std::uint8_t tile = 0;
    std::uint16_t uls = 0, ult = 0, lrs = 0, lrt = 0;
    friend bool operator==(const TileRect&, const TileRect&) = default;
};
// F0: load `count()` TLUT entries into `tile` (LoadTLUTCmd stores count - 1 in lrs >> 2).
struct LoadTlut : TileRect {
    unsigned count() const noexcept { return unsigned(lrs >> 2) + 1; }
    friend bool operator==(const LoadTlut&, const LoadTlut&) = default;
};
// F2: the tile's coordinates (10.2 fixed point).
struct SetTileSize : TileRect {
    friend bool operator==(const SetTileSize&, const SetTileSize&) = default;
};
// F3: load lrs + 1 texels as one block; lrt holds dxt (1.11 fixed point).
struct LoadBlock : TileRect {
    unsigned texels() const noexcept { return unsigned(lrs) + 1; }
    std::uint16_t dxt() const noexcept { return lrt; }
    friend bool operator==(const LoadBlock&, const LoadBlock&) = default;
};
// F4: load a rectangle of texels (10.2 coordinates).
struct LoadTile : TileRect {
    friend bool operator==(const LoadTile&, const LoadTile&) = default;
};

// F5: tile descriptor. w0 = fmt << 21 (3) | siz << 19 (2) | line << 9 (9) | tmem (9);
// w1 = tile << 24 (3) | palette << 20 (4) | cmt << 18 (2) | maskt << 14 (4) | shiftt << 10 (4)
//      | cms << 8 (2) | masks << 4 (4) | shifts (4).
struct SetTile : Spare {
    std::uint8_t fmt = 0, siz = 0;
    std::uint16_t line = 0, tmem = 0;
    std::uint8_t tile = 0, palette = 0;
    std::uint8_t cmt = 0, maskt = 0, shiftt = 0, cms = 0, masks = 0, shifts = 0;
    friend bool operator==(const SetTile&, const SetTile&) = default;
};

// F7 fill, F8 fog, F9 blend, FA prim (w0: min level << 8 | lod fraction), FB env colour.
struct SetColor : Spare {
    Opcode op = G_SETPRIMCOLOR;
    std::uint32_t color = 0;  // w1 (RGBA8888, or the packed fill value for F7)
    std::uint8_t min_level = 0, lod_fraction = 0;  // FA only; zero (and in spare0) otherwise
    friend bool operator==(const SetColor&, const SetColor&) = default;
};

// FC: colour combiner, the two mux words as stored.
struct SetCombine : Spare {
    std::uint32_t mux0 = 0;  // w0 & 0xFFFFFF
    std::uint32_t mux1 = 0;  // w1
    friend bool operator==(const SetCombine&, const SetCombine&) = default;
};

// FD: texture image. w0 = fmt << 21 (3) | siz << 19 (2) | width - 1 (12).
struct SetTextureImage : Spare {
    std::uint8_t fmt = 0, siz = 0;
    std::uint16_t width_minus_1 = 0;
    std::uint32_t address = 0;
    unsigned width() const noexcept { return unsigned(width_minus_1) + 1; }
    friend bool operator==(const SetTextureImage&, const SetTextureImage&) = default;
};

// Any other opcode, verbatim.
struct Unknown {
    std::uint32_t w0 = 0, w1 = 0;
    friend bool operator==(const Unknown&, const Unknown&) = default;
};

using Command = std::variant<Vertex, Tri1, Tri2, Texture, PopMatrix, GeometryMode, Matrix, CallList, EndList,
                             SetOtherMode, Sync, LoadTlut, SetTileSize, LoadBlock, LoadTile, SetTile, SetColor,
                             SetCombine, SetTextureImage, Unknown>;

// Decodes one command. Total: every word pair gives a command.
Command decode_command(Word word) noexcept;
// Encodes a command. Fields wider than their bit field are masked (a fresh command built by
// hand should keep fields in range); spare bits are OR'ed back.
Word encode_command(const Command& command) noexcept;
// The opcode byte a command encodes to.
std::uint8_t opcode(const Command& command) noexcept;
// GBI macro name ("G_VTX", "G_SETTILE", …, "unknown 0xAB").
std::string command_name(const Command& command);
// One-line human-readable form, e.g. "G_VTX 8 vertices -> slots 0..7 from 0x06000100".
std::string describe(const Command& command);

struct DisplayList {
    std::vector<Command> commands;
    // Absolute offset of the first command in the buffer it came from (no_offset when built in
    // memory); walker errors report origin + 8 × command index.
    std::uint64_t origin = no_offset;
};

struct DecodeListOptions {
    // Stop after G_ENDDL or a branching G_DL (what the RSP does); when false, decode every
    // 8-byte command of the reader's range (which must then be a multiple of 8 bytes).
    bool stop_at_end = true;
    // Commands refused beyond this count (limit error).
    std::size_t max_commands = 1u << 20;
};

// Decodes a display list from the reader's cursor. With stop_at_end, a list that reaches the
// end of the range before its G_ENDDL is a format error at `<path>.cmd[i]`.
DisplayList decode_list(ByteReader& reader, const DecodeListOptions& options = {});
Bytes encode_list(const DisplayList& list);

// ---- Builders (GBI macro semantics; fields masked to their widths) -------------------------
Command make_vertex(std::uint32_t address, unsigned count, unsigned first_slot);
Command make_tri1(unsigned a, unsigned b, unsigned c);  // slots, stored ×2
Command make_tri2(unsigned a, unsigned b, unsigned c, unsigned d, unsigned e, unsigned f);
Command make_sync(Opcode op);
Command make_end();
Command make_call(std::uint32_t address, bool branch = false);
Command make_set_texture_image(std::uint8_t fmt, std::uint8_t siz, unsigned width, std::uint32_t address);

}  // namespace mod::n64::gbi
