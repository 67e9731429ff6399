// modkit shred replace / export: SHRED character meshes from and to FBX, glTF and the rest of
// what Assimp reads (pipeline: doc/formats/scene-import.md).
#include "cli.hpp"
#include "json.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/shred/import.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/shred/preprocess.hpp"

#include <cstdio>
#include <filesystem>

namespace modkit {
namespace {

namespace fs = std::filesystem;
namespace sh = mod::shred;
namespace sc = mod::scene;

sc::ImportOptions import_options(const po::variables_map& vm) {
    sc::ImportOptions o;
    o.scale = vm["scale"].as<float>();
    o.axes = sc::parse_axis_map(vm["axis"].as<std::string>());
    std::string units = vm["units"].as<std::string>();
    if (units == "file") o.units = sc::Units::file;
    else if (units == "metres" || units == "meters") o.units = sc::Units::metres;
    else usage_error("--units must be file or metres");
    std::string uv = vm["second-uv"].as<std::string>();
    if (uv == "copy") o.second_uv = sc::SecondUv::copy_first;
    else if (uv == "zero") o.second_uv = sc::SecondUv::zero;
    else usage_error("--second-uv must be copy or zero");
    o.allow_unskinned = false;
    return o;
}

// What the source declares (unit, up axis) and what the options applied, in one line.
std::string units_text(const sc::Scene& scene, const sc::ImportOptions& o, const po::variables_map& vm) {
    std::string s = "source declares: ";
    if (scene.file_unit_metres) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g m per unit", *scene.file_unit_metres);
        s += buf;
    } else s += "no unit";
    if (scene.file_up_axis)
        s += std::string(", ") + (scene.file_up_axis->second < 0 ? "-" : "+") + "xyz"[scene.file_up_axis->first] + " up";
    else s += ", no up axis";
    s += "; applied: --units " + vm["units"].as<std::string>();
    if (o.units == sc::Units::metres) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " (x%g)", scene.file_unit_metres.value_or(1.0));
        s += buf;
    }
    char scale[64];
    std::snprintf(scale, sizeof scale, ", --scale %g", double(o.scale));
    s += scale;
    s += ", --axis " + (o.axes.is_identity() ? std::string("identity") : o.axes.to_string());
    return s;
}

std::size_t mesh_index(const std::string& text, const std::string& key) {
    return parse_uint(text, std::numeric_limits<std::size_t>::max(), key + " must be a mesh index (0, 1, ...)");
}

template <class A>
void json_array(Json& j, const char* key, const A& a, std::size_t from = 1) {
    j.key(key).begin_array();
    for (std::size_t i = from; i < a.size(); ++i) j.value(std::uint64_t(a[i]));
    j.end_array();
}

template <class A>
std::string slash_list(const A& a, std::size_t from = 1) {
    std::string s;
    for (std::size_t i = from; i < a.size(); ++i) s += (i > from ? "/" : "") + std::to_string(a[i]);
    return s;
}

void declare_replace(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("pak", po::value<std::string>(), "SHRED PAK")
        ("quartet", po::value<std::string>(), "quartet base name")
        ("mesh", po::value<std::string>(), "mesh index inside the quartet")
        ("source", po::value<std::string>(), "FBX, glTF/GLB, DAE... with a skinned mesh")
        ("out", po::value<std::string>(), "output PAK")
        ("bone-map", po::value<std::string>(), "text file of 'source = target' bone names")
        ("scale", number<float>()->default_value(1.0f), "uniform scale applied after the unit conversion")
        ("axis", po::value<std::string>()->default_value("identity"),
         "axis conversion: three signed source axes (x,z,-y) or identity, zup-to-yup, yup-to-zup")
        ("units", po::value<std::string>()->default_value("metres"),
         "metres (convert the unit the file declares: FBX centimetres become metres) or file (keep its numbers)")
        ("allow-scale-change", po::bool_switch(),
         "accept a new mesh more than 10x larger or smaller than the one it replaces (a warning instead)")
        ("second-uv", po::value<std::string>()->default_value("copy"), "when the source has one UV set: copy or zero")
        ("source-mesh", po::value<std::string>(), "use only this mesh of the source, by index or by name (default: all, merged)")
        ("no-weld", po::bool_switch(), "do not weld identical vertices before preprocessing")
        ("drop-degenerate", po::bool_switch(),
         "drop degenerate triangles (two corners at one point) and duplicate triangles; without it they are "
         "counted, reported and kept")
        ("weld-tolerance", number<float>()->default_value(1e-5f),
         "normals/tangents/UVs closer than this weld (0: identical bits only)")
        ("rule", po::value<std::string>()->default_value("weight-desc"),
         "how the preprocessor orders vertices into batches: weight-desc (our reference "
         "hypothesis: each vertex's bones by weight, vertices by influence count ascending then palette), "
         "count-desc (influence count descending), bone-sorted (each palette by bone id); "
         "`shred conformance` says which rule a PAK's streams reproduce");
    p.add("pak", 1).add("quartet", 1).add("mesh", 1).add("source", 1).add("out", 1);
}

int shred_replace(const po::variables_map& vm, const Global& g) {
    fs::path pak_path = required(vm, "pak"), source = required(vm, "source"), out = required(vm, "out");
    std::string quartet = required(vm, "quartet");
    std::size_t mesh = mesh_index(required(vm, "mesh"), "MESH");
    sh::SceneReplaceOptions options;
    if (vm.count("bone-map")) options.bone_map = sc::read_bone_map(vm["bone-map"].as<std::string>());
    if (vm.count("source-mesh")) {
        // All digits: an index; anything else: a mesh name.
        const std::string pick = vm["source-mesh"].as<std::string>();
        if (!pick.empty() && pick.find_first_not_of("0123456789") == std::string::npos)
            options.source_mesh = mesh_index(pick, "--source-mesh");
        else options.source_mesh_name = pick;
    }
    options.weld = !vm["no-weld"].as<bool>();
    options.scale_check = vm["allow-scale-change"].as<bool>() ? sh::ScaleCheck::warn : sh::ScaleCheck::refuse;
    options.drop_degenerate = vm["drop-degenerate"].as<bool>();
    options.weld_tolerance = vm["weld-tolerance"].as<float>();
    options.replace.rule = sh::parse_ordering_rule(vm["rule"].as<std::string>());
    auto import = import_options(vm);

    std::vector<fs::path> inputs{pak_path, source};
    if (vm.count("bone-map")) inputs.emplace_back(vm["bone-map"].as<std::string>());
    mod::ensure_distinct_output(out, inputs);
    sh::Pak pak = sh::read_pak(mod::read_file(pak_path), pak_path.string());
    sc::Scene scene = sc::import_file(source, import);
    const std::string units_line = units_text(scene, import, vm);
    sh::SceneReplaceReport r;
    mod::Bytes bytes;
    try {
        bytes = sh::replace_from_scene(pak, quartet, mesh, std::move(scene), options, &r);
    } catch (const mod::Error&) {
        for (const auto& w : r.warnings) warn(source.string() + ": " + w);  // e.g. every unmapped bone
        throw;
    }
    mod::write_file_atomic(out, bytes, inputs);
    for (const auto& w : r.warnings) warn(source.string() + ": " + w);

    const auto& c = r.counts;
    if (g.json) {
        Json j;
        j.begin_object().field("pak", pak_path.string()).field("quartet", quartet).field("mesh", std::uint64_t(mesh))
            .field("source", source.string()).field("out", out.string());
        j.key("before").begin_object().field("vertices", c.old_vertices).field("batches", c.old_batches)
            .field("triangles", c.old_triangles);
        json_array(j, "batches_by_influence", r.old_batches_by_influence);
        json_array(j, "vertices_by_influence", r.old_vertices_by_influence);
        j.end_object();
        j.key("after").begin_object().field("vertices", c.new_vertices).field("batches", c.new_batches)
            .field("triangles", c.new_triangles);
        json_array(j, "batches_by_influence", r.new_batches_by_influence);
        json_array(j, "vertices_by_influence", r.new_vertices_by_influence);
        j.end_object();
        j.key("source_influences").begin_object();
        json_array(j, "positive_influences", r.weights.source_histogram, 0);
        json_array(j, "after_limit", r.weights.histogram, 0);
        j.field("trimmed_vertices", std::uint64_t(r.weights.trimmed_vertices))
            .field("renormalised_vertices", std::uint64_t(r.weights.renormalised_vertices))
            .field("dropped_by_rounding", std::uint64_t(r.weights.dropped_by_rounding))
            .field("source_vertices", std::uint64_t(r.source_vertices))
            .field("welded_vertices", std::uint64_t(r.welded_vertices))
            .end_object();
        j.field("kept_target_tangents", r.kept_target_tangents);
        j.key("triangles").begin_object().field("degenerate", std::uint64_t(r.degenerate_triangles))
            .field("duplicate", std::uint64_t(r.duplicate_triangles)).field("dropped", r.dropped_degenerate).end_object();
        j.field("units", units_line);
        j.key("source_meshes").begin_array();
        for (const auto& [name, vertices] : r.merged_meshes)
            j.begin_object().field("name", name).field("vertices", std::uint64_t(vertices)).end_object();
        j.end_array();
        j.key("bones").begin_object().field("mapped_by_name", std::uint64_t(r.retarget.mapped_by_name))
            .field("mapped_explicitly", std::uint64_t(r.retarget.mapped_explicitly))
            .field("unmapped_without_weight", std::uint64_t(r.retarget.unmapped_without_weight)).end_object();
        j.end_object();
    } else {
        std::printf("replaced %s mesh %zu of %s from %s -> %s\n", quartet.c_str(), mesh, pak_path.c_str(),
                    source.c_str(), out.c_str());
        std::printf("             vertices  batches  triangles  batches by influence 1/2/3/4  vertices by influence\n");
        std::printf("  before   %10u %8u %10u  %-29s %s\n", c.old_vertices, c.old_batches, c.old_triangles,
                    slash_list(r.old_batches_by_influence).c_str(), slash_list(r.old_vertices_by_influence).c_str());
        std::printf("  after    %10u %8u %10u  %-29s %s\n", c.new_vertices, c.new_batches, c.new_triangles,
                    slash_list(r.new_batches_by_influence).c_str(), slash_list(r.new_vertices_by_influence).c_str());
        std::printf("source influences per vertex (0..8+): %s; after the 4-bone limit (0..4): %s\n",
                    slash_list(r.weights.source_histogram, 0).c_str(), slash_list(r.weights.histogram, 0).c_str());
        std::printf("  %zu vertices trimmed to 4, %zu renormalised, %zu slots rounded to zero; %zu vertices welded to %zu\n",
                    r.weights.trimmed_vertices, r.weights.renormalised_vertices, r.weights.dropped_by_rounding,
                    r.source_vertices, r.welded_vertices);
        std::printf("bones: %zu by name, %zu by the bone map, %zu unmapped without weight\n", r.retarget.mapped_by_name,
                    r.retarget.mapped_explicitly, r.retarget.unmapped_without_weight);
        std::printf("%s\n", units_line.c_str());
        if (r.kept_target_tangents)
            std::printf("the source has no tangents and matches the target vertex for vertex: the target's tangents "
                        "were kept\n");
        for (const auto& [name, vertices] : r.merged_meshes)
            std::printf("source mesh '%s': %zu vertices\n", name.c_str(), vertices);
    }
    return 0;
}

void declare_export(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("pak", po::value<std::string>(), "SHRED PAK")
        ("quartet", po::value<std::string>(), "quartet base name")
        ("args", po::value<std::vector<std::string>>()->multitoken(), "[MESH] OUT.(glb|gltf|fbx)");
    p.add("pak", 1).add("quartet", 1).add("args", -1);
}

int shred_export(const po::variables_map& vm, const Global& g) {
    fs::path pak_path = required(vm, "pak");
    std::string quartet = required(vm, "quartet");
    auto args = required_list(vm, "args");
    if (args.empty() || args.size() > 2) usage_error("expected [MESH] OUT.(glb|gltf|fbx)");
    std::optional<std::size_t> mesh;
    if (args.size() == 2) {
        mesh = mesh_index(args[0], "MESH");
    }
    fs::path out = args.back();
    sc::export_format_for(out);  // usage error before any work
    sh::Pak pak = sh::read_pak(mod::read_file(pak_path), pak_path.string());
    sh::QuartetModel model = sh::read_pak_quartet(pak, quartet);
    sc::Scene scene = sh::quartet_to_scene(model, mesh);
    for (const auto& w : scene.warnings) warn(w);
    sc::export_file(scene, out, std::span<const fs::path>(&pak_path, 1));
    std::size_t vertices = 0, triangles = 0;
    for (const auto& m : scene.meshes) {
        vertices += m.vertex_count();
        triangles += m.triangles.size();
    }
    if (g.json) {
        Json j;
        j.begin_object().field("pak", pak_path.string()).field("quartet", quartet).field("out", out.string())
            .field("meshes", std::uint64_t(scene.meshes.size())).field("bones", std::uint64_t(scene.skeleton.bones.size()))
            .field("vertices", std::uint64_t(vertices)).field("triangles", std::uint64_t(triangles)).end_object();
    } else {
        std::printf("exported %zu mesh(es) of %s (%zu vertices, %zu triangles, %zu bones) -> %s\n", scene.meshes.size(),
                    quartet.c_str(), vertices, triangles, scene.skeleton.bones.size(), out.c_str());
    }
    return 0;
}

const Registrar shred_scene_group({"shred", "", {
    {"replace", "PAK QUARTET MESH SOURCE OUT [--bone-map FILE] [--scale S] [--axis x,z,-y] [--units metres|file] [--allow-scale-change]",
     "replace a quartet mesh from FBX/glTF/DAE (weights by bone name, 4 influences, welded, preprocessed)",
     declare_replace, shred_replace},
    {"export", "PAK QUARTET [MESH] OUT.(glb|gltf|fbx)",
     "export quartet meshes with skin weights and the SCP skeleton for editing (glb/gltf round-trip exactly; "
     ".fbx is ASCII FBX, which Blender cannot import: Blender users take .glb)",
     declare_export, shred_export},
}});

}  // namespace
}  // namespace modkit
