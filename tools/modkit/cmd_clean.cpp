// modkit clean [DIR...]: removes the temporary files (NAME.modkit-tmp.PID.N) a killed modkit
// process left behind: those its journal lists, wherever they are, and those in DIR and the
// folders below it (default: the current folder). Thin layer over libmod/core/file.hpp.
#include "cli.hpp"
#include "json.hpp"

#include "libmod/core/file.hpp"

#include <cstdio>
#include <filesystem>

namespace modkit {
namespace {

namespace fs = std::filesystem;

int run_clean(const po::variables_map& vm, const Global& g) {
    std::vector<fs::path> dirs;
    if (vm.count("dirs"))
        for (const auto& d : vm["dirs"].as<std::vector<std::string>>()) dirs.emplace_back(d);
    if (dirs.empty()) dirs.emplace_back(".");
    const auto removed = mod::clean_stale_temporaries(dirs);
    if (g.json) {
        Json j;
        j.begin_object().key("removed").begin_array();
        for (const auto& p : removed) j.value(p.string());
        j.end_array().end_object();
        return 0;
    }
    for (const auto& p : removed) std::printf("removed %s\n", p.c_str());
    std::printf("%zu stale temporary file%s removed\n", removed.size(), removed.size() == 1 ? "" : "s");
    return 0;
}

const Registrar clean_group({"clean", "remove the temporary files a killed modkit left (NAME.modkit-tmp.PID.N)", {
    {"clean", "[DIR...] [--json]",
     "remove the temporary files of modkit processes that no longer run: those their journals list (wherever they "
     "are) and those in each DIR and below (default: the current folder); files of running processes are kept",
     [](auto& o, auto& p) {
         o.add_options()("dirs", po::value<std::vector<std::string>>()->multitoken(), "folders to search");
         p.add("dirs", -1);
     },
     run_clean},
}, true});

}  // namespace
}  // namespace modkit
