// TotemTech operations: skin.reweight, mesh.replace, record.replace, record.add, record.remove. Each is a
// thin call into libmod/totem (reweight_skin_record, the repacker, the name table); the archive
// in the workspace is the file's own bytes, and every apply re-encodes it (records may move
// between chunks, so every edit shares the whole file).
#include "ops_totem_common.hpp"

#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/scene/scale_check.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/mesh.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/node.hpp"
#include "libmod/totem/repack.hpp"
#include "libmod/totem/replace.hpp"
#include "libmod/totem/scene_bridge.hpp"
#include "libmod/totem/skin.hpp"
#include "libmod/totem/verify.hpp"

#include <algorithm>
#include <set>

namespace mod::manifest::detail {

using namespace mod::totem;

std::optional<Platform> totem_platform(const EditEnv& env) {
    if (env.target.platform) {  // schema: gamecube, ps2 or pc
        const std::string& p = *env.target.platform;
        return p == "gamecube" ? Platform::gamecube : p == "ps2" ? Platform::ps2 : Platform::pc;
    }
    return platform_from_path(env.target.path);
}

Archive decode_totem_archive(const EditEnv& env, const Bytes& bytes) {
    try {
        const ByteOrderDetection order = detect_byte_order(bytes, totem_platform(env));
        return decode_archive(ByteReader(bytes, order.endian, env.target.display, "dgc"));
    } catch (Error& e) {
        e.set_file_if_empty(env.target.display);
        throw;
    }
}

NameTable totem_names(const EditEnv& env) {
    if (!env.names) return {};
    return NameTable::parse(ByteReader(env.names->current, Endian::big, env.names->display, "names"));
}

namespace {

// A reader over the target's current bytes (payload_reader needs the whole file).
ByteReader dgc_reader(const EditEnv& env, const Archive& a) {
    return ByteReader(env.target.current, a.endian, env.target.display, "dgc");
}

std::string label_of(const NameTable& names, std::int32_t id) { return names.display(id); }
std::string record_region(const std::string& label) { return "record[" + label + "]"; }

std::string describe(const NameTable& names, const Archive& a, std::size_t i) {
    const Record& r = a.records[i];
    return names.display(r.type_id) + " " + names.display(r.name_id) + " (#" + std::to_string(i) + ", " +
           std::to_string(r.payload.size()) + " bytes)";
}

[[noreturn]] void fail_missing(const EditEnv& env, const char* field, const std::string& text, const Archive& a,
                               const NameTable& names) {
    if (text.size() > 1 && text[0] == '#')
        env.fail(field, "no record " + text + " (the archive has " + std::to_string(a.records.size()) +
                            " records, numbered from 0)");
    std::string msg = "no record named '" + text + "' (" + hash_text(id_from_text(names, text)) + ") in " +
                      env.target.display;
    std::vector<std::string> candidates;
    for (const auto& r : a.records)
        if (auto n = names.find(r.name_id)) candidates.emplace_back(*n);
    if (auto m = closest_match(text, candidates); !m.empty()) msg += "; did you mean '" + m + "'?";
    else if (!env.names) msg += " (the manifest gives no name table: name it by 0xHASH or #index)";
    env.fail(field, msg);
}

// The record `field` names in `a` (the current archive). "#index" counts records in the base
// file, as its author saw them; since earlier edits may have moved or removed records, it is
// resolved there and followed to the current archive by name ID.
std::size_t locate(const EditEnv& env, const char* field, const Archive& a, const NameTable& names) {
    const std::string text = env.text(field);
    if (text.size() > 1 && text[0] == '#' && env.target.current != env.target.original) {
        const Archive base = decode_totem_archive(env, env.target.original);
        const auto first = find_record_by_text(base, names, text);
        if (!first) fail_missing(env, field, text, base, names);
        const std::int32_t id = base.records[*first].name_id;
        std::size_t nth = 0;
        for (std::size_t i = 0; i < *first; ++i) nth += base.records[i].name_id == id;
        for (std::size_t i = 0; i < a.records.size(); ++i)
            if (a.records[i].name_id == id && nth-- == 0) return i;
        env.fail(field, "record " + text + " (" + names.display(id) + ") is no longer in the archive: an earlier edit removed it",
                 ErrorKind::conflict);
    }
    if (auto i = find_record_by_text(a, names, text)) return *i;
    fail_missing(env, field, text, a, names);
}

void add_archive_touches(const EditEnv& env, PlannedEdit& out) {
    out.touches.push_back(touch(env.target, "bytes", 0, to_end, false, "the archive (repacked: records may move)"));
    out.limits.push_back("a record never crosses a chunk: a changed record that no longer fits its chunk moves; the chunk "
                         "size grows (to a multiple of 0x800) only when a record fits no empty chunk");
    out.limits.push_back("records (16-byte header included) of at most 4 GiB");
}

void report_repack(ReportOut& r, const RepackReport& rep, const Archive& packed) {
    rapidjson::Value o(rapidjson::kObjectType), notes(rapidjson::kArrayType);
    o.AddMember("old_chunk_size", rep.old_chunk_size, r.a).AddMember("new_chunk_size", rep.new_chunk_size, r.a)
        .AddMember("chunk_size_grew", rep.chunk_size_grew(), r.a)
        .AddMember("unchanged", std::uint64_t(rep.unchanged), r.a)
        .AddMember("changed_in_place", std::uint64_t(rep.changed_in_place), r.a)
        .AddMember("moved", std::uint64_t(rep.moved), r.a).AddMember("added", std::uint64_t(rep.added), r.a)
        .AddMember("removed", std::uint64_t(rep.removed), r.a)
        .AddMember("chunks", std::uint64_t(packed.chunks.size()), r.a)
        .AddMember("chunks_rewritten", std::uint64_t(rep.chunks_rewritten), r.a);
    for (const auto& n : rep.notes) notes.PushBack(r.str(n), r.a);
    o.AddMember("notes", notes, r.a);
    r.set("repack", std::move(o));
    if (rep.chunk_size_grew())
        r.warn("chunk size grew from " + hex(rep.old_chunk_size) + " to " + hex(rep.new_chunk_size) +
               ": a record no longer fits the old chunk size");
}

// Repacks `items` over `a` and makes the result the target's bytes.
void commit(EditEnv& env, const Archive& a, std::vector<RepackItem> items, ReportOut& r) {
    RepackReport rep;
    const Archive packed = repack(a, std::move(items), &rep);
    env.target.current = encode_archive(packed);
    report_repack(r, rep, packed);
}

// A replacement payload for a SKIN or MESH that our decoder cannot read is kept (opaque records
// are not checked either), but said.
void check_payload(const EditEnv& env, ReportOut& r, const Record& rec, const Bytes& payload, Endian endian,
                   const std::string& label) {
    const RecordKind kind = record_kind(rec);
    if (kind == RecordKind::opaque) return;
    try {
        const ByteReader p(payload, endian, env.text("file"), "payload");
        if (kind == RecordKind::skin) decode_skin(p);
        else decode_mesh(p);
    } catch (const Error& e) {
        r.warn(label + ": the new payload does not decode as a " + to_string(kind) + " (" + e.what() +
               "); written as given");
    }
}

rapidjson::Value record_json(ReportOut& r, const NameTable& names, const Record& rec) {
    rapidjson::Value o(rapidjson::kObjectType);
    o.AddMember("type", r.str(names.display(rec.type_id)), r.a).AddMember("name", r.str(names.display(rec.name_id)), r.a)
        .AddMember("subtype", r.str(names.display(rec.subtype_id)), r.a)
        .AddMember("bytes", std::uint64_t(rec.payload.size()), r.a);
    return o;
}

// ---- skin.reweight -----------------------------------------------------------------------------

std::size_t skin_of(const EditEnv& env, const Archive& a, const NameTable& names) {
    const std::size_t index = locate(env, "skin", a, names);
    if (record_kind(a.records[index]) != RecordKind::skin)
        env.fail("skin", "record '" + env.text("skin") + "' is a " + names.display(a.records[index].type_id) + ", not a SKIN");
    return index;
}

std::optional<std::int32_t> only_mesh(const EditEnv& env, const NameTable& names, const Skin& skin) {
    if (!env.has("mesh")) return std::nullopt;
    const std::int32_t id = id_from_text(names, env.text("mesh"));
    if (std::find(skin.mesh_ids.begin(), skin.mesh_ids.end(), id) == skin.mesh_ids.end()) {
        std::string targets;
        for (auto t : skin.mesh_ids) targets += (targets.empty() ? "" : ", ") + names.display(t);
        env.fail("mesh", "'" + env.text("mesh") + "' (" + hash_text(id) + ") is not a target of SKIN " + env.text("skin") +
                             " (targets: " + (targets.empty() ? "none" : targets) + ")");
    }
    return id;
}

ReweightOptions reweight_options(const EditEnv& env) {
    ReweightOptions o;
    o.tolerance = static_cast<float>(env.number("tolerance", 1e-4));
    o.no_match_hint = "raise \"tolerance\", or bring the model to the MESH's unit and axes with \"units\": \"metres\", "
                      "\"scale\" or \"axis\"";
    return o;
}

// How the model is read: the same fields as mesh.replace's "units", "scale" and "axis".
scene::ImportOptions model_import_options(const EditEnv& env) {
    scene::ImportOptions o;
    o.scale = static_cast<float>(env.number("scale", 1.0));
    try {
        o.axes = scene::parse_axis_map(env.text("axis", "identity"));
    } catch (const ManifestError&) {
        throw;
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::usage) throw;
        env.fail("axis", e.message());
    }
    o.units = env.text("units", "metres") == "file" ? scene::Units::file : scene::Units::metres;  // schema: file, metres, meters
    return o;
}

void plan_skin_reweight(const EditEnv& env, PlannedEdit& out) {
    const Archive a = decode_totem_archive(env, env.target.current);
    const NameTable names = totem_names(env);
    const std::size_t index = skin_of(env, a, names);
    const Skin skin = decode_skin(payload_reader(dgc_reader(env, a), a, index));
    const auto only = only_mesh(env, names, skin);
    model_import_options(env);  // a bad "axis" is found when planning
    const std::string label = label_of(names, a.records[index].name_id);
    out.touches.push_back(touch(env.target, record_region(label), 0, to_end, true, "the weights of SKIN " + label));
    std::size_t targets = 0;
    for (auto id : skin.mesh_ids) {
        if (only && id != *only) continue;
        const auto m = find_record(a, id);
        if (!m || record_kind(a.records[*m]) != RecordKind::mesh) continue;
        ++targets;
        out.touches.push_back(touch(env.target, record_region(label_of(names, id)), 0, to_end, false,
                                    "read: its positions are matched against the model"));
    }
    add_archive_touches(env, out);
    out.limits.push_back("source vertices match MESH positions within " + std::to_string(reweight_options(env).tolerance) +
                         " (unmatched positions keep their weights)");
    out.limits.push_back("group ids, section and subsection order, mesh ids and unknown entries are kept");
    out.summary = "reweight SKIN " + label + " (" + std::to_string(targets) + " MESH target(s)) from " + env.text("model");
}

void apply_skin_reweight(EditEnv& env, ReportOut& r) {
    const Archive a = decode_totem_archive(env, env.target.current);
    const NameTable names = totem_names(env);
    const std::size_t index = skin_of(env, a, names);
    const ByteReader dgc = dgc_reader(env, a);
    const auto only = only_mesh(env, names, decode_skin(payload_reader(dgc, a, index)));
    const ReweightOptions options = reweight_options(env);
    const std::string label = label_of(names, a.records[index].name_id);
    scene::Scene model;
    try {
        model = scene::import_file(env.path("model"), model_import_options(env));
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::io) throw;
        env.fail("model", e.what(), e.kind());
    }
    ArchiveReweightReport report;
    Bytes payload = reweight_skin_record(dgc, a, index, names, model, only, options, &report);
    auto items = items_of(a);
    items[index].record.payload = std::move(payload);

    r.set("skin", label).set("model", env.text("model")).set("tolerance", env.number("tolerance", 1e-4));
    rapidjson::Value meshes(rapidjson::kArrayType);
    for (const auto& [name, m] : report.meshes) {
        rapidjson::Value o(rapidjson::kObjectType), unmatched(rapidjson::kArrayType), unknown(rapidjson::kArrayType),
            without(rapidjson::kArrayType), findings(rapidjson::kArrayType);
        o.AddMember("mesh", r.str(name), r.a).AddMember("positions", std::uint64_t(m.mesh_positions), r.a)
            .AddMember("matched", std::uint64_t(m.matched), r.a).AddMember("conflicting", std::uint64_t(m.conflicting), r.a)
            .AddMember("normals_rewritten", std::uint64_t(m.normals_rewritten), r.a)
            .AddMember("normals_kept", std::uint64_t(m.normals_kept), r.a)
            .AddMember("normalised", std::uint64_t(m.normalised), r.a).AddMember("unchanged", std::uint64_t(m.unchanged), r.a);
        for (auto v : m.unmatched) unmatched.PushBack(v, r.a);
        for (const auto& s : m.unknown_groups) unknown.PushBack(r.str(s), r.a);
        for (const auto& s : m.groups_without_subsection) without.PushBack(r.str(s), r.a);
        std::size_t mismatches = 0;
        for (const auto& f : m.findings) {
            rapidjson::Value fo(rapidjson::kObjectType);
            const bool mismatch = f.level == Finding::Level::mismatch;
            mismatches += mismatch;
            fo.AddMember("level", r.str(mismatch ? "MISMATCH" : "note"), r.a)
                .AddMember("path", r.str(f.path), r.a).AddMember("message", r.str(f.message), r.a);
            findings.PushBack(fo, r.a);
        }
        o.AddMember("unmatched", unmatched, r.a).AddMember("unknown_groups", unknown, r.a)
            .AddMember("groups_without_subsection", without, r.a).AddMember("findings", findings, r.a);
        meshes.PushBack(o, r.a);
        const std::string where = "SKIN " + label + ", MESH " + name + ": ";
        if (auto partial = partial_match_warning(m); !partial.empty())
            r.warn(where + partial + " (\"tolerance\", \"units\", \"scale\", \"axis\")");
        else if (!m.unmatched.empty())
            r.warn(where + std::to_string(m.unmatched.size()) + " of " + std::to_string(m.mesh_positions) +
                   " positions matched no model vertex (their weights are kept)");
        if (m.normalised)
            r.warn(where + std::to_string(m.normalised) + " matched position(s) had weights not summing to 1 over the "
                   "groups the SKIN stores: rescaled to sum 1");
        for (const auto& s : m.unknown_groups) r.warn(where + "model group " + s + " is not a section of the SKIN: its weights are dropped");
        for (const auto& s : m.groups_without_subsection)
            r.warn(where + "group " + s + " has no subsection for this mesh: its weights are dropped");
        if (mismatches) r.warn(where + std::to_string(mismatches) + " mismatch(es) with the documented SKIN invariants");
    }
    rapidjson::Value skipped(rapidjson::kArrayType);
    for (const auto& t : report.skipped_targets) {
        skipped.PushBack(r.str(t), r.a);
        r.warn("SKIN " + label + ": target " + t + " is not a MESH in this archive: not reweighted");
    }
    r.set("meshes", std::move(meshes)).set("skipped_targets", std::move(skipped));
    commit(env, a, std::move(items), r);
}

// ---- mesh.replace (totemtech: "character") ----------------------------------------------------

void plan_mesh_replace(const EditEnv& env, PlannedEdit& out) {
    const Archive a = decode_totem_archive(env, env.target.current);
    const NameTable names = totem_names(env);
    const std::size_t index = locate(env, "character", a, names);
    model_import_options(env);  // a bad "axis" is found when planning
    std::vector<std::size_t> meshes;
    try {
        meshes = character_meshes(dgc_reader(env, a), a, index);
    } catch (const ManifestError&) {
        throw;
    } catch (const Error& e) {
        env.fail("character", e.what(), e.kind());
    }
    if (meshes.empty())
        env.fail("character", "record '" + env.text("character") + "' leads to no MESH (NODE -> LOD -> SKIN -> MESH)");
    std::set<std::int32_t> ids;
    for (auto m : meshes) {
        ids.insert(a.records[m].name_id);
        const std::string label = label_of(names, a.records[m].name_id);
        out.touches.push_back(touch(env.target, record_region(label), 0, to_end, true, "rebuilt from " + env.text("source")));
    }
    for (std::size_t i = 0; i < a.records.size(); ++i) {
        if (record_kind(a.records[i]) != RecordKind::skin) continue;
        try {
            const Skin s = decode_skin(payload_reader(dgc_reader(env, a), a, i));
            if (std::any_of(s.mesh_ids.begin(), s.mesh_ids.end(), [&](std::int32_t id) { return ids.count(id) != 0; }))
                out.touches.push_back(touch(env.target, record_region(label_of(names, a.records[i].name_id)), 0, to_end, true,
                                            "its vertex groups on the replaced MESHes, rebuilt from the source's weights"));
        } catch (const Error&) {
            // A SKIN we cannot decode names nothing we know of (totem verify says why).
        }
    }
    if (env.names && env.text("textures", "source") != "keep")
        out.touches.push_back(touch(*env.names, "names", 0, to_end, false,
                                    "the names of new BITMAP/MATERIAL records for the source's own textures, if any"));
    add_archive_touches(env, out);
    out.limits.push_back("at most 65,536 positions, UVs and normals per MESH (16-bit ids); more is refused");
    out.limits.push_back("source materials must be the MESH's or MATERIAL/MATERIALANIM records of the archive (by name)");
    out.limits.push_back("bones map onto vertex groups by name or \"bone_map\"; a weighted bone with no group is an error");
    out.summary = "replace the " + std::to_string(meshes.size()) + " MESH(es) of " + label_of(names, a.records[index].name_id) +
                  " from " + env.text("source");
}

void apply_mesh_replace(EditEnv& env, ReportOut& r) {
    const Archive a = decode_totem_archive(env, env.target.current);
    const NameTable names = totem_names(env);
    const std::size_t index = locate(env, "character", a, names);
    ReplaceOptions options;
    options.allow_scale_change = env.flag("allow_scale_change", false);
    options.keep_unchanged = !env.flag("rebuild", false);
    options.source_textures = env.text("textures", "source") != "keep";  // schema: source, keep
    options.platform = totem_platform(env);
    // "meshes" / "materials": {"source name": "record", …} (the schema checks the shape).
    for (const auto& [field, map] : {std::pair<const char*, scene::BoneMap*>{"meshes", &options.mesh_map},
                                     std::pair<const char*, scene::BoneMap*>{"materials", &options.material_map}})
        if (env.has(field))
            for (auto it = env.params[field].MemberBegin(); it != env.params[field].MemberEnd(); ++it)
                map->pairs.emplace_back(std::string(it->name.GetString(), it->name.GetStringLength()),
                                        std::string(it->value.GetString(), it->value.GetStringLength()));
    if (env.has("bone_map")) {
        const Bytes text = env.read("bone_map");
        try {
            options.bone_map = scene::parse_bone_map(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()),
                                                     env.path("bone_map").string());
        } catch (const Error& e) {
            env.fail("bone_map", e.what(), e.kind());
        }
    }
    scene::Scene source;
    try {
        scene::ImportOptions import = model_import_options(env);
        import.read_textures = options.source_textures;
        source = scene::import_file(env.path("source"), import);
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::io) throw;
        env.fail("source", e.what(), e.kind());
    }
    const ByteReader dgc = dgc_reader(env, a);
    ReplaceReport rep;
    std::vector<RepackItem> items;
    try {
        items = replace_meshes(dgc, a, names, index, std::move(source), options, &rep);
    } catch (const Error& e) {
        if (scene::is_scale_change_refusal(e))
            env.fail("source", e.message(), e.kind());  // the size rule (scene/scale_check.hpp)
        if (e.kind() == ErrorKind::usage && e.message().starts_with("the mesh map")) env.fail("meshes", e.message(), e.kind());
        if (e.kind() == ErrorKind::usage && e.message().starts_with("the material map"))
            env.fail("materials", e.message(), e.kind());
        throw;
    }
    NameTable grown = names;
    if (!rep.names_added.empty()) {
        if (!env.names)
            env.fail("textures", std::to_string(rep.textures.size()) + " source material(s) bring their own texture (first: '" +
                                     rep.textures.front().source_material + "'): the new BITMAP/MATERIAL records need names in "
                                     "the archive's name table: give the input its \"names\" (and an output for it), or "
                                     "set \"textures\": \"keep\"");
        for (const auto& n : rep.names_added) grown.add(n);
    }
    RepackReport packed_report;
    Archive packed;
    Bytes encoded = repack_checked(dgc, a, std::move(items), &packed_report, &packed);

    r.set("character", label_of(names, a.records[index].name_id)).set("source", env.text("source")).set("skinned", rep.skinned)
        .set("unchanged", rep.unchanged);
    rapidjson::Value pairings(rapidjson::kArrayType);
    for (const auto& p : rep.pairings) pairings.PushBack(r.str(p), r.a);
    r.set("pairings", std::move(pairings));
    rapidjson::Value meshes(rapidjson::kArrayType), skins(rapidjson::kArrayType), kept(rapidjson::kArrayType);
    for (const auto& m : rep.meshes) {
        rapidjson::Value o(rapidjson::kObjectType), notes(rapidjson::kArrayType);
        o.AddMember("mesh", r.str(m.name), r.a).AddMember("positions", std::uint64_t(m.positions), r.a)
            .AddMember("texcoords", std::uint64_t(m.texcoords), r.a).AddMember("normals", std::uint64_t(m.normals), r.a)
            .AddMember("triangles", std::uint64_t(m.triangles), r.a).AddMember("strips", std::uint64_t(m.build.strips), r.a)
            .AddMember("degenerate_dropped", std::uint64_t(m.build.degenerate_dropped), r.a);
        for (const auto& n : m.build.notes) notes.PushBack(r.str(n), r.a);
        o.AddMember("notes", notes, r.a);
        meshes.PushBack(o, r.a);
    }
    for (const auto& s : rep.skins) {
        rapidjson::Value o(rapidjson::kObjectType), notes(rapidjson::kArrayType);
        o.AddMember("skin", r.str(s.name), r.a)
            .AddMember("subsections_rewritten", std::uint64_t(s.rebuild.subsections_rewritten), r.a)
            .AddMember("subsections_added", std::uint64_t(s.rebuild.subsections_added), r.a)
            .AddMember("subsections_emptied", std::uint64_t(s.rebuild.subsections_emptied), r.a);
        for (const auto& n : s.rebuild.notes) notes.PushBack(r.str(n), r.a);
        o.AddMember("notes", notes, r.a);
        skins.PushBack(o, r.a);
    }
    for (const auto& k : rep.kept_meshes) {
        kept.PushBack(r.str(k), r.a);
        r.warn("MESH " + k + ": no source mesh is named after it: kept unchanged");
    }
    for (const auto& w : rep.warnings) r.warn(w);
    rapidjson::Value textures(rapidjson::kArrayType), added(rapidjson::kArrayType);
    for (const auto& t : rep.textures) {
        rapidjson::Value o(rapidjson::kObjectType);
        o.AddMember("source_material", r.str(t.source_material), r.a).AddMember("replaces", r.str(t.replaces), r.a)
            .AddMember("material", r.str(t.material), r.a).AddMember("bitmap", r.str(t.bitmap), r.a)
            .AddMember("template_bitmap", r.str(t.template_bitmap), r.a).AddMember("format", r.str(t.format), r.a)
            .AddMember("width", t.width, r.a).AddMember("height", t.height, r.a)
            .AddMember("mean_delta_e", t.encode.mean_delta_e, r.a).AddMember("max_delta_e", t.encode.max_delta_e, r.a);
        textures.PushBack(o, r.a);
    }
    for (const auto& n : rep.names_added) added.PushBack(r.str(n), r.a);
    r.set("meshes", std::move(meshes)).set("skins", std::move(skins)).set("kept_meshes", std::move(kept))
        .set("textures", std::move(textures)).set("names_added", std::move(added));
    env.target.current = std::move(encoded);
    report_repack(r, packed_report, packed);
    if (!rep.names_added.empty()) {  // only once the archive is written: an edit that fails changes nothing
        env.names->current = grown.encode();
        env.names->edited = true;
    }
}

// ---- record.replace ----------------------------------------------------------------------------

void plan_record_replace(const EditEnv& env, PlannedEdit& out) {
    const Archive a = decode_totem_archive(env, env.target.current);
    const NameTable names = totem_names(env);
    const std::size_t index = locate(env, "record", a, names);
    const std::string label = label_of(names, a.records[index].name_id);
    out.touches.push_back(touch(env.target, record_region(label), 0, to_end, true, "the payload of " + describe(names, a, index)));
    add_archive_touches(env, out);
    out.summary = "replace the payload of " + describe(names, a, index) + " from " + env.text("file");
}

void apply_record_replace(EditEnv& env, ReportOut& r) {
    const Archive a = decode_totem_archive(env, env.target.current);
    const NameTable names = totem_names(env);
    const std::size_t index = locate(env, "record", a, names);
    const std::string label = label_of(names, a.records[index].name_id);
    Bytes payload = env.read("file");
    check_payload(env, r, a.records[index], payload, a.endian, "record " + label);
    const std::uint64_t before = a.records[index].payload.size(), after = payload.size();
    auto items = items_of(a);
    items[index].record.payload = std::move(payload);
    r.set("record", label).set("type", names.display(a.records[index].type_id)).set("bytes_before", before)
        .set("bytes_after", after);
    commit(env, a, std::move(items), r);
}

// ---- record.add --------------------------------------------------------------------------------

// An ID of the new record: a listed name, a "0xHASH", or a new name (to be added to the table).
struct NewId {
    std::int32_t id = 0;
    std::optional<std::string> add;  // the name to add to the table
};

NewId new_id(const EditEnv& env, const char* field, const NameTable& names, const Archive& a, bool may_be_known) {
    const std::string text = env.text(field);
    const std::int32_t id = name_id(text);
    if (names.find(id)) return {id, std::nullopt};  // listed (a CRC collision is refused by NameTable::add later)
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        if (auto parsed = parse_id(text)) return {*parsed, std::nullopt};
    if (!env.names) {
        // Without a table, a type or subtype the archive already uses needs no line.
        if (may_be_known)
            for (const auto& r : a.records)
                if (r.type_id == id || r.subtype_id == id) return {id, std::nullopt};
        env.fail(field, "'" + text + "' would be a new name, but the manifest gives this archive no name table (the "
                            "input's \"names\"): give the name table, or write the ID as " + hash_text(id));
    }
    return {id, text};
}

struct NewRecord {
    NewId type, name, subtype;
    std::vector<std::string> added;  // names the table gains, in order, without repeats
};

NewRecord new_record(const EditEnv& env, const Archive& a, const NameTable& names) {
    NewRecord n;
    n.type = new_id(env, "type", names, a, true);
    n.name = new_id(env, "name", names, a, false);
    if (env.has("subtype")) n.subtype = new_id(env, "subtype", names, a, true);
    if (auto existing = find_record(a, n.name.id))
        env.fail("name", "the archive already has a record named '" + env.text("name") + "': " + describe(names, a, *existing) +
                             " (use record.replace to change it)",
                 ErrorKind::conflict);
    // The table must take the new names (a name whose CRC-32 another listed name owns is refused).
    NameTable trial = names;
    const std::pair<const char*, const NewId*> fields[] = {{"type", &n.type}, {"name", &n.name}, {"subtype", &n.subtype}};
    for (const auto& [field, id] : fields) {
        if (!id->add) continue;
        try {
            if (trial.add(*id->add)) n.added.push_back(*id->add);
        } catch (const Error& e) {
            env.fail(field, e.message(), e.kind());
        }
    }
    return n;
}

std::string new_label(const NameTable& names, const NewId& id) { return id.add ? *id.add : names.display(id.id); }

void plan_record_add(const EditEnv& env, PlannedEdit& out) {
    const Archive a = decode_totem_archive(env, env.target.current);
    const NameTable names = totem_names(env);
    const NewRecord n = new_record(env, a, names);
    const std::string label = new_label(names, n.name);
    out.touches.push_back(touch(env.target, record_region(label), 0, to_end, true, "the new record " + label));
    if (!n.added.empty()) {
        std::string list;
        for (const auto& s : n.added) list += (list.empty() ? "" : ", ") + s;
        out.touches.push_back(touch(*env.names, "names", 0, to_end, false, "adds name(s) " + list));
        out.limits.push_back("a new name's ID is its CRC-32: a name colliding with a listed one is refused");
    }
    add_archive_touches(env, out);
    out.summary = "add " + new_label(names, n.type) + " record " + label + " from " + env.text("file") +
                  (n.added.empty() ? "" : " (+" + std::to_string(n.added.size()) + " name(s))");
}

void apply_record_add(EditEnv& env, ReportOut& r) {
    const Archive a = decode_totem_archive(env, env.target.current);
    NameTable names = totem_names(env);
    const NewRecord n = new_record(env, a, names);
    for (const auto& s : n.added) names.add(s);
    Record rec;
    rec.type_id = n.type.id;
    rec.name_id = n.name.id;
    rec.subtype_id = n.subtype.id;
    rec.payload = env.read("file");
    check_payload(env, r, rec, rec.payload, a.endian, "record " + names.display(rec.name_id));
    auto items = items_of(a);
    items.push_back({rec, std::nullopt});
    rapidjson::Value added(rapidjson::kArrayType);
    for (const auto& s : n.added) added.PushBack(r.str(s), r.a);
    r.set("record", record_json(r, names, rec)).set("names_added", std::move(added));
    commit(env, a, std::move(items), r);
    if (!n.added.empty()) {  // only once the archive is written: an edit that fails changes nothing
        env.names->current = names.encode();
        env.names->edited = true;
    }
}

// ---- record.remove -------------------------------------------------------------------------------

void plan_record_remove(const EditEnv& env, PlannedEdit& out) {
    const Archive a = decode_totem_archive(env, env.target.current);
    const NameTable names = totem_names(env);
    const std::size_t index = locate(env, "record", a, names);
    const std::string label = label_of(names, a.records[index].name_id);
    out.touches.push_back(touch(env.target, record_region(label), 0, to_end, true, "removes " + describe(names, a, index)));
    add_archive_touches(env, out);
    out.limits.push_back("records that refer to the removed one (a SKIN's MESH targets) are not changed");
    out.summary = "remove " + describe(names, a, index);
}

void apply_record_remove(EditEnv& env, ReportOut& r) {
    const Archive a = decode_totem_archive(env, env.target.current);
    const NameTable names = totem_names(env);
    const std::size_t index = locate(env, "record", a, names);
    const std::int32_t id = a.records[index].name_id;
    for (std::size_t i = 0; i < a.records.size(); ++i)
        if (i != index && record_kind(a.records[i]) == RecordKind::skin) try {
                const Skin s = decode_skin(payload_reader(dgc_reader(env, a), a, i));
                if (std::find(s.mesh_ids.begin(), s.mesh_ids.end(), id) != s.mesh_ids.end())
                    r.warn("SKIN " + names.display(a.records[i].name_id) + " still targets the removed record " +
                           names.display(id));
            } catch (const Error&) {
                // A SKIN we cannot decode is not ours to judge here (modkit totem verify says why).
            }
    auto items = items_of(a);
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(index));
    r.set("record", record_json(r, names, a.records[index])).set("index", std::uint64_t(index));
    commit(env, a, std::move(items), r);
}

}  // namespace

void register_totem_ops(OpTable& ops);

namespace {
const bool registered_totem_family = register_family(30, register_totem_ops);  // rank: after the core, in this order
}  // namespace

void register_totem_ops(OpTable& ops) {
    const Game g = Game::totemtech;
    add_op(ops, OpInfo{"skin.reweight", g, plan_skin_reweight, apply_skin_reweight});
    add_op(ops, OpInfo{"mesh.replace", g, plan_mesh_replace, apply_mesh_replace, "character"});
    add_op(ops, OpInfo{"record.replace", g, plan_record_replace, apply_record_replace});
    add_op(ops, OpInfo{"record.add", g, plan_record_add, apply_record_add});
    add_op(ops, OpInfo{"record.remove", g, plan_record_remove, apply_record_remove});
}

}  // namespace mod::manifest::detail
