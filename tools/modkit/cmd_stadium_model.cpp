// modkit stadium show|palette|texture|export|textures: the typed Pokémon model inside the ROM's
// model archive (MODEL = archive entry index). Edits write a complete ROM in the input's byte
// order through the archive repacker. Thin layer over libmod/stadium/{model,palette_edit,
// texture_edit,export}.hpp.
#include "cli.hpp"
#include "json.hpp"
#include "stadium_cli.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/png.hpp"
#include "libmod/stadium/species.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/model.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/palette_use.hpp"
#include "libmod/stadium/rom_archive.hpp"
#include "libmod/stadium/texture_edit.hpp"

#include <cstdio>
#include <sstream>

namespace modkit {

// cmd_stadium_anim.cpp: the animation options of `stadium export --animations`.
mod::stadium::ExportAnimations export_animations_for(const mod::Bytes& rom, std::size_t entry, const std::filesystem::path& in);

namespace {

namespace fs = std::filesystem;
using namespace mod::stadium;
namespace n64 = mod::n64;
namespace img = mod::image;
using namespace stadium_cli;

// ---- edits -------------------------------------------------------------------------------------
struct Session {
    fs::path in;
    StadiumRom rom;
    Archive archive;
    std::size_t index = 0;
    Model model;
};

Session open_session(const po::variables_map& vm) {
    Session s;
    s.in = required(vm, "rom");
    s.index = model_index(vm);
    s.rom = load_rom(s.in);
    s.archive = read_archive(s.rom);
    s.model = read_archive_model(s.archive, s.index);
    return s;
}

void save(const Session& s, const FragmentImage& image, const fs::path& out, const Global& g) {
    RepackOptions opt;
    opt.threads = g.threads;
    const mod::Bytes rom = apply_model_edit(s.rom, s.archive, s.index, image.build(), opt);
    mod::write_file_atomic(out, rom, std::span<const fs::path>(&s.in, 1));
}

void print_palette_json(Json& j, const PaletteEditReport& r) {
    j.begin_object().field("palette", std::uint64_t(r.palette));
    j.key("textures").begin_array();
    for (auto t : r.textures) j.value(std::uint64_t(t));
    j.end_array().key("changes").begin_array();
    for (const auto& c : r.changes)
        j.begin_object().field("slot", c.slot).field("before", mod::hex(c.before, 4)).field("after", mod::hex(c.after, 4))
            .field("requested", rgba_hex(c.requested)).field("result", rgba_hex(c.result)).field("rounded", c.rounded())
            .field("rounding_delta_e", c.rounding_delta_e).end_object();
    j.end_array().end_object();
}

void report_palettes(const Global& g, const std::vector<PaletteEditReport>& reports, const fs::path& out) {
    if (g.json) {
        Json j;
        j.begin_object().field("out", out.string()).key("palettes").begin_array();
        for (const auto& r : reports) print_palette_json(j, r);
        j.end_array().end_object();
        return;
    }
    for (const auto& r : reports) {
        for (const auto& c : r.changes) {
            std::printf("palette %zu slot %3u: %04X -> %04X  asked %s, got %s", r.palette, c.slot, c.before, c.after,
                        rgba_hex(c.requested).c_str(), rgba_hex(c.result).c_str());
            if (c.rounded()) std::printf(" (RGBA5551 rounding, dE %.2f)", c.rounding_delta_e);
            std::printf("\n");
        }
        std::printf("textures drawn with palette %zu:", r.palette);
        for (auto t : r.textures) std::printf(" %zu", t);
        std::printf("\n");
    }
    std::printf("wrote %s\n", out.c_str());
}

int stadium_palette(const po::variables_map& vm, const Global& g) {
    const std::string action = required(vm, "action");
    fs::path out = required(vm, "out");
    if (!vm.count("palette")) usage_error("--palette N is required");
    Session s = open_session(vm);
    FragmentImage image(s.model.fragment);
    const auto pals = vm["palette"].as<std::vector<std::size_t>>();
    const auto locked = slot_list_option(vm, "lock");
    std::vector<PaletteEditReport> reports;
    if (action == "set") {
        if (pals.size() != 1) usage_error("palette set takes one --palette");
        reports.push_back(set_palette_slots(s.model, image, pals[0], slot_colour_option(vm, "set"), locked));
    } else if (action == "hsv") {
        img::HsvShift shift;
        shift.hue_degrees = vm["hue"].as<double>();
        shift.saturation = vm["saturation"].as<double>();
        shift.value = vm["value"].as<double>();
        if (shift.saturation < 0 || shift.value < 0) usage_error("--saturation and --value are non-negative factors");
        for (std::size_t pal : pals)
            reports.push_back(shift_palette_hsv(s.model, image, pal, shift, slot_list_option(vm, "slots"), locked));
    } else {
        usage_error("palette actions: set, hsv");
    }
    save(s, image, out, g);
    report_palettes(g, reports, out);
    return 0;
}

int stadium_texture(const po::variables_map& vm, const Global& g) {
    const std::string action = required(vm, "action");
    if (action != "replace") usage_error("texture actions: replace");
    fs::path out = required(vm, "out");
    if (!vm.count("texture") || !vm.count("png")) usage_error("--texture N and --png FILE are required");
    const auto textures = vm["texture"].as<std::vector<std::size_t>>();
    const auto pngs = vm["png"].as<std::vector<std::string>>();
    if (textures.size() != pngs.size()) usage_error("give one --png per --texture");
    Session s = open_session(vm);
    TextureReplaceOptions o;
    o.mode = parse_ci_mode(vm["mode"].as<std::string>());
    if (vm.count("format")) o.format = n64::parse_texel_format(vm["format"].as<std::string>());
    o.allow_resize = vm.count("resize") > 0;
    o.locked = slot_list_option(vm, "lock");
    o.threads = g.threads;
    std::vector<img::RgbaImage> images;
    std::vector<fs::path> inputs{s.in};
    for (const auto& p : pngs) {
        inputs.push_back(p);
        images.push_back(img::read_png(mod::read_file(p), p));
    }
    FragmentImage image(s.model.fragment);
    std::vector<TextureReport> reports;
    // Several textures fit only one mode: quantised jointly into their shared palette.
    if (o.mode == CiMode::automatic && textures.size() > 1) o.mode = CiMode::shared;
    if (o.mode == CiMode::shared) {
        reports = replace_textures_shared(s.model, image, textures, images, o);
    } else {
        if (textures.size() != 1) usage_error("several textures at once need --mode shared (or auto)");
        reports.push_back(replace_texture(s.model, image, textures[0], images[0], o));
    }
    for (const auto& r : reports)
        if (r.better)
            warn("texture " + std::to_string(r.texture) + ": mean dE " + fixed2(r.mean_delta_e) + " with --mode " +
                 to_string(o.mode) + "; --mode " + to_string(r.better->first) + " gives " + fixed2(r.better->second) +
                 " (--mode auto picks the best)");
    RepackOptions opt;
    opt.threads = g.threads;
    const mod::Bytes rom = apply_model_edit(s.rom, s.archive, s.index, image.build(), opt);
    mod::write_file_atomic(out, rom, inputs);
    if (g.json) {
        Json j;
        j.begin_object().field("mode", to_string(o.mode)).field("out", out.string()).key("textures").begin_array();
        for (const auto& r : reports) {
            j.begin_object().field("texture", std::uint64_t(r.texture));
            if (r.mode) j.field("mode_used", to_string(*r.mode));
            j.key("modes_tried").begin_object();
            for (const auto& [m, de] : r.tried) j.field(to_string(m), de);
            j.end_object();
            if (r.better) j.key("better").begin_object().field("mode", to_string(r.better->first))
                              .field("mean_delta_e", r.better->second).end_object();
            j.field("mean_delta_e", r.mean_delta_e)
                .field("max_delta_e", r.max_delta_e).field("opaque_texels", r.opaque_texels)
                .field("transparent_texels", r.transparent_texels).field("resized", r.resized)
                .field("palette_forked", r.palette_forked).field("palette_added", r.palette_added)
                .field("palette_detached", r.palette_detached);
            if (r.palette) j.field("palette", std::uint64_t(*r.palette));
            j.key("written_slots").begin_array();
            for (auto v : r.written_slots) j.value(v);
            j.end_array().key("touched").begin_array();
            for (auto v : r.touched) j.value(std::uint64_t(v));
            j.end_array().end_object();
        }
        j.end_array().end_object();
        return 0;
    }
    for (const auto& r : reports) {
        std::string mode = r.mode ? std::string("mode ") + to_string(*r.mode) : std::string("direct colour");
        if (r.mode && o.mode == CiMode::automatic) {
            mode += " (auto;";
            for (const auto& [m, de] : r.tried) mode += std::string(" ") + to_string(m) + " " + fixed2(de);
            mode += ")";
        }
        std::printf("texture %zu: %s, mean dE %.2f, max dE %.2f over %llu opaque texels%s%s%s%s\n", r.texture,
                    mode.c_str(), r.mean_delta_e, r.max_delta_e, static_cast<unsigned long long>(r.opaque_texels),
                    r.resized ? ", resized" : "", r.palette_forked ? ", palette forked" : "",
                    r.palette_added ? ", new palette" : "", r.palette_detached ? ", palette detached" : "");
        if (r.palette) std::printf("  palette %zu, %zu slots written\n", *r.palette, r.written_slots.size());
        if (!r.touched.empty()) {
            std::printf("  other textures whose colours changed:");
            for (auto t : r.touched) std::printf(" %zu", t);
            std::printf("\n");
        }
    }
    std::printf("wrote %s\n", out.c_str());
    return 0;
}

// ---- export ----------------------------------------------------------------------------------
int stadium_export(const po::variables_map& vm, const Global& g) {
    Session s = open_session(vm);
    fs::path out = required(vm, "out");
    ExportAnimations anims;  // --animations: cmd_stadium_anim.cpp's export_animations_for
    if (vm.count("animations")) anims = export_animations_for(s.rom.z64, s.index, s.in);
    const ModelExport e = export_model(s.model, out, std::span<const fs::path>(&s.in, 1), anims);
    for (const auto& w : e.warnings) warn(w);
    if (g.json) {
        Json j;
        j.begin_object().field("out", e.file.string()).field("textures_dir", e.texture_dir.string())
            .field("bones", std::uint64_t(s.model.bones.size()))
            .field("triangles", std::uint64_t(s.model.triangles.size()))
            .field("embedded_textures", std::uint64_t(e.embedded_textures)).field("animations", std::uint64_t(e.animations))
            .key("wrap_notes").begin_array();
        for (const auto& n : e.wrap_notes) j.value(n);
        j.end_array().end_object();
    } else {
        // (materials, not distinct images: two materials of one texture count twice)
        std::printf("exported model %zu (%zu bones, %zu triangles, %zu material(s) with an embedded texture) to %s, "
                    "PNGs in %s\n", s.index,
                    s.model.bones.size(), s.model.triangles.size(), e.embedded_textures, e.file.c_str(),
                    e.texture_dir.c_str());
        for (const auto& n : e.wrap_notes) std::printf("  glTF wrap approximated: %s\n", n.c_str());
        if (anims.enabled) std::printf("  %zu animations\n", e.animations);
    }
    return 0;
}

int stadium_textures(const po::variables_map& vm, const Global& g) {
    Session s = open_session(vm);
    fs::path dir = required(vm, "out");
    const TextureExport e = export_textures(s.model, dir);
    for (const auto& w : e.warnings) warn(w);
    if (g.json) {
        Json j;
        j.begin_object().field("dir", dir.string()).field("textures", std::uint64_t(e.textures.size()))
            .field("palettes", std::uint64_t(e.palettes.size())).end_object();
    } else {
        std::printf("wrote %zu textures and %zu palettes to %s (index: textures.json)\n", e.textures.size(),
                    e.palettes.size(), dir.c_str());
    }
    return 0;
}

void declare_edit(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("action", po::value<std::string>(), "action")("rom", po::value<std::string>(), "ROM image")(
        "model", number<std::size_t>(), "model archive entry index")("out", po::value<std::string>(),
                                                                         "output ROM (input's byte order)")(
        "lock", po::value<std::vector<std::string>>()->multitoken(), "palette slots that must not change (e.g. 0,5)");
    p.add("action", 1).add("rom", 1).add("model", 1).add("out", 1);
}

void declare_out(po::options_description& o, po::positional_options_description& p) {
    declare_rom_model(o, p);
    o.add_options()("out", po::value<std::string>(), "output");
    p.add("out", 1);
}

const Registrar stadium_model_group({"stadium", "Pokémon Stadium model archive, PERS-SZP entries and FRAGMENTs", {
    {"palette", "set|hsv ROM MODEL OUT --palette N… [--set SLOT=RRGGBB[AA]…] [--hue D --saturation F --value F] "
                "[--slots S] [--lock S]",
     "recolour a model palette in place (RGBA5551 rounding reported), writing a complete ROM",
     [](auto& o, auto& p) {
         declare_edit(o, p);
         o.add_options()("palette", number_list<std::size_t>()->multitoken(), "palette index (hsv: repeat --palette for several)")(
             "set", po::value<std::vector<std::string>>()->multitoken(), "SLOT=RRGGBB[AA] (hex)")(
             "hue", number<double>()->default_value(0.0), "degrees added to the hue")(
             "saturation", number<double>()->default_value(1.0), "saturation factor")(
             "value", number<double>()->default_value(1.0), "value factor")(
             "slots", po::value<std::vector<std::string>>()->multitoken(), "slots to shift (default all)");
     },
     stadium_palette},
    {"texture", "replace ROM MODEL OUT --texture N --png FILE [--mode auto|reindex|constrained|fork|shared] "
                "[--format F --resize] [--lock S]",
     "replace a texture from a PNG (CI: quantisation modes), writing a complete ROM",
     [](auto& o, auto& p) {
         declare_edit(o, p);
         o.add_options()("texture", number_list<std::size_t>()->multitoken(), "texture index (several for shared)")(
             "png", po::value<std::vector<std::string>>()->multitoken(), "PNG image (one per texture)")(
             "mode", po::value<std::string>()->default_value("auto"),
             "CI textures: how the palette may change.\n"
             "  auto: try reindex, constrained and fork, keep the lowest mean dE\n"
             "  reindex: map onto the existing palette (palette unchanged)\n"
             "  constrained: re-quantise the palette, slots other textures use locked\n"
             "  fork: a new palette for this texture only (appended)\n"
             "  shared: several textures of one palette quantised jointly")(
             "format", po::value<std::string>(), "new texel format (with --resize)")(
             "resize", "allow another size or format (rewrites the descriptor and load words)");
     },
     stadium_texture},
    {"export", "ROM MODEL OUT.glb|OUT.gltf|DIR [--animations]",
     "export the model (bind pose, skinning; --animations: skeletal and texture animations); its textures as PNG go to "
     "OUT_textures/ (or DIR)",
     [](auto& o, auto& p) {
         declare_out(o, p);
         o.add_options()("animations", "add every skeletal and texture animation (named after the moves that play them)");
     },
     stadium_export},
    {"textures", "ROM MODEL DIR", "write every texture and palette as PNG with textures.json", declare_out,
     stadium_textures},
}});

}  // namespace
}  // namespace modkit
