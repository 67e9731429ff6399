// The battle move tables (contract in battle_table.hpp; stadium_animation.md §4.9).
#include "libmod/stadium/battle_table.hpp"

#include "libmod/core/error.hpp"

namespace mod::stadium {

BattleTables read_battle_tables(ByteView rom, const std::string& file) {
    ByteReader r(rom, Endian::big, file, "battle_table");
    const std::uint64_t table_end = battle_pointer_table_rom + 4ull * battle_pointer_table_words;
    if (rom.size() < table_end)
        r.fail_at(std::min<std::size_t>(rom.size(), battle_pointer_table_rom),
                  "the ROM (" + hex(rom.size()) + " bytes) is too small for the battle pointer table at " +
                      hex(battle_pointer_table_rom) + ".." + hex(table_end) + " (a Pokémon Stadium ROM has it in main code)");
    BattleTables t;
    for (std::uint32_t i = 0; i < battle_pointer_table_words; ++i) {
        const std::uint32_t w = r.u32_at(battle_pointer_table_rom + 4 * i);
        t.words.push_back(w);
        // Indices 0..152 are species blocks whatever the word (0 is the first block's offset);
        // the words after them are the table's zero tail (three zeros in the game's table).
        if (i > battle_last_species && w == 0) continue;
        BattleSpecies s;
        s.index = i;
        s.word = w;
        s.rom = battle_rows_rom + (w & 0xFFFFFF);
        const std::uint64_t need = battle_species_bytes;
        if (s.rom > rom.size() || rom.size() - s.rom < need)
            r.fail_at_path(battle_pointer_table_rom + 4 * i, "[" + std::to_string(i) + "]",
                           "word " + hex(w, 8) + " names rows at " + hex(s.rom) + ", and the " + hex(battle_species_bytes) +
                               " bytes the game loads from there leave the " + hex(rom.size()) + "-byte ROM");
        for (std::uint32_t at = 0; at < battle_species_bytes; at += battle_row_size) {
            BattleRow row;
            row.offset = at;
            row.move = at / battle_row_size < battle_move_rows ? at / battle_row_size + 1 : 0;
            row.rom = s.rom + at;
            for (std::uint32_t k = 0; k < battle_row_size; ++k) row.raw[k] = rom[row.rom + k];
            (row.move ? s.rows : s.context_rows).push_back(row);
        }
        t.species.push_back(std::move(s));
    }
    return t;
}

}  // namespace mod::stadium
