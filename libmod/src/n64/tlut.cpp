// TLUT entries, CI decoding through a TLUT, and TLUT-loading display lists.
#include "libmod/n64/tlut.hpp"

#include <string>

namespace mod::n64 {

const char* to_string(TlutFormat format) noexcept { return format == TlutFormat::ia16 ? "ia16" : "rgba5551"; }

TlutFormat parse_tlut_format(std::string_view name) {
    if (name == "rgba5551" || name == "rgba16") return TlutFormat::rgba5551;
    if (name == "ia16") return TlutFormat::ia16;
    throw Error(ErrorKind::usage, "unknown TLUT format '" + std::string(name) + "' (rgba5551, ia16)");
}

Tlut decode_tlut(ByteReader& reader, unsigned count, TlutFormat format) {
    if (count == 0 || count > max_tlut_entries)
        reader.fail_at(reader.tell(), "TLUT of " + std::to_string(count) + " entries (1..256)", ErrorKind::limit);
    reader.require_array(count, 2);
    Tlut t;
    t.format = format;
    t.entries.resize(count);
    for (auto& e : t.entries) e = endian::load_be16(reader.bytes(2).data());
    return t;
}

Bytes encode_tlut(const Tlut& tlut) {
    Bytes out(tlut.entries.size() * 2);
    for (std::size_t i = 0; i < tlut.entries.size(); ++i) endian::store_be16(&out[2 * i], tlut.entries[i]);
    return out;
}

void tlut_colour(std::uint16_t entry, TlutFormat format, std::uint8_t* rgba) noexcept {
    if (format == TlutFormat::ia16) ia16_to_rgba8(entry, rgba);
    else rgba5551_to_rgba8(entry, rgba);
}

std::uint16_t tlut_entry(const std::uint8_t* rgba, TlutFormat format) noexcept {
    return format == TlutFormat::ia16 ? rgba8_to_ia16(rgba) : rgba8_to_rgba5551(rgba);
}

unsigned tlut_slot(TexelFormat format, unsigned index, unsigned bank) noexcept {
    return format == TexelFormat::ci4 ? bank * ci4_bank_entries + index : index;
}

Bytes decode_ci_rgba(TexelFormat format, const ByteReader& texels, std::uint32_t width, std::uint32_t height,
                     const Tlut& tlut, unsigned bank) {
    if (bank >= 16) throw Error(ErrorKind::usage, "CI4 bank " + std::to_string(bank) + " (0..15)");
    Bytes indices = decode_indices(format, texels, width, height);
    // Colours of every entry first, so the texel loop is a table lookup.
    std::vector<std::uint8_t> colours(tlut.entries.size() * 4);
    for (std::size_t e = 0; e < tlut.entries.size(); ++e) tlut_colour(tlut.entries[e], tlut.format, &colours[4 * e]);
    Bytes out(indices.size() * 4);
    for (std::size_t i = 0; i < indices.size(); ++i) {
        unsigned slot = tlut_slot(format, indices[i], bank);
        if (slot >= tlut.entries.size()) {
            // Byte offset of the texel (its byte for CI4).
            std::size_t at = format == TexelFormat::ci4 ? i / 2 : i;
            texels.fail_at_path(at, "texel[" + std::to_string(i) + "]",
                                "texel selects TLUT entry " + std::to_string(slot) + " of a " +
                                    std::to_string(tlut.entries.size()) + "-entry TLUT");
        }
        for (int k = 0; k < 4; ++k) out[4 * i + k] = colours[4 * slot + k];
    }
    return out;
}

std::vector<gbi::Command> tlut_load_commands(std::uint32_t address, unsigned count, unsigned bank) {
    if (count != 16 && count != 256)
        throw Error(ErrorKind::usage, "TLUT loads hold 16 or 256 entries, not " + std::to_string(count));
    if (bank >= 16 || (count == 256 && bank != 0))
        throw Error(ErrorKind::usage, "TLUT bank " + std::to_string(bank) + " for a " + std::to_string(count) +
                                          "-entry load");
    gbi::SetTile tile;
    tile.tile = gbi::tx_loadtile;
    tile.tmem = static_cast<std::uint16_t>(tlut_tmem + bank * 16);
    gbi::LoadTlut load;
    load.tile = gbi::tx_loadtile;
    load.lrs = static_cast<std::uint16_t>((count - 1) << 2);
    return {gbi::make_set_texture_image(0, 2, 1, address), gbi::make_sync(gbi::G_RDPTILESYNC), tile,
            gbi::make_sync(gbi::G_RDPLOADSYNC), load, gbi::make_sync(gbi::G_RDPPIPESYNC), gbi::make_end()};
}

std::optional<TlutLoad> find_tlut_load(const gbi::DisplayList& list) {
    std::optional<std::size_t> settimg;
    std::uint16_t tile_tmem[8] = {};
    for (std::size_t i = 0; i < list.commands.size(); ++i) {
        const auto& c = list.commands[i];
        if (std::holds_alternative<gbi::SetTextureImage>(c)) settimg = i;
        else if (const auto* t = std::get_if<gbi::SetTile>(&c)) tile_tmem[t->tile & 7] = t->tmem;
        else if (const auto* l = std::get_if<gbi::LoadTlut>(&c)) {
            if (!settimg) {
                std::uint64_t off = list.origin == no_offset ? no_offset : list.origin + 8 * i;
                throw Error(ErrorKind::format, "G_LOADTLUT with no G_SETTIMG before it", {}, off,
                            "cmd[" + std::to_string(i) + "]");
            }
            TlutLoad r;
            r.address = std::get<gbi::SetTextureImage>(list.commands[*settimg]).address;
            r.count = l->count();
            r.tmem = tile_tmem[l->tile & 7];
            r.settimg_command = *settimg;
            r.loadtlut_command = i;
            return r;
        }
    }
    return std::nullopt;
}

}  // namespace mod::n64
