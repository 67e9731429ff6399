// modkit stadium replace: a Pokémon model's mesh replaced from FBX/glTF/DAE with its skeleton and
// every animation kept, written into the ROM (or planned with --dry-run). Thin layer over
// libmod/stadium/mesh_replace.hpp (the same call the manifest's mesh.replace makes).
#include "cli.hpp"
#include "json.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/stadium/mesh_replace.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <cstdio>

namespace modkit {
namespace {

namespace fs = std::filesystem;
using namespace mod::stadium;
namespace sc = mod::scene;

void plan_json(Json& j, const MeshPlan& p) {
    j.field("model", std::uint64_t(p.model)).field("unchanged", p.unchanged).field("source_vertices", std::uint64_t(p.source_vertices))
        .field("source_triangles", std::uint64_t(p.source_triangles)).field("triangles", std::uint64_t(p.triangles))
        .field("vtx_entries", std::uint64_t(p.vtx_entries)).field("vtx_loads", std::uint64_t(p.vtx_loads))
        .field("vertices_loaded", std::uint64_t(p.vertices_loaded)).field("loaded_per_triangle", p.loaded_per_triangle())
        .field("seams_blended", std::uint64_t(p.seams_blended))
        .field("reassigned_three_bones", std::uint64_t(p.reassigned_three_bones))
        .field("reassigned_not_adjacent", std::uint64_t(p.reassigned_not_adjacent))
        .field("root_scale", std::uint64_t(std::uint32_t(p.root_scale))).field("max_coordinate", int(p.max_coordinate))
        .field("size_ratio", p.size_ratio).key("bones").begin_array();
    for (const auto& b : p.bones)
        j.begin_object().field("name", b.name).field("vertices", std::uint64_t(b.vertices))
            .field("triangles", std::uint64_t(b.triangles)).field("seam_triangles", std::uint64_t(b.seam_triangles)).end_object();
    j.end_array().key("materials").begin_array();
    for (std::size_t i = 0; i < p.materials.size(); ++i) {
        const auto& m = p.materials[i];
        const auto& t = p.textures[i];
        j.begin_object().field("name", m.name).field("shading", m.lit ? "lit" : "vertex colours")
            .field("format", t.format).field("width", unsigned(t.width)).field("height", unsigned(t.height))
            .field("source", t.source).field("mean_delta_e", t.mean_delta_e).field("max_delta_e", t.max_delta_e)
            .field("wrap_s", t.wrap_s).field("wrap_t", t.wrap_t).end_object();
    }
    j.end_array().field("animations", std::uint64_t(p.animations)).field("aux_animations", std::uint64_t(p.aux_animations))
        .key("sizes").begin_object().field("fragment_old", std::uint64_t(p.old_fragment))
        .field("fragment_new", std::uint64_t(p.new_fragment)).field("fragment_limit", std::uint64_t(p.limits.fragment_max))
        .field("entry_old", std::uint64_t(p.old_entry)).field("entry_new", std::uint64_t(p.new_entry))
        .field("entry_limit", std::uint64_t(p.limits.compressed_buffer)).field("block_old", std::uint64_t(p.old_block))
        .field("block_new", std::uint64_t(p.new_block)).field("block_limit", std::uint64_t(p.limits.model_block))
        .end_object().key("warnings").begin_array();
    for (const auto& w : p.warnings) j.value(w);
    j.end_array();
}

int stadium_replace(const po::variables_map& vm, const Global& g) {
    const fs::path in = required(vm, "rom"), source = required(vm, "source");
    if (!vm.count("model")) usage_error("MODEL (archive entry index) is required");
    const bool dry = vm["dry-run"].as<bool>();
    if (!dry && !vm.count("out")) usage_error("OUT (the ROM to write) is required unless --dry-run");
    const std::size_t model = vm["model"].as<std::size_t>();
    MeshReplaceOptions o;
    o.allow_scale_change = vm["allow-scale-change"].as<bool>();
    o.keep_unchanged = !vm["rebuild"].as<bool>();
    o.threads = g.threads;
    std::vector<fs::path> inputs{in, source};
    if (vm.count("bone-map")) {
        inputs.emplace_back(vm["bone-map"].as<std::string>());
        o.bone_map = sc::read_bone_map(inputs.back());
    }
    if (!dry) mod::ensure_distinct_output(fs::path(vm["out"].as<std::string>()), inputs);
    sc::ImportOptions io;
    io.scale = vm["scale"].as<float>();
    io.axes = sc::parse_axis_map(vm["axis"].as<std::string>());
    io.read_textures = true;
    const StadiumRom rom = load_rom(in);
    const Archive archive = read_archive(rom);
    sc::Scene scene = sc::import_file(source, io);
    RepackOptions opt;
    opt.threads = g.threads;
    RomMeshReplace r = replace_mesh_in_rom(rom, archive, model, std::move(scene), o, opt);
    if (!dry) mod::write_file_atomic(vm["out"].as<std::string>(), r.rom, inputs);
    if (g.json) {
        Json j;
        j.begin_object().field("dry_run", dry);
        plan_json(j, r.plan);
        if (!dry) j.field("out", vm["out"].as<std::string>());
        j.end_object();
        return 0;
    }
    for (const auto& w : r.plan.warnings) warn(w);
    MeshPlan shown = r.plan;
    shown.warnings.clear();  // printed on stderr above
    std::fputs(format_mesh_plan(shown).c_str(), stdout);
    if (r.plan.unchanged)
        std::printf(o.keep_unchanged ? "the source draws what model %zu already draws (its own unedited export): the ROM is "
                                       "kept as it is (--rebuild rebuilds it anyway)\n"
                                     : "the source draws what model %zu already draws: rebuilt anyway (--rebuild)\n",
                    model);
    if (dry) std::printf("dry run: nothing written\n");
    else std::printf("wrote %s\n", vm["out"].as<std::string>().c_str());
    return 0;
}

const Registrar stadium_replace_group({"stadium", "Pokémon Stadium model archive, PERS-SZP entries and FRAGMENTs", {
    {"replace", "ROM MODEL SOURCE OUT [--bone-map FILE] [--allow-scale-change] [--rebuild] [--dry-run] [--scale S] [--axis A] [--json]",
     "replace a model's mesh from FBX/glTF/DAE, keeping its skeleton and every animation, writing a complete ROM",
     [](auto& o, auto& p) {
         o.add_options()("rom", po::value<std::string>(), "ROM image (z64, v64 or n64 byte order)")(
             "model", number<std::size_t>(), "model archive entry index (0-based)")(
             "source", po::value<std::string>(), "FBX, glTF/GLB, DAE… (skinned or rigid); textures: PNG")(
             "out", po::value<std::string>(), "output ROM (input's byte order)")(
             "bone-map", po::value<std::string>(),
             "text file of 'source = target' lines (targets named as `stadium export` names bones: bone<i>_id<id>)")(
             "allow-scale-change", po::bool_switch(), "accept a source more than 10x larger or smaller than the model's mesh (a warning instead)")(
             "rebuild", po::bool_switch(), "rebuild the model even when the source draws what it already draws (by default "
             "such a source, e.g. an unedited export, keeps the ROM byte for byte)")(
             "dry-run", po::bool_switch(), "print the plan (bones, seams, loads, textures, sizes vs limits); write nothing")(
             "scale", number<float>()->default_value(1.0f), "uniform scale applied to the source on import")(
             "axis", po::value<std::string>()->default_value("identity"),
             "axis conversion: three signed source axes (x,z,-y) or identity, zup-to-yup, yup-to-zup");
         p.add("rom", 1).add("model", 1).add("source", 1).add("out", 1);
     },
     stadium_replace},
}});

}  // namespace
}  // namespace modkit
