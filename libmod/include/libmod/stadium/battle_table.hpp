#pragma once
// The battle tables that say which animations a move plays (stadium_animation.md §4.9): a
// main-code pointer table at ROM 0x767D0 (VRAM 0x80075BD0, 155 big-endian words: 152 species
// offsets, index 152 the alternative Pikachu model 0x99, then zeros), each word's low 24 bits an
// offset from ROM 0x70D3A0 to that species' block of 16-byte rows, one per move id (row m − 1 for
// move m, 165 rows; the game DMAs 0xBC0 bytes). Row fields the battle code uses: +0 skeletal
// animation index, +1 aux animation index (0xFF none), +6 start frame of both; the other
// bytes are kept verbatim (event frames / effect ids, meaning not established).
// Spec: doc/formats/stadium-animation.md ("Battle tables").

#include "libmod/core/bytes.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mod::stadium {

inline constexpr std::uint32_t battle_pointer_table_rom = 0x767D0;
inline constexpr std::uint32_t battle_pointer_table_words = 155;
inline constexpr std::uint32_t battle_last_species = 152;  // indices 0..152 are species blocks
inline constexpr std::uint32_t battle_rows_rom = 0x70D3A0;
inline constexpr std::uint32_t battle_row_size = 16;
inline constexpr std::uint32_t battle_move_rows = 165;      // moves 1..165
inline constexpr std::uint32_t battle_species_bytes = 0xBC0; // what the game DMAs per species

struct BattleRow {
    std::uint32_t move = 0;  // move id (row index + 1)
    std::uint32_t rom = 0;   // ROM offset of the row
    std::array<std::uint8_t, 16> raw{};
    std::uint8_t skeletal() const noexcept { return raw[0]; }
    std::optional<std::uint8_t> aux() const noexcept { return raw[1] == 0xFF ? std::nullopt : std::optional<std::uint8_t>(raw[1]); }
    std::uint8_t start_frame() const noexcept { return raw[6]; }
};

struct BattleSpecies {
    std::uint32_t index = 0;  // pointer table index (species − 1; 152 = Pikachu's alternative)
    std::uint32_t word = 0;   // the pointer table word
    std::uint32_t rom = 0;    // 0x70D3A0 + (word & 0xFFFFFF)
    std::vector<BattleRow> rows;  // battle_move_rows rows
};

struct BattleTables {
    std::vector<BattleSpecies> species;  // indices 0..152, then any non-zero word after them
    std::vector<std::uint32_t> words;    // the 155 words verbatim
};

// Reads the tables from a z64-order ROM image. Format error naming `file`, the ROM offset and
// "battle_table…" when the ROM is too small for the pointer table or a species block lies
// outside the image. Words 0..152 are species blocks even when zero (offset 0 is the first
// block; §4.9 lists 152 offsets then three zeros, and the game reads index 152); zero words
// after index 152 are the table's tail and skipped.
BattleTables read_battle_tables(ByteView rom, const std::string& file = {});

// Model archive entry a pointer table index animates: index i → model id i + 1 → entry i, and
// 152 → model id 0x99 → entry 152 (stadium.md §2.2; 1C720.c substitutes 0x99 for Pikachu).
inline std::uint32_t battle_model_entry(std::uint32_t species_index) noexcept { return species_index; }

}  // namespace mod::stadium
