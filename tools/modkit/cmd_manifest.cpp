// modkit manifest check|new|pack|schema (doc/manifest.md), and `apply PACK.zip`'s unpacking:
// modkit-scene only (mod packs and the starter catalogue are in mod_manifest_full). Thin layer
// over libmod/manifest/{manifest,catalogue,pack}.hpp.
#include "cli.hpp"
#include "json.hpp"
#include "manifest_cli.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"
#include "libmod/manifest/apply.hpp"
#include "libmod/manifest/catalogue.hpp"
#include "libmod/manifest/manifest.hpp"
#include "libmod/manifest/pack.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

namespace modkit {
namespace {

namespace fs = std::filesystem;
namespace mf = mod::manifest;

// apply PACK.zip: the pack unpacked into a scratch folder, its outputs written under --out (by
// default a folder beside the zip named after it).
std::vector<fs::path> unpack_pack_for_apply(const fs::path& zip, mf::ApplyOptions& o, std::optional<mod::ScratchFolder>& scratch,
                                       const Global& g) {
    scratch.emplace("modkit-pack.");
    const auto u = mf::unpack_mod(zip, scratch->path());
    if (!o.out_dir) {
        fs::path parent = zip.parent_path();
        o.out_dir = (parent.empty() ? fs::path(".") : parent) / zip.stem();
    }
    if (!g.quiet && !g.json)
        std::printf("pack   %s: %zu file(s), %llu bytes; outputs under %s\n", zip.c_str(), u.files,
                    static_cast<unsigned long long>(u.bytes), o.out_dir->c_str());
    return {u.manifest};
}

const bool pack_unpacker_set = (pack_unpacker = unpack_pack_for_apply, true);

int run_check(const po::variables_map& vm, const Global& g) {
    const mf::ApplyOptions o = apply_options(vm, g);  // --input NAME=PATH, parsed as apply does
    try {
        const auto manifests = mf::load_manifests(manifest_paths(vm));
        mf::check_input_names(manifests, o.input_paths);
        if (g.json) {
            Json j;
            j.begin_object().field("ok", true).field("manifests", std::uint64_t(manifests.size())).end_object();
        } else {
            for (const auto& m : manifests)
                std::printf("%s: valid (%s, %zu input(s), %zu edit(s))\n", m.file.c_str(), mf::to_string(m.game),
                            m.inputs.size(), m.edits.size());
        }
        return 0;
    } catch (const mf::ManifestError& e) {
        return report_problems(e, g);
    }
}

int run_new(const po::variables_map& vm, const Global&) {
    const std::string game = required(vm, "game");
    auto args = required_list(vm, "args");
    if (args.size() < 2) usage_error("expected GAME INPUT... OUT.json");
    const fs::path out = args.back();
    args.pop_back();
    std::vector<fs::path> inputs(args.begin(), args.end());
    const std::string text = mf::starter_manifest(game, inputs, out);
    mod::write_file_atomic(out, text, inputs);
    std::printf("wrote %s: a starter manifest with a catalogue of what can be edited (\"_catalogue\")\n", out.c_str());
    return 0;
}

int run_pack(const po::variables_map& vm, const Global& g) {
    const fs::path manifest = required(vm, "manifest"), out = required(vm, "out");
    try {
        const mf::Manifest m = mf::load_manifest(manifest);
        const mf::PackResult r = mf::pack_mod(m, out);
        for (const auto& w : r.warnings) warn(w);
        if (g.json) {
            Json j;
            j.begin_object().field("ok", true).field("zip", out.string()).field("zip_bytes", r.zip_bytes).key("files").begin_array();
            for (const auto& f : r.files) j.begin_object().field("name", f.name).field("size", f.size).end_object();
            j.end_array().key("left_out").begin_array();
            for (const auto& l : r.left_out) j.begin_object().field("name", l.name).field("why", l.why).end_object();
            j.end_array().end_object();
            return 0;
        }
        if (g.quiet) return 0;
        for (const auto& f : r.files) std::printf("packed    %s (%llu bytes)\n", f.name.c_str(), static_cast<unsigned long long>(f.size));
        for (const auto& l : r.left_out) std::printf("left out  %s: %s\n", l.name.c_str(), l.why.c_str());
        std::printf("wrote %s (%zu file(s), %llu bytes); players apply it with: modkit apply %s --bases DIR\n", out.c_str(),
                    r.files.size(), static_cast<unsigned long long>(r.zip_bytes), out.filename().c_str());
        return 0;
    } catch (const mf::ManifestError& e) {
        return report_problems(e, g);
    }
}

int run_schema(const po::variables_map& vm, const Global&) {
    const std::string which = vm.count("which") ? vm["which"].as<std::string>() : "manifest";
    if (which == "manifest") std::cout << mf::manifest_schema();
    else if (which == "report") std::cout << mf::report_schema();
    else usage_error("schemas: manifest, report");
    return 0;
}

const Registrar manifest_group({"manifest", "edit manifests: check, start a new one, pack a mod to share, print the schema", {
    {"check", "MANIFEST... [--input NAME=PATH] [--json]",
     "validate manifests (every problem with file:line:column); reads no game file",
     [](auto& o, auto& p) {
         declare_manifests(o, p);
         o.add_options()("input", po::value<std::vector<std::string>>()->composing(),
                         "NAME=PATH: check that NAME is an input of the manifests (as apply --input would)");
     },
     run_check},
    {"new", "GAME INPUT... OUT.json", "write a starter manifest listing what can be edited in the inputs",
     [](auto& o, auto& p) {
         o.add_options()("game", po::value<std::string>(), "pokemon-stadium, thps-shred or totemtech")(
             "args", po::value<std::vector<std::string>>()->multitoken(), "INPUT... OUT.json");
         p.add("game", 1).add("args", -1);
     },
     run_new},
    {"pack", "MANIFEST OUT.zip [--json] [-q]",
     "write a zip of the mod's folder to share: no base game file, no outputs (apply OUT.zip runs it)",
     [](auto& o, auto& p) {
         o.add_options()("manifest", po::value<std::string>(), "the mod's manifest (mod.json)")(
             "out", po::value<std::string>(), "the zip to write");
         p.add("manifest", 1).add("out", 1);
     },
     run_pack},
    {"schema", "[manifest|report]", "print the JSON schema",
     [](auto& o, auto& p) {
         o.add_options()("which", po::value<std::string>(), "manifest or report");
         p.add("which", 1);
     },
     run_schema},
}});

}  // namespace
}  // namespace modkit
