// Skeletal animation write side (animation_encode.hpp, animation_replace.hpp): the packed
// encoder against values worked out by hand from ../shared/reference/stadium_animation.md §4.5,
// decoding through the read side (read_skeletal_animation / sample_channel), Euler extraction,
// and replacement inside a FRAGMENT.
#include "anim_glb_support.hpp"
#include "stadium_test_support.hpp"

#include "libmod/stadium/animation_encode.hpp"
#include "libmod/stadium/animation_replace.hpp"
#include "libmod/stadium/export.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <numbers>

using namespace mod::stadium;
using mod::Bytes;
using mod::ErrorKind;
using modtest::catch_error;

namespace {

// A model with one bone per `channels` entry (all children of the first), each drawing a
// triangle, and the given animations.
Bytes model_with(const std::vector<SkeletalAnimation>& anims, const std::vector<std::uint8_t>& channels) {
    ModelBuilder m(11);
    auto tex = m.add_texture(TexFormat::rgba, TexSize::b16, 8, 8, Bytes(8 * 8 * 2, 0x22));
    auto mat = m.add_material_dl(tex);
    std::vector<Vertex> v(3);
    auto first = m.add_vertices(v);
    DisplayList dl;
    dl.vtx(first, 3, 0).tri1(0, 1, 2).end();
    auto d = m.add_display_list(std::move(dl));
    for (const auto& a : anims) m.add_animation(a);
    auto& s = m.layout();
    s.model_header().open();
    for (std::size_t b = 0; b < channels.size(); ++b) {
        s.bone(static_cast<std::uint8_t>(b), 0, channels[b], {std::int16_t(5 * b), 7, -3},
               {std::int16_t(0x100 * b), 0x40, std::int16_t(-0x80)}, 0x10000, 0x10000, 0x10000);
        s.open().material(1, -1, mat, tex, -1, 0xFFFFFFFF).draw(1, d);
        if (b == 0) continue;
        s.close();
    }
    s.close().close().end();
    return m.build();
}

std::vector<PoseSample> constant_frames(std::size_t n, PoseSample p) { return std::vector<PoseSample>(n, p); }

SkeletalAnimationData decode(const EncodedAnimation& e, std::size_t channels) {
    std::vector<std::uint8_t> ch;
    for (std::size_t c = 0; c < channels; ++c) ch.push_back(static_cast<std::uint8_t>(c));
    const Model m = read_model(model_with({e.animation}, ch), "t.fragment");
    return read_skeletal_animation(m, 0);
}

double max_matrix_difference(const Matrix3& a, const Matrix3& b) {
    double d = 0;
    for (int i = 0; i < 9; ++i) d = std::max(d, std::fabs(a[i] - b[i]));
    return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(animation_replace)

BOOST_AUTO_TEST_CASE(constants_are_exact_descriptor_values) {
    // Channel 0 never moves: t = (5, -3, 2047), r = (0x4000, -16, 0) binary angles, s = (1.5, 1, 0.25).
    PoseSample p;
    p.translation = {5, -3, 2047};
    p.rotation = {0x4000, -16, 0};
    p.scale = {1.5, 1, 0.25};
    const EncodedAnimation e = encode_packed({constant_frames(4, p)});
    BOOST_TEST(!e.trans16);  // every value in -2048..2047
    BOOST_TEST((e.animation.flags & anim_flag::trans16) == 0);
    const auto& x = e.animation.channels[0];
    const auto& y = e.animation.channels[1];
    const auto& z = e.animation.channels[2];
    BOOST_TEST(x.n_scale == 1); BOOST_TEST(x.n_rot == 1); BOOST_TEST(x.n_trans == 1);
    // Translation in 12-bit mode: the low 12 bits of offTrans. 5 → 0x005; -3 → 0xFFD; 2047 → 0x7FF.
    BOOST_TEST(x.trans_off == 0x005);
    BOOST_TEST(y.trans_off == 0xFFD);
    BOOST_TEST(z.trans_off == 0x7FF);
    // Rotation: offRot × 16 as s16. 0x4000 / 16 = 0x400; -16 / 16 = -1 → 0xFFF (× 16 = 0xFFF0 = -16).
    BOOST_TEST(x.rot_off == 0x400);
    BOOST_TEST(y.rot_off == 0xFFF);
    BOOST_TEST(z.rot_off == 0);
    // Scale: (u16)offScale / 1000.
    BOOST_TEST(x.scale_off == 1500);
    BOOST_TEST(y.scale_off == 1000);
    BOOST_TEST(z.scale_off == 250);
    BOOST_TEST(e.constants == 9u);
    BOOST_TEST(e.streams == 0u);
    BOOST_TEST(e.error.rotation_degrees == 0.0);
    BOOST_TEST(e.error.translation == 0.0);
    // Decoded by the read side: the same values on every frame.
    const auto d = decode(e, 1);
    for (int f = 0; f < 4; ++f) {
        const ChannelPose q = sample_channel(d, 0, f);
        BOOST_TEST(q.translation[0] == 5.0); BOOST_TEST(q.translation[1] == -3.0); BOOST_TEST(q.translation[2] == 2047.0);
        BOOST_TEST(q.rotation[0] == 0x4000); BOOST_TEST(q.rotation[1] == -16); BOOST_TEST(q.rotation[2] == 0);
        BOOST_TEST(q.scale[0] == 1.5); BOOST_TEST(q.scale[2] == 0.25);
    }
}

BOOST_AUTO_TEST_CASE(translation_width_chosen_at_the_boundary) {
    auto with = [](double a, double b) {
        std::vector<PoseSample> s(2);
        s[0].translation = {a, 0, 0};
        s[1].translation = {b, 0, 0};
        return encode_packed({s});
    };
    BOOST_TEST(!with(2047, -2048).trans16);
    BOOST_TEST(with(2048, 0).trans16);
    BOOST_TEST(with(0, -2049).trans16);
    // A constant also decides: 16-bit mode stores it whole ((s16)offTrans).
    PoseSample p;
    p.translation = {-2049, 0, 0};
    const auto e = encode_packed({constant_frames(3, p)});
    BOOST_TEST(e.trans16);
    BOOST_TEST(e.animation.channels[0].trans_off == 0xF7FF);  // -2049 as u16
    BOOST_TEST(decode(e, 1).trans16());
    BOOST_TEST(sample_channel(decode(e, 1), 0, 2).translation[0] == -2049.0);
    // 12-bit stream 2047, -2048: fields 0x7FF 0x800 → words 7FF8 0000 (+ the pad word).
    const auto s12 = with(2047, -2048);
    BOOST_TEST(s12.animation.translation == (std::vector<std::int16_t>{0x7FF8, 0x0000, 0}), boost::test_tools::per_element());
    const auto d12 = decode(s12, 1);
    BOOST_TEST(sample_channel(d12, 0, 0).translation[0] == 2047.0);
    BOOST_TEST(sample_channel(d12, 0, 1).translation[0] == -2048.0);
    // 16-bit stream 2048, 0.
    const auto s16 = with(2048, 0);
    BOOST_TEST(s16.animation.translation == (std::vector<std::int16_t>{2048, 0, 0}), boost::test_tools::per_element());
    BOOST_TEST(sample_channel(decode(s16, 1), 0, 0).translation[0] == 2048.0);
}

BOOST_AUTO_TEST_CASE(rotation_stream_packing_by_hand) {
    // x rotations 0, 16, 32, -16 (then held): 12-bit fields 0, 1, 2, 0xFFF at bits 0, 12, 24, 36:
    // word 0 = 0000, word 1 = bit 23 → 0x0100, word 2 = bit 34 (0x2000) | bits 36..47 (0x0FFF).
    std::vector<PoseSample> s(6);
    const double rx[] = {0, 16, 32, -16, -16, -16};
    for (int f = 0; f < 6; ++f) s[f].rotation = {rx[f], 0, 0};
    const auto e = encode_packed({s});
    BOOST_TEST(e.animation.channels[0].n_rot == 4);  // trailing repeats are implied by min(f, n-1)
    BOOST_TEST(e.animation.channels[0].rot_off == 0);
    BOOST_TEST(e.animation.rotation == (std::vector<std::int16_t>{0, 0x0100, 0x2FFF, 0}), boost::test_tools::per_element());
    const auto d = decode(e, 1);
    for (int f = 0; f < 6; ++f) BOOST_TEST(sample_channel(d, 0, f).rotation[0] == rx[f]);
    // An angle wraps: 32760 rounds to field 2048 → -2048 → -32768 (the same direction).
    std::vector<PoseSample> w(1);
    w[0].rotation = {32760, 0, 0};
    const auto ew = encode_packed({w});
    BOOST_TEST(sample_channel(decode(ew, 1), 0, 0).rotation[0] == -32768);
    BOOST_TEST(std::fabs(ew.error.rotation_degrees - 8 * 360.0 / 65536) < 1e-9);
}

BOOST_AUTO_TEST_CASE(identical_streams_share_and_decode_within_quantisation) {
    modtest::Rng rng(77);
    std::vector<std::vector<PoseSample>> ch(3, std::vector<PoseSample>(40));
    for (std::size_t c = 0; c < 3; ++c)
        for (std::size_t f = 0; f < 40; ++f) {
            auto& p = ch[c][f];
            for (int k = 0; k < 3; ++k) {
                p.translation[k] = double(rng.next() % 60000) / 10.0 - 3000;  // beyond 12 bits: 16-bit mode
                p.rotation[k] = double(rng.next() % 200000) - 100000 + 0.37;
                p.scale[k] = double(rng.next() % 5000) / 997.0;
            }
        }
    ch[2] = ch[1];  // channel 2 moves like channel 1: its streams are shared
    const auto e = encode_packed(ch);
    BOOST_TEST(e.trans16);
    BOOST_TEST(e.shared_streams == 9u);
    BOOST_TEST(e.animation.channels[6].rot_off == e.animation.channels[3].rot_off);
    // The reported errors are within the format's steps and bound every decoded value.
    BOOST_TEST(e.error.translation <= 0.5);
    BOOST_TEST(e.error.rotation_degrees <= 8 * 360.0 / 65536 + 1e-9);
    BOOST_TEST(e.error.scale <= 0.0005 + 1e-12);
    BOOST_TEST(e.error.rotation_degrees > 0.0);
    const auto d = decode(e, 3);
    for (std::size_t c = 0; c < 3; ++c)
        for (std::size_t f = 0; f < 40; ++f) {
            const ChannelPose q = sample_channel(d, c, static_cast<std::int32_t>(f));
            BOOST_TEST_REQUIRE((q == e.expected[c][f]));
            for (int k = 0; k < 3; ++k) {
                BOOST_TEST(std::fabs(q.translation[k] - ch[c][f].translation[k]) <= e.error.translation);
                BOOST_TEST(std::fabs(angle_difference(q.rotation[k], ch[c][f].rotation[k])) * 360.0 / 65536 <=
                           e.error.rotation_degrees + 1e-9);
                BOOST_TEST(std::fabs(q.scale[k] - ch[c][f].scale[k]) <= e.error.scale + 1e-12);
            }
        }
}

BOOST_AUTO_TEST_CASE(negative_constant_scale_becomes_a_stream) {
    PoseSample p;
    p.scale = {-1, 1, 1};
    const auto e = encode_packed({constant_frames(5, p)});
    BOOST_TEST(e.animation.channels[0].n_scale == 2);
    BOOST_TEST(sample_channel(decode(e, 1), 0, 4).scale[0] == -1.0);
}

BOOST_AUTO_TEST_CASE(what_the_format_cannot_hold_is_refused) {
    std::vector<PoseSample> s(3);
    s[1].translation = {40000, 0, 0};
    auto err = catch_error([&] { encode_packed({s}); });
    BOOST_TEST_REQUIRE(err.has_value());
    BOOST_TEST(err->kind() == ErrorKind::limit);
    BOOST_TEST(std::string(err->what()).find("channel 0 x translation at frame 1") != std::string::npos);
    s[1].translation = {0, 0, 0};
    s[1].scale = {1, 40, 1};  // a moving scale past s16 / 1000
    err = catch_error([&] { encode_packed({s}); });
    BOOST_TEST_REQUIRE(err.has_value());
    BOOST_TEST(err->kind() == ErrorKind::limit);
    // Motion after frame 254 (frame 280 moves, 281 moves back): the stream count is a u8.
    std::vector<PoseSample> longer(300);
    longer[280].rotation = {0, 160, 0};
    err = catch_error([&] { encode_packed({longer}); });
    BOOST_TEST_REQUIRE(err.has_value());
    BOOST_TEST(err->kind() == ErrorKind::limit);
    BOOST_TEST(std::string(err->what()).find("channel 0 y rotation still changes at frame 281") != std::string::npos);
    // Motion that stops by frame 254 in a longer animation is fine.
    std::vector<PoseSample> held(300);
    held[254].rotation = {0, 160, 0};
    for (std::size_t f = 254; f < 300; ++f) held[f].rotation = {0, 160, 0};
    BOOST_TEST(encode_packed({held}).animation.channels[1].n_rot == 255);
    EncodeOptions o;
    o.frame_count = 70000;
    err = catch_error([&] { encode_packed({}, o); });
    BOOST_TEST_REQUIRE(err.has_value());
    BOOST_TEST(err->kind() == ErrorKind::limit);
    // Stream offsets are u16: 66 channels × 3 axes of 255-value distinct rotation streams pass 65535 fields.
    std::vector<std::vector<PoseSample>> many(90, std::vector<PoseSample>(255));
    for (std::size_t c = 0; c < many.size(); ++c)
        for (std::size_t f = 0; f < 255; ++f)
            for (int k = 0; k < 3; ++k) many[c][f].rotation[k] = 16.0 * double((c * 3 + k) * 7 + f * 3);
    err = catch_error([&] { encode_packed(many); });
    BOOST_TEST_REQUIRE(err.has_value());
    BOOST_TEST(err->kind() == ErrorKind::limit);
    BOOST_TEST(std::string(err->what()).find("u16 offset") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(euler_extraction_round_trips) {
    // rotation_matrix follows the game's order: the exporter's bind matrix of a root bone with
    // rotation r (T·Rz·Ry·Rx·S, func_8000F5A8) has the same 3x3 part as rotation_matrix of r
    // truncated to a multiple of 16 units, since export looks the sines up in the game's
    // 4096-entry table (SINS(x) = gSineTable[(u16)x >> 4]): 0x1234 → 0x1230, −0x2345 (u16
    // 0xDCBB) → 0xDCB0 = −0x2350, 0x3456 → 0x3450. rotation_matrix itself stays exact.
    ModelBuilder mb(3);
    auto tex = mb.add_texture(TexFormat::rgba, TexSize::b16, 8, 8, Bytes(128, 1));
    auto mat = mb.add_material_dl(tex);
    std::vector<Vertex> v(3);
    auto first = mb.add_vertices(v);
    DisplayList dl;
    dl.vtx(first, 3, 0).tri1(0, 1, 2).end();
    auto dd = mb.add_display_list(std::move(dl));
    mb.layout().model_header().open().bone(0, 0, 0, {0, 0, 0}, {0x1234, -0x2345, 0x3456}).open()
        .material(1, -1, mat, tex, -1, 0xFFFFFFFF).draw(1, dd).close().close().end();
    const Model m = read_model(mb.build(), "e.fragment");
    const auto bind = model_scene(m).skeleton.bones[0].bind;
    const Matrix3 r = rotation_matrix({0x1230, -0x2350, 0x3450});
    for (int row = 0; row < 3; ++row)
        for (int c = 0; c < 3; ++c) BOOST_TEST(std::fabs(bind[row * 4 + c] - r[row * 3 + c]) < 1e-6);

    const double angles[][3] = {{0, 0, 0},          {0x1000, 0x2000, -0x3000}, {-0x7000, 0x3FF0, 0x10},
                                {0x100, -0x3FF0, 0x7FF0}, {0x2000, 0x4000, 0x1000}, {0x2000, -0x4000, -0x1000},
                                {0x10, 0x4010, 0x20}, {-32768, 0x100, 0x5000}};
    for (const auto& a : angles) {
        const std::array<double, 3> in{a[0], a[1], a[2]};
        const Matrix3 mq = quaternion_matrix(animtest::quaternion_of(rotation_matrix(in)));
        // Float quaternions as a glTF file stores them.
        auto q = animtest::quaternion_of(rotation_matrix(in));
        for (auto& c : q) c = float(c);
        const auto out = euler_from_matrix(quaternion_matrix(q), in);
        BOOST_TEST(max_matrix_difference(rotation_matrix(out), mq) < 1e-6);
        if (std::fabs(a[1]) != 0x4000) {
            // Away from gimbal lock the angles themselves come back (reference = the input).
            for (int k = 0; k < 3; ++k) BOOST_TEST(std::fabs(angle_difference(out[k], in[k])) < 0.05);
        } else {
            BOOST_TEST(out[0] == in[0]);  // gimbal lock: x is the reference's, z carries the rest
            BOOST_TEST(std::fabs(angle_difference(out[1], in[1])) < 1.0);
        }
    }
    // |y| > 90°: both Euler solutions give the matrix; the one nearest the reference is taken.
    const std::array<double, 3> wide{0x1000, 0x6000, 0x800}, other{0x9000, 0x2000, 0x8800};
    BOOST_TEST(max_matrix_difference(rotation_matrix(wide), rotation_matrix(other)) < 1e-12);
    const auto to_wide = euler_from_matrix(rotation_matrix(wide), {0x1100, 0x5F00, 0x700});
    const auto to_other = euler_from_matrix(rotation_matrix(wide), {0x9100, 0x2100, 0x8700});
    for (int k = 0; k < 3; ++k) {
        BOOST_TEST(std::fabs(angle_difference(to_wide[k], wide[k])) < 1e-6);
        BOOST_TEST(std::fabs(angle_difference(to_other[k], other[k])) < 1e-6);
    }
}

BOOST_AUTO_TEST_SUITE_END()
