// MATERIAL, MATERIALANIM, MATERIALOBJ: fields where ../shared/reference/totem_records.md §3 puts
// them (payloads written field by field here), byte-exact round trips, truncation at every
// length, the sample's chains, and material.colour's edit.
#include "test_support.hpp"

#include "libmod/image/palette_text.hpp"
#include "libmod/sample/totem.hpp"
#include "libmod/totem/material.hpp"
#include "libmod/totem/texture_edit.hpp"
#include "libmod/totem/texture_scene.hpp"
#include "libmod/totem/verify.hpp"

using namespace mod::totem;
using mod::Bytes;
using mod::ByteWriter;
using mod::Endian;

namespace {

Bytes material_bytes(Endian e) {
    ByteWriter w(e);
    for (float f : {0.5f, 0.25f, 1.0f, 0.75f}) w.f32(f);       // colour
    for (float f : {0.1f, 0.2f, 0.3f}) w.f32(f);               // emission
    w.f32(9.0f);                                               // unknown at 28
    for (int i = 0; i < 9; ++i) w.f32(i == 6 ? 0.5f : i % 4 == 0 ? 1.0f : 0.0f);  // uv: translation u at float 6
    w.f32(0.125f);                                             // rotation at 68
    w.f32(0.5f), w.f32(0.0f), w.f32(2.0f), w.f32(2.0f);        // offset, scale
    w.u32(7), w.u32(6), w.u32(1);                              // flags_a, flags_b, unknown2 (88, 92, 96)
    w.u8(0x5A);                                                // unknown3 at 100
    w.i32(name_id("TEX_A"));                                   // texture at 101 (unaligned)
    w.i32(name_id("TEX_B"));                                   // reflection at 105
    return w.take();
}

Bytes anim_bytes(Endian e) {
    ByteWriter w(e);
    w.u8(3);
    w.f32(2.0f);
    w.u16(1), w.u32(2);                                        // texture track: {i32 bitmap; u16 frame}
    w.i32(name_id("TEX_A")), w.u16(0);
    w.i32(name_id("TEX_B")), w.u16(60);
    w.u16(2), w.u32(1), w.u16(30), w.u16(0), w.f32(1.0f), w.f32(0.5f);  // scroll: {u16 frame; u16 pad; vec2}
    w.u16(1), w.u32(0);                                        // stretch
    w.u16(2), w.u32(0);                                        // rotation
    w.u16(2), w.u32(1), w.u16(90), w.u16(0), w.f32(1), w.f32(0.5f), w.f32(0.25f);  // colour
    w.u16(1), w.u32(0);                                        // emission
    w.u16(1), w.u32(1), w.u16(45), w.u16(0), w.f32(0.75f);     // alpha
    w.u16(3), w.u32(1), w.u16(10), w.u16(0), w.u32(0xDEADBEEF);  // unknown1
    w.u16(1), w.u32(0);
    w.u16(1), w.u32(0);
    w.i32(name_id("MAT_A"));
    return w.take();
}

template <class F>
void every_truncation_fails(const Bytes& full, std::size_t needed, F decode) {
    for (std::size_t n = 0; n < needed; ++n) {
        const Bytes cut(full.begin(), full.begin() + long(n));
        auto err = modtest::catch_error([&] { decode(mod::ByteReader(cut, Endian::big, "t", "rec")); });
        BOOST_REQUIRE_MESSAGE(err.has_value(), "length " << n);
        BOOST_TEST(err->kind() == mod::ErrorKind::format);
        BOOST_TEST(err->file() == "t");
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_material)

BOOST_AUTO_TEST_CASE(material_fields_and_round_trip) {
    for (Endian e : {Endian::big, Endian::little}) {
        const Bytes b = material_bytes(e);
        BOOST_REQUIRE_EQUAL(b.size(), 109u);
        const Material m = decode_material(mod::ByteReader(b, e));
        BOOST_TEST(m.colour[1].value() == 0.25f);
        BOOST_TEST(m.colour[3].value() == 0.75f);
        BOOST_TEST(m.emission[2].value() == 0.3f);
        BOOST_TEST(m.unknown28.value() == 9.0f);
        BOOST_TEST(m.uv_transform[6].value() == 0.5f);
        BOOST_TEST(m.rotation.value() == 0.125f);
        BOOST_TEST(m.scale[1].value() == 2.0f);
        BOOST_TEST(m.flags_a == 7u);
        BOOST_TEST(m.flags_b == 6u);
        BOOST_TEST(m.unknown3 == 0x5A);
        BOOST_TEST(m.texture == name_id("TEX_A"));
        BOOST_TEST(m.reflection == name_id("TEX_B"));
        BOOST_TEST(encode_material(m, e) == b);
        Bytes longer = b;
        longer.push_back(0x77);
        const Material t = decode_material(mod::ByteReader(longer, e));
        BOOST_TEST(encode_material(t, e) == longer);
        BOOST_TEST(check_material(t).size() == 1u);
    }
    every_truncation_fails(material_bytes(Endian::big), 109, decode_material);
}

BOOST_AUTO_TEST_CASE(materialanim_tracks_and_round_trip) {
    for (Endian e : {Endian::big, Endian::little}) {
        const Bytes b = anim_bytes(e);
        const MaterialAnim a = decode_material_anim(mod::ByteReader(b, e));
        BOOST_TEST(a.unknown == 3);
        BOOST_TEST(a.length.value() == 2.0f);
        BOOST_REQUIRE_EQUAL(a.tracks[track_texture].keys.size(), 2u);
        BOOST_TEST(static_cast<std::int32_t>(a.tracks[track_texture].keys[1].value[0].bits) == name_id("TEX_B"));
        BOOST_TEST(a.tracks[track_texture].keys[1].frame == 60);
        BOOST_TEST(a.tracks[track_scroll].interpolation == 2);
        BOOST_TEST(a.tracks[track_scroll].keys[0].frame == 30);
        BOOST_TEST(a.tracks[track_scroll].keys[0].value[1].value() == 0.5f);
        BOOST_TEST(a.tracks[track_colour].keys[0].value[2].value() == 0.25f);
        BOOST_TEST(a.tracks[track_alpha].keys[0].value[0].value() == 0.75f);
        BOOST_TEST(a.tracks[track_unknown1].keys[0].value[0].bits == 0xDEADBEEFu);
        BOOST_TEST(a.material == name_id("MAT_A"));
        BOOST_TEST(encode_material_anim(a, e) == b);
        // Interpolation 3 on unknown1 is allowed; 7 is reported.
        BOOST_TEST(check_material_anim(a).empty());
    }
    const Bytes full = anim_bytes(Endian::big);
    every_truncation_fails(full, full.size(), decode_material_anim);
    // A hostile key count is refused before anything is allocated.
    Bytes hostile = full;
    hostile[7] = 0x7F;
    auto err = modtest::catch_error([&] { decode_material_anim(mod::ByteReader(hostile, Endian::big, "t", "rec")); });
    BOOST_REQUIRE(err.has_value());
    BOOST_TEST(err->path() == "rec.materialanim.texture.count");
}

BOOST_AUTO_TEST_CASE(materialobj_and_truncation) {
    ByteWriter w(Endian::big);
    w.u32(2), w.i32(name_id("ANIM_A")), w.i32(name_id("ANIM_B"));
    const Bytes b = w.take();
    const MaterialObj o = decode_material_obj(mod::ByteReader(b, Endian::big));
    BOOST_TEST(o.anims == (std::vector<std::int32_t>{name_id("ANIM_A"), name_id("ANIM_B")}));
    BOOST_TEST(encode_material_obj(o, Endian::big) == b);
    every_truncation_fails(b, b.size(), decode_material_obj);
}

BOOST_AUTO_TEST_CASE(sample_chains_link_the_hero_to_its_bitmaps_and_round_trip) {
    for (Platform p : {Platform::gamecube, Platform::ps2}) {
        const auto files = mod::sample::totem_sample(p);
        const Endian e = endian_of(p);
        const mod::ByteReader dgc(files.data, e, "SAMPLE", "dgc");
        const Archive a = decode_archive(dgc);
        const NameTable names = NameTable::parse(mod::ByteReader(files.names, Endian::big));
        std::size_t seen = 0;
        for (std::size_t i = 0; i < a.records.size(); ++i) {
            const auto& r = a.records[i];
            const auto pr = payload_reader(dgc, a, i);
            if (r.type_id == name_id("MATERIAL")) {
                ++seen;
                BOOST_TEST(encode_material(decode_material(pr), e) == r.payload);
            }
            if (r.type_id == name_id("MATERIALANIM")) {
                ++seen;
                BOOST_TEST(encode_material_anim(decode_material_anim(pr), e) == r.payload);
            }
            if (r.type_id == name_id("MATERIALOBJ")) {
                ++seen;
                BOOST_TEST(encode_material_obj(decode_material_obj(pr), e) == r.payload);
            }
        }
        BOOST_TEST(seen == 5u);  // 3 MATERIAL (SKIN, CLOTH, SIGN), 1 MATERIALANIM, 1 MATERIALOBJ
        const auto cloth = follow_material(dgc, a, name_id("DB:>SAMPLE>MATERIALS>CLOTH_ANIM.TMATANIM"), names);
        BOOST_TEST(cloth.material == name_id("DB:>SAMPLE>MATERIALS>CLOTH.TMAT"));
        BOOST_REQUIRE(cloth.bitmap.has_value());
        BOOST_TEST(a.records[*cloth.bitmap].name_id == name_id("DB:>SAMPLE>TEXTURES>CLOTH.TBITMAP"));
    }
}

BOOST_AUTO_TEST_CASE(material_colour_edit_writes_value_over_255) {
    const Bytes b = material_bytes(Endian::big);
    MaterialColourEdit edit;
    edit.colour = mod::image::parse_colour_text("#FF800040");
    const auto r = set_material_colour(mod::ByteReader(b, Endian::big), edit);
    BOOST_TEST(r.after.colour[0].value() == 1.0f);
    BOOST_TEST(r.after.colour[1].value() == 128.0f / 255.0f);
    BOOST_TEST(r.after.colour[3].value() == 64.0f / 255.0f);
    BOOST_TEST(r.after.emission == r.before.emission);
    // Only the first 16 bytes change.
    BOOST_TEST(Bytes(r.payload.begin() + 16, r.payload.end()) == Bytes(b.begin() + 16, b.end()));
    BOOST_TEST(modtest::catch_error([] { mod::image::parse_colour_text("12345"); }).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
