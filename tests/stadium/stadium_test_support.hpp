#pragma once
// Helpers shared by the stadium tests: the sample ROM (generated once through the CLI, since
// the forge lives in the sample layer above this one), small models built with ModelBuilder,
// random fragments, and the game's relocation algorithm re-implemented from its description
// (Memmap_RelocateFragment, reference §4.2) to check rebased images against.

#include "test_support.hpp"

#include "libmod/core/bytes.hpp"
#include "libmod/stadium/builder.hpp"
#include "libmod/stadium/fragment.hpp"
#include "libmod/stadium/fragment_image.hpp"
#include "libmod/stadium/model.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <filesystem>
#include <map>
#include <ostream>

namespace mod {
// Lets BOOST_TEST print error kinds.
inline std::ostream& operator<<(std::ostream& o, ErrorKind k) { return o << to_string(k); }
}  // namespace mod

namespace stadiumtest {

// Path of the sample ROM (pokemon_stadium_sample.z64), written once per test run.
const std::filesystem::path& sample_rom();
const mod::Bytes& sample_rom_bytes();

// The sample ROM loaded with its model archive.
struct SampleRom {
    mod::stadium::StadiumRom rom;
    mod::stadium::Archive archive;
    SampleRom();
};

// Writes an edited model image into the ROM as entry `index`, loads the result and returns
// that entry as a model. Checks (BOOST_TEST) that the relocation cross-check passes and that
// another entry is unchanged.
mod::stadium::Model edit_round_trip(const SampleRom& r, std::size_t index, const mod::stadium::FragmentImage& image);

// A small two-bone model with cross-bone vertex reuse, every table kind and animations.
mod::Bytes small_model(std::uint16_t model_id = 7);

// A model with two CI4 8x8 textures drawn through one palette (16 entries, RGBA5551 or IA16
// as `ia16` says): texture 0 uses slots 0..7, texture 1 slots 8..15.
mod::Bytes two_textures_one_palette(std::uint16_t model_id, const std::vector<std::uint16_t>& palette, bool ia16);

// A random fragment: getter, root-like struct, random words, R_MIPS_32 sites pointing at random
// in-fragment targets, a JAL with an R_MIPS_26 entry, foreign pointers, and (for large bodies)
// HI16/LO16 targets that need the carry.
mod::Bytes random_fragment(modtest::Rng& rng);

// The game's relocator: every relocation applied in table order with the fragment loaded at
// `vaddr` (map(a) = vaddr + (a & 0xFFFFF) for this fragment's id, identity otherwise), then
// [relocOffset, sizeInRam) cleared. Returns the loaded image (sizeInRam bytes). Types other
// than 2/4/5/6 are skipped (the game's switch has no case); a LO16 with no HI16 before it is
// left alone (the game reads uninitialised stack arrays there: undefined).
mod::Bytes game_relocate(const mod::stadium::Fragment& fragment, std::uint32_t vaddr);

}  // namespace stadiumtest
