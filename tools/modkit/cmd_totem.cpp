// modkit totem …: TotemTech (SpongeBob: Revenge of the Flying Dutchman, Jimmy Neutron)
// DGC/NGC archives, SKIN and MESH records.
#include "cli.hpp"
#include "json.hpp"
#include "preview.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/extract.hpp"
#include "libmod/totem/mesh.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/totem/repack.hpp"
#include "libmod/totem/scene_bridge.hpp"
#include "libmod/totem/skin.hpp"
#include "libmod/totem/texture_scene.hpp"
#include "libmod/totem/verify.hpp"
#include "totem_tree.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

namespace modkit {
namespace {

namespace fs = std::filesystem;
using namespace mod::totem;

// ---- loading -----------------------------------------------------------------------------

struct Loaded {
    fs::path data_path, names_path;
    mod::Bytes data;
    std::optional<Platform> platform;  // from --platform or the extension
    ByteOrderDetection order;
    Archive archive;
    NameTable names;
    bool names_found = false;

    mod::ByteReader reader() const { return mod::ByteReader(data, archive.endian, data_path.string(), "dgc"); }
    std::string platform_text() const {
        if (platform) return to_string(*platform);
        return archive.endian == mod::Endian::big ? "gamecube" : "ps2-or-pc";
    }
};

std::optional<Platform> parse_platform(const std::string& s) {
    if (s == "gamecube" || s == "gc" || s == "ngc") return Platform::gamecube;
    if (s == "ps2") return Platform::ps2;
    if (s == "pc") return Platform::pc;
    usage_error("unknown platform '" + s + "' (gamecube, ps2 or pc)");
}

// The name table beside a data file: same stem, D→N in the extension (SAMPLE.DGC → SAMPLE.NGC).
fs::path sibling_names(const fs::path& data) {
    std::string ext = data.extension().string();
    if (ext.size() == 4 && (ext[1] == 'D' || ext[1] == 'd')) {
        ext[1] = ext[1] == 'D' ? 'N' : 'n';
        fs::path p = data;
        return p.replace_extension(ext);
    }
    return {};
}

Loaded load(const po::variables_map& vm, bool names_required) {
    Loaded l;
    l.data_path = required(vm, "data");
    l.platform = vm.count("platform") ? parse_platform(vm["platform"].as<std::string>()) : platform_from_path(l.data_path);
    l.data = mod::read_file(l.data_path);
    try {
        l.order = detect_byte_order(l.data, l.platform);
        l.archive = decode_archive(mod::ByteReader(l.data, l.order.endian, l.data_path.string(), "dgc"));
    } catch (mod::Error& e) {
        e.set_file_if_empty(l.data_path.string());
        throw;
    }
    if (l.platform && endian_of(*l.platform) != l.order.endian)
        warn(l.data_path.string() + ": the extension says " + to_string(*l.platform) + " (" +
             mod::to_string(endian_of(*l.platform)) + "-endian) but the content is " + mod::to_string(l.order.endian) +
             "-endian; using the content's byte order");
    l.names_path = vm.count("names") ? fs::path(vm["names"].as<std::string>()) : sibling_names(l.data_path);
    if (!l.names_path.empty() && (vm.count("names") || fs::exists(l.names_path))) {
        auto bytes = mod::read_file(l.names_path);
        l.names = NameTable::parse(mod::ByteReader(bytes, mod::Endian::big, l.names_path.string(), "names"));
        l.names_found = true;
        for (const auto& f : l.names.findings()) warn(l.names_path.string() + ": " + f);
    } else if (names_required) {
        usage_error("no name table: pass NAMES (the .NGC/.NPS/.NPC beside " + l.data_path.string() + ")");
    }
    return l;
}

void declare_data(po::options_description& o, po::positional_options_description& p, bool with_names = true) {
    o.add_options()("data", po::value<std::string>(), "archive (.DGC, .DPS or .DPC)")
                   ("platform", po::value<std::string>(), "gamecube, ps2 or pc (default: from the extension)");
    p.add("data", 1);
    if (with_names) {
        o.add_options()("names", po::value<std::string>(), "name table (default: the .NGC/.NPS/.NPC beside DATA)");
        p.add("names", 1);
    }
}

std::string type_of(const Loaded& l, const Record& r) { return l.names.display(r.type_id); }

// Finds a record by name, "0xHASH", signed decimal ID, or "#index".
std::size_t find_named(const Loaded& l, const std::string& what) {
    if (auto found = find_record_by_text(l.archive, l.names, what)) return *found;
    if (what.size() > 1 && what[0] == '#')
        usage_error("no record " + what + " (the archive has " + std::to_string(l.archive.records.size()) + ")");
    usage_error("no record named '" + what + "' (" + hash_text(id_from_text(l.names, what)) + ")");
}

std::vector<std::size_t> chunk_of_records(const Archive& a) {
    std::vector<std::size_t> chunk(a.records.size());
    for (std::size_t c = 0; c < a.chunks.size(); ++c)
        for (auto r : a.chunks[c].records) chunk[r] = c;
    return chunk;
}

const char* level_text(Finding::Level l) { return l == Finding::Level::mismatch ? "MISMATCH" : "note"; }

// ---- list ----------------------------------------------------------------------------------

int totem_list(const po::variables_map& vm, const Global& g) {
    Loaded l = load(vm, false);
    const auto chunk = chunk_of_records(l.archive);
    const auto notes = archive_notes(l.archive);
    if (g.json) {
        Json j;
        j.begin_object()
            .field("file", l.data_path.string())
            .field("names", l.names_found ? l.names_path.string() : std::string())
            .field("platform", l.platform_text())
            .field("byte_order", mod::to_string(l.archive.endian))
            .field("byte_order_reason", l.order.reason)
            .field("legal_notice", l.archive.legal_text())
            .field("chunk_size", l.archive.chunk_size)
            .field("chunks", std::uint64_t(l.archive.chunks.size()));
        j.key("notes").begin_array();
        for (const auto& n : notes) j.value(n);
        j.end_array().key("records").begin_array();
        for (std::size_t i = 0; i < l.archive.records.size(); ++i) {
            const Record& r = l.archive.records[i];
            j.begin_object()
                .field("index", std::uint64_t(i))
                .field("chunk", std::uint64_t(chunk[i]))
                .field("offset", r.offset)
                .field("bytes", std::uint64_t(r.payload.size()))
                .field("type", type_of(l, r))
                .field("type_id", r.type_id)
                .field("name", l.names.display(r.name_id))
                .field("name_id", r.name_id)
                .field("subtype", l.names.display(r.subtype_id))
                .field("subtype_id", r.subtype_id)
                .field("named", l.names.contains(r.name_id))
                .end_object();
        }
        j.end_array().end_object();
        return 0;
    }
    std::printf("%s: %s, %s-endian (%s)\n", l.data_path.c_str(), l.platform_text().c_str(),
                mod::to_string(l.archive.endian), l.order.reason.c_str());
    std::printf("legal notice: \"%s\"\nchunk size %s, %zu chunks, %zu records\n", l.archive.legal_text().c_str(),
                mod::hex(l.archive.chunk_size).c_str(), l.archive.chunks.size(), l.archive.records.size());
    for (const auto& n : notes) std::printf("note: %s\n", n.c_str());
    std::printf("%5s %5s %10s %8s  %-10s %-24s %s\n", "index", "chunk", "offset", "bytes", "type", "subtype", "name");
    for (std::size_t i = 0; i < l.archive.records.size(); ++i) {
        const Record& r = l.archive.records[i];
        std::printf("%5zu %5zu %10s %8zu  %-10s %-24s %s\n", i, chunk[i], mod::hex(r.offset).c_str(), r.payload.size(),
                    type_of(l, r).c_str(), l.names.display(r.subtype_id).c_str(), l.names.display(r.name_id).c_str());
    }
    return 0;
}

// ---- extract -------------------------------------------------------------------------------

int totem_extract(const po::variables_map& vm, const Global& g) {
    Loaded l = load(vm, true);
    fs::path out = required(vm, "out");
    std::string only = vm.count("type") ? vm["type"].as<std::string>() : "";
    auto entries = plan_extract(l.archive, l.names);
    std::vector<fs::path> inputs = {l.data_path, l.names_path};
    // One plan, checked whole (every name, and the disk) before the first file is written. An
    // archive without records still extracts to a folder with its index.
    std::vector<mod::FolderFile> plan;
    std::vector<const Record*> records;
    for (const auto& e : entries) {
        const Record& r = l.archive.records[e.index];
        if (!only.empty() && type_of(l, r) != only) continue;
        plan.push_back({e.file, mod::index_path("dgc.record", e.index)});
        records.push_back(&r);
    }
    const std::size_t written = records.size();
    std::string index;
    if (only.empty()) {
        index = extract_index_json(l.archive, l.names, entries,
                                   l.platform.value_or(l.archive.endian == mod::Endian::big ? Platform::gamecube
                                                                                            : Platform::ps2));
        plan.push_back({index_file_name, "index"});
    }
    mod::write_folder(out, plan, [&](std::size_t i) {
        return i < records.size() ? mod::ByteView(records[i]->payload)
                                  : mod::ByteView(reinterpret_cast<const std::uint8_t*>(index.data()), index.size());
    }, inputs, l.data_path.string());
    if (g.json) {
        Json j;
        j.begin_object().field("folder", out.string()).field("files", std::uint64_t(written))
            .field("index", only.empty() ? (out / index_file_name).string() : std::string()).end_object();
    } else {
        std::printf("extracted %zu records to %s%s\n", written, out.c_str(),
                    only.empty() ? " (with index.json)" : " (type filter: no index written)");
    }
    return 0;
}

// ---- repack --------------------------------------------------------------------------------

int totem_repack(const po::variables_map& vm, const Global& g) {
    Loaded l = load(vm, true);
    fs::path dir = required(vm, "dir"), out = required(vm, "out");
    auto index_bytes = mod::read_file_in_folder(dir, index_file_name);
    auto index = read_extract_index(std::string_view(reinterpret_cast<const char*>(index_bytes.data()), index_bytes.size()),
                                    (dir / index_file_name).string());
    std::vector<RepackItem> items;
    std::size_t new_names = 0;
    for (const auto& it : index) {
        Record r;
        r.type_id = it.type_id;
        r.name_id = it.name_id;
        r.subtype_id = it.subtype_id;
        r.payload = mod::read_file_in_folder(dir, fs::path(it.file));
        items.push_back({std::move(r), it.origin});
        for (const auto& n : it.new_names) new_names += l.names.add(n) ? 1 : 0;
    }
    RepackReport report;
    Archive packed = repack(l.archive, std::move(items), &report);
    // Every file of the extraction folder is an input; the name table never lands on the archive.
    std::vector<fs::path> inputs = {l.data_path, l.names_path, dir};
    fs::path names_out = vm.count("names-out") ? fs::path(vm["names-out"].as<std::string>()) : fs::path();
    if (!names_out.empty()) {
        const fs::path outputs[] = {out, names_out};
        mod::ensure_distinct_outputs(outputs);
        mod::ensure_distinct_output(names_out, inputs);
    }
    mod::write_file_atomic(out, encode_archive(packed), inputs);
    if (!names_out.empty()) mod::write_file_atomic(names_out, l.names.encode(), inputs);
    else if (new_names) warn(std::to_string(new_names) + " new names are not in any name table: pass --names-out");
    if (report.chunk_size_grew())
        warn("chunk size grew from " + mod::hex(report.old_chunk_size) + " to " + mod::hex(report.new_chunk_size) +
             ": a record no longer fits the old chunk size");
    if (g.json) {
        Json j;
        j.begin_object()
            .field("output", out.string())
            .field("names_output", names_out.string())
            .field("old_chunk_size", report.old_chunk_size)
            .field("new_chunk_size", report.new_chunk_size)
            .field("chunk_size_grew", report.chunk_size_grew())
            .field("unchanged", std::uint64_t(report.unchanged))
            .field("changed_in_place", std::uint64_t(report.changed_in_place))
            .field("moved", std::uint64_t(report.moved))
            .field("added", std::uint64_t(report.added))
            .field("removed", std::uint64_t(report.removed))
            .field("chunks", std::uint64_t(packed.chunks.size()))
            .field("chunks_rewritten", std::uint64_t(report.chunks_rewritten))
            .field("new_names", std::uint64_t(new_names));
        j.key("notes").begin_array();
        for (const auto& n : report.notes) j.value(n);
        j.end_array().end_object();
    } else {
        std::printf("%s: %zu unchanged, %zu changed in place, %zu moved, %zu added, %zu removed; %zu chunks (%zu rewritten), chunk size %s\n",
                    out.c_str(), report.unchanged, report.changed_in_place, report.moved, report.added, report.removed,
                    packed.chunks.size(), report.chunks_rewritten, mod::hex(report.new_chunk_size).c_str());
        for (const auto& n : report.notes) std::printf("note: %s\n", n.c_str());
    }
    return 0;
}

// ---- show ----------------------------------------------------------------------------------

void print_findings(const std::vector<Finding>& findings) {
    if (findings.empty()) std::printf("checks: all passed\n");
    for (const auto& f : findings) std::printf("%s: %s: %s\n", level_text(f.level), f.path.c_str(), f.message.c_str());
}

void json_findings(Json& j, const std::vector<Finding>& findings) {
    j.key("findings").begin_array();
    for (const auto& f : findings)
        j.begin_object().field("level", level_text(f.level)).field("path", f.path).field("message", f.message).end_object();
    j.end_array();
}

void json_header(Json& j, const ObjectHeader& h) {
    j.key("header").begin_object();
    j.key("unknown_floats").begin_array();
    for (auto f : h.unknown) j.value(double(f.value()));
    j.end_array().key("matrix").begin_array();
    for (auto f : h.matrix) j.value(double(f.value()));
    j.end_array().field("junk", mod::to_hex(h.junk)).field("item_type", unsigned(h.item_type))
        .field("item_type_name", item_type_name(h.item_type)).field("item_subtype", unsigned(h.item_subtype)).end_object();
}

// The text twin of json_header: which record, and its common header.
void print_heading(const Loaded& l, std::size_t index, const char* kind, const Record& rec, const ObjectHeader& h) {
    std::printf("record %zu: %s %s (%zu bytes)\n", index, kind, l.names.display(rec.name_id).c_str(), rec.payload.size());
    std::printf("header: item type %u (%s), subtype %u\n", h.item_type, item_type_name(h.item_type), h.item_subtype);
}

void show_skin(const Loaded& l, std::size_t index, const Global& g) {
    const Record& rec = l.archive.records[index];
    SkinDecodeInfo info;
    Skin s = decode_skin(payload_reader(l.reader(), l.archive, index), &info);
    const auto extents = mesh_extents(l.reader(), l.archive, g.threads);
    auto findings = check_skin(s, [&](std::int32_t id) -> std::optional<MeshExtent> {
        auto it = extents.find(id);
        return it == extents.end() ? std::nullopt : std::optional<MeshExtent>(it->second);
    }, target_types(l.archive));
    if (info.ambiguous) findings.push_back({Finding::Level::mismatch, "skin.zero2", info.reason});
    const bool exact = encode_skin(s, l.archive.endian) == rec.payload;
    if (g.json) {
        Json j;
        j.begin_object().field("index", std::uint64_t(index)).field("kind", "SKIN")
            .field("name", l.names.display(rec.name_id)).field("bytes", std::uint64_t(rec.payload.size()));
        json_header(j, s.header);
        j.key("meshes").begin_array();
        for (auto id : s.mesh_ids) {
            j.begin_object().field("id", id).field("name", l.names.display(id));
            auto it = extents.find(id);
            j.field("is_mesh", it != extents.end());
            if (it != extents.end()) j.field("positions", it->second.positions).field("normals", it->second.normals);
            j.end_object();
        }
        j.end_array().field("zero", s.zero).key("sections").begin_array();
        for (const auto& sec : s.sections) {
            j.begin_object().field("group_id", sec.group_id).field("group", l.names.display(sec.group_id))
                .field("named", l.names.contains(sec.group_id)).key("subsections").begin_array();
            for (const auto& sub : sec.subsections) {
                j.begin_object().field("mesh_index", unsigned(sub.mesh_index));
                for (auto [key, list] : {std::pair{"vertices", &sub.vertices}, std::pair{"normals", &sub.normals}}) {
                    j.key(key).begin_array();
                    for (const auto& w : *list) j.begin_array().value(w.id).value(double(w.weight.value())).end_array();
                    j.end_array();
                }
                j.end_object();
            }
            j.end_array().end_object();
        }
        j.end_array().field("has_anims", unsigned(s.has_anims)).key("anims").begin_array();
        for (const auto& a : s.anims)
            j.begin_object().field("symbol", a.symbol).field("anim_id", a.anim_id).field("anim", l.names.display(a.anim_id)).end_object();
        j.end_array().field("zero2_reading", to_string(s.reading)).field("zero2_reason", info.reason)
            .field("zero2_ambiguous", info.ambiguous);
        if (s.reading == Zero2Reading::seed) j.field("zero2", s.zero2);
        j.key("unknown_entries").begin_array();
        for (const auto& u : s.unknown) {
            j.begin_object().key("vertices").begin_array();
            for (auto v : u.vertices) j.value(v);
            j.end_array().key("normals").begin_array();
            for (auto v : u.normals) j.value(v);
            j.end_array().end_object();
        }
        j.end_array().field("round_trip", exact);
        json_findings(j, findings);
        j.end_object();
        return;
    }
    print_heading(l, index, "SKIN", rec, s.header);
    std::printf("meshes: %zu\n", s.mesh_ids.size());
    for (std::size_t m = 0; m < s.mesh_ids.size(); ++m) {
        auto it = extents.find(s.mesh_ids[m]);
        std::printf("  [%zu] %s", m, l.names.display(s.mesh_ids[m]).c_str());
        if (it != extents.end()) std::printf(" (MESH: %u positions, %u normals)\n", it->second.positions, it->second.normals);
        else std::printf(" (not a MESH in this archive)\n");
    }
    std::printf("sections (vertex groups): %zu\n", s.sections.size());
    for (std::size_t i = 0; i < s.sections.size(); ++i) {
        const auto& sec = s.sections[i];
        std::printf("  [%zu] %s:", i, l.names.display(sec.group_id).c_str());
        for (const auto& sub : sec.subsections)
            std::printf(" mesh %u: %zu vertices, %zu normals;", sub.mesh_index, sub.vertices.size(), sub.normals.size());
        std::printf("\n");
    }
    if (s.has_anims) {
        std::printf("animation block: %zu entries; zero2 reading: %s (%s)%s\n", s.anims.size(), to_string(s.reading),
                    info.reason.c_str(), s.reading == Zero2Reading::seed ? (", zero2 = " + mod::hex(s.zero2)).c_str() : "");
        for (const auto& a : s.anims) std::printf("  symbol %u -> %s\n", a.symbol, l.names.display(a.anim_id).c_str());
    } else {
        std::printf("animation block: none\n");
    }
    std::printf("unknown entries: %zu\n", s.unknown.size());
    std::printf("round trip: %s\n", exact ? "byte-exact" : "DIFFERS");
    print_findings(findings);
}

void show_mesh(const Loaded& l, std::size_t index, const Global& g) {
    const Record& rec = l.archive.records[index];
    Mesh m = decode_mesh(payload_reader(l.reader(), l.archive, index));
    auto findings = check_mesh(m);
    std::optional<std::size_t> triangles;
    std::string tri_error;
    try {
        triangles = build_triangles(m).size();
    } catch (const mod::Error& e) {
        tri_error = e.what();
    }
    const bool exact = encode_mesh(m, l.archive.endian) == rec.payload;
    if (g.json) {
        Json j;
        j.begin_object().field("index", std::uint64_t(index)).field("kind", "MESH")
            .field("name", l.names.display(rec.name_id)).field("bytes", std::uint64_t(rec.payload.size()));
        json_header(j, m.header);
        j.field("positions", std::uint64_t(m.positions.size())).field("texcoords", std::uint64_t(m.texcoords.size()))
            .field("normals", std::uint64_t(m.normals.size())).field("strips", std::uint64_t(m.strips.size()))
            .field("strip_groups", m.strip_groups.has_value()).field("corner_lists", std::uint64_t(m.strip_corners.size()))
            .field("spheres", std::uint64_t(m.spheres.size())).field("cuboids", std::uint64_t(m.cuboids.size()))
            .field("cylinders", std::uint64_t(m.cylinders.size())).field("unknown_shape_count", m.unknown_shape_count)
            .field("strip_order", std::uint64_t(m.strip_order.size()));
        j.key("materials").begin_array();
        for (auto id : m.materials) j.value(l.names.display(id));
        j.end_array();
        if (triangles) j.field("triangles", std::uint64_t(*triangles));
        else j.field("triangles_error", tri_error);
        j.field("round_trip", exact);
        json_findings(j, findings);
        j.end_object();
        return;
    }
    print_heading(l, index, "MESH", rec, m.header);
    std::printf("positions %zu, texcoords %zu, normals %zu, strips %zu (%s strip groups, %zu corner lists)\n",
                m.positions.size(), m.texcoords.size(), m.normals.size(), m.strips.size(),
                m.strip_groups ? "with" : "no", m.strip_corners.size());
    std::printf("materials:");
    for (auto id : m.materials) std::printf(" %s", l.names.display(id).c_str());
    std::printf("\ncollision: %zu spheres, %zu cuboids, %zu cylinders; strip order %zu entries\n", m.spheres.size(),
                m.cuboids.size(), m.cylinders.size(), m.strip_order.size());
    if (triangles) std::printf("triangles: %zu\n", *triangles);
    else std::printf("triangles: cannot be built: %s\n", tri_error.c_str());
    std::printf("round trip: %s\n", exact ? "byte-exact" : "DIFFERS");
    print_findings(findings);
}

int totem_show(const po::variables_map& vm, const Global& g) {
    Loaded l = load(vm, false);
    const std::size_t index = find_named(l, required(vm, "record"));
    const Record& rec = l.archive.records[index];
    switch (record_kind(rec)) {
    case RecordKind::skin: show_skin(l, index, g); break;
    case RecordKind::mesh: show_mesh(l, index, g); break;
    case RecordKind::opaque:
        if (rec.type_id == name_id("NODE") || rec.type_id == name_id("LOD")) {
            show_character_tree(l.reader(), l.archive, l.names, index, g);  // cmd_totem_replace.cpp
            break;
        }
        if (g.json) {
            Json j;
            j.begin_object().field("index", std::uint64_t(index)).field("kind", "opaque").field("type", type_of(l, rec))
                .field("name", l.names.display(rec.name_id)).field("bytes", std::uint64_t(rec.payload.size()))
                .field("crc32", mod::hex(mod::crc32(rec.payload), 8)).end_object();
        } else {
            std::printf("record %zu: %s %s (%zu bytes, CRC-32 %s), kept opaque\n", index, type_of(l, rec).c_str(),
                        l.names.display(rec.name_id).c_str(), rec.payload.size(), mod::hex(mod::crc32(rec.payload), 8).c_str());
        }
        break;
    }
    return 0;
}

// ---- verify --------------------------------------------------------------------------------

int totem_verify(const po::variables_map& vm, const Global& g) {
    Loaded l = load(vm, false);
    auto verdicts = verify_archive(l.reader(), l.archive, g.threads);
    const bool archive_exact = encode_archive(l.archive) == l.data;
    std::size_t bad = archive_exact ? 0 : 1, mismatches = 0;
    if (!archive_exact) report_failure(l.data_path.string() + ": the archive does not re-encode to the same bytes");
    for (const auto& v : verdicts) {
        if (!v.decoded || !v.round_trip) ++bad;
        const std::string record = "record " + std::to_string(v.index) + " '" +
                                   l.names.display(l.archive.records[v.index].name_id) + "'";
        if (!v.decoded) report_failure(v.error + " (" + record + ")");
        else if (!v.round_trip)
            report_failure(l.data_path.string() + ": " + record + ": decodes but does not re-encode to the same bytes");
        for (const auto& f : v.findings) mismatches += f.level == Finding::Level::mismatch;
    }
    // Strip material indices by item subtype: the figure that tells Chum World's rule
    // (index % n) and noclip's (subtype 4: minus the smallest index) apart on real data.
    std::map<std::uint16_t, StripIndexCensus> census;
    for (const auto& v : verdicts)
        if (v.kind == RecordKind::mesh && v.decoded) census[v.mesh_subtype] += v.strip_census;
    if (g.json) {
        Json j;
        j.begin_object().field("file", l.data_path.string()).field("platform", l.platform_text())
            .field("byte_order", mod::to_string(l.archive.endian)).field("archive_round_trip", archive_exact)
            .key("records").begin_array();
        for (const auto& v : verdicts) {
            const Record& r = l.archive.records[v.index];
            j.begin_object().field("index", std::uint64_t(v.index)).field("kind", to_string(v.kind))
                .field("name", l.names.display(r.name_id)).field("decoded", v.decoded).field("round_trip", v.round_trip);
            if (!v.error.empty()) j.field("error", v.error);
            if (v.kind == RecordKind::skin && v.decoded)
                j.field("zero2_reading", to_string(v.reading)).field("zero2_ambiguous", v.ambiguous);
            json_findings(j, v.findings);
            j.end_object();
        }
        j.end_array().key("strip_material_indices").begin_array();
        for (const auto& [subtype, c] : census)
            j.begin_object().field("item_subtype", unsigned(subtype)).field("meshes", std::uint64_t(c.meshes))
                .field("strips", std::uint64_t(c.strips)).field("strips_past_list", std::uint64_t(c.strips_past_list))
                .field("meshes_past_list", std::uint64_t(c.meshes_past_list))
                .field("strips_rules_differ", std::uint64_t(c.strips_rules_differ))
                .field("meshes_rules_differ", std::uint64_t(c.meshes_rules_differ)).end_object();
        j.end_array().field("failures", std::uint64_t(bad)).field("mismatches", std::uint64_t(mismatches)).end_object();
    } else {
        std::printf("%s: %s-endian, archive round trip %s\n", l.data_path.c_str(), mod::to_string(l.archive.endian),
                    archive_exact ? "byte-exact" : "DIFFERS");
        for (const auto& v : verdicts) {
            const Record& r = l.archive.records[v.index];
            std::printf("%5zu %-5s %-50s ", v.index, to_string(v.kind), l.names.display(r.name_id).c_str());
            if (!v.decoded) std::printf("FAILED: %s\n", v.error.c_str());
            else {
                std::printf("round trip %s", v.round_trip ? "ok" : "DIFFERS");
                if (v.kind == RecordKind::skin) std::printf(", zero2 reading %s%s", to_string(v.reading), v.ambiguous ? " (ambiguous)" : "");
                std::printf("\n");
            }
            for (const auto& f : v.findings)
                std::printf("      %s: %s: %s\n", level_text(f.level), f.path.c_str(), f.message.c_str());
        }
        for (const auto& [subtype, c] : census)
            std::printf("strip material indices, MESH subtype %u: %zu MESHes, %zu strips, %zu past the material list "
                        "(in %zu MESHes), %zu where Chum World's and noclip's rules differ (in %zu MESHes)\n",
                        unsigned(subtype), c.meshes, c.strips, c.strips_past_list, c.meshes_past_list,
                        c.strips_rules_differ, c.meshes_rules_differ);
        std::printf("%zu failures, %zu mismatches with the documented facts\n", bad, mismatches);
    }
    return bad ? 2 : 0;
}

// ---- export / reweight -----------------------------------------------------------------------

std::size_t find_skin(const Loaded& l, const std::string& what) {
    const std::size_t index = find_named(l, what);
    if (record_kind(l.archive.records[index]) != RecordKind::skin)
        usage_error("record '" + what + "' is a " + type_of(l, l.archive.records[index]) + ", not a SKIN");
    return index;
}

// The scene of a SKIN and the MESH records it names (what export and preview show).
mod::scene::Scene skin_scene(const Loaded& l, std::size_t index, SkinExportReport& report) {
    Skin skin = decode_skin(payload_reader(l.reader(), l.archive, index));
    std::vector<std::pair<std::int32_t, Mesh>> meshes;
    for (auto id : skin.mesh_ids) {
        auto rec = find_record(l.archive, id);
        if (rec && record_kind(l.archive.records[*rec]) == RecordKind::mesh)
            meshes.emplace_back(id, decode_mesh(payload_reader(l.reader(), l.archive, *rec)));
    }
    return skin_to_scene(skin, meshes, l.names, &report);
}

int totem_export(const po::variables_map& vm, const Global& g) {
    Loaded l = load(vm, true);
    const std::size_t index = find_skin(l, required(vm, "skin"));
    fs::path out = required(vm, "out");
    SkinExportReport report;
    mod::scene::Scene scene = skin_scene(l, index, report);
    // What skin_to_scene says (unweighted positions, strip material indices past the list);
    // the bind-pose note is printed with the summary below.
    for (const auto& w : scene.warnings)
        if (w != synthetic_bind_pose_note) warn(w);
    // Textures and material colours (libmod/totem/texture_scene.hpp).
    for (const auto& w : attach_materials(scene, l.reader(), l.archive, l.names, bitmap_layout(l.platform, l.archive.endian)))
        warn(w);
    std::vector<fs::path> inputs = {l.data_path, l.names_path};
    mod::scene::export_file(scene, out, inputs);
    for (const auto& t : report.skipped_targets) warn("target " + t + " is not a MESH in this archive: not exported");
    if (g.json) {
        Json j;
        j.begin_object().field("output", out.string()).field("joints", std::uint64_t(report.joints))
            .field("meshes", std::uint64_t(scene.meshes.size())).field("vertices", std::uint64_t(report.vertices))
            .field("triangles", std::uint64_t(report.triangles)).field("bind_pose", synthetic_bind_pose_note)
            .key("skipped_targets").begin_array();
        for (const auto& t : report.skipped_targets) j.value(t);
        j.end_array().end_object();
    } else {
        std::printf("%s: %zu joints, %zu meshes, %zu vertices, %zu triangles\nnote: %s\n", out.c_str(), report.joints,
                    scene.meshes.size(), report.vertices, report.triangles, synthetic_bind_pose_note);
    }
    return 0;
}

int totem_preview(const po::variables_map& vm, const Global& g) {
    Loaded l = load(vm, true);
    const std::size_t index = find_skin(l, required(vm, "skin"));
    const fs::path out = required(vm, "out");
    SkinExportReport report;
    mod::scene::Scene scene = skin_scene(l, index, report);
    for (const auto& t : report.skipped_targets) warn("target " + t + " is not a MESH in this archive: not drawn");
    // Drawn with their textures and colours, as export writes them (--untextured: without).
    if (!vm["untextured"].as<bool>())
        for (const auto& w : attach_materials(scene, l.reader(), l.archive, l.names, bitmap_layout(l.platform, l.archive.endian)))
            warn(w);
    const std::vector<fs::path> inputs = {l.data_path, l.names_path};
    return write_preview(scene, out, inputs, vm, g);
}

int totem_reweight(const po::variables_map& vm, const Global& g) {
    Loaded l = load(vm, true);
    const std::size_t index = find_skin(l, required(vm, "skin"));
    fs::path model = required(vm, "model"), out = required(vm, "out");
    std::optional<std::int32_t> only;
    if (vm.count("mesh")) {
        // The name as typed in the error, not only its hash.
        const std::string typed = vm["mesh"].as<std::string>();
        only = id_from_text(l.names, typed);
        const Skin skin = decode_skin(payload_reader(l.reader(), l.archive, index));
        if (std::find(skin.mesh_ids.begin(), skin.mesh_ids.end(), *only) == skin.mesh_ids.end()) {
            std::string listed;
            for (auto t : skin.mesh_ids) listed += (listed.empty() ? "" : ", ") + l.names.display(t);
            usage_error("--mesh '" + typed + "' (" + hash_text(*only) + ") is not a target of SKIN " +
                        required(vm, "skin") + " (targets: " + (listed.empty() ? "none" : listed) + ")");
        }
    }
    ReweightOptions options;
    options.tolerance = vm["tolerance"].as<float>();
    options.no_match_hint = "raise --tolerance, or bring the model to the MESH's unit and axes with --units metres, "
                            "--scale S or --axis (e.g. zup-to-yup)";
    mod::scene::ImportOptions import;
    import.scale = vm["scale"].as<float>();
    import.axes = mod::scene::parse_axis_map(vm["axis"].as<std::string>());
    const std::string units = vm["units"].as<std::string>();
    if (units == "file") import.units = mod::scene::Units::file;
    else if (units == "metres" || units == "meters") import.units = mod::scene::Units::metres;
    else usage_error("--units must be file or metres");
    mod::ensure_distinct_output(out, std::vector<fs::path>{l.data_path, l.names_path, model});
    auto scene = mod::scene::import_file(model, import);
    ArchiveReweightReport report;
    mod::Bytes payload = reweight_skin_record(l.reader(), l.archive, index, l.names, scene, only, options, &report);
    auto items = items_of(l.archive);
    items[index].record.payload = payload;
    RepackReport packed_report;
    Archive packed = repack(l.archive, std::move(items), &packed_report);
    std::vector<fs::path> inputs = {l.data_path, l.names_path, model};
    mod::write_file_atomic(out, encode_archive(packed), inputs);
    if (packed_report.chunk_size_grew())
        warn("chunk size grew from " + mod::hex(packed_report.old_chunk_size) + " to " + mod::hex(packed_report.new_chunk_size));
    std::size_t mismatches = 0;
    for (const auto& [name, r] : report.meshes) {
        for (const auto& f : r.findings) mismatches += f.level == Finding::Level::mismatch;
        if (auto w = partial_match_warning(r); !w.empty()) warn("MESH " + name + ": " + w + " (--tolerance, --units, --scale, --axis)");
    }
    if (g.json) {
        Json j;
        j.begin_object().field("output", out.string()).field("source", model.string())
            .field("tolerance", double(options.tolerance)).key("meshes").begin_array();
        for (const auto& [name, r] : report.meshes) {
            j.begin_object().field("mesh", name).field("positions", std::uint64_t(r.mesh_positions))
                .field("matched", std::uint64_t(r.matched)).field("conflicting", std::uint64_t(r.conflicting))
                .field("normals_rewritten", std::uint64_t(r.normals_rewritten)).field("normals_kept", std::uint64_t(r.normals_kept))
                .field("normalised", std::uint64_t(r.normalised)).field("unchanged", std::uint64_t(r.unchanged))
                .key("unmatched").begin_array();
            for (auto v : r.unmatched) j.value(v);
            j.end_array().key("unknown_groups").begin_array();
            for (const auto& s : r.unknown_groups) j.value(s);
            j.end_array().key("groups_without_subsection").begin_array();
            for (const auto& s : r.groups_without_subsection) j.value(s);
            j.end_array();
            json_findings(j, r.findings);
            j.end_object();
        }
        j.end_array().key("skipped_targets").begin_array();
        for (const auto& t : report.skipped_targets) j.value(t);
        j.end_array().field("chunk_size_grew", packed_report.chunk_size_grew()).end_object();
    } else {
        for (const auto& [name, r] : report.meshes) {
            std::printf("%s: %zu of %zu positions matched, %zu unmatched, %zu conflicting; normals %zu rewritten, %zu kept\n",
                        name.c_str(), r.matched, r.mesh_positions, r.unmatched.size(), r.conflicting, r.normals_rewritten,
                        r.normals_kept);
            if (r.normalised)
                std::printf("  %zu matched positions' weights rescaled to sum 1 over the groups the SKIN stores\n", r.normalised);
            if (!r.unmatched.empty()) {
                std::printf("  unmatched positions (weights kept):");
                for (std::size_t i = 0; i < r.unmatched.size() && i < 32; ++i) std::printf(" %u", r.unmatched[i]);
                std::printf(r.unmatched.size() > 32 ? " ...\n" : "\n");
            }
            for (const auto& s : r.unknown_groups) std::printf("  source group %s is not a section of the SKIN: its weights are dropped\n", s.c_str());
            for (const auto& s : r.groups_without_subsection)
                std::printf("  group %s has no subsection for this mesh: its weights are dropped\n", s.c_str());
            for (const auto& f : r.findings) std::printf("  %s: %s: %s\n", level_text(f.level), f.path.c_str(), f.message.c_str());
        }
        for (const auto& t : report.skipped_targets) std::printf("target %s is not a MESH here: not reweighted\n", t.c_str());
        std::printf("wrote %s (%zu mismatches with the documented invariants)\n", out.c_str(), mismatches);
    }
    return 0;
}

const Registrar totem_group({"totem", "TotemTech archives (.DGC/.NGC, .DPS/.NPS, .DPC/.NPC), SKIN and MESH", {
    {"list", "DATA [NAMES] [--platform P] [--json]", "list the records with their chunk, type, name and subtype",
     [](auto& o, auto& p) { declare_data(o, p); }, totem_list},
    {"extract", "DATA NAMES OUT_DIR [--type TYPE]", "write one file per record plus index.json",
     [](auto& o, auto& p) {
         declare_data(o, p);
         o.add_options()("out", po::value<std::string>(), "output folder")
                        ("type", po::value<std::string>(), "only records of this type (no index is written)");
         p.add("out", 1);
     },
     totem_extract},
    {"repack", "DATA NAMES DIR OUT [--names-out NAMES_OUT]",
     "rebuild the archive from an extract folder (edited files, removed or added index entries)",
     [](auto& o, auto& p) {
         declare_data(o, p);
         o.add_options()("dir", po::value<std::string>(), "extract folder holding index.json")
                        ("out", po::value<std::string>(), "output archive")
                        ("names-out", po::value<std::string>(), "output name table (needed when names were added)");
         p.add("dir", 1).add("out", 1);
     },
     totem_repack},
    {"show", "DATA NAMES RECORD [--json]", "decode one record (name, 0xHASH or #index): SKIN, MESH or opaque",
     [](auto& o, auto& p) {
         declare_data(o, p);
         o.add_options()("record", po::value<std::string>(), "record name, 0xHASH, decimal ID or #index");
         p.add("record", 1);
     },
     totem_show},
    {"verify", "DATA [NAMES] [--json]",
     "decode, check and round-trip every SKIN and MESH; report each SKIN's zero2 reading (exit 2 on failure)",
     [](auto& o, auto& p) { declare_data(o, p); }, totem_verify},
    {"export", "DATA NAMES SKIN OUT.glb|.gltf|.fbx",
     "export a SKIN's meshes with per-vertex weights and joints named from the table (synthetic bind pose; "
     ".fbx is ASCII FBX, which Blender cannot import: Blender users take .glb)",
     [](auto& o, auto& p) {
         declare_data(o, p);
         o.add_options()("skin", po::value<std::string>(), "SKIN record (name, 0xHASH or #index)")
                        ("out", po::value<std::string>(), "output model");
         p.add("skin", 1).add("out", 1);
     },
     totem_export},
    {"preview", "DATA NAMES SKIN OUT.png [--view front|side|top] [--size N] [--untextured]",
     "a PNG picture of a SKIN's meshes (synthetic bind pose, shaded; front and side without --view)",
     [](auto& o, auto& p) {
         declare_data(o, p);
         o.add_options()("skin", po::value<std::string>(), "SKIN record (name, 0xHASH or #index)")
                        ("out", po::value<std::string>(), "output PNG");
         declare_preview_options(o);
         p.add("skin", 1).add("out", 1);
     },
     totem_preview},
    {"reweight", "DATA NAMES SKIN MODEL OUT [--mesh NAME] [--tolerance T] [--units metres|file] [--scale S] [--axis A]",
     "rewrite a SKIN's weights from an FBX/glTF whose positions match the MESHes (group ids, order, unknown fields kept)",
     [](auto& o, auto& p) {
         declare_data(o, p);
         o.add_options()("skin", po::value<std::string>(), "SKIN record (name, 0xHASH or #index)")
                        ("model", po::value<std::string>(), "FBX/glTF/GLB with the new weights")
                        ("out", po::value<std::string>(), "output archive")
                        ("mesh", po::value<std::string>(), "only this MESH target")
                        ("tolerance", number<float>()->default_value(1e-4f), "position match distance")
                        ("units", po::value<std::string>()->default_value("metres"),
                         "metres (convert the unit the model file declares: FBX centimetres become metres) or file "
                         "(keep its numbers)")
                        ("scale", number<float>()->default_value(1.0f), "uniform scale applied to the model after --units")
                        ("axis", po::value<std::string>()->default_value("identity"),
                         "axis conversion of the model: identity, zup-to-yup, yup-to-zup or three signed axes (x,z,-y)");
         p.add("skin", 1).add("model", 1).add("out", 1);
     },
     totem_reweight},
}});

}  // namespace
}  // namespace modkit
