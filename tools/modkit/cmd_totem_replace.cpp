// modkit totem replace: a TotemTech character's MESH records (and the SKINs that move them)
// from FBX/glTF; and the character tree `totem show` prints for NODE and LOD records.
#include "cli.hpp"
#include "json.hpp"
#include "totem_tree.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/node.hpp"
#include "libmod/totem/replace.hpp"
#include "libmod/totem/verify.hpp"

#include <cstdio>
#include <filesystem>

namespace modkit {

namespace fs = std::filesystem;
using namespace mod::totem;

namespace {

void print_tree(const CharacterNode& n, const Archive& a, const NameTable& names, const std::string& indent, bool last,
                bool root) {
    std::string line = root ? "" : indent + (last ? "`-- " : "|-- ");
    if (n.missing) line += names.display(n.missing_id);
    else {
        const Record& r = a.records[n.record];
        line += (n.kind.empty() ? names.display(r.type_id) : n.kind) + " " + names.display(r.name_id) + " (#" +
                std::to_string(n.record) + ")";
    }
    if (!n.note.empty()) line += " [" + n.note + "]";
    std::printf("%s\n", line.c_str());
    const std::string next = root ? "" : indent + (last ? "    " : "|   ");
    for (std::size_t i = 0; i < n.children.size(); ++i)
        print_tree(n.children[i], a, names, next, i + 1 == n.children.size(), false);
}

void json_tree(Json& j, const CharacterNode& n, const Archive& a, const NameTable& names) {
    j.begin_object();
    if (n.missing) j.field("id", n.missing_id).field("name", names.display(n.missing_id)).field("missing", true);
    else {
        const Record& r = a.records[n.record];
        j.field("index", std::uint64_t(n.record)).field("type", n.kind.empty() ? names.display(r.type_id) : n.kind)
            .field("name", names.display(r.name_id));
    }
    if (!n.note.empty()) j.field("note", n.note);
    j.key("children").begin_array();
    for (const auto& c : n.children) json_tree(j, c, a, names);
    j.end_array().end_object();
}

}  // namespace

void show_character_tree(const mod::ByteReader& dgc, const Archive& archive, const NameTable& names, std::size_t index,
                         const Global& g) {
    const Record& rec = archive.records[index];
    const CharacterNode tree = character_tree(dgc, archive, index);
    if (g.json) {
        Json j;
        j.begin_object().field("index", std::uint64_t(index)).field("kind", tree.kind)
            .field("name", names.display(rec.name_id)).field("bytes", std::uint64_t(rec.payload.size()));
        const mod::ByteReader p = payload_reader(dgc, archive, index);
        if (tree.kind == "NODE") {
            const NodeLinks n = decode_node_links(p);
            j.field("parent", names.display(n.parent)).field("resource", names.display(n.resource))
                .field("union_tag", node_tag_name(n.tag)[0] ? std::string(node_tag_name(n.tag)) : hash_text(n.tag));
        } else if (tree.kind == "LOD") {
            const Lod lod = decode_lod(p);
            j.field("subtype", unsigned(lod.header.item_subtype)).key("animations").begin_array();
            for (const auto& e : lod.anims) j.begin_object().field("symbol", e.symbol).field("animation", names.display(e.id)).end_object();
            j.end_array().field("round_trip", encode_lod(lod, archive.endian) == rec.payload);
        }
        j.key("tree");
        json_tree(j, tree, archive, names);
        j.end_object();
        return;
    }
    std::printf("record %zu: %s %s (%zu bytes)\n", index, tree.kind.c_str(), names.display(rec.name_id).c_str(),
                rec.payload.size());
    try {
        const mod::ByteReader p = payload_reader(dgc, archive, index);
        if (tree.kind == "NODE") {
            const NodeLinks n = decode_node_links(p);
            const char* tag = node_tag_name(n.tag);
            std::printf("parent %s, resource %s, union %s\n", n.parent ? names.display(n.parent).c_str() : "none",
                        names.display(n.resource).c_str(), tag[0] ? tag : hash_text(n.tag).c_str());
        } else if (tree.kind == "LOD") {
            const Lod lod = decode_lod(p);
            std::printf("subtype %u, %zu resources, %zu animations%s; round trip %s\n", lod.header.item_subtype,
                        lod.resources.size(), lod.anims.size(),
                        lod.sounds ? (", " + std::to_string(lod.sounds->size()) + " sounds").c_str() : "",
                        encode_lod(lod, archive.endian) == rec.payload ? "byte-exact" : "DIFFERS");
            for (const auto& e : lod.anims) std::printf("  animation symbol %u -> %s\n", e.symbol, names.display(e.id).c_str());
        }
    } catch (const mod::Error& e) {
        std::printf("cannot be decoded: %s\n", e.what());
    }
    std::printf("character tree:\n");
    print_tree(tree, archive, names, "", true, true);
}

namespace {

int totem_replace(const po::variables_map& vm, const Global& g) {
    const fs::path data_path = required(vm, "data"), names_path = required(vm, "names");
    const std::string target_text = required(vm, "target");
    const fs::path source_path = required(vm, "source"), out = required(vm, "out");
    fs::path names_out = vm.count("names-out") ? fs::path(vm["names-out"].as<std::string>()) : fs::path();

    const mod::Bytes data = mod::read_file(data_path);
    const auto platform = platform_from_path(data_path);
    Archive archive;
    try {
        const ByteOrderDetection order = detect_byte_order(data, platform);
        archive = decode_archive(mod::ByteReader(data, order.endian, data_path.string(), "dgc"));
    } catch (mod::Error& e) {
        e.set_file_if_empty(data_path.string());
        throw;
    }
    const mod::Bytes names_bytes = mod::read_file(names_path);
    NameTable names = NameTable::parse(mod::ByteReader(names_bytes, mod::Endian::big, names_path.string(), "names"));
    const mod::ByteReader dgc(data, archive.endian, data_path.string(), "dgc");
    const auto target = find_record_by_text(archive, names, target_text);
    if (!target) usage_error("no record named '" + target_text + "' (" + hash_text(id_from_text(names, target_text)) + ")");

    ReplaceOptions options;
    options.allow_scale_change = vm["allow-scale-change"].as<bool>();
    options.keep_unchanged = !vm["rebuild"].as<bool>();
    options.source_textures = !vm["keep-textures"].as<bool>();
    options.platform = platform;
    std::vector<fs::path> inputs = {data_path, names_path, source_path};
    if (vm.count("bone-map")) {
        options.bone_map = mod::scene::read_bone_map(vm["bone-map"].as<std::string>());
        inputs.emplace_back(vm["bone-map"].as<std::string>());
    }
    for (const auto& [opt, map] : {std::pair<const char*, mod::scene::BoneMap*>{"mesh-map", &options.mesh_map},
                                   std::pair<const char*, mod::scene::BoneMap*>{"material-map", &options.material_map}})
        if (vm.count(opt)) {
            *map = mod::scene::read_bone_map(vm[opt].as<std::string>());
            inputs.emplace_back(vm[opt].as<std::string>());
        }
    mod::scene::ImportOptions import;
    import.read_textures = options.source_textures;
    import.scale = vm["scale"].as<float>();
    import.axes = mod::scene::parse_axis_map(vm["axis"].as<std::string>());
    const std::string units = vm["units"].as<std::string>();
    if (units == "file") import.units = mod::scene::Units::file;
    else if (units == "metres" || units == "meters") import.units = mod::scene::Units::metres;
    else usage_error("--units must be file or metres");
    mod::ensure_distinct_output(out, inputs);
    const auto check_names_out = [&] {
        mod::ensure_distinct_output(names_out, inputs);
        const fs::path outputs[] = {out, names_out};
        mod::ensure_distinct_outputs(outputs);
    };
    if (!names_out.empty()) check_names_out();

    mod::scene::Scene source = mod::scene::import_file(source_path, import);
    ReplaceReport report;
    auto items = replace_meshes(dgc, archive, names, *target, std::move(source), options, &report);
    RepackReport packed_report;
    const mod::Bytes encoded = repack_checked(dgc, archive, std::move(items), &packed_report);  // verified
    // New BITMAP/MATERIAL records add names: the table goes beside the archive unless told where.
    for (const auto& n : report.names_added) names.add(n);
    if (!report.names_added.empty() && names_out.empty()) {
        names_out = out;
        names_out.replace_extension(names_extension(platform.value_or(Platform::gamecube)));
        check_names_out();
    }

    mod::write_file_atomic(out, encoded, inputs);
    if (!names_out.empty()) mod::write_file_atomic(names_out, names.encode(), inputs);
    for (const auto& w : report.warnings) warn(w);
    if (packed_report.chunk_size_grew())
        warn("chunk size grew from " + mod::hex(packed_report.old_chunk_size) + " to " + mod::hex(packed_report.new_chunk_size));
    if (g.json) {
        Json j;
        j.begin_object().field("output", out.string()).field("names_output", names_out.string())
            .field("source", source_path.string()).field("target", names.display(archive.records[*target].name_id))
            .field("skinned", report.skinned).field("unchanged", report.unchanged).key("pairings").begin_array();
        for (const auto& p : report.pairings) j.value(p);
        j.end_array().key("meshes").begin_array();
        for (const auto& m : report.meshes) {
            j.begin_object().field("mesh", m.name).field("positions", std::uint64_t(m.positions))
                .field("texcoords", std::uint64_t(m.texcoords)).field("normals", std::uint64_t(m.normals))
                .field("triangles", std::uint64_t(m.triangles)).field("strips", std::uint64_t(m.build.strips))
                .field("strip_entries", std::uint64_t(m.build.strip_entries))
                .field("degenerate_dropped", std::uint64_t(m.build.degenerate_dropped))
                .field("weights_rescaled", std::uint64_t(m.normalised)).key("source_meshes").begin_array();
            for (const auto& s : m.source_meshes) j.value(s);
            j.end_array().key("notes").begin_array();
            for (const auto& n : m.build.notes) j.value(n);
            j.end_array().end_object();
        }
        j.end_array().key("skins").begin_array();
        for (const auto& s : report.skins) {
            j.begin_object().field("skin", s.name).field("subsections_rewritten", std::uint64_t(s.rebuild.subsections_rewritten))
                .field("subsections_added", std::uint64_t(s.rebuild.subsections_added))
                .field("subsections_emptied", std::uint64_t(s.rebuild.subsections_emptied))
                .field("unknown_values_clamped", std::uint64_t(s.rebuild.unknown_values_clamped)).key("notes").begin_array();
            for (const auto& n : s.rebuild.notes) j.value(n);
            j.end_array().end_object();
        }
        j.end_array().key("kept_meshes").begin_array();
        for (const auto& k : report.kept_meshes) j.value(k);
        j.end_array().key("textures").begin_array();
        for (const auto& t : report.textures)
            j.begin_object().field("source_material", t.source_material).field("replaces", t.replaces)
                .field("material", t.material).field("bitmap", t.bitmap).field("template_bitmap", t.template_bitmap)
                .field("format", t.format).field("width", std::uint64_t(t.width)).field("height", std::uint64_t(t.height))
                .field("mean_delta_e", t.encode.mean_delta_e).field("max_delta_e", t.encode.max_delta_e).end_object();
        j.end_array().key("names_added").begin_array();
        for (const auto& n : report.names_added) j.value(n);
        j.end_array().key("bones").begin_object().field("mapped_by_name", std::uint64_t(report.bones.mapped_by_name))
            .field("mapped_explicitly", std::uint64_t(report.bones.mapped_explicitly))
            .field("mapped_by_prefix_rule", std::uint64_t(report.bones.mapped_by_prefix_rule))
            .field("unmapped_without_weight", std::uint64_t(report.bones.unmapped_without_weight)).end_object()
            .field("chunk_size_grew", packed_report.chunk_size_grew())
            .field("records_unchanged", std::uint64_t(packed_report.unchanged)).end_object();
        return 0;
    }
    for (const auto& p : report.pairings) std::printf("%s\n", p.c_str());
    for (const auto& m : report.meshes) {
        std::printf("MESH %s: %zu positions, %zu UVs, %zu normals, %zu triangles in %zu strips (%zu entries) from",
                    m.name.c_str(), m.positions, m.texcoords, m.normals, m.triangles, m.build.strips, m.build.strip_entries);
        for (const auto& s : m.source_meshes) std::printf(" '%s'", s.c_str());
        std::printf("\n");
        if (m.build.degenerate_dropped)
            std::printf("  %zu degenerate source triangles (no area) not stored\n", m.build.degenerate_dropped);
        for (const auto& n : m.build.notes) std::printf("  note: %s\n", n.c_str());
    }
    for (const auto& s : report.skins) {
        std::printf("SKIN %s: %zu subsections rewritten, %zu added, %zu emptied\n", s.name.c_str(),
                    s.rebuild.subsections_rewritten, s.rebuild.subsections_added, s.rebuild.subsections_emptied);
        for (const auto& n : s.rebuild.notes) std::printf("  note: %s\n", n.c_str());
    }
    if (report.skinned)
        std::printf("bones: %zu by name, %zu by the bone map, %zu by a strip rule, %zu unmapped without weight\n",
                    report.bones.mapped_by_name, report.bones.mapped_explicitly, report.bones.mapped_by_prefix_rule,
                    report.bones.unmapped_without_weight);
    for (const auto& k : report.kept_meshes) std::printf("MESH %s: no source mesh is named after it: kept\n", k.c_str());
    for (const auto& t : report.textures)
        if (!t.bitmap.empty())
            std::printf("texture of '%s': new BITMAP %s (%s %ux%u, mean dE %.2f, max %.2f), new MATERIAL %s\n",
                        t.source_material.c_str(), t.bitmap.c_str(), t.format.c_str(), t.width, t.height, t.encode.mean_delta_e,
                        t.encode.max_delta_e, t.material.c_str());
        else
            std::printf("colour of '%s': new MATERIAL %s (texture kept)\n", t.source_material.c_str(), t.material.c_str());
    if (report.unchanged)
        std::printf(options.keep_unchanged
                        ? "the source draws what the archive has (the character's own unedited export): every MESH and "
                          "SKIN kept as it was (--rebuild rebuilds them anyway)\n"
                        : "the source draws what the archive has: rebuilt anyway (--rebuild)\n");
    std::printf("wrote %s (%zu records unchanged)%s\n", out.c_str(), packed_report.unchanged,
                names_out.empty() ? "" : (" and " + names_out.string()).c_str());
    return 0;
}

const Registrar totem_replace_group({"totem", "", {
    {"replace", "DATA NAMES NODE|LOD|SKIN|MESH SOURCE OUT [--names-out N] [--bone-map FILE] [--mesh-map FILE] [--material-map FILE] [--units metres|file] [--scale S] [--axis A] [--allow-scale-change] [--rebuild] [--keep-textures]",
     "replace a character's MESH records from FBX/glTF (strips, bounds, materials by name) and rebuild the SKINs "
     "that move them from the source's bone weights",
     [](auto& o, auto& p) {
         o.add_options()("data", po::value<std::string>(), "archive (.DGC, .DPS or .DPC)")
                        ("names", po::value<std::string>(), "name table (.NGC, .NPS or .NPC)")
                        ("target", po::value<std::string>(),
                         "the character: a NODE, LOD, SKIN or MESH record (name, 0xHASH or #index)")
                        ("source", po::value<std::string>(), "FBX/glTF/GLB with the new meshes (and bone weights)")
                        ("out", po::value<std::string>(), "output archive")
                        ("names-out", po::value<std::string>(), "also write the name table here")
                        ("bone-map", po::value<std::string>(), "text file of 'source bone = vertex group' lines")
                        ("mesh-map", po::value<std::string>(), "text file of 'source mesh = MESH record' lines")
                        ("material-map", po::value<std::string>(), "text file of 'source material = MATERIAL record' lines")
                        ("units", po::value<std::string>()->default_value("metres"),
                         "metres (convert the unit the model file declares: FBX centimetres become metres) or file "
                         "(keep its numbers)")
                        ("scale", number<float>()->default_value(1.0f), "uniform scale applied to the model after --units")
                        ("allow-scale-change", po::bool_switch(),
                         "accept new MESHes more than 10x larger or smaller than the ones they replace (a warning instead)")
                        ("rebuild", po::bool_switch(),
                         "rebuild the MESH and SKIN records even when the source draws what the archive has (by default "
                         "such a source, e.g. an unedited export, keeps them byte for byte)")
                        ("keep-textures", po::bool_switch(),
                         "keep every MATERIAL as it is (by default a source material with its own base-colour image "
                         "gets a new BITMAP and MATERIAL; their names go into the name table, written beside OUT "
                         "unless --names-out says where)")
                        ("axis", po::value<std::string>()->default_value("identity"),
                         "axis conversion of the model: identity, zup-to-yup, yup-to-zup or three signed axes (x,z,-y)");
         p.add("data", 1).add("names", 1).add("target", 1).add("source", 1).add("out", 1);
     },
     totem_replace},
}});

}  // namespace
}  // namespace modkit
