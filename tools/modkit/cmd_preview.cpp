// modkit preview / stadium preview / shred preview (totem preview lives in cmd_totem.cpp beside
// its archive loading): a PNG picture of a model drawn by mod::render (issue 15), so a user can
// look at a model, or at the result of an edit, without a 3D program.
#include "cli.hpp"
#include "json.hpp"
#include "preview.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/png.hpp"
#include "libmod/render/render.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/shred/import.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <cstdio>
#include <limits>
#include <optional>
#include <string>

namespace modkit {

namespace fs = std::filesystem;
namespace sc = mod::scene;
namespace rd = mod::render;

void declare_preview_options(po::options_description& o) {
    o.add_options()("view", po::value<std::string>(), "front, side or top (default: front and side side by side)")
        ("size", number<std::uint32_t>()->default_value(256), "pixels per view, width and height (1..4096)")
        ("untextured", po::bool_switch(), "shade every mesh, ignoring its texture");
}

int write_preview(const sc::Scene& scene, const fs::path& out, std::span<const fs::path> inputs,
                  const po::variables_map& vm, const Global& g, const sc::Scene* before) {
    rd::RenderOptions options;
    const std::uint32_t size = vm["size"].as<std::uint32_t>();
    if (size == 0 || size > rd::max_render_dimension)
        usage_error("--size must be 1.." + std::to_string(rd::max_render_dimension) + ", got " + std::to_string(size));
    options.width = options.height = size;
    options.textured = !vm["untextured"].as<bool>();
    std::string views = "front+side";
    mod::image::RgbaImage picture;
    if (before) options.fit = rd::union_box(rd::bounding_box(*before), rd::bounding_box(scene));
    auto draw = [&](const sc::Scene& s) {
        return vm.count("view") ? rd::render_scene(s, options) : rd::render_front_side(s, options);
    };
    if (vm.count("view")) {
        try {
            options.view = rd::parse_view(vm["view"].as<std::string>());
        } catch (const mod::Error&) {
            usage_error("--view must be front, side or top, got '" + vm["view"].as<std::string>() + "'");
        }
        views = std::string(rd::to_string(options.view));
    }
    if (before) {
        const mod::image::RgbaImage pair[2] = {draw(*before), draw(scene)};
        picture = rd::side_by_side(pair, 24, options.background);
        views = "before|after " + views;
        for (const auto& w : before->warnings) warn(w);
    } else {
        picture = draw(scene);
    }
    for (const auto& w : scene.warnings) warn(w);
    mod::write_file_atomic(out, mod::image::write_png(picture), inputs);

    std::size_t vertices = 0, triangles = 0;
    for (const auto& m : scene.meshes) {
        vertices += m.vertex_count();
        triangles += m.triangles.size();
    }
    const rd::Box box = rd::bounding_box(scene);
    const auto size_of = box.size();
    if (g.json) {
        Json j;
        j.begin_object().field("output", out.string()).field("width", std::uint64_t(picture.width))
            .field("height", std::uint64_t(picture.height)).field("views", views)
            .field("meshes", std::uint64_t(scene.meshes.size())).field("vertices", std::uint64_t(vertices))
            .field("triangles", std::uint64_t(triangles));
        if (!box.empty) {  // no finite vertex: no box
            j.key("box").begin_object().key("min").begin_array();
            for (float v : box.min) j.value(double(v));
            j.end_array().key("max").begin_array();
            for (float v : box.max) j.value(double(v));
            j.end_array().end_object();
        }
        j.end_object();
    } else {
        std::printf("%s: %ux%u, %s, %zu meshes, %zu vertices, %zu triangles", out.c_str(), picture.width,
                    picture.height, views.c_str(), scene.meshes.size(), vertices, triangles);
        if (box.empty) std::printf(", no finite vertex\n");
        else std::printf(", size %g x %g x %g\n", double(size_of[0]), double(size_of[1]), double(size_of[2]));
    }
    return 0;
}

namespace {

// ---- modkit preview MODEL_FILE OUT.png ---------------------------------------------------------
int preview_file(const po::variables_map& vm, const Global& g) {
    const fs::path in = required(vm, "model"), out = required(vm, "out");
    sc::ImportOptions import;
    import.allow_unskinned = true;
    const sc::Scene scene = sc::import_file(in, import);
    return write_preview(scene, out, std::span<const fs::path>(&in, 1), vm, g);
}

const Registrar preview_group({"preview", "a PNG picture of any model file Assimp reads (FBX, glTF/GLB, DAE, OBJ, ...)", {
    {"preview", "MODEL_FILE OUT.png [--view front|side|top] [--size N] [--untextured]",
     "render the model, shaded (orthographic, z-buffered; front and side without --view); materials and "
     "textures of the file are not read",
     [](auto& o, auto& p) {
         o.add_options()("model", po::value<std::string>(), "model file")("out", po::value<std::string>(), "output PNG");
         declare_preview_options(o);
         p.add("model", 1).add("out", 1);
     },
     preview_file},
}, true});

// ---- modkit stadium preview ROM MODEL OUT.png ---------------------------------------------------
int stadium_preview(const po::variables_map& vm, const Global& g) {
    const fs::path in = required(vm, "rom"), out = required(vm, "out");
    if (!vm.count("model")) usage_error("MODEL (archive entry index) is required");
    const std::size_t index = vm["model"].as<std::size_t>();
    // --pose A:F: skeletal animation A at frame F (both drawn posed with --before).
    std::optional<std::pair<std::size_t, std::int32_t>> pose;
    if (vm.count("pose")) {
        const std::string t = vm["pose"].as<std::string>();
        const auto colon = t.find(':');
        if (colon == std::string::npos) usage_error("--pose takes ANIMATION:FRAME (e.g. 0:12), got '" + t + "'");
        pose = {parse_uint(t.substr(0, colon), 65535, "--pose ANIMATION must be an animation index"),
                static_cast<std::int32_t>(parse_uint(t.substr(colon + 1), 65535, "--pose FRAME must be a frame number"))};
    }
    auto scene_of = [&](const fs::path& rom_path, const std::string& name) {
        const auto r = mod::stadium::load_rom(rom_path);
        const auto model = mod::stadium::read_archive_model(mod::stadium::read_archive(r), index);
        if (!pose) return mod::stadium::model_scene(model, name);
        const auto anims = mod::stadium::read_animations(model);
        if (pose->first >= anims.skeletal.size())
            usage_error(rom_path.string() + ": model " + std::to_string(index) + " has " + std::to_string(anims.skeletal.size()) +
                        " skeletal animations; there is no animation " + std::to_string(pose->first));
        return mod::stadium::posed_scene(model, anims.skeletal[pose->first], pose->second, name);
    };
    const sc::Scene scene = scene_of(in, "model" + std::to_string(index));
    if (vm.count("before")) {
        const fs::path first = vm["before"].as<std::string>();
        const sc::Scene before = scene_of(first, "model" + std::to_string(index) + "_before");
        const fs::path inputs[] = {in, first};
        return write_preview(scene, out, inputs, vm, g, &before);
    }
    return write_preview(scene, out, std::span<const fs::path>(&in, 1), vm, g);
}

const Registrar stadium_preview_group({"stadium", "", {
    {"preview", "ROM MODEL OUT.png [--before ROM0] [--pose ANIM:FRAME] [--view front|side|top] [--size N] [--untextured]",
     "a PNG picture of the model in its bind pose (or --pose), textured (front and side without --view); --before "
     "draws ROM0's model on the left at the same scale",
     [](auto& o, auto& p) {
         o.add_options()("rom", po::value<std::string>(), "ROM image (z64, v64 or n64 byte order)")
             ("model", number<std::size_t>(), "model archive entry index (0-based)")
             ("out", po::value<std::string>(), "output PNG")
             ("before", po::value<std::string>(), "another ROM (e.g. before an edit): its model drawn on the left, one scale")
             ("pose", po::value<std::string>(), "draw the model posed: skeletal animation ANIM at frame FRAME (e.g. 0:12)");
         declare_preview_options(o);
         p.add("rom", 1).add("model", 1).add("out", 1);
     },
     stadium_preview},
}});

// ---- modkit shred preview PAK QUARTET [MESH] OUT.png -------------------------------------------
int shred_preview(const po::variables_map& vm, const Global& g) {
    const fs::path pak_path = required(vm, "pak");
    const std::string quartet = required(vm, "quartet");
    const auto args = required_list(vm, "args");
    if (args.empty() || args.size() > 2) usage_error("expected [MESH] OUT.png");
    std::optional<std::size_t> mesh;
    if (args.size() == 2)
        mesh = parse_uint(args[0], std::numeric_limits<std::size_t>::max(), "MESH must be a mesh index (0, 1, ...)");
    const fs::path out = args.back();
    const auto pak = mod::shred::read_pak(mod::read_file(pak_path), pak_path.string());
    const auto model = mod::shred::read_pak_quartet(pak, quartet);
    const sc::Scene scene = mod::shred::quartet_to_scene(model, mesh);
    return write_preview(scene, out, std::span<const fs::path>(&pak_path, 1), vm, g);
}

const Registrar shred_preview_group({"shred", "", {
    {"preview", "PAK QUARTET [MESH] OUT.png [--view front|side|top] [--size N]",
     "a PNG picture of a quartet's meshes (or one of them) in the bind pose, shaded",
     [](auto& o, auto& p) {
         o.add_options()("pak", po::value<std::string>(), "SHRED PAK")("quartet", po::value<std::string>(), "quartet base name")
             ("args", po::value<std::vector<std::string>>()->multitoken(), "[MESH] OUT.png");
         declare_preview_options(o);
         p.add("pak", 1).add("quartet", 1).add("args", -1);
     },
     shred_preview},
}});

}  // namespace
}  // namespace modkit
