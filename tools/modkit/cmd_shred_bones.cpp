// modkit shred bones: a source's bones with their weight, and a bone-map template for a
// quartet's SCP skeleton (issue 16; matching rules in libmod/scene/bone_suggest.hpp).
#include "cli.hpp"
#include "json.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/bone_suggest.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/shred/import.hpp"
#include "libmod/shred/pak.hpp"

#include <cstdio>
#include <filesystem>

namespace modkit {
namespace {

namespace fs = std::filesystem;
namespace sh = mod::shred;
namespace sc = mod::scene;

void declare_bones(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("source", po::value<std::string>(), "FBX/glTF/DAE file")
        ("target", po::value<std::vector<std::string>>()->multitoken(),
         "PAK QUARTET: match the source's bones against this quartet's SCP skeleton")
        ("out", po::value<std::string>(), "write the bone-map template here (for shred replace --bone-map)");
    p.add("source", 1);
}

int shred_bones(const po::variables_map& vm, const Global& g) {
    const fs::path source = required(vm, "source");
    std::vector<std::string> target;
    std::vector<fs::path> inputs{source};
    if (vm.count("target")) {
        const auto t = vm["target"].as<std::vector<std::string>>();
        if (t.size() != 2) usage_error("--target takes two values: PAK QUARTET");
        inputs.emplace_back(t[0]);
        const sh::Pak pak = sh::read_pak(mod::read_file(t[0]), t[0]);
        for (const auto& b : sh::read_pak_quartet(pak, t[1]).skeleton.bones) target.push_back(b.name);
    }
    if (vm.count("out") && target.empty()) usage_error("--out needs --target PAK QUARTET (the names to map onto)");
    sc::Scene scene = sc::import_file(source);
    const auto usage = sc::bone_usage(scene);
    const sc::BoneMapTemplate t = sc::suggest_bone_map(usage, target);
    if (vm.count("out")) {
        const fs::path out = vm["out"].as<std::string>();
        mod::ensure_distinct_output(out, inputs);
        mod::write_file_atomic(out, t.text, inputs);
    }
    if (g.json) {
        Json j;
        j.begin_object().field("source", source.string());
        j.key("bones").begin_array();
        for (std::size_t i = 0; i < usage.size(); ++i) {
            j.begin_object().field("name", usage[i].name).field("total_weight", usage[i].total_weight)
                .field("vertices", std::uint64_t(usage[i].vertices));
            if (!target.empty()) j.field("target", t.bones[i].target);
            j.end_object();
        }
        j.end_array();
        j.key("strip").begin_array();
        for (const auto& p : t.strip_prefixes) j.value(p);
        j.end_array().end_object();
        return 0;
    }
    std::printf("%s: %zu bones\n", source.string().c_str(), usage.size());
    std::printf("%12s %9s  %-32s%s\n", "weight", "vertices", "bone", target.empty() ? "" : "  target");
    std::size_t unmatched_weighted = 0;
    for (std::size_t i = 0; i < usage.size(); ++i) {
        std::string to;
        if (!target.empty()) {
            const auto& b = t.bones[i];
            to = b.target.empty() ? (b.candidates ? "? (several)" : "?") : b.target;
            if (b.target.empty() && usage[i].vertices) ++unmatched_weighted;
        }
        std::printf("%12.4f %9zu  %-32s%s%s\n", usage[i].total_weight, usage[i].vertices, usage[i].name.c_str(),
                    to.empty() ? "" : "  ", to.c_str());
    }
    if (!target.empty()) {
        for (const auto& p : t.strip_prefixes) std::printf("prefix rule: strip %s\n", p.c_str());
        if (unmatched_weighted)
            std::printf("%zu weighted bones have no target: edit their '# ... = ?' lines in the template\n",
                        unmatched_weighted);
    }
    if (vm.count("out")) std::printf("wrote %s\n", vm["out"].as<std::string>().c_str());
    return 0;
}

const Registrar shred_bones_group({"shred", "", {
    {"bones", "SOURCE [--target PAK QUARTET] [--out MAP.txt]",
     "list a source's bones with their total weight; with --target, match them to a quartet's skeleton "
     "(case-insensitive, after prefixes such as mixamorig:, Armature|, Bip01) and write a bone-map template",
     declare_bones, shred_bones},
}});

}  // namespace
}  // namespace modkit
