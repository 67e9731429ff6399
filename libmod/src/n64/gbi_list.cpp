// Display lists as command sequences: reading from bytes, writing back, and naming commands.
#include "libmod/n64/gbi.hpp"

#include <cstdio>

namespace mod::n64::gbi {

namespace {

std::string format(const char* fmt, auto... args) {
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, fmt, args...);
    return buffer;
}

const char* sync_name(Opcode op) {
    switch (op) {
    case G_RDPLOADSYNC: return "G_RDPLOADSYNC";
    case G_RDPPIPESYNC: return "G_RDPPIPESYNC";
    case G_RDPTILESYNC: return "G_RDPTILESYNC";
    case G_RDPFULLSYNC: return "G_RDPFULLSYNC";
    default: return "G_RDP?SYNC";
    }
}

const char* color_name(Opcode op) {
    switch (op) {
    case G_SETFILLCOLOR: return "G_SETFILLCOLOR";
    case G_SETFOGCOLOR: return "G_SETFOGCOLOR";
    case G_SETBLENDCOLOR: return "G_SETBLENDCOLOR";
    case G_SETPRIMCOLOR: return "G_SETPRIMCOLOR";
    case G_SETENVCOLOR: return "G_SETENVCOLOR";
    default: return "G_SET?COLOR";
    }
}

struct Namer {
    std::string operator()(const Vertex&) const { return "G_VTX"; }
    std::string operator()(const Tri1&) const { return "G_TRI1"; }
    std::string operator()(const Tri2&) const { return "G_TRI2"; }
    std::string operator()(const Texture&) const { return "G_TEXTURE"; }
    std::string operator()(const PopMatrix&) const { return "G_POPMTX"; }
    std::string operator()(const GeometryMode&) const { return "G_GEOMETRYMODE"; }
    std::string operator()(const Matrix&) const { return "G_MTX"; }
    std::string operator()(const CallList&) const { return "G_DL"; }
    std::string operator()(const EndList&) const { return "G_ENDDL"; }
    std::string operator()(const SetOtherMode& c) const { return c.high ? "G_SETOTHERMODE_H" : "G_SETOTHERMODE_L"; }
    std::string operator()(const Sync& c) const { return sync_name(c.op); }
    std::string operator()(const LoadTlut&) const { return "G_LOADTLUT"; }
    std::string operator()(const SetTileSize&) const { return "G_SETTILESIZE"; }
    std::string operator()(const LoadBlock&) const { return "G_LOADBLOCK"; }
    std::string operator()(const LoadTile&) const { return "G_LOADTILE"; }
    std::string operator()(const SetTile&) const { return "G_SETTILE"; }
    std::string operator()(const SetColor& c) const { return color_name(c.op); }
    std::string operator()(const SetCombine&) const { return "G_SETCOMBINE"; }
    std::string operator()(const SetTextureImage&) const { return "G_SETTIMG"; }
    std::string operator()(const Unknown& c) const { return format("unknown 0x%02X", unsigned(c.w0 >> 24)); }
};

struct Describer {
    std::string operator()(const Vertex& c) const {
        return format("G_VTX %u vertices -> slots %d..%d from 0x%08X", unsigned(c.count), c.first(),
                      int(c.end) - 1, c.address);
    }
    std::string operator()(const Tri1& c) const {
        return format("G_TRI1 %u %u %u", c.index[0] / 2u, c.index[1] / 2u, c.index[2] / 2u);
    }
    std::string operator()(const Tri2& c) const {
        return format("G_TRI2 %u %u %u, %u %u %u", c.first[0] / 2u, c.first[1] / 2u, c.first[2] / 2u,
                      c.second[0] / 2u, c.second[1] / 2u, c.second[2] / 2u);
    }
    std::string operator()(const Texture& c) const {
        return format("G_TEXTURE s 0x%04X t 0x%04X level %u tile %u on %u", unsigned(c.s), unsigned(c.t),
                      unsigned(c.level), unsigned(c.tile), unsigned(c.on));
    }
    std::string operator()(const PopMatrix& c) const { return format("G_POPMTX %u bytes", c.bytes); }
    std::string operator()(const GeometryMode& c) const {
        return format("G_GEOMETRYMODE and 0x%06X or 0x%08X", c.clear, c.set);
    }
    std::string operator()(const Matrix& c) const {
        return format("G_MTX params 0x%02X from 0x%08X", unsigned(c.params), c.address);
    }
    std::string operator()(const CallList& c) const {
        return format("G_DL %s 0x%08X", c.is_branch() ? "branch" : "call", c.address);
    }
    std::string operator()(const EndList&) const { return "G_ENDDL"; }
    std::string operator()(const SetOtherMode& c) const {
        return format("%s shift %d length %u data 0x%08X", c.high ? "G_SETOTHERMODE_H" : "G_SETOTHERMODE_L",
                      c.shift(), c.length(), c.data);
    }
    std::string operator()(const Sync& c) const { return sync_name(c.op); }
    std::string operator()(const LoadTlut& c) const {
        return format("G_LOADTLUT tile %u count %u", unsigned(c.tile), c.count());
    }
    std::string operator()(const SetTileSize& c) const {
        return format("G_SETTILESIZE tile %u (%u,%u)-(%u,%u)", unsigned(c.tile), unsigned(c.uls), unsigned(c.ult),
                      unsigned(c.lrs), unsigned(c.lrt));
    }
    std::string operator()(const LoadBlock& c) const {
        return format("G_LOADBLOCK tile %u texels %u dxt 0x%03X", unsigned(c.tile), c.texels(), unsigned(c.dxt()));
    }
    std::string operator()(const LoadTile& c) const {
        return format("G_LOADTILE tile %u (%u,%u)-(%u,%u)", unsigned(c.tile), unsigned(c.uls), unsigned(c.ult),
                      unsigned(c.lrs), unsigned(c.lrt));
    }
    std::string operator()(const SetTile& c) const {
        return format("G_SETTILE tile %u fmt %u siz %u line %u tmem %u palette %u cms %u masks %u shifts %u "
                      "cmt %u maskt %u shiftt %u",
                      unsigned(c.tile), unsigned(c.fmt), unsigned(c.siz), unsigned(c.line), unsigned(c.tmem),
                      unsigned(c.palette), unsigned(c.cms), unsigned(c.masks), unsigned(c.shifts), unsigned(c.cmt),
                      unsigned(c.maskt), unsigned(c.shiftt));
    }
    std::string operator()(const SetColor& c) const { return format("%s 0x%08X", color_name(c.op), c.color); }
    std::string operator()(const SetCombine& c) const {
        return format("G_SETCOMBINE 0x%06X 0x%08X", c.mux0, c.mux1);
    }
    std::string operator()(const SetTextureImage& c) const {
        return format("G_SETTIMG fmt %u siz %u width %u from 0x%08X", unsigned(c.fmt), unsigned(c.siz), c.width(),
                      c.address);
    }
    std::string operator()(const Unknown& c) const {
        return format("unknown 0x%02X: %08X %08X", unsigned(c.w0 >> 24), c.w0, c.w1);
    }
};

bool ends_list(const Command& c) noexcept {
    if (std::holds_alternative<EndList>(c)) return true;
    if (const auto* call = std::get_if<CallList>(&c)) return call->is_branch();
    return false;
}

}  // namespace

std::string command_name(const Command& command) { return std::visit(Namer{}, command); }
std::string describe(const Command& command) { return std::visit(Describer{}, command); }

DisplayList decode_list(ByteReader& reader, const DecodeListOptions& options) {
    DisplayList list;
    list.origin = reader.absolute(reader.tell());
    if (!options.stop_at_end && reader.remaining() % 8 != 0)
        reader.fail("display list range of " + std::to_string(reader.remaining()) +
                    " bytes is not a whole number of 8-byte commands");
    for (std::size_t i = 0;; ++i) {
        if (!options.stop_at_end && reader.at_end()) break;
        const std::string here = "cmd[" + std::to_string(i) + "]";
        if (i >= options.max_commands)
            reader.fail_at_path(reader.tell(), here,
                                "display list exceeds " + std::to_string(options.max_commands) + " commands",
                                ErrorKind::limit);
        if (!reader.has(8))
            reader.fail_at_path(reader.tell(), here,
                                "display list runs off the end of its buffer (" + std::to_string(reader.remaining()) +
                                    " bytes left) before G_ENDDL");
        ByteView raw = reader.bytes(8);  // always big-endian, whatever the reader's order
        Word w{endian::load_be32(raw.data()), endian::load_be32(raw.data() + 4)};
        list.commands.push_back(decode_command(w));
        if (options.stop_at_end && ends_list(list.commands.back())) break;
    }
    return list;
}

Bytes encode_list(const DisplayList& list) {
    ByteWriter w(Endian::big);
    w.reserve(list.commands.size() * 8);
    for (const auto& c : list.commands) {
        Word word = encode_command(c);
        w.u32(word.w0);
        w.u32(word.w1);
    }
    return w.take();
}

}  // namespace mod::n64::gbi
