// Replacing a skeletal animation from a glTF animation (contract in animation_replace.hpp).
#include "libmod/stadium/animation_replace.hpp"

#include "libmod/core/error.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "stadium/gltf_animation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

namespace mod::stadium {

namespace {

[[noreturn]] void fail(ErrorKind kind, const std::string& file, const std::string& message) {
    throw Error(kind, message, file);
}

bool all_digits(const std::string& s) {
    return !s.empty() && s.size() < 10 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string names_text(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "\"" : ", \"") + escape_controls(n) + "\"";
    return s;
}

// "animation<INDEX>" / "anim<INDEX>" followed by a non-digit or the end.
bool names_index(const std::string& name, std::size_t index) {
    for (const std::string prefix : {"animation", "anim"}) {
        if (name.rfind(prefix, 0) != 0) continue;
        std::size_t p = prefix.size();
        while (p < name.size() && (name[p] == '_' || name[p] == ' ' || name[p] == '-')) ++p;
        std::size_t q = p;
        while (q < name.size() && std::isdigit(static_cast<unsigned char>(name[q]))) ++q;
        if (q == p || q - p > 6) continue;
        if (std::stoul(name.substr(p, q - p)) == index) return true;
    }
    return false;
}

std::size_t pick_animation(const gltf::File& f, const std::string& file, std::size_t index, const AnimationReplaceOptions& o) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < f.animations.size(); ++i)
        names.push_back(f.animations[i].name.empty() ? "#" + std::to_string(i) : f.animations[i].name);
    if (f.animations.empty()) fail(ErrorKind::format, file, "the glTF file has no animations");
    if (o.animation) {
        for (std::size_t i = 0; i < f.animations.size(); ++i)
            if (f.animations[i].name == *o.animation) return i;
        if (all_digits(*o.animation)) {
            const std::size_t i = std::stoul(*o.animation);
            if (i < f.animations.size()) return i;
        }
        fail(ErrorKind::usage, file, "no animation \"" + escape_controls(*o.animation) + "\"; the file has " + names_text(names));
    }
    if (f.animations.size() == 1) return 0;
    std::vector<std::size_t> hits;
    for (std::size_t i = 0; i < f.animations.size(); ++i)
        if (f.animations[i].index && *f.animations[i].index == std::int64_t(index)) hits.push_back(i);
    if (hits.size() == 1) return hits[0];
    hits.clear();
    for (std::size_t i = 0; i < f.animations.size(); ++i)
        if (names_index(f.animations[i].name, index)) hits.push_back(i);
    if (hits.size() == 1) return hits[0];
    fail(ErrorKind::usage, file, "the file has " + std::to_string(f.animations.size()) + " animations (" + names_text(names) +
                                     "); choose one with --animation NAME|N (manifest: \"animation\")");
}

// Does the stored animation `old` already give what `samples` asks, on every channel a bone
// carries (owner) and every frame, with the same header values (hold, start and loop frame,
// frame and channel counts)? Rotations are compared as matrices (Euler triples that build the
// same rotation are the same pose: export and import may pick the other one), translations and
// scales within float precision of what an export writes. When so, replacing would only
// re-encode what is there (an unedited export read back), and the stored bytes are kept.
bool samples_as_stored(const SkeletalAnimationData& old, const std::vector<std::vector<PoseSample>>& samples,
                       const std::vector<std::optional<std::size_t>>& owner, const AnimationReplaceReport& rep) {
    if (old.channel_count() != samples.size() || old.frame_count != rep.frame_count || old.hold() != rep.hold ||
        old.start_frame != rep.start_frame || old.loop_frame != rep.loop_frame)
        return false;
    // Far below one quantisation step (1 unit, 0.001) however large the value: a float32 export
    // of 32767 is within 0.004 of it, and the export's decomposition of a bone under a scaled
    // parent (local = parent⁻¹ · global in float) moves 15232 by 0.0054 (sample entry 3): a few
    // float32 ulps, allowed as 1e-6 of the value.
    const auto close = [](double a, double b, double tolerance) {
        return std::fabs(a - b) <= tolerance + 1e-6 * std::fabs(a);
    };
    // Angles as the game draws them: its SINS/COSS read a 4096-entry table (the angle >> 4), so a
    // Hermite key's angle between two steps draws as the step below (export does the same). The
    // source's are rounded first: an export gives multiples of 16 to within float noise; a source
    // holding the Hermite values themselves draws as they do.
    const auto drawn = [](std::int16_t r) { return double((std::int32_t(r) >> 4) * 16); };
    const auto drawn_source = [&](double r) { return drawn(std::int16_t(std::int32_t(std::llround(r)) & 0xFFFF)); };
    for (std::size_t c = 0; c < samples.size(); ++c) {
        if (!owner[c]) continue;  // no bone draws it
        for (std::size_t f = 0; f < samples[c].size(); ++f) {
            const ChannelPose o = sample_channel(old, c, static_cast<std::int32_t>(f));
            const PoseSample& n = samples[c][f];
            const Matrix3 ro = rotation_matrix({drawn(o.rotation[0]), drawn(o.rotation[1]), drawn(o.rotation[2])});
            const Matrix3 rn = rotation_matrix({drawn_source(n.rotation[0]), drawn_source(n.rotation[1]), drawn_source(n.rotation[2])});
            for (int k = 0; k < 9; ++k)
                if (std::fabs(ro[k] - rn[k]) > 1e-5) return false;
            for (int k = 0; k < 3; ++k)
                if (!close(o.translation[k], n.translation[k], 1e-3) || !close(o.scale[k], n.scale[k], 1e-4)) return false;
        }
    }
    return true;
}

struct BoneTracks {
    std::optional<std::size_t> path[3];  // sampler per translation, rotation, scale
};

std::array<double, 3> bind_rotation(const ModelBone& b) {
    return {double(b.rotation[0]), double(b.rotation[1]), double(b.rotation[2])};
}

// One bone's poses per frame from its tracks (bind values where a path is not animated).
std::vector<PoseSample> bone_samples(const ModelBone& b, const BoneTracks* tracks, const gltf::Animation& a,
                                     std::size_t frames) {
    std::vector<PoseSample> out(frames);
    std::array<double, 3> reference = bind_rotation(b);
    for (std::size_t f = 0; f < frames; ++f) {
        PoseSample& p = out[f];
        const double t = double(f) / frames_per_second;
        for (int k = 0; k < 3; ++k) {
            p.translation[k] = b.translation[k];
            p.rotation[k] = b.rotation[k];
            p.scale[k] = b.scale[k] / 65536.0;
        }
        if (!tracks) continue;
        if (tracks->path[0]) {
            const auto v = a.samplers[*tracks->path[0]].evaluate(t, false);
            for (int k = 0; k < 3; ++k) p.translation[k] = v[k];
        }
        if (tracks->path[1]) {
            const auto q = a.samplers[*tracks->path[1]].evaluate(t, true);
            p.rotation = euler_from_matrix(quaternion_matrix(q), reference);
            reference = p.rotation;
        }
        if (tracks->path[2]) {
            const auto v = a.samplers[*tracks->path[2]].evaluate(t, false);
            for (int k = 0; k < 3; ++k) p.scale[k] = v[k];
        }
    }
    return out;
}

// A joint `stadium export` writes for texture animations: "texswitch_mat<M>_tex<T>_<bone>".
bool is_texture_switch_joint(const std::string& name) { return name.starts_with("texswitch_mat"); }

// When a key time of a bone's sampler is off the game's frame grid (more than 1% of a frame):
// the rate the keys are at ("at 24 fps" when the smallest key interval is within 1% of a
// whole rate, else "every 0.0417 s"); nullopt when every key is on a frame.
struct OffGrid {
    std::string rate;  // "at 24 fps" or "every 0.0417 s"
    double gap = 0;    // the smallest key interval, s (0: a single key)
};

std::optional<OffGrid> off_grid_key_rate(const gltf::Animation& a, const std::map<std::size_t, BoneTracks>& tracks) {
    bool off = false;
    double gap = 0;
    for (const auto& [bone, t] : tracks)
        for (const auto& slot : t.path) {
            if (!slot) continue;
            const auto& times = a.samplers[*slot].times;
            for (std::size_t k = 0; k < times.size(); ++k) {
                const double f = double(times[k]) * frames_per_second;
                off = off || std::fabs(f - std::round(f)) > 0.01;
                if (k && times[k] > times[k - 1]) {
                    const double d = double(times[k]) - double(times[k - 1]);
                    gap = gap > 0 ? std::min(gap, d) : d;
                }
            }
        }
    if (!off) return std::nullopt;
    char buf[64];
    const double rate = gap > 0 ? 1.0 / gap : 0;
    if (rate > 0 && std::fabs(rate - std::round(rate)) < 0.01 * rate) std::snprintf(buf, sizeof buf, "at %g fps", std::round(rate));
    else std::snprintf(buf, sizeof buf, "every %.4g s", gap);
    return OffGrid{buf, gap};
}

// A client that resamples an animation at its own rate (Blender: 24 fps) keys whole frames of
// that rate only, so it drops the part of the clip after its last whole frame: less than one of
// its frames. Keys off the game's grid that end that little before the replaced animation's
// end keep the replaced animation's length (real-clients-t3.md §3.3: 8 frames became 7).
bool client_dropped_the_tail(const OffGrid& grid, double duration, double old_length) {
    return grid.gap > 0 && duration < old_length && old_length - duration < grid.gap * 1.01;
}

// Whether two poses give the same bone matrix within the format's quantisation.
bool same_pose(const PoseSample& a, const PoseSample& b) {
    for (int k = 0; k < 3; ++k)
        if (std::fabs(a.translation[k] - b.translation[k]) > 0.5 || std::fabs(a.scale[k] - b.scale[k]) > 0.0005) return false;
    const Matrix3 ma = rotation_matrix(a.rotation), mb = rotation_matrix(b.rotation);
    for (int i = 0; i < 9; ++i)
        if (std::fabs(ma[i] - mb[i]) > 2e-3) return false;  // ~ one 16-step of the 12-bit fields
    return true;
}

}  // namespace

std::string animation_bone_name(const Model& model, std::size_t bone) {
    return "bone" + std::to_string(bone) + "_id" + std::to_string(model.bones.at(bone).id);
}

AnimationReplaceReport replace_animation(const Model& model, FragmentImage& image, std::size_t index, ByteView source,
                                         const std::string& source_name, const AnimationReplaceOptions& options) {
    const std::size_t count = model.map.animations.size();
    if (index >= count)
        throw Error(ErrorKind::usage, "the model has " + std::to_string(count) + " skeletal animation(s); there is no animation " +
                                          std::to_string(index));
    const SkeletalAnimationData old = read_skeletal_animation(model, index);
    const gltf::File file = gltf::read_glb_animations(source, source_name);
    const std::size_t which = pick_animation(file, source_name, index, options);
    const gltf::Animation& a = file.animations[which];
    const std::string anim_path = "animations[" + std::to_string(which) + "]";

    AnimationReplaceReport rep;
    rep.index = index;
    rep.source_animation = a.name.empty() ? "#" + std::to_string(which) : a.name;
    rep.source_animation_index = which;
    rep.previous_hermite = old.hermite();

    // Joints by name.
    std::map<std::string, std::size_t> bone_of;
    for (std::size_t b = 0; b < model.bones.size(); ++b) bone_of.emplace(animation_bone_name(model, b), b);
    std::map<std::size_t, BoneTracks> tracks;
    std::set<std::string> unknown, helpers;
    for (std::size_t i = 0; i < a.channels.size(); ++i) {
        const auto& ch = a.channels[i];
        const std::string& name = file.node_names[ch.node];
        auto it = bone_of.find(name);
        if (it == bone_of.end() && is_texture_switch_joint(name)) {
            helpers.insert(name);  // modkit's own helper (export.hpp); Blender keys it in every action
            continue;
        }
        if (it == bone_of.end()) {
            unknown.insert(name.empty() ? "(unnamed node " + std::to_string(ch.node) + ")" : name);
            continue;
        }
        auto& slot = tracks[it->second].path[static_cast<int>(ch.path)];
        if (slot)
            throw Error(ErrorKind::format, "two channels animate the same path of node \"" + escape_controls(name) + "\"",
                        source_name, no_offset, "glb.json." + anim_path + ".channels[" + std::to_string(i) + "]");
        slot = ch.sampler;
    }
    if (!unknown.empty())
        throw Error(ErrorKind::format,
                    "animation \"" + escape_controls(rep.source_animation) + "\" moves " + std::to_string(unknown.size()) +
                        " joint(s) the model does not have: " + names_text({unknown.begin(), unknown.end()}) +
                        " (the model's bones are bone<i>_id<id>, bone0_id" +
                        (model.bones.empty() ? std::string("…") : std::to_string(model.bones[0].id)) + " …)",
                    source_name, no_offset, "glb.json." + anim_path);

    if (!helpers.empty())
        rep.warnings.push_back(std::to_string(helpers.size()) + " texture-animation helper joint(s) that `stadium export` "
                               "writes (texswitch_*) are keyed and were ignored: texture animations are kept as they are");

    // Frames and timing.
    // The keys decide the length (an edited file may be longer or shorter than its extras say).
    const auto grid = off_grid_key_rate(a, tracks);
    const double old_length = double(old.frame_count - 1) / frames_per_second;  // s
    const bool keep_length = grid && client_dropped_the_tail(*grid, a.duration, old_length);
    std::int64_t frames = 0;
    if (keep_length) frames = old.frame_count;
    else if (a.duration * frames_per_second > 65534.5) frames = 65536;
    else frames = std::llround(a.duration * frames_per_second) + 1;
    if (grid) {
        char buf[320];
        if (keep_length)
            std::snprintf(buf, sizeof buf,
                          "; they end %.4g s before the replaced animation's %u frames (%.4g s), less than one of "
                          "their own frames (a client resampling at its own rate drops that much), so its %u frames "
                          "are kept and the last key is held to the end",
                          old_length - a.duration, unsigned(old.frame_count), old_length, unsigned(old.frame_count));
        else
            std::snprintf(buf, sizeof buf, " over the same %.4g s (%lld frames)", a.duration, static_cast<long long>(frames));
        char rate[160];
        std::snprintf(rate, sizeof rate, "the keys are %s, not on the game's %g fps frames: resampled at %g fps",
                      grid->rate.c_str(), frames_per_second, frames_per_second);
        rep.warnings.push_back(std::string(rate) + buf +
                               "; for an exact round trip set the scene's frame rate to 30 before exporting "
                               "(Blender's default is 24)");
    }
    if (frames < 1 || frames > 0xFFFF)
        throw Error(ErrorKind::limit, "the animation has " + std::to_string(frames) + " frames at 30 fps (" +
                                          std::to_string(a.duration) + " s); the header's frame count is a u16 (1..65535)",
                    source_name);
    rep.frame_count = static_cast<std::uint16_t>(frames);
    if (old.frame_count != frames)
        rep.warnings.push_back("the replaced animation has " + std::to_string(old.frame_count) + " frames; the new one has " +
                               std::to_string(frames) + " (its keys span " + std::to_string(a.duration) + " s at 30 fps)");
    if (a.frame_count && *a.frame_count != frames)
        rep.warnings.push_back("extras.frame_count says " + std::to_string(*a.frame_count) + " frames; the keys span " +
                               std::to_string(frames) + " at 30 fps, which are written");
    rep.hold = a.hold.value_or(old.hold());
    auto frame_field = [&](const std::optional<std::int64_t>& given, std::int16_t original, const char* what) -> std::int16_t {
        if (given) {
            if (*given < 0 || *given >= frames)
                throw Error(ErrorKind::usage, std::string("extras.") + what + " " + std::to_string(*given) +
                                                  " is not a frame of the " + std::to_string(frames) + "-frame animation",
                            source_name, no_offset, "glb.json." + anim_path);
            return static_cast<std::int16_t>(*given);
        }
        if (original < 0 || original >= frames) {
            rep.warnings.push_back(std::string("the replaced animation's ") + what + " " + std::to_string(original) +
                                   " is past the new " + std::to_string(frames) + " frames: set to 0");
            return 0;
        }
        return original;
    };
    rep.loop_frame = frame_field(a.loop_frame, old.loop_frame, "loop_frame");
    rep.start_frame = frame_field(a.start_frame, old.start_frame, "start_frame");

    // Channels: what the bones bind.
    std::size_t channels = old.channel_count();
    for (const auto& b : model.bones)
        if (b.channel != 0xFF) channels = std::max<std::size_t>(channels, std::size_t(b.channel) + 1);
    rep.channels = channels;
    const auto binds = [&](std::uint8_t c) { return 3u * c + 2u < 3u * channels; };

    std::vector<std::vector<PoseSample>> samples(channels);
    std::vector<std::optional<std::size_t>> owner(channels);  // the bone whose motion a channel carries
    std::vector<std::vector<PoseSample>> per_bone(model.bones.size());
    for (std::size_t b = 0; b < model.bones.size(); ++b) {
        const auto it = tracks.find(b);
        per_bone[b] = bone_samples(model.bones[b], it == tracks.end() ? nullptr : &it->second, a, static_cast<std::size_t>(frames));
        (it == tracks.end() ? rep.bones_kept : rep.bones_animated).push_back(animation_bone_name(model, b));
    }
    // Camera-facing bones (0x1D flag bit 1): their glTF TRS is not the game's T, R, S (issue 33, A18).
    for (std::size_t b = 0; b < model.bones.size(); ++b) {
        if (!(model.bones[b].flags & 2) || !tracks.count(b) || !binds(model.bones[b].channel)) continue;
        const std::string what = "bone " + animation_bone_name(model, b) +
                                 " has 0x1D flag bit 1 (camera-facing: the game orients it by the view matrix, "
                                 "src/12D80.c func_80010228), so its glTF keys are not the translation, rotation and "
                                 "scale the game applies (export wrote them with an identity view)";
        if (!options.camera_bones_as_trs)
            throw Error(ErrorKind::conflict, what + "; remove its channels from the animation to keep its bind values, or "
                                                    "pass --camera-bones-as-trs to write its keys as T, R, S anyway",
                        source_name);
        rep.warnings.push_back(what + ": written as T, R, S (--camera-bones-as-trs)");
    }
    for (std::size_t b = 0; b < model.bones.size(); ++b) {
        const std::uint8_t c = model.bones[b].channel;
        const bool animated = tracks.count(b) > 0;
        if (!binds(c)) {
            if (!animated) continue;
            const std::vector<PoseSample> bind = bone_samples(model.bones[b], nullptr, a, 1);
            for (std::size_t f = 0; f < per_bone[b].size(); ++f)
                if (!same_pose(per_bone[b][f], bind[0]))
                    throw Error(ErrorKind::conflict, "bone " + animation_bone_name(model, b) + " has animation channel " +
                                                         std::to_string(c) + ", which the game never binds: it cannot move, "
                                                         "but the animation moves it at frame " + std::to_string(f),
                                source_name);
            continue;
        }
        if (!owner[c]) {
            owner[c] = b;
            samples[c] = per_bone[b];
            continue;
        }
        const std::size_t first = *owner[c];
        // A later bone of a shared channel: the animated one carries the channel.
        if (animated && !tracks.count(first)) {
            owner[c] = b;
            samples[c] = per_bone[b];
        }
    }
    for (std::size_t b = 0; b < model.bones.size(); ++b) {
        const std::uint8_t c = model.bones[b].channel;
        if (!binds(c) || *owner[c] == b) continue;
        for (std::size_t f = 0; f < per_bone[b].size(); ++f)
            if (tracks.count(b) && !same_pose(per_bone[b][f], samples[c][f]))
                throw Error(ErrorKind::conflict, "bones " + animation_bone_name(model, *owner[c]) + " and " +
                                                     animation_bone_name(model, b) + " share animation channel " +
                                                     std::to_string(c) + " (the game moves them together) but the "
                                                     "animation moves them differently at frame " + std::to_string(f),
                            source_name);
        if (!tracks.count(b) && tracks.count(*owner[c]))
            rep.warnings.push_back("bone " + animation_bone_name(model, b) + " shares channel " + std::to_string(c) + " with " +
                                   animation_bone_name(model, *owner[c]) + ": it moves with it");
    }
    for (std::size_t c = 0; c < channels; ++c)
        if (!owner[c]) samples[c].assign(static_cast<std::size_t>(frames), PoseSample{});

    EncodeOptions eo;
    eo.flags = static_cast<std::uint16_t>((old.flags & ~anim_flag::hold) | (rep.hold ? anim_flag::hold : 0));
    eo.unknown2 = old.unknown2;
    eo.start_frame = rep.start_frame;
    eo.loop_frame = rep.loop_frame;
    eo.frame_count = static_cast<std::uint32_t>(frames);
    EncodedAnimation enc;
    try {
        enc = encode_packed(samples, eo);
    } catch (Error& e) {
        e.set_file_if_empty(source_name);
        throw;
    }
    rep.trans16 = enc.trans16;
    rep.constants = enc.constants;
    rep.streams = enc.streams;
    rep.shared_streams = enc.shared_streams;
    rep.error = enc.error;
    rep.expected = enc.expected;
    if (samples_as_stored(old, samples, owner, rep)) {
        rep.unchanged = true;
        rep.header = old.header;
        rep.error = {};
        rep.expected.assign(channels, {});
        for (std::size_t c = 0; c < channels; ++c)
            for (std::size_t f = 0; f < std::size_t(frames); ++f) rep.expected[c].push_back(sample_channel(old, c, std::int32_t(f)));
        return rep;
    }

    // The header: rewritten in place (its four pointer words are relocated already), unless
    // another root entry shares it; then a new one is appended and root entry INDEX re-pointed.
    const SkeletalAnimation& s = enc.animation;
    ByteWriter hw(Endian::big);
    hw.u16(s.flags);
    hw.u8(s.unknown2[0]);
    hw.u8(s.unknown2[1]);
    hw.i16(s.start_frame);
    hw.i16(s.loop_frame);
    hw.u16(static_cast<std::uint16_t>(s.channels.size()));
    hw.u16(s.frame_count);
    const Bytes fields = hw.take();
    bool shared_header = false;
    for (std::size_t i = 0; i < count; ++i) shared_header = shared_header || (i != index && model.map.animations[i] == old.header);

    // The data: descriptors, scale, rotation and translation arrays (a new header first when shared).
    ByteWriter w(Endian::big);
    if (shared_header) {
        w.bytes(fields);
        w.fill(16);
    }
    const std::size_t desc_at = w.size();
    for (const auto& d : s.channels) {
        w.u8(d.n_scale);
        w.u8(d.n_rot);
        w.u8(d.n_trans);
        w.u8(d.interp);
        w.u16(d.scale_off);
        w.u16(d.rot_off);
        w.u16(d.trans_off);
    }
    std::size_t at[3];
    const std::vector<std::int16_t>* arrays[3] = {&s.scale, &s.rotation, &s.translation};
    for (int k = 0; k < 3; ++k) {
        w.align(4);
        at[k] = w.size();
        if (arrays[k]->empty()) w.u16(0);  // a target for the pointer
        for (auto v : *arrays[k]) w.i16(v);
    }
    w.align(8);
    const Bytes blob = w.take();

    const std::uint32_t before = image.body_size();
    const std::uint32_t root_array = model.offset_of(model.root.animations, "root.animations");
    const std::uint32_t data = image.append(blob, 16) - image.base();
    std::uint32_t h = old.header;
    if (shared_header) {
        h = data;
        image.set_pointer(root_array + 4u * static_cast<std::uint32_t>(index), h);
    } else {
        image.write_data(h, fields, "animation[" + std::to_string(index) + "] header");
    }
    image.set_pointer(h + 0x0C, data + static_cast<std::uint32_t>(desc_at));
    for (int k = 0; k < 3; ++k)
        image.set_pointer(h + 0x10 + 4u * static_cast<std::uint32_t>(k), data + static_cast<std::uint32_t>(at[k]));
    rep.header = h;
    rep.bytes_added = image.body_size() - before;
    return rep;
}

namespace {

bool same_animation(const SkeletalAnimationData& a, const SkeletalAnimationData& b) {
    return a.header == b.header && a.flags == b.flags && a.unknown2 == b.unknown2 && a.start_frame == b.start_frame &&
           a.loop_frame == b.loop_frame && a.descriptor_count == b.descriptor_count && a.frame_count == b.frame_count &&
           a.descriptor_pointer == b.descriptor_pointer && a.descriptors == b.descriptors && a.scale.pointer == b.scale.pointer &&
           a.rotation.pointer == b.rotation.pointer && a.translation.pointer == b.translation.pointer &&
           a.scale.words == b.scale.words && a.rotation.words == b.rotation.words && a.translation.words == b.translation.words;
}

}  // namespace

RomAnimationReplace replace_animation_in_rom(const StadiumRom& rom, const Archive& archive, std::size_t model,
                                             std::size_t index, ByteView source, const std::string& source_name,
                                             const AnimationReplaceOptions& options, const RepackOptions& repack) {
    const std::string path = "archive[" + std::to_string(model) + "].fragment";
    const Model m = read_archive_model(archive, model);
    FragmentImage image(m.fragment);
    RomAnimationReplace out;
    try {
        out.report = replace_animation(m, image, index, source, source_name, options);
    } catch (Error& e) {
        if (e.file().empty() && e.path().empty()) e.prefix_path(path);
        e.set_file_if_empty(rom.file);
        throw;
    }
    out.report.model = model;
    if (out.report.unchanged) {  // the source is the animation already there: the ROM as it was
        out.rom = image_of(rom);
        return out;
    }
    out.rom = apply_model_edit(rom, archive, model, image.build(), repack);

    // Read the result back: the new animation as encoded, the others as they were.
    // A z64 result is read where it lies; another byte order through a z64 copy.
    const Model after = read_archive_model(rom.order == n64::ByteOrder::z64 ? read_archive(out.rom, rom.file)
                                                                            : read_archive(load_rom_bytes(out.rom, rom.file)),
                                           model);
    const ModelAnimations was = read_animations(m, path), now = read_animations(after, path);
    auto refuse = [&](const std::string& what) {
        throw Error(ErrorKind::conflict, "internal check failed, nothing written: " + what, rom.file, no_offset, path);
    };
    if (was.skeletal.size() != now.skeletal.size() || was.aux.size() != now.aux.size()) refuse("the animation counts changed");
    for (std::size_t i = 0; i < was.skeletal.size(); ++i)
        if (i != index && !same_animation(was.skeletal[i], now.skeletal[i]))
            refuse("animation " + std::to_string(i) + " no longer decodes as before");
    for (std::size_t i = 0; i < was.aux.size(); ++i) {
        const auto &x = was.aux[i], &y = now.aux[i];
        if (x.header != y.header || x.channels != y.channels || x.stream != y.stream || x.flags != y.flags ||
            x.frame_count != y.frame_count)
            refuse("texture animation " + std::to_string(i) + " no longer decodes as before");
    }
    const SkeletalAnimationData& n = now.skeletal[index];
    const auto& expected = out.report.expected;
    if (n.channel_count() != expected.size() || n.frame_count != out.report.frame_count) refuse("the new animation's header");
    for (std::size_t c = 0; c < expected.size(); ++c)
        for (std::size_t f = 0; f < expected[c].size(); ++f)
            if (!(sample_channel(n, c, static_cast<std::int32_t>(f)) == expected[c][f]))
                refuse("channel " + std::to_string(c) + " frame " + std::to_string(f) + " samples differently from its encoding");
    return out;
}

}  // namespace mod::stadium
