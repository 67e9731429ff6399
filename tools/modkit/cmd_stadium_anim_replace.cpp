// modkit stadium animation replace: a model's skeletal animation re-encoded from a glTF
// animation (packed mode), written into the ROM. Thin layer over
// libmod/stadium/animation_replace.hpp (the same call the manifest's animation.replace makes).
#include "cli.hpp"
#include "json.hpp"

#include "libmod/core/file.hpp"
#include "libmod/stadium/animation_replace.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <cstdio>

namespace modkit {
namespace {

namespace fs = std::filesystem;
using namespace mod::stadium;

int stadium_animation(const po::variables_map& vm, const Global& g) {
    const std::string action = required(vm, "action");
    if (action != "replace") usage_error("animation actions: replace");
    const fs::path in = required(vm, "rom"), source = required(vm, "source"), out = required(vm, "out");
    if (!vm.count("model")) usage_error("MODEL (archive entry index) is required");
    if (!vm.count("index")) usage_error("INDEX (skeletal animation index) is required");
    const std::size_t model = vm["model"].as<std::size_t>(), index = vm["index"].as<std::size_t>();
    AnimationReplaceOptions o;
    if (vm.count("animation")) o.animation = vm["animation"].as<std::string>();
    o.camera_bones_as_trs = vm.count("camera-bones-as-trs") > 0;
    const StadiumRom rom = load_rom(in);
    const Archive archive = read_archive(rom);
    const mod::Bytes glb = mod::read_file(source);
    RepackOptions opt;
    opt.threads = g.threads;
    const RomAnimationReplace r = replace_animation_in_rom(rom, archive, model, index, glb, source.string(), o, opt);
    const fs::path inputs[] = {in, source};
    mod::write_file_atomic(out, r.rom, inputs);
    const AnimationReplaceReport& p = r.report;
    for (const auto& w : p.warnings) warn(w);
    if (g.json) {
        Json j;
        j.begin_object().field("model", std::uint64_t(model)).field("index", std::uint64_t(index))
            .field("source_animation", p.source_animation).field("previous_mode", p.previous_hermite ? "hermite" : "packed")
            .field("frame_count", unsigned(p.frame_count)).field("hold", p.hold).field("start_frame", int(p.start_frame))
            .field("loop_frame", int(p.loop_frame)).field("translation_bits", p.trans16 ? 16u : 12u)
            .field("channels", std::uint64_t(p.channels)).field("constants", std::uint64_t(p.constants))
            .field("streams", std::uint64_t(p.streams)).field("shared_streams", std::uint64_t(p.shared_streams))
            .key("max_error").begin_object().field("rotation_degrees", p.error.rotation_degrees)
            .field("translation", p.error.translation).field("scale", p.error.scale).end_object()
            .field("header", std::uint64_t(p.header)).field("bytes_added", std::uint64_t(p.bytes_added))
            .field("unchanged", p.unchanged).key("bones_animated").begin_array();
        for (const auto& b : p.bones_animated) j.value(b);
        j.end_array().key("bones_kept").begin_array();
        for (const auto& b : p.bones_kept) j.value(b);
        j.end_array().key("warnings").begin_array();
        for (const auto& w : p.warnings) j.value(w);
        j.end_array().field("out", out.string()).end_object();
        return 0;
    }
    if (p.unchanged) {
        std::printf("animation %zu of entry %zu: \"%s\" samples as the stored animation already does (%u frames, %zu "
                    "channels): kept as it is\nwrote %s (the input's bytes)\n",
                    index, model, mod::escape_controls(p.source_animation).c_str(), unsigned(p.frame_count), p.channels,
                    out.c_str());
        return 0;
    }
    std::printf("animation %zu of entry %zu replaced from \"%s\": packed, %u frames (%s, start %d, loop %d), %u-bit "
                "translations, %zu channels (%zu constants, %zu streams)\n",
                index, model, mod::escape_controls(p.source_animation).c_str(), unsigned(p.frame_count), p.hold ? "hold" : "loop",
                int(p.start_frame), int(p.loop_frame), p.trans16 ? 16u : 12u, p.channels, p.constants, p.streams);
    std::printf("  bones animated: %zu, kept at bind: %zu\n", p.bones_animated.size(), p.bones_kept.size());
    std::printf("  max quantisation error: rotation %.4f deg, translation %.4f units, scale %.5f\n", p.error.rotation_degrees,
                p.error.translation, p.error.scale);
    std::printf("  fragment grew by %u bytes (new header at 0x%X)\nwrote %s\n", unsigned(p.bytes_added), unsigned(p.header),
                out.c_str());
    return 0;
}

const Registrar stadium_anim_replace_group({"stadium", "Pokémon Stadium model archive, PERS-SZP entries and FRAGMENTs", {
    {"animation", "replace ROM MODEL INDEX SOURCE.glb OUT [--animation NAME|N] [--camera-bones-as-trs] [--json]",
     "replace a skeletal animation from a glTF animation (re-encoded packed; quantisation reported), writing a complete ROM",
     [](auto& o, auto& p) {
         o.add_options()("action", po::value<std::string>(), "action")(
             "rom", po::value<std::string>(), "ROM image (z64, v64 or n64 byte order)")(
             "model", number<std::size_t>(), "model archive entry index (0-based)")(
             "index", number<std::size_t>(), "skeletal animation index in the model")(
             "source", po::value<std::string>(), "glTF binary (.glb) with the animation; joints named as stadium export names bones")(
             "out", po::value<std::string>(), "output ROM (input's byte order)")(
             "animation", po::value<std::string>(),
             "which animation of SOURCE: its name or index (default: the only one, or the one named animation<INDEX>…)")(
             "camera-bones-as-trs",
             "write the keys of camera-facing bones (0x1D flag bit 1) as T, R, S anyway (default: refused; they are not "
             "what the game applies)");
         p.add("action", 1).add("rom", 1).add("model", 1).add("index", 1).add("source", 1).add("out", 1);
     },
     stadium_animation},
}});

}  // namespace
}  // namespace modkit
