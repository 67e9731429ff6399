// Pokémon Stadium animation operations: animation.replace (a skeletal animation re-encoded
// from a glTF animation). A thin call into libmod/stadium/animation_replace.hpp, the same
// function `modkit stadium animation replace` uses.
#include "operation.hpp"

#include "libmod/stadium/animation_replace.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"

namespace mod::manifest::detail {

namespace {

using namespace mod::stadium;

AnimationReplaceOptions anim_options(const EditEnv& env) {
    AnimationReplaceOptions o;
    if (env.has("animation")) {
        const auto& v = env.params["animation"];
        o.animation = v.IsString() ? std::string(v.GetString()) : std::to_string(v.GetUint64());  // schema: string or index
    }
    return o;
}

void plan_animation_replace(const EditEnv& env, PlannedEdit& out) {
    const auto shared = workspace_archive(env.target);  // parsed once per change of the ROM
    const Archive& archive = *shared;
    const std::size_t model = env.u64("model"), index = env.u64("index");
    const Model m = read_archive_model(archive, model);
    if (index >= m.map.animations.size())
        env.fail("index", "model " + std::to_string(model) + " has " + std::to_string(m.map.animations.size()) +
                              " skeletal animation(s); there is no animation " + std::to_string(index));
    const std::string entry = "archive[" + std::to_string(model) + "]";
    out.touches.push_back(touch(env.target, entry + ".animation[" + std::to_string(index) + "]", 0, to_end, true,
                                "skeletal animation " + std::to_string(index) + " (re-pointed to new data)"));
    out.touches.push_back(touch(env.target, entry, 0, to_end, false, "re-encodes entry " + std::to_string(model)));
    out.touches.push_back(touch(env.target, "bytes", model_archive_rom, to_end, false, "the model archive (repacked)"));
    out.limits.push_back("frame count 1..65535; motion stops by frame 254 (u8 stream counts); translations s16; "
                         "scales s16/1000; stream offsets u16");
    out.limits.push_back("compressed entry <= 0x28000 bytes, decompressed + 0x10 <= 0x3C000, fragment < 0x100000");
    out.summary = "replace skeletal animation " + std::to_string(index) + " of model " + std::to_string(model) + " from " +
                  env.text("source");
}

void apply_animation_replace(EditEnv& env, ReportOut& r) {
    const auto shared = workspace_archive(env.target);  // parsed once per change of the ROM
    const Archive& archive = *shared;
    const std::size_t model = env.u64("model"), index = env.u64("index");
    const Bytes glb = env.read("source");
    RepackOptions opt;
    opt.threads = env.threads;
    // The workspace bytes (z64) move into the StadiumRom and back: no copy of the image.
    StadiumRom rom{n64::ByteOrder::z64, std::move(env.target.current), env.target.display};
    RomAnimationReplace done;
    try {
        done = replace_animation_in_rom(rom, archive, model, index, glb, env.path("source").string(), anim_options(env), opt);
    } catch (...) {
        env.target.current = std::move(rom.z64);
        throw;
    }
    env.target.current = std::move(done.rom);  // z64, as the input
    const AnimationReplaceReport& p = done.report;
    r.set("model", std::uint64_t(model)).set("index", std::uint64_t(index)).set("source_animation", p.source_animation)
        .set("previous_mode", std::string(p.previous_hermite ? "hermite" : "packed"))
        .set("frame_count", std::uint64_t(p.frame_count)).set("hold", p.hold)
        .set("translation_bits", std::uint64_t(p.trans16 ? 16 : 12)).set("channels", std::uint64_t(p.channels))
        .set("constants", std::uint64_t(p.constants)).set("streams", std::uint64_t(p.streams))
        .set("bytes_added", std::uint64_t(p.bytes_added)).set("unchanged", p.unchanged);
    rapidjson::Value err(rapidjson::kObjectType);
    err.AddMember("rotation_degrees", p.error.rotation_degrees, r.a).AddMember("translation", p.error.translation, r.a)
        .AddMember("scale", p.error.scale, r.a);
    r.set("max_error", std::move(err));
    rapidjson::Value animated(rapidjson::kArrayType), kept(rapidjson::kArrayType);
    for (const auto& b : p.bones_animated) animated.PushBack(r.str(b), r.a);
    for (const auto& b : p.bones_kept) kept.PushBack(r.str(b), r.a);
    r.set("bones_animated", std::move(animated)).set("bones_kept", std::move(kept));
    for (const auto& w : p.warnings) r.warn("animation " + std::to_string(index) + " of model " + std::to_string(model) + ": " + w);
}

}  // namespace

void register_stadium_anim_ops(OpTable& ops) {
    add_op(ops, OpInfo{"animation.replace", Game::pokemon_stadium, plan_animation_replace, apply_animation_replace});
}

}  // namespace mod::manifest::detail
