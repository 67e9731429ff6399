#pragma once
// TLUTs (palettes) for CI textures: entries, colours, CI4 banks, and the display list that
// loads a TLUT into TMEM. Spec: doc/formats/n64-texels.md.
//
// A TLUT is a run of big-endian u16 entries, RGBA5551 (G_TT_RGBA16) or IA16 (G_TT_IA16). In
// TMEM the TLUT occupies the upper half (address 256, in 64-bit words); a CI8 texel indexes
// all 256 entries, a CI4 texel indexes the 16 entries of the bank its tile names
// (entry bank × 16 + texel).

#include "libmod/core/bytes.hpp"
#include "libmod/n64/gbi.hpp"
#include "libmod/n64/texel.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace mod::n64 {

enum class TlutFormat { rgba5551, ia16 };

const char* to_string(TlutFormat format) noexcept;  // "rgba5551" / "ia16"
TlutFormat parse_tlut_format(std::string_view name);  // usage error otherwise

inline constexpr unsigned max_tlut_entries = 256;
inline constexpr unsigned ci4_bank_entries = 16;
inline constexpr std::uint16_t tlut_tmem = 256;  // TMEM word address of entry 0

struct Tlut {
    TlutFormat format = TlutFormat::rgba5551;
    std::vector<std::uint16_t> entries;
    friend bool operator==(const Tlut&, const Tlut&) = default;
};

// Reads `count` (1..256, limit error otherwise) entries from the reader's cursor; format
// error naming the reader's file/offset/path when too short.
Tlut decode_tlut(ByteReader& reader, unsigned count, TlutFormat format = TlutFormat::rgba5551);
Bytes encode_tlut(const Tlut& tlut);

// One entry ↔ RGBA8 (texel.hpp's channel rules).
void tlut_colour(std::uint16_t entry, TlutFormat format, std::uint8_t* rgba) noexcept;
std::uint16_t tlut_entry(const std::uint8_t* rgba, TlutFormat format) noexcept;

// The entry a CI texel selects: `index` for CI8, bank × 16 + index for CI4.
unsigned tlut_slot(TexelFormat format, unsigned index, unsigned bank) noexcept;

// Decodes CI4/CI8 texels through `tlut` to RGBA8. Format error at `texels`'s path + ".texel[i]"
// when a texel selects an entry the TLUT does not have; usage error for a non-CI format or a
// bank above 15.
Bytes decode_ci_rgba(TexelFormat format, const ByteReader& texels, std::uint32_t width, std::uint32_t height,
                     const Tlut& tlut, unsigned bank = 0);

// The commands of a TLUT display list with gDPLoadTLUT_pal16/pal256 semantics: SETTIMG(RGBA,
// 16b, width 1, address), TILESYNC, SETTILE(tile 7, tmem 256 + 16 × bank), LOADSYNC,
// LOADTLUT(tile 7, count), PIPESYNC, ENDDL. `count` is 16 (one CI4 bank) or 256; usage error
// otherwise or for a bank above 15.
std::vector<gbi::Command> tlut_load_commands(std::uint32_t address, unsigned count, unsigned bank = 0);

// What a TLUT display list loads.
struct TlutLoad {
    std::uint32_t address = 0;  // SETTIMG address in force at the LOADTLUT
    unsigned count = 0;         // entries loaded
    std::uint16_t tmem = 0;     // SETTILE tmem of the LOADTLUT's tile (256 + 16 × bank)
    std::size_t settimg_command = 0, loadtlut_command = 0;
    unsigned bank() const noexcept { return tmem >= tlut_tmem ? (tmem - tlut_tmem) / 16u : 0; }
};

// Finds the first LOADTLUT and the SETTIMG/SETTILE in force for it; nullopt when the list has
// no LOADTLUT, format error (path `cmd[i]`) when a LOADTLUT has no SETTIMG before it.
std::optional<TlutLoad> find_tlut_load(const gbi::DisplayList& list);

}  // namespace mod::n64
