// Replacing a skeletal animation inside a FRAGMENT and a ROM (animation_replace.hpp): glTF files
// built here (anim_glb_support), values checked by hand and through the read side.
#include "anim_glb_support.hpp"
#include "stadium_test_support.hpp"

#include "libmod/stadium/animation_replace.hpp"
#include "libmod/stadium/palette_edit.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace mod::stadium;
using mod::Bytes;
using mod::ErrorKind;
using modtest::catch_error;

namespace {

// Bones: 0 (channel 0, root), 1 (channel 1), 2 (channel 0xFF), 3 (channel 1, shares with 1),
// 4 (channel 2), all children of bone 0. Two animations of 2 channels each.
Bytes five_bone_model(std::size_t frames = 6) {
    ModelBuilder m(12);
    auto tex = m.add_texture(TexFormat::rgba, TexSize::b16, 8, 8, Bytes(8 * 8 * 2, 0x33));
    auto mat = m.add_material_dl(tex);
    std::vector<Vertex> v(3);
    auto first = m.add_vertices(v);
    DisplayList dl;
    dl.vtx(first, 3, 0).tri1(0, 1, 2).end();
    auto d = m.add_display_list(std::move(dl));
    for (int k = 0; k < 2; ++k) {
        std::vector<std::vector<PoseSample>> ch(2, std::vector<PoseSample>(frames));
        for (std::size_t f = 0; f < frames; ++f) {
            ch[0][f].translation = {double(f * (k + 1)), 0, 0};
            ch[1][f].rotation = {0, double(16 * f * (k + 2)), 0};
        }
        EncodeOptions o;
        o.loop_frame = 2;
        o.flags = k ? anim_flag::hold : 0;
        m.add_animation(encode_packed(ch, o).animation);
    }
    const std::uint8_t channels[] = {0, 1, 0xFF, 1, 2};
    auto& s = m.layout();
    s.model_header().open();
    for (std::size_t b = 0; b < 5; ++b) {
        s.bone(static_cast<std::uint8_t>(b), 0, channels[b], {std::int16_t(5 * b), 7, -3}, {0x400, 0x40, -0x80}, 0x10000,
               0x10000, 0x10000);
        s.open().material(1, -1, mat, tex, -1, 0xFFFFFFFF).draw(1, d);
        if (b) s.close();
    }
    s.close().close().end();
    return m.build();
}

std::array<float, 4> quat_z(double degrees) {
    const double h = degrees * std::numbers::pi / 360.0;
    return {0, 0, float(std::sin(h)), float(std::cos(h))};
}

// bone0 translates (0,0,0) → (30,-60,90) and turns 0 → 90° about z over 1 s; bone1 turns about x.
animtest::Anim walk() {
    animtest::Anim a{"walk", {}, ""};
    a.tracks.push_back({"bone0_id0", "translation", {0, 1}, {0, 0, 0, 30, -60, 90}});
    const auto q0 = quat_z(0), q1 = quat_z(90);
    a.tracks.push_back({"bone0_id0", "rotation", {0, 1}, {q0[0], q0[1], q0[2], q0[3], q1[0], q1[1], q1[2], q1[3]}});
    a.tracks.push_back({"bone1_id1", "rotation", {0, 0.5f}, {0, 0, 0, 1, 0.5f, 0, 0, 0.8660254f}});  // x: 0 → 60°
    return a;
}

const std::vector<std::string>& names() {
    static const std::vector<std::string> n{"bone0_id0", "bone1_id1", "bone2_id2", "bone3_id3", "bone4_id4", "mesh"};
    return n;
}

bool same_data(const SkeletalAnimationData& a, const SkeletalAnimationData& b) {
    return a.header == b.header && a.flags == b.flags && a.frame_count == b.frame_count && a.descriptors == b.descriptors &&
           a.scale == b.scale && a.rotation == b.rotation && a.translation == b.translation && a.loop_frame == b.loop_frame;
}

double matrix_gap(const std::array<std::int16_t, 3>& a, const std::array<std::int16_t, 3>& b) {
    const auto ma = rotation_matrix({double(a[0]), double(a[1]), double(a[2])});
    const auto mb = rotation_matrix({double(b[0]), double(b[1]), double(b[2])});
    double d = 0;
    for (int i = 0; i < 9; ++i) d = std::max(d, std::fabs(ma[i] - mb[i]));
    return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(animation_replace_model)

BOOST_AUTO_TEST_CASE(replace_in_a_fragment) {
    const Model m = read_model(five_bone_model(), "r.fragment");
    const Bytes glb = animtest::make_glb(names(), {walk()});
    FragmentImage image(m.fragment);
    const auto rep = replace_animation(m, image, 0, glb, "walk.glb");
    BOOST_TEST(rep.frame_count == 31);  // 1 s at 30 fps, both ends
    BOOST_TEST(rep.channels == 3u);     // channel bytes 0, 1, 2 (0xFF never binds)
    BOOST_TEST(!rep.trans16);
    BOOST_TEST(!rep.hold);
    BOOST_TEST(rep.loop_frame == 2);  // carried from the replaced animation
    BOOST_TEST(rep.bones_animated.size() == 2u);
    // bone3 shares channel 1 with the animated bone1; the replaced animation had 6 frames.
    BOOST_TEST_REQUIRE(rep.warnings.size() == 2u);
    BOOST_TEST(std::count(rep.warnings.begin(), rep.warnings.end(),
                          "the replaced animation has 6 frames; the new one has 31 (its keys span 1.000000 s at 30 fps)") == 1);
    // The header is rewritten in place; its pointer words keep their R_MIPS_32 entries and point
    // past the old body end, at the appended data.
    BOOST_TEST(rep.header == m.map.animations[0]);
    for (std::uint32_t k = 0; k < 4; ++k) {
        BOOST_TEST(image.has_pointer(rep.header + 0xC + 4 * k));
        BOOST_TEST(image.word(rep.header + 0xC + 4 * k) - image.base() >= m.fragment.body.size());
    }
    const Fragment f = image.build();
    const Model after = read_model(f, "r.fragment");
    BOOST_TEST(cross_check(after.fragment, after.map).ok());
    BOOST_TEST(after.map.animations[0] == rep.header);
    const auto was = read_animations(m), now = read_animations(after);
    BOOST_TEST(same_data(was.skeletal[1], now.skeletal[1]));  // untouched animation: same bytes, same place
    // The old body is still there byte for byte, except animation 0's header.
    for (std::size_t i = 0x20; i < m.fragment.body.size(); ++i)
        if (i < rep.header || i >= rep.header + 0x1C) BOOST_REQUIRE(after.fragment.body[i] == m.fragment.body[i]);
    BOOST_TEST(rep.bytes_added == after.fragment.body.size() - m.fragment.body.size());
    const SkeletalAnimationData& a = now.skeletal[0];
    BOOST_TEST(!a.hermite());
    BOOST_TEST(a.descriptor_count == 9);
    // Frame 15 (0.5 s): bone0 at (15, -30, 45), turned 45° = 0x2000 about z; bone1 at 60° about x
    // (held from 0.5 s): 60° = 10922.67 → field round(682.67) = 683 → 10928.
    const ChannelPose p0 = sample_channel(a, 0, 15), p1 = sample_channel(a, 1, 15), p1e = sample_channel(a, 1, 30);
    BOOST_TEST(p0.translation[0] == 15.0); BOOST_TEST(p0.translation[1] == -30.0); BOOST_TEST(p0.translation[2] == 45.0);
    BOOST_TEST(p0.rotation[0] == 0); BOOST_TEST(p0.rotation[1] == 0); BOOST_TEST(p0.rotation[2] == 0x2000);
    BOOST_TEST(p0.scale[0] == 1.0);
    BOOST_TEST(p1.rotation[0] == 10928); BOOST_TEST(p1e.rotation[0] == 10928);
    // bone1's unanimated translation keeps its bind value (5, 7, -3).
    BOOST_TEST(p1.translation[0] == 5.0); BOOST_TEST(p1.translation[1] == 7.0); BOOST_TEST(p1.translation[2] == -3.0);
    // Channel 2 (bone4, absent from the file) is its bind pose as constants: t (20, 7, -3), r (0x400, 0x40, -0x80).
    for (std::size_t d = 6; d < 9; ++d) {
        BOOST_TEST(a.descriptors[d].n_rot == 1);
        BOOST_TEST(a.descriptors[d].n_trans == 1);
        BOOST_TEST(a.descriptors[d].n_scale == 1);
    }
    const ChannelPose p2 = sample_channel(a, 2, 9);
    BOOST_TEST(p2.translation[0] == 20.0);
    BOOST_TEST(p2.rotation[0] == 0x400); BOOST_TEST(p2.rotation[1] == 0x40); BOOST_TEST(p2.rotation[2] == -0x80);
    // Everything the encoder promised is what the game samples.
    for (std::size_t c = 0; c < 3; ++c)
        for (std::int32_t fr = 0; fr < 31; ++fr) BOOST_TEST_REQUIRE((sample_channel(a, c, fr) == rep.expected[c][fr]));
    BOOST_TEST(rep.error.translation < 1e-4);
    BOOST_TEST(rep.error.rotation_degrees <= 8 * 360.0 / 65536);
}

// What Blender writes back (../shared/reference/real-clients-t3.md §3.3): keys resampled at its
// 24 fps and modkit's own texture-switch helper joints keyed in the action. Accepted, resampled
// at 30 fps over the same length, each with a warning; the helpers are not moved bones.
BOOST_AUTO_TEST_CASE(blender_24_fps_keys_and_helper_joints) {
    const Model m = read_model(five_bone_model(), "r.fragment");
    animtest::Anim a{"walk", {}, ""};
    std::vector<float> times, xs, ones;
    for (int k = 0; k <= 5; ++k) {  // 0 … 5/24 s; x = 240 t
        times.push_back(float(k) / 24.0f);
        for (float v : {240.0f * float(k) / 24.0f, 0.0f, 0.0f}) xs.push_back(v);
        for (int c = 0; c < 3; ++c) ones.push_back(1.0f);
    }
    a.tracks.push_back({"bone0_id0", "translation", times, xs});
    a.tracks.push_back({"texswitch_mat0_tex1_bone0", "scale", times, ones});
    std::vector<std::string> nodes = names();
    nodes.push_back("texswitch_mat0_tex1_bone0");
    FragmentImage image(m.fragment);
    const auto rep = replace_animation(m, image, 0, animtest::make_glb(nodes, {a}), "blender.glb");
    // 5/24 s = 6.25 frames at 30 fps: round + 1 = 7 frames.
    BOOST_TEST(rep.frame_count == 7);
    BOOST_TEST(rep.bones_animated.size() == 1u);
    std::string all;
    for (const auto& w : rep.warnings) all += w + "\n";
    for (const char* word : {"the keys are at 24 fps, not on the game's 30 fps frames", "(7 frames)", "Blender's default is 24",
                             "1 texture-animation helper joint(s)", "texswitch_*", "has 6 frames; the new one has 7"})
        BOOST_TEST(all.find(word) != std::string::npos, word << " in " << all);
    // Frame 3 = 0.1 s: x = 24 (between the keys at 2/24 and 3/24), as the source's curve gives.
    const Model after = read_model(image.build(), "r.fragment");
    const ChannelPose p = sample_channel(read_animations(after).skeletal[0], 0, 3);
    BOOST_TEST(std::fabs(p.translation[0] - 24.0) <= 0.5, p.translation[0]);
    // Keys on the 30 fps grid say nothing about the rate.
    animtest::Anim on_grid{"walk", {{"bone0_id0", "translation", {0, 0.1f, 0.2f}, {0, 0, 0, 24, 0, 0, 48, 0, 0}}}, ""};
    FragmentImage image2(m.fragment);
    const auto rep2 = replace_animation(m, image2, 0, animtest::make_glb(names(), {on_grid}), "grid.glb");
    for (const auto& w : rep2.warnings) BOOST_TEST(w.find("fps frames") == std::string::npos, w);
}

// The real round trip (real-clients-t3.md §3.3): an 8-frame animation (7/30 s) comes back from
// Blender keyed at 24 fps at 0 … 5/24 s, its last 1/40 s dropped. The 8 frames are kept, the last
// key held; a source that ends more than one of its frames early is a shorter clip and is written
// shorter, with the frame-count warning.
BOOST_AUTO_TEST_CASE(blender_24_fps_keys_keep_the_replaced_length) {
    const Model m = read_model(five_bone_model(8), "r.fragment");
    auto keyed = [](int last) {
        animtest::Anim a{"walk", {}, ""};
        std::vector<float> times, xs;
        for (int k = 0; k <= last; ++k) {  // x = 240 t
            times.push_back(float(k) / 24.0f);
            for (float v : {240.0f * float(k) / 24.0f, 0.0f, 0.0f}) xs.push_back(v);
        }
        a.tracks.push_back({"bone0_id0", "translation", times, xs});
        return animtest::make_glb(names(), {a});
    };
    FragmentImage image(m.fragment);
    const auto rep = replace_animation(m, image, 0, keyed(5), "blender.glb");
    BOOST_TEST(rep.frame_count == 8);
    std::string all;
    for (const auto& w : rep.warnings) all += w + "\n";
    for (const char* word : {"the keys are at 24 fps, not on the game's 30 fps frames", "end 0.025 s before",
                             "8 frames (0.2333 s)", "its 8 frames are kept", "Blender's default is 24"})
        BOOST_TEST(all.find(word) != std::string::npos, word << " in " << all);
    BOOST_TEST(all.find("the new one has") == std::string::npos, all);
    // Frame 3 = 0.1 s: x = 24 (on the source's curve); frames 7 (past 5/24 s): the last key, x = 50.
    const auto after = read_animations(read_model(image.build(), "r.fragment")).skeletal[0];
    BOOST_TEST(std::fabs(sample_channel(after, 0, 3).translation[0] - 24.0) <= 0.5);
    BOOST_TEST(std::fabs(sample_channel(after, 0, 6).translation[0] - 48.0) <= 0.5);
    BOOST_TEST(std::fabs(sample_channel(after, 0, 7).translation[0] - 50.0) <= 0.5);

    // 0 … 3/24 s ends 0.1083 s early, more than 1/24 s: 0.125 s at 30 fps = round(3.75) + 1 = 5 frames.
    FragmentImage image2(m.fragment);
    const auto shorter = replace_animation(m, image2, 0, keyed(3), "short.glb");
    BOOST_TEST(shorter.frame_count == 5);
    all.clear();
    for (const auto& w : shorter.warnings) all += w + "\n";
    BOOST_TEST(all.find("has 8 frames; the new one has 5") != std::string::npos, all);
    BOOST_TEST(all.find("(5 frames)") != std::string::npos, all);
}

BOOST_AUTO_TEST_CASE(refusals_name_what_cannot_be_written) {
    const Model m = read_model(five_bone_model(), "r.fragment");
    auto run = [&](const Bytes& glb, const AnimationReplaceOptions& o = {}) {
        FragmentImage image(m.fragment);
        return catch_error([&] { replace_animation(m, image, 0, glb, "x.glb", o); });
    };
    // Unknown joints, every one listed.
    auto bad = walk();
    bad.tracks.push_back({"mesh", "translation", {0}, {1, 2, 3}});
    auto e = run(animtest::make_glb(names(), {bad}));
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->kind() == ErrorKind::format);
    BOOST_TEST(std::string(e->what()).find("\"mesh\"") != std::string::npos);
    BOOST_TEST(std::string(e->what()).find("x.glb") != std::string::npos);
    // A bone whose channel never binds cannot move.
    auto unbound = walk();
    unbound.tracks.push_back({"bone2_id2", "translation", {0, 1}, {10, 7, -3, 50, 7, -3}});
    e = run(animtest::make_glb(names(), {unbound}));
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->kind() == ErrorKind::conflict);
    BOOST_TEST(std::string(e->what()).find("bone2_id2") != std::string::npos);
    // Bones sharing a channel moved differently.
    auto shared = walk();
    shared.tracks.push_back({"bone3_id3", "rotation", {0}, {0, 1, 0, 0}});
    e = run(animtest::make_glb(names(), {shared}));
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->kind() == ErrorKind::conflict);
    // A translation beyond 16 bits.
    auto far = walk();
    far.tracks[0].values[3] = 40000;
    e = run(animtest::make_glb(names(), {far}));
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->kind() == ErrorKind::limit);
    // More frames than the u16 count holds (2200 s at 30 fps).
    auto longer = walk();
    longer.tracks[0].times[1] = 2200;
    e = run(animtest::make_glb(names(), {longer}));
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->kind() == ErrorKind::limit);
    // Two animations: the choice must be made (by name, index or the animation<INDEX> name).
    auto other = walk();
    other.name = "run";
    e = run(animtest::make_glb(names(), {walk(), other}));
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->kind() == ErrorKind::usage);
    AnimationReplaceOptions o;
    o.animation = "run";
    {
        FragmentImage image(m.fragment);
        BOOST_TEST(replace_animation(m, image, 0, animtest::make_glb(names(), {walk(), other}), "x.glb", o).source_animation == "run");
        auto named = walk();
        named.name = "animation0 (moves 1, 4)";
        FragmentImage image2(m.fragment);
        BOOST_TEST(replace_animation(m, image2, 0, animtest::make_glb(names(), {other, named}), "x.glb").source_animation_index == 1u);
    }
    // No such animation index in the model; not a glb.
    {
        FragmentImage image(m.fragment);
        e = catch_error([&] { replace_animation(m, image, 2, animtest::make_glb(names(), {walk()}), "x.glb"); });
        BOOST_TEST_REQUIRE(e.has_value());
        BOOST_TEST(e->kind() == ErrorKind::usage);
    }
    e = run(Bytes{'{', '}'});
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->kind() == ErrorKind::format);
    // A truncated glb is a format error, never a crash.
    const Bytes good = animtest::make_glb(names(), {walk()});
    for (std::size_t n = 0; n < good.size(); n += 7) {
        const auto te = run(Bytes(good.begin(), good.begin() + long(n)));
        BOOST_TEST_REQUIRE(te.has_value());
        BOOST_TEST(te->kind() == ErrorKind::format);
    }
}

// Hostile glb bytes (every byte flipped three ways: JSON, chunk headers, accessor data) give a
// mod::Error or a valid replacement, never a crash, a hang or a wild allocation.
BOOST_AUTO_TEST_CASE(hostile_glb_bytes) {
    const Model m = read_model(five_bone_model(), "r.fragment");
    const Bytes good = animtest::make_glb(names(), {walk()});
    const std::size_t rejected = modtest::byte_flip_loop(good, [&](mod::ByteView v) {
        FragmentImage image(m.fragment);
        replace_animation(m, image, 0, v, "flip.glb");
    });
    BOOST_TEST_MESSAGE(rejected << " of " << 3 * good.size() << " flipped files rejected");
    BOOST_TEST(rejected > good.size());
}

// A header two root entries share: a new header is appended for the replaced index (its pointer
// words get relocation entries) and the other entry keeps the old one.
BOOST_AUTO_TEST_CASE(shared_header_gets_a_new_one) {
    const Model base = read_model(five_bone_model(), "r.fragment");
    FragmentImage share(base.fragment);
    const std::uint32_t root_array = base.offset_of(base.root.animations, "root.animations");
    share.set_pointer(root_array + 4, base.map.animations[0]);  // entry 1 → animation 0's header
    for (std::uint32_t k = 0; k < 4; ++k) share.remove_pointer(base.map.animations[1] + 0xC + 4 * k);  // header 1: unreferenced
    const Model m = read_model(share.build(), "r.fragment");
    BOOST_TEST_REQUIRE(m.map.animations[1] == m.map.animations[0]);
    FragmentImage image(m.fragment);
    const auto rep = replace_animation(m, image, 1, animtest::make_glb(names(), {walk()}), "walk.glb");
    BOOST_TEST(rep.header != m.map.animations[0]);
    BOOST_TEST(rep.header >= m.fragment.body.size());
    for (std::uint32_t k = 0; k < 4; ++k) BOOST_TEST(image.has_pointer(rep.header + 0xC + 4 * k));
    const Model after = read_model(image.build(), "r.fragment");
    BOOST_TEST(cross_check(after.fragment, after.map).ok());
    BOOST_TEST(after.map.animations[0] == m.map.animations[0]);
    BOOST_TEST(after.map.animations[1] == rep.header);
    BOOST_TEST(same_data(read_skeletal_animation(m, 0), read_skeletal_animation(after, 0)));
    const auto n = read_skeletal_animation(after, 1);
    BOOST_TEST(n.frame_count == 31);
    for (std::size_t c = 0; c < 3; ++c)
        for (std::int32_t fr = 0; fr < 31; ++fr) BOOST_TEST_REQUIRE((sample_channel(n, c, fr) == rep.expected[c][fr]));
}

// Export → replace → decode on the sample ROM: every skeletal animation of every model,
// re-encoded from a glTF animation of its own sampled poses, samples back within quantisation
// (exactly for packed originals), and every other animation and entry stays byte-identical.
BOOST_AUTO_TEST_CASE(sample_rom_round_trip) {
    const stadiumtest::SampleRom r;
    std::size_t replaced = 0, frames_checked = 0, same_angles = 0, kept = 0;
    for (std::size_t e = 0; e < r.archive.entries.size(); ++e) {
        if (!decode_entry(r.archive, e).is_fragment) continue;
        const Model m = read_archive_model(r.archive, e);
        const auto anims = read_animations(m);
        for (const auto& old : anims.skeletal) {
            const Bytes glb = animtest::make_glb(animtest::bone_names(m), {animtest::anim_of(m, old, "animation" + std::to_string(old.index))});
            // The glb holds the game's own T, R, S (anim_of samples them), also for the sample's
            // camera-facing bone (model 7, 0x1D flag bit 1), so it may be written as such.
            AnimationReplaceOptions o;
            o.camera_bones_as_trs = true;
            const RomAnimationReplace out = replace_animation_in_rom(r.rom, r.archive, e, old.index, glb, "round.glb", o);
            ++replaced;
            // Issue 30 item 4: an original given back unedited (its own sampled poses, Hermite
            // ones' fractional values included) is kept as it is, byte for byte.
            {
                BOOST_TEST_REQUIRE(out.report.unchanged);
                BOOST_TEST_REQUIRE((out.rom == r.rom.z64));
                BOOST_TEST(out.report.bytes_added == 0u);
                ++kept;
                // One quantisation step more on one key is an edit: written.
                auto edited = animtest::anim_of(m, old, "animation" + std::to_string(old.index));
                std::string carrier;  // the first bone of a bound channel carries it
                for (std::size_t b = 0; b < m.bones.size() && carrier.empty(); ++b)
                    if (old.binds(m.bones[b].channel)) carrier = animtest::bone_names(m)[b];
                BOOST_TEST_REQUIRE(!carrier.empty());
                std::size_t edits = 0;
                for (auto& t : edited.tracks)
                    if (t.node == carrier && t.path == "translation") t.values[0] += 1.0f, ++edits;
                BOOST_TEST_REQUIRE(edits == 1u, "carrier " << carrier << " model " << e << " anim " << old.index);
                const RomAnimationReplace moved = replace_animation_in_rom(
                    r.rom, r.archive, e, old.index, animtest::make_glb(animtest::bone_names(m), {edited}), "edited.glb", o);
                BOOST_TEST_REQUIRE(!moved.report.unchanged);
                BOOST_TEST_REQUIRE(!(moved.rom == r.rom.z64));
            }
            const StadiumRom rom2 = load_rom_bytes(out.rom, "out.z64");
            const Archive archive2 = read_archive(rom2);
            for (std::size_t k = 0; k < r.archive.entries.size(); ++k)
                if (k != e) BOOST_TEST_REQUIRE(decode_entry(archive2, k).content == decode_entry(r.archive, k).content);
            const Model after = read_archive_model(archive2, e);
            const auto now = read_animations(after);
            for (std::size_t i = 0; i < anims.skeletal.size(); ++i)
                if (i != old.index) BOOST_TEST_REQUIRE(same_data(anims.skeletal[i], now.skeletal[i]));
            const auto& n = now.skeletal[old.index];
            BOOST_TEST_REQUIRE(n.frame_count == old.frame_count);
            BOOST_TEST(n.hold() == old.hold());
            BOOST_TEST(n.loop_frame == old.loop_frame);
            // Translations and scales of packed data come back exactly; rotations as the same
            // bone matrix (a quaternion cannot tell the two Euler solutions, nor x from z at
            // y = ±90°, apart: euler_from_matrix picks one), and as the same angles wherever the
            // original is the solution nearest the previous frame.
            const double rotation_tolerance = old.hermite() ? 2.5e-3 : 1e-5;
            for (std::int32_t f = 0; f < old.frame_count; ++f) {
                const auto want = sample_bones(m, old, f), got = sample_bones(after, n, f);
                for (std::size_t b = 0; b < m.bones.size(); ++b) {
                    for (int k = 0; k < 3; ++k) {
                        if (old.hermite()) {
                            BOOST_TEST_REQUIRE(std::fabs(got[b].translation[k] - want[b].translation[k]) <= 0.5 + 1e-4);
                            BOOST_TEST_REQUIRE(std::fabs(got[b].scale[k] - want[b].scale[k]) <= 0.0005 + 1e-9);
                        } else {
                            BOOST_TEST_REQUIRE(got[b].translation[k] == want[b].translation[k]);
                            BOOST_TEST_REQUIRE(got[b].scale[k] == want[b].scale[k]);
                        }
                    }
                    BOOST_TEST_REQUIRE(matrix_gap(got[b].rotation, want[b].rotation) < rotation_tolerance);
                    ++frames_checked;
                    same_angles += got[b].rotation == want[b].rotation;
                }
            }
            if (!old.hermite()) BOOST_TEST(out.report.error.translation < 0.01);  // float key times in the glb
            BOOST_TEST(out.report.error.rotation_degrees <= 8 * 360.0 / 65536 + 1e-9);
        }
    }
    BOOST_TEST_MESSAGE("replaced " << replaced << " animations; " << same_angles << " of " << frames_checked
                                    << " bone frames with the very same Euler angles");
    BOOST_TEST(replaced >= 1u);
    BOOST_TEST(kept >= 1u);
}

BOOST_AUTO_TEST_SUITE_END()
