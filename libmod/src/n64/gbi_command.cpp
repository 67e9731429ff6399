// F3DEX2 command words <-> typed commands. Each command type lists the bits its fields cover;
// everything else travels in Spare so any word pair survives decode → encode.
#include "libmod/n64/gbi.hpp"

#include <cstdio>

namespace mod::n64::gbi {

namespace {

constexpr std::uint32_t get(std::uint32_t w, unsigned shift, unsigned width) noexcept {
    return (w >> shift) & ((1u << width) - 1);
}
constexpr std::uint32_t put(std::uint32_t v, unsigned shift, unsigned width) noexcept {
    return (v & ((1u << width) - 1)) << shift;
}

// Bits covered by fields, per command type: (w0 low 24 bits, w1).
struct Coverage {
    std::uint32_t w0, w1;
};
constexpr Coverage cover_vertex{0x0FF0FE, 0xFFFFFFFF};
constexpr Coverage cover_tri1{0xFFFFFF, 0};
constexpr Coverage cover_tri2{0xFFFFFF, 0x00FFFFFF};
constexpr Coverage cover_texture{0x003FFE, 0xFFFFFFFF};
constexpr Coverage cover_popmtx{0, 0xFFFFFFFF};
constexpr Coverage cover_full{0xFFFFFF, 0xFFFFFFFF};
constexpr Coverage cover_matrix{0x0000FF, 0xFFFFFFFF};
constexpr Coverage cover_call{0xFF0000, 0xFFFFFFFF};
constexpr Coverage cover_none{0, 0};
constexpr Coverage cover_othermode{0x00FFFF, 0xFFFFFFFF};
constexpr Coverage cover_rect{0xFFFFFF, 0x07FFFFFF};
constexpr Coverage cover_settile{0xFBFFFF, 0x07FFFFFF};
constexpr Coverage cover_prim{0x00FFFF, 0xFFFFFFFF};
constexpr Coverage cover_color{0, 0xFFFFFFFF};
constexpr Coverage cover_settimg{0xF80FFF, 0xFFFFFFFF};

void keep_spare(Spare& s, Word w, Coverage c) noexcept {
    s.spare0 = w.w0 & 0xFFFFFF & ~c.w0;
    s.spare1 = w.w1 & ~c.w1;
}

Word with_spare(std::uint8_t op, std::uint32_t w0, std::uint32_t w1, const Spare& s, Coverage c) noexcept {
    return {(std::uint32_t(op) << 24) | (w0 & c.w0 & 0xFFFFFF) | (s.spare0 & 0xFFFFFF & ~c.w0),
            (w1 & c.w1) | (s.spare1 & ~c.w1)};
}

template <class Rect>
Rect decode_rect(Word w) noexcept {
    Rect r;
    r.uls = static_cast<std::uint16_t>(get(w.w0, 12, 12));
    r.ult = static_cast<std::uint16_t>(get(w.w0, 0, 12));
    r.tile = static_cast<std::uint8_t>(get(w.w1, 24, 3));
    r.lrs = static_cast<std::uint16_t>(get(w.w1, 12, 12));
    r.lrt = static_cast<std::uint16_t>(get(w.w1, 0, 12));
    keep_spare(r, w, cover_rect);
    return r;
}

Word encode_rect(std::uint8_t op, const TileRect& r) noexcept {
    return with_spare(op, put(r.uls, 12, 12) | put(r.ult, 0, 12),
                      put(r.tile, 24, 3) | put(r.lrs, 12, 12) | put(r.lrt, 0, 12), r, cover_rect);
}

std::array<std::uint8_t, 3> tri_bytes(std::uint32_t w) noexcept {
    return {static_cast<std::uint8_t>(w >> 16), static_cast<std::uint8_t>(w >> 8), static_cast<std::uint8_t>(w)};
}
std::uint32_t tri_word(const std::array<std::uint8_t, 3>& v) noexcept {
    return (std::uint32_t(v[0]) << 16) | (std::uint32_t(v[1]) << 8) | v[2];
}

struct Encoder {
    Word operator()(const Vertex& c) const noexcept {
        return with_spare(G_VTX, put(c.count, 12, 8) | put(c.end, 1, 7), c.address, c, cover_vertex);
    }
    Word operator()(const Tri1& c) const noexcept { return with_spare(G_TRI1, tri_word(c.index), 0, c, cover_tri1); }
    Word operator()(const Tri2& c) const noexcept {
        return with_spare(G_TRI2, tri_word(c.first), tri_word(c.second), c, cover_tri2);
    }
    Word operator()(const Texture& c) const noexcept {
        return with_spare(G_TEXTURE, put(c.level, 11, 3) | put(c.tile, 8, 3) | put(c.on, 1, 7),
                          (std::uint32_t(c.s) << 16) | c.t, c, cover_texture);
    }
    Word operator()(const PopMatrix& c) const noexcept { return with_spare(G_POPMTX, 0, c.bytes, c, cover_popmtx); }
    Word operator()(const GeometryMode& c) const noexcept {
        return with_spare(G_GEOMETRYMODE, c.clear, c.set, c, cover_full);
    }
    Word operator()(const Matrix& c) const noexcept { return with_spare(G_MTX, c.params, c.address, c, cover_matrix); }
    Word operator()(const CallList& c) const noexcept {
        return with_spare(G_DL, put(c.branch, 16, 8), c.address, c, cover_call);
    }
    Word operator()(const EndList& c) const noexcept { return with_spare(G_ENDDL, 0, 0, c, cover_none); }
    Word operator()(const SetOtherMode& c) const noexcept {
        return with_spare(c.high ? G_SETOTHERMODE_H : G_SETOTHERMODE_L, put(c.shift_byte, 8, 8) | c.length_byte,
                          c.data, c, cover_othermode);
    }
    Word operator()(const Sync& c) const noexcept { return with_spare(c.op, 0, 0, c, cover_none); }
    Word operator()(const LoadTlut& c) const noexcept { return encode_rect(G_LOADTLUT, c); }
    Word operator()(const SetTileSize& c) const noexcept { return encode_rect(G_SETTILESIZE, c); }
    Word operator()(const LoadBlock& c) const noexcept { return encode_rect(G_LOADBLOCK, c); }
    Word operator()(const LoadTile& c) const noexcept { return encode_rect(G_LOADTILE, c); }
    Word operator()(const SetTile& c) const noexcept {
        return with_spare(G_SETTILE,
                          put(c.fmt, 21, 3) | put(c.siz, 19, 2) | put(c.line, 9, 9) | put(c.tmem, 0, 9),
                          put(c.tile, 24, 3) | put(c.palette, 20, 4) | put(c.cmt, 18, 2) | put(c.maskt, 14, 4) |
                              put(c.shiftt, 10, 4) | put(c.cms, 8, 2) | put(c.masks, 4, 4) | put(c.shifts, 0, 4),
                          c, cover_settile);
    }
    Word operator()(const SetColor& c) const noexcept {
        if (c.op == G_SETPRIMCOLOR)
            return with_spare(c.op, put(c.min_level, 8, 8) | c.lod_fraction, c.color, c, cover_prim);
        return with_spare(c.op, 0, c.color, c, cover_color);
    }
    Word operator()(const SetCombine& c) const noexcept {
        return with_spare(G_SETCOMBINE, c.mux0, c.mux1, c, cover_full);
    }
    Word operator()(const SetTextureImage& c) const noexcept {
        return with_spare(G_SETTIMG, put(c.fmt, 21, 3) | put(c.siz, 19, 2) | put(c.width_minus_1, 0, 12), c.address,
                          c, cover_settimg);
    }
    Word operator()(const Unknown& c) const noexcept { return {c.w0, c.w1}; }
};

}  // namespace

Command decode_command(Word w) noexcept {
    const auto op = static_cast<std::uint8_t>(w.w0 >> 24);
    switch (op) {
    case G_VTX: {
        Vertex c;
        c.count = static_cast<std::uint8_t>(get(w.w0, 12, 8));
        c.end = static_cast<std::uint8_t>(get(w.w0, 1, 7));
        c.address = w.w1;
        keep_spare(c, w, cover_vertex);
        return c;
    }
    case G_TRI1: {
        Tri1 c;
        c.index = tri_bytes(w.w0);
        keep_spare(c, w, cover_tri1);
        return c;
    }
    case G_TRI2: {
        Tri2 c;
        c.first = tri_bytes(w.w0);
        c.second = tri_bytes(w.w1);
        keep_spare(c, w, cover_tri2);
        return c;
    }
    case G_TEXTURE: {
        Texture c;
        c.level = static_cast<std::uint8_t>(get(w.w0, 11, 3));
        c.tile = static_cast<std::uint8_t>(get(w.w0, 8, 3));
        c.on = static_cast<std::uint8_t>(get(w.w0, 1, 7));
        c.s = static_cast<std::uint16_t>(w.w1 >> 16);
        c.t = static_cast<std::uint16_t>(w.w1);
        keep_spare(c, w, cover_texture);
        return c;
    }
    case G_POPMTX: {
        PopMatrix c;
        c.bytes = w.w1;
        keep_spare(c, w, cover_popmtx);
        return c;
    }
    case G_GEOMETRYMODE: {
        GeometryMode c;
        c.clear = w.w0 & 0xFFFFFF;
        c.set = w.w1;
        keep_spare(c, w, cover_full);
        return c;
    }
    case G_MTX: {
        Matrix c;
        c.params = static_cast<std::uint8_t>(w.w0);
        c.address = w.w1;
        keep_spare(c, w, cover_matrix);
        return c;
    }
    case G_DL: {
        CallList c;
        c.branch = static_cast<std::uint8_t>(get(w.w0, 16, 8));
        c.address = w.w1;
        keep_spare(c, w, cover_call);
        return c;
    }
    case G_ENDDL: {
        EndList c;
        keep_spare(c, w, cover_none);
        return c;
    }
    case G_SETOTHERMODE_L:
    case G_SETOTHERMODE_H: {
        SetOtherMode c;
        c.high = op == G_SETOTHERMODE_H;
        c.shift_byte = static_cast<std::uint8_t>(get(w.w0, 8, 8));
        c.length_byte = static_cast<std::uint8_t>(w.w0);
        c.data = w.w1;
        keep_spare(c, w, cover_othermode);
        return c;
    }
    case G_RDPLOADSYNC:
    case G_RDPPIPESYNC:
    case G_RDPTILESYNC:
    case G_RDPFULLSYNC: {
        Sync c;
        c.op = static_cast<Opcode>(op);
        keep_spare(c, w, cover_none);
        return c;
    }
    case G_LOADTLUT: return decode_rect<LoadTlut>(w);
    case G_SETTILESIZE: return decode_rect<SetTileSize>(w);
    case G_LOADBLOCK: return decode_rect<LoadBlock>(w);
    case G_LOADTILE: return decode_rect<LoadTile>(w);
    case G_SETTILE: {
        SetTile c;
        c.fmt = static_cast<std::uint8_t>(get(w.w0, 21, 3));
        c.siz = static_cast<std::uint8_t>(get(w.w0, 19, 2));
        c.line = static_cast<std::uint16_t>(get(w.w0, 9, 9));
        c.tmem = static_cast<std::uint16_t>(get(w.w0, 0, 9));
        c.tile = static_cast<std::uint8_t>(get(w.w1, 24, 3));
        c.palette = static_cast<std::uint8_t>(get(w.w1, 20, 4));
        c.cmt = static_cast<std::uint8_t>(get(w.w1, 18, 2));
        c.maskt = static_cast<std::uint8_t>(get(w.w1, 14, 4));
        c.shiftt = static_cast<std::uint8_t>(get(w.w1, 10, 4));
        c.cms = static_cast<std::uint8_t>(get(w.w1, 8, 2));
        c.masks = static_cast<std::uint8_t>(get(w.w1, 4, 4));
        c.shifts = static_cast<std::uint8_t>(get(w.w1, 0, 4));
        keep_spare(c, w, cover_settile);
        return c;
    }
    case G_SETFILLCOLOR:
    case G_SETFOGCOLOR:
    case G_SETBLENDCOLOR:
    case G_SETPRIMCOLOR:
    case G_SETENVCOLOR: {
        SetColor c;
        c.op = static_cast<Opcode>(op);
        c.color = w.w1;
        if (op == G_SETPRIMCOLOR) {
            c.min_level = static_cast<std::uint8_t>(get(w.w0, 8, 8));
            c.lod_fraction = static_cast<std::uint8_t>(w.w0);
            keep_spare(c, w, cover_prim);
        } else {
            keep_spare(c, w, cover_color);
        }
        return c;
    }
    case G_SETCOMBINE: {
        SetCombine c;
        c.mux0 = w.w0 & 0xFFFFFF;
        c.mux1 = w.w1;
        keep_spare(c, w, cover_full);
        return c;
    }
    case G_SETTIMG: {
        SetTextureImage c;
        c.fmt = static_cast<std::uint8_t>(get(w.w0, 21, 3));
        c.siz = static_cast<std::uint8_t>(get(w.w0, 19, 2));
        c.width_minus_1 = static_cast<std::uint16_t>(get(w.w0, 0, 12));
        c.address = w.w1;
        keep_spare(c, w, cover_settimg);
        return c;
    }
    default: return Unknown{w.w0, w.w1};
    }
}

Word encode_command(const Command& command) noexcept { return std::visit(Encoder{}, command); }

std::uint8_t opcode(const Command& command) noexcept {
    return static_cast<std::uint8_t>(encode_command(command).w0 >> 24);
}

Command make_vertex(std::uint32_t address, unsigned count, unsigned first_slot) {
    Vertex v;
    v.count = static_cast<std::uint8_t>(count);
    v.end = static_cast<std::uint8_t>((first_slot + count) & 0x7F);
    v.address = address;
    return v;
}

Command make_tri1(unsigned a, unsigned b, unsigned c) {
    Tri1 t;
    t.index = {static_cast<std::uint8_t>(a * 2), static_cast<std::uint8_t>(b * 2), static_cast<std::uint8_t>(c * 2)};
    return t;
}

Command make_tri2(unsigned a, unsigned b, unsigned c, unsigned d, unsigned e, unsigned f) {
    Tri2 t;
    t.first = {static_cast<std::uint8_t>(a * 2), static_cast<std::uint8_t>(b * 2), static_cast<std::uint8_t>(c * 2)};
    t.second = {static_cast<std::uint8_t>(d * 2), static_cast<std::uint8_t>(e * 2), static_cast<std::uint8_t>(f * 2)};
    return t;
}

Command make_sync(Opcode op) {
    Sync s;
    s.op = op;
    return s;
}

Command make_end() { return EndList{}; }

Command make_call(std::uint32_t address, bool branch) {
    CallList c;
    c.branch = branch ? 1 : 0;
    c.address = address;
    return c;
}

Command make_set_texture_image(std::uint8_t fmt, std::uint8_t siz, unsigned width, std::uint32_t address) {
    SetTextureImage c;
    c.fmt = fmt;
    c.siz = siz;
    c.width_minus_1 = static_cast<std::uint16_t>((width - 1) & 0xFFF);
    c.address = address;
    return c;
}

}  // namespace mod::n64::gbi
