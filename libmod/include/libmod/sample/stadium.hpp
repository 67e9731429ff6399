#pragma once
// The synthetic Pokémon Stadium ROM ("forge"): a deterministic 32 MiB z64 image that obeys
// every fact of ../shared/reference/stadium.md that a tool can check, built from scratch (no
// game bytes). Described in doc/formats/stadium-sample.md.
//
//  * header: 80371240, clock 0xF, entry 0x80100400, release 0x1449, title "POKEMON STADIUM",
//    game code NPOE, version 0; CRC1/CRC2 computed with the CIC-6103 algorithm;
//  * 0x40..0xFFF: a synthetic IPL3 area holding 0x828A at 0xE38. The real IPL3 bytes cannot be
//    shipped; the synthetic area's first word is chosen so its CRC-32 equals CIC-6103's IPL3
//    CRC-32 (0x0B050EE0), so CIC detection identifies the sample as CIC-6103 (stadium_sample_cic);
//  * 0x1000..0x100FFF: synthetic main code (the checksummed megabyte);
//  * 0x920000: a BinArchive (fragment id 0xEF) of stadium_model_count model entries, entry i =
//    model id i + 1, PERS-SZP(Yay0(FRAGMENT)) except entry stadium_raw_entry which is a raw
//    FRAGMENT (like entry 120 of the real archive); blobs padded to 16 (stored sizes are
//    multiples of 16), total_size = ALIGN16(data end) (hypothesis U6);
//  * archive end .. 0x15C0000: 0xFF fill (the sample's choice of tail padding, so tools that
//    assume zero padding are caught); 0x15C0000: a stand-in audio archive header.
// Each model is built with stadium::ModelBuilder: 2..5 bones with cross-bone vertex-cache
// reuse, CI4/CI8/RGBA16 textures, 16- and 256-colour TLUTs, two or three skeletal animations
// (packed 12/16-bit, Hermite) and two texture animations on every third model; the battle
// tables at 0x767D0 / 0x70D3A0 (stadium_animations.cpp, doc/formats/stadium-sample.md).

#include "libmod/core/bytes.hpp"
#include "libmod/n64/rom.hpp"

#include <filesystem>
#include <vector>

namespace mod::sample {

inline constexpr std::size_t stadium_model_count = 14;
inline constexpr std::size_t stadium_raw_entry = 12;
inline constexpr std::uint32_t stadium_rom_size = 32u << 20;
inline constexpr n64::Cic stadium_sample_cic = n64::Cic::cic6103;
inline constexpr char stadium_sample_file[] = "pokemon_stadium_sample.z64";

// The FRAGMENT of entry `index` (< stadium_model_count), linked at 0x8FF00000.
Bytes stadium_model(std::size_t index);
// The archive bytes from its header to its data end.
Bytes stadium_model_archive();
// The whole z64 image.
Bytes stadium_rom();
// Writes DIR/pokemon_stadium_sample.z64 and returns its path.
std::vector<std::filesystem::path> write_stadium_sample(const std::filesystem::path& dir);

}  // namespace mod::sample
