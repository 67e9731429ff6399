#pragma once
// Replacing a Pokémon model's textures from RGBA images. Spec: doc/formats/stadium-model.md
// ("Texture replacement").
//
// Same size and format (the default): the texels are re-encoded in place. A different size or
// format (TextureReplaceOptions::allow_resize) rewrites the descriptor (fmt, siz, width, height,
// texel count = w × h exactly), appends the new texels through the FragmentImage (the texture
// table entry is re-pointed) and rewrites the load words of every material DL that loads the
// texture (SETTILE/LOADBLOCK|LOADTILE/SETTILE/SETTILESIZE, wrap modes and CI4 bank kept); a
// material DL shared with another texture is a conflict.
//
// Between CI and direct colour (with allow_resize): CI → direct encodes the image directly and
// sets the palette index of the texture's materials to −1 (the engine then disables TLUTs); the
// old palette stays in the table. Direct → CI quantises the image into a new RGBA5551 palette of
// 16 (CI4, bank 0) or 256 (CI8) entries whatever the mode (as fork does; `shared` is a usage
// error), appended with its own TLUT DL (gDPSetTextureLUT(G_TT_RGBA16) + gDPLoadTLUT) and a grown
// palette table; the texture's materials point at it. Either way a material of the texture with
// a texture-animation channel is a conflict (its palette serves the other frames' textures too).
//
// CI textures need a palette; the modes:
//  * reindex     — map onto the existing palette (CI4: the texture's 16-entry bank); the palette
//                  does not change.
//  * constrained — re-quantise into the palette with every slot another texture of that palette
//                  uses locked: only this texture's own or unused slots change.
//  * fork        — quantise into a new palette (same colour count; a copy of the old one with the
//                  texture's bank replaced) with its own TLUT DL, appended with a new palette
//                  table; only the materials drawing this texture point at it.
//  * shared      — quantise several textures of one palette (and bank) jointly into it; slots
//                  used by textures outside the set stay locked.
//  * auto        — try reindex, constrained and fork (each on a scratch copy; a mode that fails
//                  with the palette's constraints, e.g. no free slot, is left out) and keep the
//                  one with the lowest mean ΔE; a more invasive mode (in that order) must beat
//                  a less invasive one by more than auto_mode_margin. Several textures: shared.
// With an explicit mode whose mean ΔE is above mode_warning_delta_e, the other modes are tried
// on scratch copies and the report names one that would do better (TextureReport::better).
// Every report gives the ΔE (Oklab × 100, colour.hpp) between the image and what the game will
// draw, and lists the other textures whose drawn colours the palette change altered.
// Edits never move existing bytes (only in-place writes and appends), so `model`'s offsets stay
// valid for several edits on one image; re-read the model between edits that depend on each
// other (e.g. two forks).

#include "libmod/image/image.hpp"
#include "libmod/stadium/fragment_image.hpp"
#include "libmod/stadium/model.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace mod::stadium {

enum class CiMode { reindex, constrained, fork, shared, automatic };
const char* to_string(CiMode mode) noexcept;  // automatic: "auto"
CiMode parse_ci_mode(std::string_view name);  // "reindex", ..., "auto"; usage error otherwise

// auto: how much lower (ΔE, Oklab × 100) a more invasive mode's mean ΔE must be to be chosen.
inline constexpr double auto_mode_margin = 0.5;
// An explicit mode whose mean ΔE is above this has the other modes tried (TextureReport::better).
inline constexpr double mode_warning_delta_e = 4.0;

struct TextureReplaceOptions {
    CiMode mode = CiMode::reindex;  // the CLI and manifests default to automatic
    // New format (nullopt: keep). Requires allow_resize when it differs.
    std::optional<n64::TexelFormat> format;
    // Accept an image of another size, or another format.
    bool allow_resize = false;
    // Palette slots (absolute TLUT indices) the quantiser must not change.
    std::vector<unsigned> locked;
    unsigned threads = 0;
};

struct TextureReport {
    std::size_t texture = 0;
    double mean_delta_e = 0, max_delta_e = 0;
    std::uint64_t opaque_texels = 0, transparent_texels = 0;
    bool resized = false;                   // descriptor and load words rewritten
    std::optional<std::size_t> palette;     // the palette it is drawn with afterwards
    bool palette_forked = false;
    bool palette_added = false;             // direct colour → CI: a new palette was appended
    bool palette_detached = false;          // CI → direct colour: its materials name no palette now
    std::vector<unsigned> written_slots;    // palette slots changed (absolute indices)
    std::vector<std::size_t> touched;       // other textures whose drawn colours changed
    // The CI mode used (auto: the one picked); nullopt when no palette choice was made (a
    // direct-colour result, or direct colour → CI, which always quantises a new palette).
    std::optional<CiMode> mode;
    std::vector<std::pair<CiMode, double>> tried;       // modes tried (auto, or after a poor explicit mode) and their mean ΔE
    std::optional<std::pair<CiMode, double>> better;    // explicit mode above mode_warning_delta_e: a mode that does better
};

// Replaces texture `texture` with `image`. Errors: usage (unknown texture, size/format change
// without allow_resize, a CI texture without a palette, `shared` mode here), limit (texel count
// > 65535, 255 palettes, TMEM), conflict (transparent texels with no transparent slot, a
// material DL shared with another texture, a texture-animated material when changing between
// CI and direct colour, texels or colours sharing bytes with structure: require_plain_data).
TextureReport replace_texture(const Model& model, FragmentImage& image, std::size_t texture,
                              const image::RgbaImage& rgba, const TextureReplaceOptions& options = {});

// `shared` mode: several same-size-and-format CI textures drawn with one palette (and CI4
// bank) quantised jointly into it. Usage error when the textures do not share one palette,
// bank and format, or when a size differs.
std::vector<TextureReport> replace_textures_shared(const Model& model, FragmentImage& image,
                                                   std::span<const std::size_t> textures,
                                                   std::span<const image::RgbaImage> images,
                                                   const TextureReplaceOptions& options = {});

// The TLUT slots (absolute) the texels of texture `texture` use with its bank.
std::vector<unsigned> slots_used(const Model& model, std::size_t texture);

}  // namespace mod::stadium
