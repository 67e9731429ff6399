// modkit sample DIR: writes the deterministic synthetic game data (the "forge") that the demo,
// the examples and most tests run on. Each game's forge writes into DIR/<game>/.
#include "cli.hpp"
#include "json.hpp"

// Forge headers (one per game) go here.
#include "libmod/core/folder.hpp"
#include "libmod/sample/models.hpp"
#include "libmod/sample/shred.hpp"
#include "libmod/sample/stadium.hpp"
#include "libmod/sample/totem.hpp"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <vector>

namespace modkit {
namespace {

namespace fs = std::filesystem;

struct Forge {
    const char* game;
    // Writes the game's sample files under the folder and returns their paths.
    std::function<std::vector<fs::path>(const fs::path&)> write;
};

const std::vector<Forge>& forges() {
    static const std::vector<Forge> list = {
        // One entry per game forge, e.g. {"stadium", [](const fs::path& d) { return …; }},
        {"stadium", [](const fs::path& d) { return mod::sample::write_stadium_sample(d); }},
        {"shred", [](const fs::path& d) { return mod::sample::write_shred_sample(d); }},
        {"totem", [](const fs::path& d) { return mod::sample::write_totem_sample(d); }},
        // A model from elsewhere (names matching no game, its own texture) for the tutorials.
        {"models", [](const fs::path& d) { return mod::sample::write_foreign_models(d); }},
    };
    return list;
}

int run_sample(const po::variables_map& vm, const Global& g) {
    fs::path dir = required(vm, "dir");
    std::string only = vm.count("game") ? vm["game"].as<std::string>() : "";
    mod::create_folder(dir);
    std::vector<std::pair<std::string, fs::path>> written;
    for (const auto& forge : forges()) {
        if (!only.empty() && only != forge.game) continue;
        fs::path sub = dir / forge.game;
        mod::create_folder(sub);
        for (auto& p : forge.write(sub)) written.emplace_back(forge.game, p);
    }
    if (!only.empty() && written.empty()) usage_error("no sample forge named '" + only + "'");
    if (g.json) {
        Json j;
        j.begin_object().key("files").begin_array();
        for (const auto& [game, p] : written)
            j.begin_object().field("game", game).field("path", p.string())
                .field("bytes", std::uint64_t(fs::file_size(p))).end_object();
        j.end_array().end_object();
    } else {
        for (const auto& [game, p] : written)
            std::printf("%-8s %s (%ju bytes)\n", game.c_str(), p.c_str(), std::uintmax_t(fs::file_size(p)));
    }
    return 0;
}

const Registrar sample_group({"sample", "write the deterministic synthetic sample games", {
    {"sample", "DIR [--game stadium|shred|totem|models]",
     "write every game's sample data into DIR/<game>/ (and a model from elsewhere into DIR/models/)",
     [](auto& o, auto& p) {
         o.add_options()("dir", po::value<std::string>(), "output folder")
                        ("game", po::value<std::string>(), "only this game's forge");
         p.add("dir", 1);
     },
     run_sample},
}, true});

}  // namespace
}  // namespace modkit
