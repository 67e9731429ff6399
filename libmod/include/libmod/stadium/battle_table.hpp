#pragma once
// The battle tables that say which animations a move plays (stadium_animation.md §4.9): a
// main-code pointer table at ROM 0x767D0 (VRAM 0x80075BD0, 156 big-endian words: word i =
// i × 0xB90 for species indices 0..152 — index 0 is 0, index 152, the alternative Pikachu model
// 0x99, is 0x6DD80 — then three zeros; pret/pokestadium src/2E460.c D_80075BD0), each word's low
// 24 bits an offset from ROM 0x70D3A0 to that species' block. The game DMAs 0xBC0 bytes per
// species: 165 16-byte move rows (row m − 1 for move m), then context rows the battle code
// selects outside move selection (fragment62.h unk_D_8438E7B0: 0xA50, 0xA70, 0xA80, 0xAF0,
// 0xB00, 0xB10, 0xB20; fragment62_2EC3C0.c passes +0 of 0xA50, 0xA80, 0xAF0, 0xB00 and 0xB20 to
// func_8001BD04, the skeletal animation start; 0xA70 and 0xB10 are read for other fields). Row
// fields the battle code uses: +0 skeletal animation index, +1 aux animation index (0xFF none),
// +6 start frame of both; other bytes are kept verbatim (meaning not established).
// Spec: doc/formats/stadium-animation.md ("Battle tables").

#include "libmod/core/bytes.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mod::stadium {

inline constexpr std::uint32_t battle_pointer_table_rom = 0x767D0;
inline constexpr std::uint32_t battle_pointer_table_words = 156;
inline constexpr std::uint32_t battle_last_species = 152;  // indices 0..152 are species blocks (152: 0x6DD80)
inline constexpr std::uint32_t battle_rows_rom = 0x70D3A0;
inline constexpr std::uint32_t battle_row_size = 16;
inline constexpr std::uint32_t battle_move_rows = 165;      // moves 1..165
inline constexpr std::uint32_t battle_species_bytes = 0xBC0; // what the game DMAs per species
inline constexpr std::uint32_t battle_species_stride = 0xB90; // word i = i × 0xB90 in the game's table
// Context rows whose +0 the battle code passes to func_8001BD04 (a skeletal animation played
// outside move selection); named by their offset in the species block (meaning not established).
inline constexpr std::array<std::uint32_t, 5> battle_context_animation_rows = {0xA50, 0xA80, 0xAF0, 0xB00, 0xB20};

struct BattleRow {
    std::uint32_t move = 0;    // move id (row index + 1); 0 for a context row
    std::uint32_t offset = 0;  // offset of the row in the species block (16 × (move − 1) for moves)
    std::uint32_t rom = 0;     // ROM offset of the row
    std::array<std::uint8_t, 16> raw{};
    std::uint8_t skeletal() const noexcept { return raw[0]; }
    std::optional<std::uint8_t> aux() const noexcept { return raw[1] == 0xFF ? std::nullopt : std::optional<std::uint8_t>(raw[1]); }
    std::uint8_t start_frame() const noexcept { return raw[6]; }
    // A context row the game plays a skeletal animation through (battle_context_animation_rows).
    bool plays_context_animation() const noexcept {
        return move == 0 && std::find(battle_context_animation_rows.begin(), battle_context_animation_rows.end(), offset) !=
                                battle_context_animation_rows.end();
    }
};

struct BattleSpecies {
    std::uint32_t index = 0;  // pointer table index (species − 1; 152 = Pikachu's alternative)
    std::uint32_t word = 0;   // the pointer table word
    std::uint32_t rom = 0;    // 0x70D3A0 + (word & 0xFFFFFF)
    std::vector<BattleRow> rows;          // battle_move_rows move rows
    std::vector<BattleRow> context_rows;  // the rest of the 0xBC0 bytes: rows at 0xA50 .. 0xBB0 (from
                                          // 0xB90 on, the next block's first rows, as the game loads them)
};

struct BattleTables {
    std::vector<BattleSpecies> species;  // indices 0..152, then any non-zero word after them
    std::vector<std::uint32_t> words;    // the 156 words verbatim
};

// Reads the tables from a z64-order ROM image. Format error naming `file`, the ROM offset and
// "battle_table…" when the ROM is too small for the pointer table or a species' 0xBC0-byte
// block lies outside the image. Words 0..152 are species blocks even when zero (word 0 is the
// first block's offset, 0); zero words after index 152 (the game's table ends with three) are
// the table's tail and skipped.
BattleTables read_battle_tables(ByteView rom, const std::string& file = {});

// Model archive entry a pointer table index animates: index i → model id i + 1 → entry i, and
// 152 → model id 0x99 → entry 152 (stadium.md §2.2; 1C720.c substitutes 0x99 for Pikachu).
inline std::uint32_t battle_model_entry(std::uint32_t species_index) noexcept { return species_index; }

}  // namespace mod::stadium
