#pragma once
// Which Pokémon an entry of the model archive holds (doc/formats/stadium-model.md, "Species").
//
// Fact (pret/pokestadium src/19840.c: the model loaders index the archive at 0x920000 with
// `id - 1`; callers pass National Dex numbers, e.g. func_80019D18(0x19) for Pikachu): entry i
// holds model id i + 1, which for i <= 150 is the species of Dex number i + 1. Entry 151 (id 152)
// is the fallback model of an invalid species and entry 152 (id 153) an alternate Pikachu; the
// entries after them serve the minigames. Hypothesis stadium-species/1 (a third-party reader,
// StadiumBattleFX): a model's root starts with its species id, so the name is given only when the
// root's stored id agrees (id == i + 1); when it does not, no name is given and callers say so.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mod::stadium {

// The English name of Dex number `dex` (1 Bulbasaur … 151 Mew); nullopt outside 1..151.
std::optional<std::string_view> species_name(unsigned dex) noexcept;

// What archive entry `index` holds, by the rule above: the species for 0..150 when `stored_id`
// (the root's first u16) is index + 1; "fallback model" / "alternate Pikachu" for 151 / 152 with
// the same check; nullopt otherwise.
std::optional<std::string> entry_species(std::size_t index, std::uint16_t stored_id);

// "model 24 (Pikachu)", or "model 24" when entry_species has nothing to say.
std::string model_label(std::size_t index, std::uint16_t stored_id);

}  // namespace mod::stadium
