// Species names of the model archive's entries (libmod/stadium/species.hpp): the Dex table
// checked at values worked out by hand from the National Dex (1 Bulbasaur, 25 Pikachu, 122
// Mr. Mime, 150 Mewtwo, 151 Mew), the rule entry i = Dex i + 1 only when the root's stored id
// agrees, and the names where users read them (stadium list, show, the manifest catalogue).
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/stadium/species.hpp"

#include <set>

namespace fs = std::filesystem;
namespace st = mod::stadium;

BOOST_AUTO_TEST_SUITE(stadium_species)

BOOST_AUTO_TEST_CASE(the_dex_table_has_the_151_names_in_dex_order) {
    BOOST_TEST(*st::species_name(1) == "Bulbasaur");
    BOOST_TEST(*st::species_name(25) == "Pikachu");
    BOOST_TEST(*st::species_name(29) == "Nidoran♀");
    BOOST_TEST(*st::species_name(32) == "Nidoran♂");
    BOOST_TEST(*st::species_name(122) == "Mr. Mime");
    BOOST_TEST(*st::species_name(150) == "Mewtwo");
    BOOST_TEST(*st::species_name(151) == "Mew");
    BOOST_TEST(!st::species_name(0));
    BOOST_TEST(!st::species_name(152));
    // Every name is distinct except the two Nidoran, which the sign tells apart.
    std::set<std::string> seen;
    for (unsigned d = 1; d <= 151; ++d) seen.insert(std::string(*st::species_name(d)));
    BOOST_TEST(seen.size() == 151u);
}

BOOST_AUTO_TEST_CASE(an_entry_is_named_only_when_its_root_agrees_with_the_archive_order) {
    BOOST_TEST(*st::entry_species(24, 25) == "Pikachu");  // entry 24 = id 25 = Dex #25
    BOOST_TEST(*st::entry_species(0, 1) == "Bulbasaur");
    BOOST_TEST(!st::entry_species(24, 7));                // the root says otherwise: no name
    BOOST_TEST(*st::entry_species(151, 152) == "fallback model");
    BOOST_TEST(*st::entry_species(152, 153) == "alternate Pikachu");
    BOOST_TEST(!st::entry_species(153, 154));             // minigame models: unknown
    BOOST_TEST(st::model_label(24, 25) == "model 24 (Pikachu)");
    BOOST_TEST(st::model_label(24, 3) == "model 24");
}

BOOST_AUTO_TEST_CASE(list_show_and_the_catalogue_name_the_species) {
    modtest::TempDir tmp;
    BOOST_REQUIRE_EQUAL(modtest::run_cli({"sample", (tmp / "game").string(), "--game", "stadium", "-q"}).exit_code, 0);
    const std::string rom = (tmp / "game/stadium/pokemon_stadium_sample.z64").string();
    // The sample's entry 1 stores id 2: Ivysaur, by the game's rule.
    const auto list = modtest::run_cli({"stadium", "list", rom});
    BOOST_TEST_REQUIRE(list.exit_code == 0, list.err);
    BOOST_TEST(list.out.find("model     offset") != std::string::npos, list.out);  // one numbering
    BOOST_TEST(list.out.find("Ivysaur; stored id 2") != std::string::npos, list.out);
    const auto show = modtest::run_cli({"stadium", "show", rom, "1"});
    BOOST_TEST(show.out.rfind("model 1 (Ivysaur): stored id 2", 0) == 0, show.out);
    const auto json = modtest::run_cli({"stadium", "list", rom, "--json"});
    BOOST_TEST(json.out.find("\"species\": \"Ivysaur\"") != std::string::npos, json.out.substr(0, 400));
    const auto made = modtest::run_cli({"manifest", "new", "pokemon-stadium", rom, (tmp / "game/mod.json").string()});
    BOOST_TEST_REQUIRE(made.exit_code == 0, made.err);
    const auto b = mod::read_file(tmp / "game/mod.json");
    BOOST_TEST(std::string(b.begin(), b.end()).find("\"species\": \"Ivysaur\"") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
