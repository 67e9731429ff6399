// The species of the model archive's entries (species.hpp). The 151 names are the English Dex
// names (public facts, in Dex order as in pret/pokestadium oldnotes/stadium1/constants/
// pokemon_constants.s, BULBASAUR EQU 1 … MEW EQU 151).
#include "libmod/stadium/species.hpp"

#include <array>

namespace mod::stadium {

namespace {

constexpr std::array<std::string_view, 151> dex_names = {
    "Bulbasaur", "Ivysaur", "Venusaur", "Charmander", "Charmeleon", "Charizard", "Squirtle", "Wartortle",
    "Blastoise", "Caterpie", "Metapod", "Butterfree", "Weedle", "Kakuna", "Beedrill", "Pidgey", "Pidgeotto",
    "Pidgeot", "Rattata", "Raticate", "Spearow", "Fearow", "Ekans", "Arbok", "Pikachu", "Raichu", "Sandshrew",
    "Sandslash", "Nidoran♀", "Nidorina", "Nidoqueen", "Nidoran♂", "Nidorino", "Nidoking", "Clefairy", "Clefable",
    "Vulpix", "Ninetales", "Jigglypuff", "Wigglytuff", "Zubat", "Golbat", "Oddish", "Gloom", "Vileplume", "Paras",
    "Parasect", "Venonat", "Venomoth", "Diglett", "Dugtrio", "Meowth", "Persian", "Psyduck", "Golduck", "Mankey",
    "Primeape", "Growlithe", "Arcanine", "Poliwag", "Poliwhirl", "Poliwrath", "Abra", "Kadabra", "Alakazam",
    "Machop", "Machoke", "Machamp", "Bellsprout", "Weepinbell", "Victreebel", "Tentacool", "Tentacruel", "Geodude",
    "Graveler", "Golem", "Ponyta", "Rapidash", "Slowpoke", "Slowbro", "Magnemite", "Magneton", "Farfetch'd",
    "Doduo", "Dodrio", "Seel", "Dewgong", "Grimer", "Muk", "Shellder", "Cloyster", "Gastly", "Haunter", "Gengar",
    "Onix", "Drowzee", "Hypno", "Krabby", "Kingler", "Voltorb", "Electrode", "Exeggcute", "Exeggutor", "Cubone",
    "Marowak", "Hitmonlee", "Hitmonchan", "Lickitung", "Koffing", "Weezing", "Rhyhorn", "Rhydon", "Chansey",
    "Tangela", "Kangaskhan", "Horsea", "Seadra", "Goldeen", "Seaking", "Staryu", "Starmie", "Mr. Mime", "Scyther",
    "Jynx", "Electabuzz", "Magmar", "Pinsir", "Tauros", "Magikarp", "Gyarados", "Lapras", "Ditto", "Eevee",
    "Vaporeon", "Jolteon", "Flareon", "Porygon", "Omanyte", "Omastar", "Kabuto", "Kabutops", "Aerodactyl",
    "Snorlax", "Articuno", "Zapdos", "Moltres", "Dratini", "Dragonair", "Dragonite", "Mewtwo", "Mew",
};

}  // namespace

std::optional<std::string_view> species_name(unsigned dex) noexcept {
    if (dex < 1 || dex > dex_names.size()) return std::nullopt;
    return dex_names[dex - 1];
}

std::optional<std::string> entry_species(std::size_t index, std::uint16_t stored_id) {
    if (stored_id != index + 1) return std::nullopt;
    if (index < dex_names.size()) return std::string(dex_names[index]);
    if (index == 151) return std::string("fallback model");
    if (index == 152) return std::string("alternate Pikachu");
    return std::nullopt;
}

std::string model_label(std::size_t index, std::uint16_t stored_id) {
    const auto s = entry_species(index, stored_id);
    return "model " + std::to_string(index) + (s ? " (" + *s + ")" : std::string());
}

}  // namespace mod::stadium
