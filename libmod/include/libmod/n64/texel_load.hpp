#pragma once
// The load words a material display list needs for a texture of a given format and size:
// SETTILE(load tile) / LOADSYNC / LOADBLOCK or LOADTILE / PIPESYNC / SETTILE(render tile) /
// SETTILESIZE, with the GBI macros' semantics (gDPLoadTextureBlock[_4b],
// gDPLoadTextureTile[_4b]). Stadium's engine emits the SETTIMG itself from the texture
// descriptor (stadium.md §6.3 step 4); texture_image_for() predicts that word so a rewritten
// material DL and the descriptor agree. Spec: doc/formats/n64-texels.md ("Loading").

#include "libmod/n64/gbi.hpp"
#include "libmod/n64/texel.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace mod::n64 {

enum class LoadMethod { block, tile };

const char* to_string(LoadMethod method) noexcept;  // "block" / "tile"

// LOADBLOCK when a row is a whole number of 64-bit TMEM words (width divisible by 16, 8, 4, 2
// for 4, 8, 16, 32-bit texels: Stadium's divisor table and CALC_DXT's exactness condition),
// LOADTILE otherwise.
LoadMethod load_method(TexelFormat format, std::uint32_t width) noexcept;

// The SETTIMG the engine emits for a descriptor: block loads use (fmt, 16b or 32b, width 1);
// 4-bit tile loads use (fmt, 8b, width / 2); other tile loads (fmt, siz, width).
gbi::SetTextureImage texture_image_for(TexelFormat format, std::uint32_t width, std::uint32_t address = 0);

// Tile parameters that are not implied by the size: wrap modes, CI4 bank, TMEM address.
struct TileParams {
    TileAxis s, t;
    std::uint8_t palette = 0;
    std::uint16_t tmem = 0;
};

struct TextureLoadPlan {
    LoadMethod method = LoadMethod::block;
    gbi::SetTextureImage image;          // what precedes the material DL (engine-emitted)
    std::vector<gbi::Command> commands;  // the six load/render commands, in order
    TileState render;                    // the render tile they leave
};

// TMEM bytes a texture may use: 4096, or 2048 for CI formats (the TLUT takes the upper half).
std::uint32_t tmem_capacity(TexelFormat format) noexcept;

// Plans the load of a width × height texture. Limit error when it does not fit TMEM, when a
// block load has more than 2048 LOADBLOCK texels (G_TX_LDBLK_MAX_TXL 2047 + 1), or for
// dimensions the 10.2 tile coordinates cannot hold; usage error for a CI4 bank above 15.
TextureLoadPlan plan_texture_load(TexelFormat format, std::uint32_t width, std::uint32_t height,
                                  const TileParams& params = {}, std::uint32_t address = 0);

// The same for a descriptor (checked first: format error naming `path` when invalid).
TextureLoadPlan plan_texture_load(const TextureDescriptor& descriptor, const TileParams& params = {},
                                  std::uint32_t address = 0, std::string_view path = {});

// Tile state ↔ the SETTILE/SETTILESIZE commands that hold it.
TileState tile_state(const gbi::SetTile& tile, const gbi::SetTileSize* size = nullptr) noexcept;
gbi::SetTile to_set_tile(const TileState& state) noexcept;
gbi::SetTileSize to_set_tile_size(const TileState& state) noexcept;

// The texture load a material display list performs, read back from its commands.
struct TextureLoadInfo {
    std::size_t first = 0, last = 0;  // command range: the load SETTILE .. the SETTILESIZE
    LoadMethod method = LoadMethod::block;
    TileState render;                 // render tile (SETTILE + SETTILESIZE of tile 0)
    std::uint32_t width = 0, height = 0;  // from SETTILESIZE ((lr - ul) / 4 + 1)
    std::optional<TexelFormat> format() const noexcept { return texel_format(render.fmt, render.siz); }
};

// Finds SETTILE(tile 7) … LOADBLOCK|LOADTILE … SETTILE(tile 0) … SETTILESIZE(tile 0) in order;
// nullopt when the list has no such sequence.
std::optional<TextureLoadInfo> find_texture_load(const gbi::DisplayList& list);

// Replaces the commands find_texture_load() found with plan.commands (conflict error when the
// list has no texture load). Commands outside the range are kept as they were.
void replace_texture_load(gbi::DisplayList& list, const TextureLoadPlan& plan);

}  // namespace mod::n64
