// Skeletal and aux animation decoding and sampling (libmod/stadium/animation.hpp). Expected
// values are computed by hand in the comments from ../shared/reference/stadium_animation.md
// (§4.5 packed, §4.6 Hermite, §4.3 binding, §4.8 aux), not taken from the decoder.
#include "stadium_test_support.hpp"

#include "libmod/stadium/animation.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>

using namespace mod::stadium;
using mod::Bytes;
using modtest::catch_error;

namespace mod::stadium {
inline std::ostream& operator<<(std::ostream& o, const ChannelPose& p) {
    return o << "t(" << p.translation[0] << "," << p.translation[1] << "," << p.translation[2] << ") r(" << p.rotation[0]
             << "," << p.rotation[1] << "," << p.rotation[2] << ") s(" << p.scale[0] << "," << p.scale[1] << "," << p.scale[2] << ")";
}
}  // namespace mod::stadium

namespace {

using Desc = SkeletalAnimation::Channel;

// A model with one bone per entry of `channels` (0x1D channel byte), each drawing an empty list.
Bytes anim_model(const std::vector<SkeletalAnimation>& anims, const std::vector<std::uint8_t>& channels,
                 const std::vector<AuxAnimation>& aux = {}) {
    ModelBuilder m(9);
    auto tex = m.add_texture(TexFormat::rgba, TexSize::b16, 8, 8, Bytes(8 * 8 * 2, 0x11));
    auto mat = m.add_material_dl(tex);
    std::vector<Vertex> v(4);
    auto first = m.add_vertices(v);
    DisplayList dl;
    dl.vtx(first, 4, 0).tri1(0, 1, 2).end();
    auto d = m.add_display_list(std::move(dl));
    for (const auto& a : anims) m.add_animation(a);
    for (const auto& a : aux) m.add_aux_animation(a);
    auto& s = m.layout();
    s.model_header().open();
    for (std::size_t b = 0; b < channels.size(); ++b) {
        s.bone(static_cast<std::uint8_t>(b), 0, channels[b], {std::int16_t(10 * b), 2, 3}, {100, 200, std::int16_t(-300)},
               0x18000, 0x10000, 0x8000);
        s.open().material(1, -1, mat, tex, -1, 0xFFFFFFFF).draw(1, d);
    }
    for (std::size_t b = 0; b < channels.size(); ++b) s.close();
    s.close().end();
    return m.build();
}

Model model_of(const Bytes& fragment) { return read_model(fragment, "test.fragment"); }

// Three descriptors (one channel) with every component constant 0, so a test sets what it checks.
SkeletalAnimation one_channel(std::uint16_t flags, std::uint16_t frames) {
    SkeletalAnimation a;
    a.flags = flags;
    a.frame_count = frames;
    a.channels.resize(3);
    for (auto& d : a.channels) d.scale_off = 1000;
    return a;
}

double hermite_formula(double v0, double v1, double out0, double in1, double f0, double f1, double t) {
    const double x = (t - f0) / 30.0, y = 30.0 / (f1 - f0), s = x * y;
    return v0 * (2 * s * s * s - 3 * s * s + 1) + v1 * (-2 * s * s * s + 3 * s * s) + out0 * (x * s * s - 2 * x * s + x) +
           in1 * (x * s * s - x * s);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(animation)

BOOST_AUTO_TEST_CASE(bitfield_12_and_16_bits) {
    // Halfwords 1234 5678 9ABC: 12-bit fields 0x123, 0x456 (straddles words 0 and 1: 0x4 | 0x56),
    // 0x789 (straddles words 1 and 2), 0xABC (top bit set: 0xABC - 0x1000 = -1348).
    const std::vector<std::uint16_t> w{0x1234, 0x5678, 0x9ABC};
    BOOST_TEST(read_bitfield(w, 0, 12) == 0x123);
    BOOST_TEST(read_bitfield(w, 1, 12) == 0x456);
    BOOST_TEST(read_bitfield(w, 2, 12) == 0x789);
    BOOST_TEST(read_bitfield(w, 3, 12) == -1348);
    BOOST_TEST(read_bitfield(w, 0, 16) == 0x1234);
    BOOST_TEST(read_bitfield(w, 2, 16) == 0x9ABC - 0x10000);
}

BOOST_AUTO_TEST_CASE(packed_streams_and_constants) {
    // Rotation and 12-bit translation words 1234 5678 9ABC (fields above); scale s16 elements.
    SkeletalAnimation a = one_channel(0, 6);
    a.rotation = {0x1234, 0x5678, std::int16_t(0x9ABC), 0};
    a.translation = {0x1234, 0x5678, std::int16_t(0x9ABC), 0};
    a.scale = {500, -1000, 1250};
    Desc& x = a.channels[0];
    x.n_rot = 4; x.rot_off = 0;        // fields 0..3, clamped at 3
    x.n_trans = 3; x.trans_off = 1;    // fields 1..3
    x.n_scale = 2; x.scale_off = 1;    // elements 1, 2
    Desc& y = a.channels[1];
    y.n_rot = 1; y.rot_off = 0x0C00;   // (s16)(0xC00 * 16) = (s16)0xC000 = -16384
    y.n_trans = 1; y.trans_off = 0xAFC0;  // low 12 bits 0xFC0 sign-extended = -64
    y.n_scale = 1; y.scale_off = 1234;    // 1.234
    Desc& z = a.channels[2];
    z.n_scale = 0; z.scale_off = 1;    // count 0: element off - 1 = 0 → 500 / 1000
    z.n_rot = 0; z.rot_off = 3;        // field 2 = 0x789 → ×16 = 30864
    z.n_trans = 1; z.trans_off = 0x1001;  // low 12 bits 0x001 = 1
    const Model m = model_of(anim_model({a}, {0}));
    const auto anims = read_animations(m);
    BOOST_TEST_REQUIRE(anims.skeletal.size() == 1u);
    const auto& d = anims.skeletal[0];
    BOOST_TEST(!d.hermite());
    BOOST_TEST(d.descriptor_count == 3);
    // x rotation per frame: fields ×16 as s16: 0x1230, 0x4560, 0x7890, -1348·16 = -21568, clamped.
    const std::int16_t rot[] = {0x1230, 0x4560, 0x7890, -21568, -21568, -21568};
    const double trans[] = {0x456, 0x789, -1348, -1348, -1348, -1348};
    const double scale[] = {-1.0, 1.25, 1.25, 1.25, 1.25, 1.25};
    for (int f = 0; f < 6; ++f) {
        const ChannelPose p = sample_channel(d, 0, f);
        BOOST_TEST(p.rotation[0] == rot[f]);
        BOOST_TEST(p.translation[0] == trans[f]);
        BOOST_TEST(p.scale[0] == scale[f]);
        BOOST_TEST(p.rotation[1] == -16384);
        BOOST_TEST(p.translation[1] == -64);
        BOOST_TEST(p.scale[1] == 1.234);
        BOOST_TEST(p.scale[2] == 0.5);
        BOOST_TEST(p.rotation[2] == 30864);
        BOOST_TEST(p.translation[2] == 1);
    }
    // A negative frame samples frame 0 (the game clamps at 0).
    BOOST_TEST(sample_channel(d, 0, -5) == sample_channel(d, 0, 0));
    BOOST_TEST(component_kind(d, 0, Component::rotation) == "stream");
    BOOST_TEST(component_kind(d, 1, Component::rotation) == "constant");
    BOOST_TEST(component_kind(d, 2, Component::scale) == "stream@off-1");
}

BOOST_AUTO_TEST_CASE(packed_16_bit_translations) {
    SkeletalAnimation a = one_channel(anim_flag::trans16 | anim_flag::hold, 3);
    a.translation = {std::int16_t(0x8000), 0x7FFF, std::int16_t(0xFF38)};  // -32768, 32767, -200
    a.channels[0].n_trans = 3;
    a.channels[1].n_trans = 1;
    a.channels[1].trans_off = 0xFF38;  // (s16) = -200, all 16 bits
    a.channels[2].n_trans = 0;
    a.channels[2].trans_off = 2;       // field 1 = 32767
    const Model m = model_of(anim_model({a}, {0}));
    const auto d = read_skeletal_animation(m, 0);
    BOOST_TEST(d.trans16());
    BOOST_TEST(d.hold());
    BOOST_TEST(sample_channel(d, 0, 0).translation[0] == -32768);
    BOOST_TEST(sample_channel(d, 0, 1).translation[0] == 32767);
    BOOST_TEST(sample_channel(d, 0, 2).translation[0] == -200);
    BOOST_TEST(sample_channel(d, 0, 1).translation[1] == -200);
    BOOST_TEST(sample_channel(d, 0, 1).translation[2] == 32767);
}

BOOST_AUTO_TEST_CASE(hermite_keys_and_constants) {
    SkeletalAnimation a = one_channel(anim_flag::hermite, 40);
    // x translation: narrow keys {frame, value, tangent}: (0, 10, 30), (20, 50, -60).
    a.translation = {0, 10, 30, 20, 50, -60};
    a.channels[0].n_trans = 2;
    a.channels[0].trans_off = 0;
    // y translation: wide keys {frame, value, in, out}: (0, 0, 99, 60), (30, 100, -30, 77).
    a.translation.insert(a.translation.end(), {0, 0, 99, 60, 30, 100, -30, 77});
    a.channels[1].interp = interp_flag::wide_translation;
    a.channels[1].n_trans = 2;
    a.channels[1].trans_off = 6;
    // z translation: three narrow keys at frames 0, 10, 20 (values 0, 100, 40; tangents 0).
    a.translation.insert(a.translation.end(), {0, 0, 0, 10, 100, 0, 20, 40, 0});
    a.channels[2].n_trans = 3;
    a.channels[2].trans_off = 14;
    // Scales: constant (s16)150 / 100; narrow keys /100.
    a.channels[0].n_scale = 1;
    a.channels[0].scale_off = 150;
    a.scale = {0, 100, 0, 10, 300, 0};
    a.channels[1].n_scale = 2;
    a.channels[1].scale_off = 0;
    // Rotations (tenths of a degree): constants 3599, -900, 1800; keys (0, 0), (10, 900).
    a.channels[0].n_rot = 0;
    a.channels[0].rot_off = 3599;
    a.channels[1].n_rot = 1;
    a.channels[1].rot_off = static_cast<std::uint16_t>(std::int16_t(-900));
    a.rotation = {0, 0, 0, 10, 900, 0};
    a.channels[2].n_rot = 2;
    a.channels[2].rot_off = 0;
    const Model m = model_of(anim_model({a}, {0}));
    const auto d = read_skeletal_animation(m, 0);
    BOOST_TEST(d.hermite());
    BOOST_TEST(d.findings.empty());
    // At and outside the keys: the key values.
    BOOST_TEST(sample_channel(d, 0, 0).translation[0] == 10.0);
    BOOST_TEST(sample_channel(d, 0, 20).translation[0] == 50.0);
    BOOST_TEST(sample_channel(d, 0, 35).translation[0] == 50.0);
    // t = 10: x = 1/3, y = 1.5, s = 0.5: 10·0.5 + 50·0.5 + 30·(1/3)(0.25 − 1 + 1) − 60·(1/3)(0.25 − 0.5) = 37.5.
    BOOST_TEST(std::abs(sample_channel(d, 0, 10).translation[0] - 37.5) < 1e-4);
    // Wide, t = 15: x = 0.5, y = 1, s = 0.5: 100·0.5 + 60·(0.125 − 0.5 + 0.5) − 30·(0.125 − 0.25) = 61.25
    // (the out-tangent of key 0 is +6 = 60, the in-tangent of key 1 is +4 = −30; 99 and 77 unused).
    BOOST_TEST(std::abs(sample_channel(d, 0, 15).translation[1] - 61.25) < 1e-4);
    for (int t = 0; t <= 30; ++t) {
        BOOST_TEST(std::abs(sample_channel(d, 0, t).translation[0] -
                            (t >= 20 ? 50.0 : hermite_formula(10, 50, 30, -60, 0, 20, t))) < 1e-3);
        BOOST_TEST(std::abs(sample_channel(d, 0, t).translation[1] - hermite_formula(0, 100, 60, -30, 0, 30, t)) < 1e-3);
        // Three keys: t in [10, 20) uses keys 1 and 2.
        const double z = t >= 20 ? 40.0 : t < 10 ? hermite_formula(0, 100, 0, 0, 0, 10, t) : hermite_formula(100, 40, 0, 0, 10, 20, t);
        BOOST_TEST(std::abs(sample_channel(d, 0, t).translation[2] - z) < 1e-3);
    }
    BOOST_TEST(sample_channel(d, 0, 5).scale[0] == 1.5);
    // Narrow scale keys (0, 100), (10, 300): t = 5 → s = 0.5 → 200 → 2.0; t = 10 → 3.0.
    BOOST_TEST(std::abs(sample_channel(d, 0, 5).scale[1] - 2.0) < 1e-6);
    BOOST_TEST(std::abs(sample_channel(d, 0, 10).scale[1] - 3.0) < 1e-6);
    // 359.9° → 359.9 / 360 · 65536 = 65517.79 → 65517 → s16 −19.
    BOOST_TEST(sample_channel(d, 0, 0).rotation[0] == -19);
    // −90° wraps to 270° → 49152 → s16 −16384.
    BOOST_TEST(sample_channel(d, 0, 0).rotation[1] == -16384);
    // Keys 0 → 90°: t = 5 → 450 tenths = 45° → 8192 in exact arithmetic, but src/17300.c's f32
    // order gives x = 0.16666667, y = 3, h01 = (−2·x·x·x·y·y·y) + 3·x·x·y·y = 0.49999997,
    // 900·h01 = 449.99997 → 44.999996° → 8191.9995 → truncated 8191 (review A12's rare
    // one-unit flip); t = 10 → 16384.
    BOOST_TEST(sample_channel(d, 0, 5).rotation[2] == 8191);
    BOOST_TEST(sample_channel(d, 0, 10).rotation[2] == 16384);
    BOOST_TEST(component_kind(d, 1, Component::translation) == "wide keys");
    BOOST_TEST(component_kind(d, 0, Component::translation) == "keys");
}

BOOST_AUTO_TEST_CASE(angle_wrap) {
    BOOST_TEST(hermite_angle(3599) == -19);
    BOOST_TEST(hermite_angle(-900) == -16384);
    BOOST_TEST(hermite_angle(900) == 16384);
    BOOST_TEST(hermite_angle(1800) == -32768);  // 180° = 32768 → s16 −32768
    BOOST_TEST(hermite_angle(3600) == 0);
    BOOST_TEST(hermite_angle(7200 + 450) == 8192);
    BOOST_TEST(hermite_angle(-3600 - 450) == -8192);  // −45° → 315° → 57344 → −8192
}

BOOST_AUTO_TEST_CASE(bones_bind_through_their_channel_byte) {
    SkeletalAnimation a = one_channel(0, 2);
    a.channels.resize(6);  // channels 0 and 1
    for (auto& c : a.channels) c.scale_off = 1000;
    a.channels[3].n_trans = 1;
    a.channels[3].trans_off = 7;  // channel 1 x translation = 7
    // Bones: channel 1, 0xFF (no track), 0, 5 (descriptors 15..17 past the 6: bind pose).
    const Model m = model_of(anim_model({a}, {1, 0xFF, 0, 5}));
    const auto anims = read_animations(m);
    const auto& d = anims.skeletal.at(0);
    const auto poses = sample_bones(m, d, 1);
    BOOST_TEST_REQUIRE(poses.size() == 4u);
    BOOST_TEST(poses[0].translation[0] == 7.0);  // bone 0 reads channel 1, not channel 0
    BOOST_TEST(poses[2].translation[0] == 0.0);
    for (std::size_t b : {std::size_t(1), std::size_t(3)}) {
        // The 0x1D bind values: translation (10b, 2, 3), rotation (100, 200, −300), scale 1.5/1/0.5.
        BOOST_TEST(poses[b].translation[0] == 10.0 * double(b));
        BOOST_TEST(poses[b].translation[1] == 2.0);
        BOOST_TEST(poses[b].rotation[2] == -300);
        BOOST_TEST(poses[b].scale[0] == 1.5);
        BOOST_TEST(poses[b].scale[2] == 0.5);
    }
    BOOST_TEST(!d.binds(0xFF));
    bool noted = false;
    for (const auto& f : anims.findings) noted = noted || f.find("bone 3's channel 5") != std::string::npos;
    BOOST_TEST(noted);
    BOOST_TEST(catch_error([&] { sample_channel(d, 2, 0); }).value().kind() == mod::ErrorKind::usage);
}

BOOST_AUTO_TEST_CASE(findings_do_not_refuse) {
    SkeletalAnimation a = one_channel(0x31, 3);  // unknown bits 0x30 and 0x01
    a.channels.resize(4);                         // 4 descriptors: not a multiple of 3
    a.loop_frame = 5;
    SkeletalAnimation h = one_channel(anim_flag::hermite, 10);
    h.translation = {5, 1, 0, 5, 2, 0};  // equal key frames
    h.channels[0].n_trans = 2;
    const Model m = model_of(anim_model({a, h}, {0}));
    const auto anims = read_animations(m);
    const auto& f = anims.findings;
    auto has = [&](const std::string& s) {
        return std::any_of(f.begin(), f.end(), [&](const std::string& x) { return x.find(s) != std::string::npos; });
    };
    BOOST_TEST(has("bits other than 0x02/0x04/0x08"));
    BOOST_TEST(has("not a multiple of 3"));
    BOOST_TEST(has("loop start 5"));
    BOOST_TEST(has("does not follow frame 5"));
}

BOOST_AUTO_TEST_CASE(aux_channels) {
    AuxAnimation aux;
    aux.flags = 0x02;
    aux.frame_count = 4;
    aux.channels = {{3, 1}, {0, 2}, {1, 0}};
    aux.stream = {0, 1, 0, 2};  // texture 2 does not exist (one texture): a finding
    const Model m = model_of(anim_model({one_channel(0, 1)}, {0}, {aux}));
    const auto anims = read_animations(m);
    const auto& a = anims.aux.at(0);
    BOOST_TEST(a.hold());
    BOOST_TEST(a.channels.size() == 3u);
    // Channel 0: stream[1 + min(f, 2)] = 1, 0, 2, 2; channel 1: count 0 → base − 1 = stream[1] = 1;
    // channel 2: stream[0] = 0.
    const unsigned c0[] = {1, 0, 2, 2};
    for (int f = 0; f < 4; ++f) {
        BOOST_TEST(sample_aux(a, 0, f) == c0[f]);
        BOOST_TEST(sample_aux(a, 1, f) == 1u);
        BOOST_TEST(sample_aux(a, 2, f) == 0u);
    }
    BOOST_TEST(!a.findings.empty());
    // Time: start at 1, +1 per tick, hold at frame 3.
    auto aux2 = a;
    aux2.start_frame = 1;
    BOOST_TEST((aux_frames(aux2, 1, 5) == std::vector<std::int32_t>{1, 2, 3, 3, 3}));
    aux2.flags = 0;
    aux2.loop_frame = 1;
    BOOST_TEST((aux_frames(aux2, 1, 5) == std::vector<std::int32_t>{1, 2, 3, 1, 2}));
}

BOOST_AUTO_TEST_CASE(skeletal_time) {
    SkeletalAnimationData a;
    a.frame_count = 4;
    a.loop_frame = 1;
    BOOST_TEST((skeletal_frames(a, 2, 5) == std::vector<std::int32_t>{2, 3, 1, 2, 3}));
    a.flags = anim_flag::hold;
    BOOST_TEST((skeletal_frames(a, 2, 4) == std::vector<std::int32_t>{2, 3, 3, 3}));
}

// Both headers start with the same fields (§4.2 skeletal, §4.8 aux), read by one reader: bytes
// written by hand at the spec's offsets come back as those fields in both kinds, and flag bits
// other than 0x02/0x04/0x08 are a finding naming them in both.
BOOST_AUTO_TEST_CASE(header_start_fields_are_read_at_the_spec_offsets_in_both_kinds) {
    AuxAnimation aux;
    aux.frame_count = 9;
    aux.channels = {{1, 0}, {1, 0}, {1, 0}};
    aux.stream = {0};
    Model m = model_of(anim_model({one_channel(0, 9)}, {0}, {aux}));
    const std::uint32_t heads[2] = {m.map.animations.at(0), m.map.aux_animations.at(0)};
    for (std::uint32_t h : heads) {
        const std::uint8_t start[] = {0x01, 0x03,  // +0 flags 0x0103: hold and unknown bits 0x0101
                                      0xAB, 0xCD,  // +2 unknown bytes
                                      0xFF, 0xFE,  // +4 start frame -2
                                      0x00, 0x07};  // +6 loop start 7
        std::copy(std::begin(start), std::end(start), m.fragment.body.begin() + h);
        m.fragment.body[h + 0xA] = 0x00;  // +0xA frame count 8
        m.fragment.body[h + 0xB] = 0x08;
    }
    const auto anims = read_animations(m);
    const auto& s = anims.skeletal.at(0);
    const auto& a = anims.aux.at(0);
    BOOST_TEST(s.header == heads[0]);
    BOOST_TEST(a.header == heads[1]);
    BOOST_TEST(s.flags == 0x0103u);
    BOOST_TEST(a.flags == 0x0103u);
    BOOST_TEST((s.unknown2 == std::array<std::uint8_t, 2>{0xAB, 0xCD}));
    BOOST_TEST((a.unknown2 == std::array<std::uint8_t, 2>{0xAB, 0xCD}));
    BOOST_TEST(s.start_frame == -2);
    BOOST_TEST(a.start_frame == -2);
    BOOST_TEST(s.loop_frame == 7);
    BOOST_TEST(a.loop_frame == 7);
    BOOST_TEST(s.frame_count == 8u);
    BOOST_TEST(a.frame_count == 8u);
    BOOST_TEST(s.descriptor_count == 3u);  // +8, as built
    BOOST_TEST(a.channel_count == 3u);
    BOOST_TEST((s.descriptor_pointer & 0xFFF00000u) == m.fragment.link_base());  // +0xC
    BOOST_TEST((a.channel_pointer & 0xFFF00000u) == m.fragment.link_base());
    BOOST_TEST(s.descriptor_offset == s.descriptor_pointer - m.fragment.link_base());
    BOOST_TEST(a.channel_offset == a.channel_pointer - m.fragment.link_base());
    for (const auto* f : {&s.findings, &a.findings})
        BOOST_TEST(std::count(f->begin(), f->end(), "flags 0x0103 has bits other than 0x02/0x04/0x08 (0x0101)") == 1);
    // A header that leaves the body names its size.
    Model cut = m;
    cut.fragment.body.resize(heads[1] + 0x10);
    cut.map.animations.clear();
    const auto e = catch_error([&] { read_animations(cut); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(std::string(e->what()).find("the 0x14-byte header leaves the body") != std::string::npos, e->what());
    BOOST_TEST(std::string(e->what()).find("aux_animation[0].header") != std::string::npos, e->what());
}

BOOST_AUTO_TEST_CASE(truncation_gives_clean_errors) {
    SkeletalAnimation a = one_channel(0, 4);
    a.rotation = {0x1234, 0x5678, std::int16_t(0x9ABC), 0};
    a.channels[0].n_rot = 4;
    AuxAnimation aux;
    aux.channels = {{2, 0}};
    aux.stream = {0, 0};
    const Model full = model_of(anim_model({a}, {0}, {aux}));
    const auto whole = read_animations(full);
    std::size_t errors = 0, same = 0;
    for (std::uint32_t len = 0; len < full.fragment.body_size(); ++len) {
        Model m = full;
        m.fragment.body.resize(len);
        try {
            const auto got = read_animations(m);
            // Success only when everything the animations read is still there: the same values.
            BOOST_TEST_REQUIRE(got.skeletal.size() == 1u);
            BOOST_TEST((got.skeletal[0].descriptors == whole.skeletal[0].descriptors));
            for (int f = 0; f < 4; ++f) BOOST_TEST(sample_channel(got.skeletal[0], 0, f) == sample_channel(whole.skeletal[0], 0, f));
            BOOST_TEST(sample_aux(got.aux.at(0), 0, 1) == sample_aux(whole.aux.at(0), 0, 1));
            ++same;
        } catch (const mod::Error& e) {
            BOOST_TEST(e.kind() == mod::ErrorKind::format);
            BOOST_TEST(std::string(e.what()).find("animation") != std::string::npos);
            ++errors;
        }
    }
    BOOST_TEST(errors > 0u);
    // Also through the whole reader: every truncated FRAGMENT is a clean error.
    const Bytes bytes = anim_model({a}, {0}, {aux});
    for (std::size_t len = 0; len < bytes.size(); len += 7)
        BOOST_TEST(catch_error([&] { read_animations(read_model(Bytes(bytes.begin(), bytes.begin() + long(len)))); }).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
