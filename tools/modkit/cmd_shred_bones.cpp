// modkit shred bones: a source's bones with their weight, and a bone-map template for a
// quartet's SCP skeleton (issue 16; matching rules in libmod/scene/bone_suggest.hpp).
#include "bones_template.hpp"
#include "cli.hpp"

#include "libmod/core/file.hpp"
#include "libmod/shred/import.hpp"
#include "libmod/shred/pak.hpp"

#include <filesystem>
#include <optional>

namespace modkit {
namespace {

namespace fs = std::filesystem;
namespace sh = mod::shred;

void declare_bones(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("source", po::value<std::string>(), "FBX/glTF/DAE file")
        ("target", po::value<std::vector<std::string>>()->multitoken(),
         "PAK QUARTET: match the source's bones against this quartet's SCP skeleton")
        ("out", po::value<std::string>(), "write the bone-map template here (for shred replace --bone-map)");
    p.add("source", 1);
}

int shred_bones(const po::variables_map& vm, const Global& g) {
    const fs::path source = required(vm, "source");
    BonesTarget target;
    target.what = "the quartet's SCP bones";
    if (vm.count("target")) {
        const auto t = vm["target"].as<std::vector<std::string>>();
        if (t.size() != 2) usage_error("--target takes two values: PAK QUARTET");
        target.inputs.emplace_back(t[0]);
        const sh::Pak pak = sh::read_pak(mod::read_file(t[0]), t[0]);
        const auto quartet = sh::read_pak_quartet(pak, t[1]);
        for (const auto& b : quartet.skeleton.bones) target.names.push_back(b.name);
        target.skeleton = sh::to_scene_skeleton(quartet.skeleton);
    }
    std::optional<fs::path> out;
    if (vm.count("out")) out = vm["out"].as<std::string>();
    return run_bones(source, target, out, g);
}

const Registrar shred_bones_group({"shred", "", {
    {"bones", "SOURCE [--target PAK QUARTET] [--out MAP.txt]",
     "list a source's bones with their total weight; with --target, match them to a quartet's skeleton "
     "(case-insensitive, after prefixes such as mixamorig:, Armature|, Bip01) and write a bone-map template",
     declare_bones, shred_bones},
}});

}  // namespace
}  // namespace modkit
