// Pokémon Stadium mesh operation: mesh.replace (marker "model"): a model's mesh from
// FBX/glTF/DAE with its skeleton and animations kept. A thin call into
// libmod/stadium/mesh_replace.hpp, the same function `modkit stadium replace` uses.
#include "operation.hpp"

#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/scene/scale_check.hpp"
#include "libmod/stadium/mesh_replace.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"

namespace mod::manifest::detail {

namespace {

using namespace mod::stadium;
namespace sc = mod::scene;

MeshReplaceOptions mesh_options(const EditEnv& env) {
    MeshReplaceOptions o;
    if (env.has("bone_map")) {
        const Bytes text = env.read("bone_map");
        try {
            o.bone_map = sc::parse_bone_map(std::string(reinterpret_cast<const char*>(text.data()), text.size()),
                                            env.path("bone_map").string());
        } catch (const Error& e) {
            env.fail("bone_map", e.what(), e.kind());
        }
    }
    o.allow_scale_change = env.flag("allow_scale_change", false);
    o.keep_unchanged = !env.flag("rebuild", false);
    o.threads = env.threads;
    return o;
}

sc::ImportOptions import_options(const EditEnv& env) {
    sc::ImportOptions o;
    o.scale = static_cast<float>(env.number("scale", 1.0));
    try {
        o.axes = sc::parse_axis_map(env.text("axis", "identity"));
    } catch (const Error& e) {
        env.fail("axis", e.message(), e.kind());
    }
    o.read_textures = true;
    return o;
}

void plan_stadium_mesh_replace(const EditEnv& env, PlannedEdit& out) {
    const auto shared = workspace_archive(env.target);  // parsed once per change of the ROM
    const Archive& archive = *shared;
    const std::size_t model = env.u64("model");
    if (model >= archive.entries.size())
        env.fail("model", "the archive has " + std::to_string(archive.entries.size()) + " entries; there is no entry " +
                              std::to_string(model));
    const Model m = read_archive_model(archive, model);
    mesh_options(env);
    import_options(env);
    const std::string entry = "archive[" + std::to_string(model) + "]";
    out.touches.push_back(touch(env.target, entry, 0, to_end, true,
                                "entry " + std::to_string(model) + " rebuilt: new mesh, textures and materials; skeleton and "
                                "animations kept"));
    out.touches.push_back(touch(env.target, "bytes", model_archive_rom, to_end, false, "the model archive (repacked)"));
    out.limits.push_back("every source bone carrying weight maps to a model bone (bone<i>_id<id>, by name or the bone map)");
    out.limits.push_back("s16 vertex coordinates in each bone's rest space; at most 32767 Vtx entries, 255 textures");
    out.limits.push_back("compressed entry <= 0x28000 bytes, decompressed + 0x10 <= 0x3C000, fragment < 0x100000");
    out.summary = "replace the mesh of model " + std::to_string(model) + " (" + std::to_string(m.bones.size()) + " bones, " +
                  std::to_string(m.triangles.size()) + " triangles) from " + env.text("source");
}

void apply_stadium_mesh_replace(EditEnv& env, ReportOut& r) {
    const auto shared = workspace_archive(env.target);  // parsed once per change of the ROM
    const Archive& archive = *shared;
    const std::size_t model = env.u64("model");
    const MeshReplaceOptions o = mesh_options(env);
    sc::Scene scene;
    try {
        scene = sc::import_file(env.path("source"), import_options(env));
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::io) throw;
        env.fail("source", e.what(), e.kind());
    }
    RepackOptions opt;
    opt.threads = env.threads;
    StadiumRom rom{n64::ByteOrder::z64, std::move(env.target.current), env.target.display};
    RomMeshReplace done;
    try {
        done = replace_mesh_in_rom(rom, archive, model, std::move(scene), o, opt);
    } catch (const Error& e) {
        env.target.current = std::move(rom.z64);
        if (scene::is_scale_change_refusal(e))
            env.fail("source", e.message(), e.kind());  // the size rule (scene/scale_check.hpp)
        throw;
    } catch (...) {
        env.target.current = std::move(rom.z64);
        throw;
    }
    env.target.current = std::move(done.rom);
    const MeshPlan& p = done.plan;
    r.set("model", std::uint64_t(model)).set("source", env.text("source"))
        .set("source_vertices", std::uint64_t(p.source_vertices)).set("triangles", std::uint64_t(p.triangles))
        .set("vtx_entries", std::uint64_t(p.vtx_entries)).set("vtx_loads", std::uint64_t(p.vtx_loads))
        .set("loaded_per_triangle", p.loaded_per_triangle()).set("seams_blended", std::uint64_t(p.seams_blended))
        .set("reassigned", std::uint64_t(p.reassigned_three_bones + p.reassigned_not_adjacent))
        .set("fragment_bytes", std::uint64_t(p.new_fragment)).set("entry_bytes", std::uint64_t(p.new_entry))
        .set("textures", std::uint64_t(p.textures_written)).set("unchanged", p.unchanged);
    rapidjson::Value bones(rapidjson::kArrayType);
    for (const auto& b : p.bones) {
        rapidjson::Value one(rapidjson::kObjectType);
        one.AddMember("name", r.str(b.name), r.a).AddMember("vertices", std::uint64_t(b.vertices), r.a)
            .AddMember("triangles", std::uint64_t(b.triangles), r.a).AddMember("seam_triangles", std::uint64_t(b.seam_triangles), r.a);
        bones.PushBack(one, r.a);
    }
    r.set("bones", std::move(bones));
    for (const auto& w : p.warnings) r.warn("model " + std::to_string(model) + ": " + w);
}

}  // namespace

void register_stadium_mesh_ops(OpTable& ops);

namespace {
const bool registered_mesh_family = register_family(10, register_stadium_mesh_ops);  // rank: after the core, in this order
}  // namespace

void register_stadium_mesh_ops(OpTable& ops) {
    add_op(ops, OpInfo{"mesh.replace", Game::pokemon_stadium, plan_stadium_mesh_replace, apply_stadium_mesh_replace, "model"});
}

}  // namespace mod::manifest::detail
