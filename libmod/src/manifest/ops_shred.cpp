// Tony Hawk: SHRED operations: mesh.replace, mesh.edit, pak.replace-entry. Each is a thin call
// into libmod/shred (replace_from_scene, apply_edits, repack_pak); the PAK in the workspace is
// the file's own bytes, and every apply replaces them with the new PAK.
#include "operation.hpp"

#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/scene/scale_check.hpp"
#include "libmod/shred/edit.hpp"
#include "libmod/shred/import.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/shred/preprocess.hpp"
#include "libmod/shred/quartet.hpp"
#include "libmod/shred/scan.hpp"

#include <algorithm>
#include <set>

namespace mod::manifest::detail {

namespace {

using namespace mod::shred;
namespace sc = mod::scene;

Pak open(const EditEnv& env) { return read_pak(env.target.current, env.target.display); }

std::string entry_region(const std::string& name) { return "entry[" + name + "]"; }

std::string text_of(const Bytes& b) { return std::string(reinterpret_cast<const char*>(b.data()), b.size()); }

// A library usage error about a parameter, located at the field (other kinds pass through).
template <class F>
auto at_field(const EditEnv& env, const char* field, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const ManifestError&) {
        throw;
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::usage) throw;
        env.fail(field, e.message());
    }
}

// ---- mesh.replace ----------------------------------------------------------------------------

// The quartet named by "quartet" (case-insensitive, as the library finds it).
QuartetEntries quartet_of(const EditEnv& env, const Pak& pak) {
    const std::string base = env.text("quartet");
    if (auto q = find_quartet(pak, base)) return *q;
    const auto quartets = find_quartets(pak);
    std::vector<std::string> names;
    for (const auto& q : quartets) names.push_back(q.base);
    std::string msg = "no quartet named '" + base + "' in " + env.target.display + " (" +
                      std::to_string(quartets.size()) + " quartet(s))";
    if (auto m = closest_match(base, names); !m.empty()) msg += "; did you mean '" + m + "'?";
    env.fail("quartet", msg);
}

sc::ImportOptions import_options(const EditEnv& env) {
    sc::ImportOptions o;
    o.scale = static_cast<float>(env.number("scale", 1.0));
    o.axes = at_field(env, "axis", [&] { return sc::parse_axis_map(env.text("axis", "identity")); });
    const std::string units = env.text("units", "metres");  // schema: file, metres, meters
    o.units = units == "file" ? sc::Units::file : sc::Units::metres;
    o.second_uv = env.text("second_uv", "copy") == "zero" ? sc::SecondUv::zero : sc::SecondUv::copy_first;
    o.allow_unskinned = false;  // a SHRED character mesh needs weights
    return o;
}

SceneReplaceOptions replace_options(const EditEnv& env) {
    SceneReplaceOptions o;
    if (env.has("bone_map")) {
        const Bytes text = env.read("bone_map");
        try {
            o.bone_map = sc::parse_bone_map(text_of(text), env.path("bone_map").string());
        } catch (const Error& e) {
            env.fail("bone_map", e.what(), e.kind());
        }
    }
    // An index or a mesh name (schema: integer or string).
    if (env.has("source_mesh")) {
        if (env.params["source_mesh"].IsString()) o.source_mesh_name = env.text("source_mesh");
        else o.source_mesh = env.u64("source_mesh");
    }
    // A new mesh whose box differs from the replaced one by more than 4x is an error here
    // (a unit or axis mistake), unless the edit says it is meant.
    o.scale_check = env.flag("allow_scale_change", false) ? ScaleCheck::warn : ScaleCheck::refuse;
    o.weld = env.flag("weld", true);
    o.weld_tolerance = static_cast<float>(env.number("weld_tolerance", 1e-5));
    o.drop_degenerate = env.flag("drop_degenerate", false);
    o.replace.rule = at_field(env, "rule", [&] { return parse_ordering_rule(env.text("rule", "weight-desc")); });
    return o;
}

std::string mesh_region(const QuartetEntries& q, std::uint64_t mesh) {
    return "quartet[" + q.base + "].mesh[" + std::to_string(mesh) + "]";
}

void plan_mesh_replace(const EditEnv& env, PlannedEdit& out) {
    const Pak pak = open(env);
    const QuartetEntries q = quartet_of(env, pak);
    const std::uint64_t mesh = env.u64("mesh");
    // Reads the quartet under shred-quartet/1 (a PAK that does not fit fails here, not later).
    const QuartetModel model = read_pak_entries(pak, q);
    if (mesh >= model.meshes.size())
        env.fail("mesh", "quartet " + q.base + " has " + std::to_string(model.meshes.size()) +
                             " mesh(es) (numbered from 0); there is no mesh " + std::to_string(mesh));
    import_options(env);   // axis
    replace_options(env);  // bone map, rule
    const auto& old = model.meshes[mesh];
    out.touches.push_back(touch(env.target, mesh_region(q, mesh), 0, to_end, true,
                                "mesh " + std::to_string(mesh) + " of quartet " + q.base + " (record, stream, index slice)"));
    out.touches.push_back(touch(env.target, "quartet[" + q.base + "]", 0, to_end, false,
                                "re-lays out quartet " + q.base + " (later records and slices move)"));
    for (std::size_t e : {q.meta, q.mmp, q.mgp, q.scp})
        out.touches.push_back(touch(env.target, entry_region(pak.entries[e].name), 0, to_end, false,
                                    e == q.meta || e == q.mmp ? "rewritten by the replacement" : "read (skeleton / MGP)"));
    out.touches.push_back(touch(env.target, "bytes", 0, to_end, false, "the PAK (repacked: later data moves)"));
    out.limits.push_back("at most 65,535 vertices after welding (u16 vertex indices), at least one triangle");
    out.limits.push_back("at most 4 influences per vertex (the 4 largest kept, renormalised to bytes summing to 255)");
    out.limits.push_back("batch palettes of at most 4 bones below 255 and below the SCP skeleton's bone count; batches split every 65,535 vertices");
    out.limits.push_back("every source bone carrying weight maps to an SCP bone (by name or the bone map)");
    out.limits.push_back("finite positions, normals and tangents; UVs within the f16 range");
    out.limits.push_back("the PAK must fit the RIDE layout and the quartet shred-quartet/1");
    out.summary = "replace mesh " + std::to_string(mesh) + " of quartet " + q.base + " (" +
                  std::to_string(old.stream.vertices.size()) + " vertices, " + std::to_string(old.triangles.size()) +
                  " triangles) from " + env.text("source");
}

template <class A>
rapidjson::Value counts_json(ReportOut& r, const A& a, std::size_t from) {
    rapidjson::Value v(rapidjson::kArrayType);
    for (std::size_t i = from; i < a.size(); ++i) v.PushBack(std::uint64_t(a[i]), r.a);
    return v;
}

void apply_mesh_replace(EditEnv& env, ReportOut& r) {
    const Pak pak = open(env);
    const QuartetEntries q = quartet_of(env, pak);
    const std::uint64_t mesh = env.u64("mesh");
    const SceneReplaceOptions options = replace_options(env);
    const auto source = env.path("source");
    sc::Scene scene;
    try {
        scene = sc::import_file(source, import_options(env));
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::io) throw;
        env.fail("source", e.what(), e.kind());
    }
    SceneReplaceReport rep;
    try {
        env.target.current = replace_from_scene(pak, q.base, mesh, std::move(scene), options, &rep);
    } catch (const Error& e) {
        if (scene::is_scale_change_refusal(e))
            env.fail("source", e.message(), e.kind());  // the size rule (scene/scale_check.hpp)
        if (e.kind() == ErrorKind::usage && options.source_mesh_name) env.fail("source_mesh", e.what(), e.kind());
        throw;
    }

    const auto& c = rep.counts;
    r.set("quartet", q.base).set("mesh", mesh).set("source", env.text("source"));
    rapidjson::Value before(rapidjson::kObjectType), after(rapidjson::kObjectType), influences(rapidjson::kObjectType),
        bones(rapidjson::kObjectType);
    before.AddMember("vertices", c.old_vertices, r.a).AddMember("batches", c.old_batches, r.a)
        .AddMember("triangles", c.old_triangles, r.a)
        .AddMember("batches_by_influence", counts_json(r, rep.old_batches_by_influence, 1), r.a)
        .AddMember("vertices_by_influence", counts_json(r, rep.old_vertices_by_influence, 1), r.a);
    after.AddMember("vertices", c.new_vertices, r.a).AddMember("batches", c.new_batches, r.a)
        .AddMember("triangles", c.new_triangles, r.a)
        .AddMember("batches_by_influence", counts_json(r, rep.new_batches_by_influence, 1), r.a)
        .AddMember("vertices_by_influence", counts_json(r, rep.new_vertices_by_influence, 1), r.a);
    influences.AddMember("positive_influences", counts_json(r, rep.weights.source_histogram, 0), r.a)
        .AddMember("after_limit", counts_json(r, rep.weights.histogram, 0), r.a)
        .AddMember("trimmed_vertices", std::uint64_t(rep.weights.trimmed_vertices), r.a)
        .AddMember("renormalised_vertices", std::uint64_t(rep.weights.renormalised_vertices), r.a)
        .AddMember("dropped_by_rounding", std::uint64_t(rep.weights.dropped_by_rounding), r.a)
        .AddMember("source_vertices", std::uint64_t(rep.source_vertices), r.a)
        .AddMember("welded_vertices", std::uint64_t(rep.welded_vertices), r.a);
    bones.AddMember("mapped_by_name", std::uint64_t(rep.retarget.mapped_by_name), r.a)
        .AddMember("mapped_explicitly", std::uint64_t(rep.retarget.mapped_explicitly), r.a)
        .AddMember("unmapped_without_weight", std::uint64_t(rep.retarget.unmapped_without_weight), r.a);
    r.set("before", std::move(before)).set("after", std::move(after)).set("source_influences", std::move(influences))
        .set("bones", std::move(bones));
    for (const auto& w : rep.warnings) r.warn(env.text("source") + ": " + w);
    if (rep.weights.trimmed_vertices)
        r.warn("quartet " + q.base + " mesh " + std::to_string(mesh) + ": " + std::to_string(rep.weights.trimmed_vertices) +
               " source vertices had more than 4 influences (the 4 largest kept)");
}

// ---- mesh.edit ---------------------------------------------------------------------------------

std::vector<VertexEdit> read_edits(const EditEnv& env) {
    const Bytes text = env.read("csv");
    try {
        return parse_edit_csv(text_of(text), env.path("csv").string());
    } catch (const Error& e) {
        env.fail("csv", e.what(), e.kind());
    }
}

// Checks every edit against what scan() finds in the file; returns the edited mesh indices.
std::set<std::uint32_t> check_edits(const EditEnv& env, const std::vector<VertexEdit>& edits,
                                    const std::vector<FoundMesh>& meshes) {
    std::set<std::uint32_t> used;
    for (const auto& e : edits) {
        if (e.mesh >= meshes.size())
            env.fail("csv", "edits mesh " + std::to_string(e.mesh) + ", but scan finds " + std::to_string(meshes.size()) +
                                " skinned mesh(es) in " + env.target.display + " (numbered from 0)");
        const FoundMesh& m = meshes[e.mesh];
        if (!m.error.empty())
            env.fail("csv", "edits mesh " + std::to_string(e.mesh) + ", which is not valid: " + m.error, ErrorKind::format);
        if (e.vertex >= m.vertex_count)
            env.fail("csv", "edits vertex " + std::to_string(e.vertex) + " of mesh " + std::to_string(e.mesh) + ", which has " +
                                std::to_string(m.vertex_count) + " vertices");
        used.insert(e.mesh);
    }
    return used;
}

void plan_mesh_edit(const EditEnv& env, PlannedEdit& out) {
    const auto edits = read_edits(env);
    const auto meshes = scan(env.target.current, env.target.display);
    const auto used = check_edits(env, edits, meshes);
    for (auto k : used) {
        const FoundMesh& m = meshes[k];
        out.touches.push_back(touch(env.target, "bytes", m.stream_offset, m.stream_offset + m.stream_size, true,
                                    "the skinning stream of mesh " + std::to_string(k) + " (metadata at " +
                                        hex(m.metadata_offset) + ")"));
    }
    out.limits.push_back("same topology: vertex count, order, palettes and stream size are kept");
    out.limits.push_back("weights per palette slot, quantised to bytes summing to 255; none on an unused slot");
    out.limits.push_back("the edited stream must pass every stream invariant (finite data, UVs within f16 range)");
    std::vector<unsigned> list(used.begin(), used.end());
    out.summary = "edit " + std::to_string(edits.size()) + " vertex(es) of mesh(es) " + ranges_text(list) + " from " +
                  env.text("csv");
}

void apply_mesh_edit(EditEnv& env, ReportOut& r) {
    const auto edits = read_edits(env);
    EditReport rep;
    env.target.current = apply_edits(env.target.current, edits, env.target.display, {}, &rep);
    std::set<std::uint32_t> used;
    for (const auto& e : edits) used.insert(e.mesh);
    rapidjson::Value meshes(rapidjson::kArrayType);
    for (auto k : used) meshes.PushBack(k, r.a);
    r.set("csv", env.text("csv")).set("meshes", std::move(meshes)).set("meshes_found", std::uint64_t(rep.meshes_found))
        .set("vertices_changed", std::uint64_t(rep.vertices_changed)).set("bytes_changed", std::uint64_t(rep.bytes_changed));
    if (rep.vertices_changed < edits.size())
        r.warn(env.text("csv") + ": " + std::to_string(edits.size() - rep.vertices_changed) +
               " edited vertex(es) already had the values asked for");
}

// ---- pak.replace-entry ---------------------------------------------------------------------

std::size_t entry_of(const EditEnv& env, const Pak& pak) {
    const std::string name = env.text("entry");
    std::vector<std::size_t> hits;
    for (std::size_t i = 0; i < pak.entries.size(); ++i)
        if (pak.entries[i].name == name) hits.push_back(i);
    if (hits.size() > 1) {
        std::string where;
        for (auto i : hits) where += (where.empty() ? "" : ", ") + std::to_string(i);
        env.fail("entry", "the PAK has " + std::to_string(hits.size()) + " entries named '" + name + "' (table entries " +
                              where + "): which one to replace is ambiguous, so it is refused",
                 ErrorKind::conflict);
    }
    if (hits.empty()) {
        std::vector<std::string> names;
        for (const auto& e : pak.entries) names.push_back(e.name);
        std::string msg = "no entry named '" + name + "' in " + env.target.display + " (" +
                          std::to_string(pak.entries.size()) + " entries; names are case-sensitive)";
        if (auto m = closest_match(name, names); !m.empty()) msg += "; did you mean '" + m + "'?";
        env.fail("entry", msg);
    }
    return hits.front();
}

void plan_pak_replace_entry(const EditEnv& env, PlannedEdit& out) {
    const Pak pak = open(env);
    const std::size_t index = entry_of(env, pak);
    const std::string& name = pak.entries[index].name;
    out.touches.push_back(touch(env.target, entry_region(name), 0, to_end, true, "all of entry " + name));
    out.touches.push_back(touch(env.target, "bytes", 0, to_end, false, "the PAK (repacked: later data moves)"));
    out.limits.push_back("entry sizes and offsets are u32; a resized entry is padded to the PAK's data alignment (" +
                         std::to_string(pak_data_alignment(pak)) + ")");
    out.limits.push_back("the PAK's original data ranges must not overlap (else it cannot be re-laid out)");
    out.summary = "replace PAK entry " + name + " (" + std::to_string(pak.entries[index].size) + " bytes) from " +
                  env.text("file");
}

void apply_pak_replace_entry(EditEnv& env, ReportOut& r) {
    const Pak pak = open(env);
    const std::size_t index = entry_of(env, pak);
    Bytes content = env.read("file");
    const std::uint64_t size = content.size();
    if (size > UINT32_MAX)
        env.fail("file", env.text("file") + " has " + std::to_string(size) + " bytes: a PAK entry holds at most 4 GiB",
                 ErrorKind::limit);
    std::vector<std::optional<Bytes>> replacements(pak.entries.size());
    replacements[index] = std::move(content);
    env.target.current = repack_pak(pak, replacements);
    r.set("entry", pak.entries[index].name).set("index", std::uint64_t(index))
        .set("size_before", std::uint64_t(pak.entries[index].size)).set("size_after", size)
        .set("pak_size_before", std::uint64_t(pak.raw.size())).set("pak_size_after", std::uint64_t(env.target.current.size()));
}

}  // namespace

void register_shred_ops(OpTable& ops);

namespace {
const bool registered_shred_family = register_family(20, register_shred_ops);  // rank: after the core, in this order
}  // namespace

void register_shred_ops(OpTable& ops) {
    const Game g = Game::thps_shred;
    add_op(ops, OpInfo{"mesh.replace", g, plan_mesh_replace, apply_mesh_replace});
    add_op(ops, OpInfo{"mesh.edit", g, plan_mesh_edit, apply_mesh_edit});
    add_op(ops, OpInfo{"pak.replace-entry", g, plan_pak_replace_entry, apply_pak_replace_entry});
}

}  // namespace mod::manifest::detail
