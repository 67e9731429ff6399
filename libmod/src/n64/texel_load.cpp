// Texture load words following the GBI macro arithmetic (LoadBlock lrs/dxt, line sizes).
#include "libmod/n64/texel_load.hpp"

#include <string>

namespace mod::n64 {

namespace {

constexpr unsigned dxt_frac = 11;            // G_TX_DXT_FRAC
constexpr std::uint32_t max_block_texels = 2048;  // G_TX_LDBLK_MAX_TXL + 1

// CALC_DXT: texels per 64-bit word step, 1.11 fixed point. `words` = TXL2WORDS(width, bytes).
std::uint16_t calc_dxt(std::uint32_t words) noexcept {
    if (words == 0) words = 1;
    return static_cast<std::uint16_t>(((1u << dxt_frac) + words - 1) / words);
}

gbi::SetTile set_tile(std::uint8_t fmt, std::uint8_t siz, std::uint32_t line, std::uint16_t tmem, std::uint8_t tile,
                      std::uint8_t palette, const TileParams& p) {
    gbi::SetTile t;
    t.fmt = fmt;
    t.siz = siz;
    t.line = static_cast<std::uint16_t>(line);
    t.tmem = tmem;
    t.tile = tile;
    t.palette = palette;
    t.cmt = p.t.cm;
    t.maskt = p.t.mask;
    t.shiftt = p.t.shift;
    t.cms = p.s.cm;
    t.masks = p.s.mask;
    t.shifts = p.s.shift;
    return t;
}

template <class Rect>
Rect rect(std::uint8_t tile, std::uint32_t uls, std::uint32_t ult, std::uint32_t lrs, std::uint32_t lrt) {
    Rect r;
    r.tile = tile;
    r.uls = static_cast<std::uint16_t>(uls);
    r.ult = static_cast<std::uint16_t>(ult);
    r.lrs = static_cast<std::uint16_t>(lrs);
    r.lrt = static_cast<std::uint16_t>(lrt);
    return r;
}

}  // namespace

const char* to_string(LoadMethod method) noexcept { return method == LoadMethod::block ? "block" : "tile"; }

LoadMethod load_method(TexelFormat format, std::uint32_t width) noexcept {
    return (std::uint64_t(width) * bits_per_texel(format)) % 64 == 0 ? LoadMethod::block : LoadMethod::tile;
}

gbi::SetTextureImage texture_image_for(TexelFormat format, std::uint32_t width, std::uint32_t address) {
    const auto fmt = static_cast<std::uint8_t>(image_format(format));
    const auto siz = static_cast<std::uint8_t>(texel_size(format));
    gbi::Command c;
    if (load_method(format, width) == LoadMethod::block)
        c = gbi::make_set_texture_image(fmt, siz == 3 ? 3 : 2, 1, address);
    else if (siz == 0)
        c = gbi::make_set_texture_image(fmt, 1, width / 2, address);
    else
        c = gbi::make_set_texture_image(fmt, siz, width, address);
    return std::get<gbi::SetTextureImage>(c);
}

std::uint32_t tmem_capacity(TexelFormat format) noexcept { return is_ci(format) ? 2048 : 4096; }

TextureLoadPlan plan_texture_load(TexelFormat format, std::uint32_t width, std::uint32_t height,
                                  const TileParams& params, std::uint32_t address) {
    check_dimensions(width, height);
    if (params.palette >= 16) throw Error(ErrorKind::usage, "CI4 bank " + std::to_string(params.palette) + " (0..15)");
    const std::string what = std::string(to_string(format)) + " " + std::to_string(width) + "x" + std::to_string(height);
    const std::uint64_t texels = std::uint64_t(width) * height;
    if (texel_bytes(format, texels) > tmem_capacity(format))
        throw Error(ErrorKind::limit, what + " texture needs " + std::to_string(texel_bytes(format, texels)) +
                                          " bytes of TMEM, " + std::to_string(tmem_capacity(format)) + " available");
    if (width > 1024 || height > 1024)
        throw Error(ErrorKind::limit, what + ": tile coordinates (10.2 fixed point) stop at 1023");

    const auto fmt = static_cast<std::uint8_t>(image_format(format));
    const auto siz = static_cast<std::uint8_t>(texel_size(format));
    const std::uint32_t lrs = (width - 1) << 2, lrt = (height - 1) << 2;
    TextureLoadPlan plan;
    plan.method = load_method(format, width);
    plan.image = texture_image_for(format, width, address);
    const std::uint8_t load_tile = gbi::tx_loadtile, render_tile = gbi::tx_rendertile;
    gbi::SetTile render;

    if (plan.method == LoadMethod::block) {
        // siz##_INCR / _SHIFT count the load in 16-bit (or 32-bit) units; _BYTES per texel.
        static constexpr std::uint32_t incr[] = {3, 1, 0, 0}, shift[] = {2, 1, 0, 0};
        const std::uint32_t load_texels = static_cast<std::uint32_t>((texels + incr[siz]) >> shift[siz]);
        if (load_texels > max_block_texels)
            throw Error(ErrorKind::limit, what + " needs a LOADBLOCK of " + std::to_string(load_texels) +
                                              " texels, more than " + std::to_string(max_block_texels));
        // TXL2WORDS: 64-bit words per row (4-bit: width / 16; else width × bytes / 8).
        static constexpr std::uint32_t txl_bytes[] = {0, 1, 2, 4};
        const std::uint32_t words = siz == 0 ? width / 16 : width * txl_bytes[siz] / 8;
        const std::uint8_t load_siz = siz == 3 ? 3 : 2;
        auto load = rect<gbi::LoadBlock>(load_tile, 0, 0, load_texels - 1, calc_dxt(words));
        // Render line: (width × LINE_BYTES + 7) / 8, with 4-bit rows of width / 2 bytes.
        static constexpr std::uint32_t line_bytes[] = {0, 1, 2, 2};
        const std::uint32_t line = siz == 0 ? ((width >> 1) + 7) >> 3 : (width * line_bytes[siz] + 7) >> 3;
        render = set_tile(fmt, siz, line, params.tmem, render_tile, params.palette, params);
        plan.commands = {set_tile(fmt, load_siz, 0, params.tmem, load_tile, 0, params),
                         gbi::make_sync(gbi::G_RDPLOADSYNC), load, gbi::make_sync(gbi::G_RDPPIPESYNC), render,
                         rect<gbi::SetTileSize>(render_tile, 0, 0, lrs, lrt)};
    } else if (siz == 0) {
        // gDPLoadTextureTile_4b: loaded as 8-bit texels of half the width.
        const std::uint32_t line = (((width) >> 1) + 7) >> 3;
        auto load = rect<gbi::LoadTile>(load_tile, 0, 0, (width - 1) << 1, lrt);
        render = set_tile(fmt, 0, line, params.tmem, render_tile, params.palette, params);
        plan.commands = {set_tile(fmt, 1, line, params.tmem, load_tile, 0, params),
                         gbi::make_sync(gbi::G_RDPLOADSYNC), load, gbi::make_sync(gbi::G_RDPPIPESYNC), render,
                         rect<gbi::SetTileSize>(render_tile, 0, 0, lrs, lrt)};
    } else {
        static constexpr std::uint32_t tile_bytes[] = {0, 1, 2, 2}, line_bytes[] = {0, 1, 2, 2};
        const std::uint32_t load_line = (width * tile_bytes[siz] + 7) >> 3;
        const std::uint32_t line = (width * line_bytes[siz] + 7) >> 3;
        render = set_tile(fmt, siz, line, params.tmem, render_tile, params.palette, params);
        plan.commands = {set_tile(fmt, siz, load_line, params.tmem, load_tile, 0, params),
                         gbi::make_sync(gbi::G_RDPLOADSYNC), rect<gbi::LoadTile>(load_tile, 0, 0, lrs, lrt),
                         gbi::make_sync(gbi::G_RDPPIPESYNC), render,
                         rect<gbi::SetTileSize>(render_tile, 0, 0, lrs, lrt)};
    }
    plan.render = tile_state(render, &std::get<gbi::SetTileSize>(plan.commands.back()));
    return plan;
}

TextureLoadPlan plan_texture_load(const TextureDescriptor& descriptor, const TileParams& params, std::uint32_t address,
                                  std::string_view path) {
    descriptor.check(path);
    return plan_texture_load(*descriptor.format(), descriptor.width, descriptor.height, params, address);
}

TileState tile_state(const gbi::SetTile& t, const gbi::SetTileSize* size) noexcept {
    TileState s{t.tile, t.fmt, t.siz, t.line, t.tmem, t.palette, TileAxis{t.cms, t.masks, t.shifts},
                TileAxis{t.cmt, t.maskt, t.shiftt}, 0, 0, 0, 0};
    if (size) s.uls = size->uls, s.ult = size->ult, s.lrs = size->lrs, s.lrt = size->lrt;
    return s;
}

gbi::SetTile to_set_tile(const TileState& s) noexcept {
    gbi::SetTile t;
    t.tile = s.tile;
    t.fmt = s.fmt;
    t.siz = s.siz;
    t.line = s.line;
    t.tmem = s.tmem;
    t.palette = s.palette;
    t.cms = s.s.cm, t.masks = s.s.mask, t.shifts = s.s.shift;
    t.cmt = s.t.cm, t.maskt = s.t.mask, t.shiftt = s.t.shift;
    return t;
}

gbi::SetTileSize to_set_tile_size(const TileState& s) noexcept {
    gbi::SetTileSize z;
    z.tile = s.tile;
    z.uls = s.uls, z.ult = s.ult, z.lrs = s.lrs, z.lrt = s.lrt;
    return z;
}

std::optional<TextureLoadInfo> find_texture_load(const gbi::DisplayList& list) {
    const auto& cmds = list.commands;
    for (std::size_t first = 0; first < cmds.size(); ++first) {
        const auto* load_tile = std::get_if<gbi::SetTile>(&cmds[first]);
        if (!load_tile || load_tile->tile != gbi::tx_loadtile) continue;
        TextureLoadInfo info;
        info.first = first;
        bool loaded = false;
        const gbi::SetTile* render = nullptr;
        for (std::size_t i = first + 1; i < cmds.size(); ++i) {
            const auto& c = cmds[i];
            if (std::holds_alternative<gbi::LoadBlock>(c)) loaded = true, info.method = LoadMethod::block;
            else if (std::holds_alternative<gbi::LoadTile>(c)) loaded = true, info.method = LoadMethod::tile;
            else if (const auto* t = std::get_if<gbi::SetTile>(&c); t && loaded && t->tile == gbi::tx_rendertile)
                render = t;
            else if (const auto* sz = std::get_if<gbi::SetTileSize>(&c);
                     sz && render && sz->tile == gbi::tx_rendertile) {
                info.last = i;
                info.render = tile_state(*render, sz);
                info.width = sz->lrs >= sz->uls ? (sz->lrs - sz->uls) / 4u + 1 : 0;
                info.height = sz->lrt >= sz->ult ? (sz->lrt - sz->ult) / 4u + 1 : 0;
                return info;
            } else if (std::holds_alternative<gbi::EndList>(c)) {
                break;
            }
        }
    }
    return std::nullopt;
}

void replace_texture_load(gbi::DisplayList& list, const TextureLoadPlan& plan) {
    auto found = find_texture_load(list);
    if (!found) throw Error(ErrorKind::conflict, "the display list has no texture load to replace");
    auto& cmds = list.commands;
    cmds.erase(cmds.begin() + static_cast<std::ptrdiff_t>(found->first),
               cmds.begin() + static_cast<std::ptrdiff_t>(found->last) + 1);
    cmds.insert(cmds.begin() + static_cast<std::ptrdiff_t>(found->first), plan.commands.begin(), plan.commands.end());
}

}  // namespace mod::n64
