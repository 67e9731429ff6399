// modkit totem bones / modkit stadium bones: a source's bones matched against a TotemTech
// character's vertex groups or a Pokémon Stadium model's bones, and a bone-map template for
// `totem replace` / `stadium replace` (issue 29 item 4; `shred bones` does the same for SHRED).
#include "bones_template.hpp"
#include "cli.hpp"

#include "libmod/core/file.hpp"
#include "libmod/stadium/archive.hpp"
#include "libmod/stadium/mesh_replace.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/mesh_compare.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/node.hpp"
#include "libmod/totem/skin.hpp"
#include "libmod/totem/verify.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <array>
#include <map>
#include <set>

namespace modkit {
namespace {

namespace fs = std::filesystem;

void declare(po::options_description& o, po::positional_options_description& p, const char* target_help) {
    o.add_options()("source", po::value<std::string>(), "FBX/glTF/DAE file")
        ("target", po::value<std::vector<std::string>>()->multitoken(), target_help)
        ("out", po::value<std::string>(), "write the bone-map template here (for --bone-map)");
    p.add("source", 1);
}

std::optional<fs::path> out_of(const po::variables_map& vm) {
    if (!vm.count("out")) return std::nullopt;
    return fs::path(vm["out"].as<std::string>());
}

// Adds, per vertex group of `s`, the weighted positions of the character's MESHes it moves
// (for the centroids `totem bones` matches by shape when names share nothing).
void add_group_weights(const mod::ByteReader& dgc, const mod::totem::Archive& archive, const mod::totem::Skin& s,
                       const std::set<std::int32_t>& meshes, std::map<std::int32_t, std::array<double, 4>>& sums,
                       std::map<std::int32_t, mod::totem::Mesh>& decoded) {
    using namespace mod::totem;
    for (const std::int32_t id : std::set<std::int32_t>(s.mesh_ids.begin(), s.mesh_ids.end())) {
        if (!meshes.count(id)) continue;
        auto m = decoded.find(id);
        if (m == decoded.end()) {
            const auto record = find_record(archive, id);
            if (!record) continue;
            m = decoded.emplace(id, decode_mesh(payload_reader(dgc, archive, *record))).first;
        }
        const auto& positions = m->second.positions;
        const auto weights = position_weights(s, id, positions.size());
        for (std::size_t k = 0; k < weights.size(); ++k)
            for (const auto& [group, w] : weights[k]) {
                if (!(w > 0)) continue;
                auto& acc = sums[group];
                for (int c = 0; c < 3; ++c) acc[c] += w * positions[k][c].value();
                acc[3] += w;
            }
    }
}

// The vertex groups `totem replace` maps bones onto for TARGET: the sections of every SKIN
// that lists one of the MESHes TARGET leads to (as replace_meshes finds them).
int totem_bones(const po::variables_map& vm, const Global& g) {
    using namespace mod::totem;
    BonesTarget target;
    target.what = "vertex groups of the SKINs that move the character's MESHes";
    if (vm.count("target")) {
        const auto t = vm["target"].as<std::vector<std::string>>();
        if (t.size() != 3) usage_error("--target takes three values: DATA NAMES NODE|LOD|SKIN|MESH");
        target.inputs = {t[0], t[1]};
        const mod::Bytes data = mod::read_file(t[0]);
        Archive archive;
        try {
            archive = decode_archive(mod::ByteReader(data, detect_byte_order(data, platform_from_path(t[0])).endian, t[0], "dgc"));
        } catch (mod::Error& e) {
            e.set_file_if_empty(t[0]);
            throw;
        }
        const mod::Bytes names_bytes = mod::read_file(t[1]);
        const NameTable names = NameTable::parse(mod::ByteReader(names_bytes, mod::Endian::big, t[1], "names"));
        const mod::ByteReader dgc(data, archive.endian, t[0], "dgc");
        const auto record = find_record_by_text(archive, names, t[2]);
        if (!record) usage_error("no record named '" + t[2] + "' (" + hash_text(id_from_text(names, t[2])) + ")");
        std::set<std::int32_t> meshes;
        for (auto m : character_meshes(dgc, archive, *record)) meshes.insert(archive.records[m].name_id);
        if (meshes.empty()) usage_error("record " + t[2] + " leads to no MESH (NODE → LOD → SKIN → MESH)");
        std::set<std::int32_t> seen;
        std::map<std::int32_t, std::array<double, 4>> centroid_sums;  // group -> weighted x, y, z, weight
        std::map<std::int32_t, Mesh> decoded;
        std::vector<std::int32_t> group_ids;  // parallel to target.names
        for (std::size_t i = 0; i < archive.records.size(); ++i) {
            if (record_kind(archive.records[i]) != RecordKind::skin) continue;
            const Skin s = decode_skin(payload_reader(dgc, archive, i));
            if (std::none_of(s.mesh_ids.begin(), s.mesh_ids.end(), [&](std::int32_t id) { return meshes.count(id) != 0; }))
                continue;
            for (const auto& sec : s.sections)
                if (seen.insert(sec.group_id).second) {
                    target.names.push_back(names.display(sec.group_id));
                    group_ids.push_back(sec.group_id);
                }
            add_group_weights(dgc, archive, s, meshes, centroid_sums, decoded);
        }
        for (std::size_t k = 0; k < group_ids.size(); ++k) {
            const auto it = centroid_sums.find(group_ids[k]);
            if (it == centroid_sums.end() || !(it->second[3] > 0)) continue;
            const auto& c = it->second;
            target.centroids.emplace_back(target.names[k], mod::scene::Vec3{float(c[0] / c[3]), float(c[1] / c[3]), float(c[2] / c[3])});
        }
    }
    return run_bones(required(vm, "source"), target, out_of(vm), g);
}

// The bones `stadium replace` maps onto: the model's skeleton as export names it.
int stadium_bones(const po::variables_map& vm, const Global& g) {
    using namespace mod::stadium;
    BonesTarget target;
    target.what = "the model's bones (as stadium export names them)";
    if (vm.count("target")) {
        const auto t = vm["target"].as<std::vector<std::string>>();
        if (t.size() != 2) usage_error("--target takes two values: ROM MODEL");
        target.inputs = {t[0]};
        const std::size_t model = parse_uint(t[1], 0xFFFF, "MODEL must be an archive entry (0, 1, ...)");
        const Archive archive = read_archive(load_rom(t[0]));
        if (model >= archive.entries.size())
            usage_error("the archive has " + std::to_string(archive.entries.size()) + " entries; there is no entry " + t[1]);
        target.skeleton = target_skeleton(read_archive_model(archive, model));
        for (const auto& b : target.skeleton->bones) target.names.push_back(b.name);
    }
    return run_bones(required(vm, "source"), target, out_of(vm), g);
}

const Registrar totem_bones_group({"totem", "", {
    {"bones", "SOURCE [--target DATA NAMES NODE|LOD|SKIN|MESH] [--out MAP.txt]",
     "list a source's bones with their total weight; with --target, match them to the vertex groups `totem replace` "
     "maps onto (case-insensitive, after prefixes such as mixamorig:) and write a bone-map template",
     [](auto& o, auto& p) { declare(o, p, "DATA NAMES RECORD: match against this character's vertex groups"); },
     totem_bones},
}});

const Registrar stadium_bones_group({"stadium", "", {
    {"bones", "SOURCE [--target ROM MODEL] [--out MAP.txt]",
     "list a source's bones with their total weight; with --target, match them to a model's bones (bone<i>_id<id>) and "
     "write a bone-map template for stadium replace",
     [](auto& o, auto& p) { declare(o, p, "ROM MODEL: match against this model's bones"); },
     stadium_bones},
}});

}  // namespace
}  // namespace modkit
