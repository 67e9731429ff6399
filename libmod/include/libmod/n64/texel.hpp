#pragma once
// N64 texels: the RDP's texture formats, decoded to RGBA8 and encoded back.
// Spec: doc/formats/n64-texels.md.
//
// Texel data is big-endian, rows stored top to bottom with no row padding, 4-bit texels two
// per byte (high nibble first). Decoding expands each channel to 8 bits with the rules below;
// encoding maps each 8-bit channel to the nearest representable level. The expansion of a
// level is always the nearest 8-bit value that maps back to it, so decode → encode gives the
// input bytes back for every byte sequence (the one bit that no pixel holds — the low nibble
// after an odd number of 4-bit texels — is reported by trailing_pad() and passed back to the
// encoder).
//
// Colour-indexed (CI) formats decode to indices here; colours come from a TLUT (tlut.hpp).
// RGBA images are interleaved bytes r,g,b,a (4 per pixel, rows top to bottom).

#include "libmod/core/bytes.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace mod::n64 {

// G_IM_FMT_* and G_IM_SIZ_* exactly as the RDP numbers them.
enum class ImageFormat : std::uint8_t { rgba = 0, yuv = 1, ci = 2, ia = 3, i = 4 };
enum class TexelSize : std::uint8_t { b4 = 0, b8 = 1, b16 = 2, b32 = 3 };

// The (fmt, siz) pairs models use.
enum class TexelFormat : std::uint8_t { rgba16, rgba32, ci4, ci8, ia4, ia8, ia16, i4, i8 };

inline constexpr std::array<TexelFormat, 9> all_texel_formats = {
    TexelFormat::rgba16, TexelFormat::rgba32, TexelFormat::ci4, TexelFormat::ci8, TexelFormat::ia4,
    TexelFormat::ia8,    TexelFormat::ia16,   TexelFormat::i4,  TexelFormat::i8};

// "rgba16", "ci4", … (lower case, as the CLI spells them).
const char* to_string(TexelFormat format) noexcept;
// Inverse of to_string; usage error naming the accepted names otherwise.
TexelFormat parse_texel_format(std::string_view name);
// The format for a descriptor's (fmt, siz) pair; nullopt for pairs the RDP or models do not
// use (YUV, CI16, RGBA4, …).
std::optional<TexelFormat> texel_format(std::uint8_t fmt, std::uint8_t siz) noexcept;
ImageFormat image_format(TexelFormat format) noexcept;
TexelSize texel_size(TexelFormat format) noexcept;
unsigned bits_per_texel(TexelFormat format) noexcept;  // 4, 8, 16 or 32
bool is_ci(TexelFormat format) noexcept;

// Bytes holding `texels` texels: ceil(texels × bits / 8).
std::uint64_t texel_bytes(TexelFormat format, std::uint64_t texels) noexcept;

// Largest width or height the codecs accept (SETTIMG's width field is 12 bits).
inline constexpr std::uint32_t max_dimension = 4096;
// Limit error unless 1 <= width, height <= max_dimension.
void check_dimensions(std::uint32_t width, std::uint32_t height);

// ---- Channel rules (the one place that defines them; see the spec) ----------------------
// Expansion of an n-bit level to 8 bits by bit replication: 5-bit v → (v<<3)|(v>>2),
// 4-bit v → v×17, 3-bit v → (v<<5)|(v<<2)|(v>>1), 1-bit → 0 or 255.
std::uint8_t expand5(unsigned level) noexcept;
std::uint8_t expand4(unsigned level) noexcept;
std::uint8_t expand3(unsigned level) noexcept;
// Nearest n-bit level to an 8-bit value (ties to the lower level); inverse of expand on its
// image: quantise5(expand5(v)) == v.
unsigned quantise5(std::uint8_t value) noexcept;
unsigned quantise4(std::uint8_t value) noexcept;
unsigned quantise3(std::uint8_t value) noexcept;
// 1-bit alpha: set when alpha >= 128.
inline constexpr std::uint8_t alpha_threshold = 128;
// Intensity of an RGB colour for the I/IA encoders: r when r == g == b (so grey decodes come
// back exactly), else round(0.299 r + 0.587 g + 0.114 b) (Rec. 601 weights, integer maths).
std::uint8_t intensity(std::uint8_t r, std::uint8_t g, std::uint8_t b) noexcept;

// RGBA5551 (rrrrrgggggbbbbba) and IA16 (iiiiiiiiaaaaaaaa) single-value conversions.
void rgba5551_to_rgba8(std::uint16_t value, std::uint8_t* rgba) noexcept;
std::uint16_t rgba8_to_rgba5551(const std::uint8_t* rgba) noexcept;
void ia16_to_rgba8(std::uint16_t value, std::uint8_t* rgba) noexcept;
std::uint16_t rgba8_to_ia16(const std::uint8_t* rgba) noexcept;

// ---- Whole textures --------------------------------------------------------------------
// What alpha an I4/I8 texel decodes to. The RDP feeds the intensity to the alpha channel too
// (`intensity`); viewers usually want opaque grey (`opaque`, the default). The encoders
// ignore alpha for I formats either way.
enum class IntensityAlpha { opaque, intensity };

struct DecodeOptions {
    IntensityAlpha i_alpha = IntensityAlpha::opaque;
};

// Decodes width × height texels of a non-CI format from the start of `texels` (which may be
// longer) to RGBA8. Usage error for a CI format (use decode_indices + a TLUT), limit error for
// bad dimensions, format error naming texels.file()/offset/path when the data is too short.
Bytes decode_rgba(TexelFormat format, const ByteReader& texels, std::uint32_t width, std::uint32_t height,
                  const DecodeOptions& options = {});
// Encodes an RGBA8 image (4 × width × height bytes, usage error otherwise) to a non-CI format;
// `pad` fills the unused low nibble after an odd number of 4-bit texels.
Bytes encode_rgba(TexelFormat format, ByteView rgba, std::uint32_t width, std::uint32_t height,
                  std::uint8_t pad = 0);

// CI4/CI8 texels to one index byte per texel, and back (usage error for non-CI formats or an
// index that does not fit the format: > 15 for CI4).
Bytes decode_indices(TexelFormat format, const ByteReader& texels, std::uint32_t width, std::uint32_t height);
Bytes encode_indices(TexelFormat format, ByteView indices, std::uint32_t width, std::uint32_t height,
                     std::uint8_t pad = 0);

// The low nibble after the last texel when a 4-bit texture has an odd texel count (0 when
// there is none or the data is too short), to pass back to the encoders.
std::uint8_t trailing_pad(TexelFormat format, ByteView texels, std::uint64_t texel_count) noexcept;

// ---- Descriptors and tile state -----------------------------------------------------------

// A texture descriptor's raw fields (Stadium: u8 fmt, u8 siz, s16 width, s16 height, u16 texel
// count; stadium.md §6.3). The game's recolour pass rewrites `texel_count` texels in RAM, so
// the count must equal width × height exactly.
struct TextureDescriptor {
    std::uint8_t fmt = 0;
    std::uint8_t siz = 0;
    std::uint16_t width = 0;
    std::uint16_t height = 0;
    std::uint32_t texel_count = 0;

    std::optional<TexelFormat> format() const noexcept { return texel_format(fmt, siz); }
    // Bytes of texel data: texel_bytes(format, width × height); 0 for an unknown format.
    std::uint64_t byte_size() const noexcept;
    // Supported format, non-zero dimensions within max_dimension and texel_count == w × h.
    bool valid() const noexcept;
    // Format error naming `path` and the first rule broken (no offset: the caller adds it).
    void check(std::string_view path = {}) const;

    friend bool operator==(const TextureDescriptor&, const TextureDescriptor&) = default;
};

// Wrap bits of a tile axis (G_TX_WRAP 0, G_TX_MIRROR 1, G_TX_CLAMP 2, may be combined).
inline constexpr std::uint8_t tx_mirror = 1;
inline constexpr std::uint8_t tx_clamp = 2;

struct TileAxis {
    std::uint8_t cm = 0;     // wrap bits (2 bits)
    std::uint8_t mask = 0;   // wrap every 2^mask texels (0 = no wrapping: clamp to the tile)
    std::uint8_t shift = 0;  // LOD shift (4 bits; 11..15 are left shifts)

    bool mirror() const noexcept { return (cm & tx_mirror) != 0; }
    bool clamp() const noexcept { return (cm & tx_clamp) != 0; }
    friend bool operator==(const TileAxis&, const TileAxis&) = default;
};

// The render tile a texture is drawn with (from its material DL's SETTILE/SETTILESIZE), kept
// next to the texture so wrap modes survive export and re-import.
struct TileState {
    std::uint8_t tile = 0;     // tile descriptor number (G_TX_RENDERTILE = 0)
    std::uint8_t fmt = 0, siz = 0;
    std::uint16_t line = 0;    // 64-bit words per TMEM row
    std::uint16_t tmem = 0;    // TMEM address in 64-bit words
    std::uint8_t palette = 0;  // CI4 bank (0..15)
    TileAxis s, t;
    // SETTILESIZE coordinates in 10.2 fixed point.
    std::uint16_t uls = 0, ult = 0, lrs = 0, lrt = 0;

    friend bool operator==(const TileState&, const TileState&) = default;
};

}  // namespace mod::n64
