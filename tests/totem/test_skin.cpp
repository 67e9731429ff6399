#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/totem/skin.hpp"

#include <cmath>
#include <limits>

using namespace mod::totem;
using namespace totemtest;

namespace {

Skin decode(const Bytes& b, Endian e, SkinDecodeInfo* info = nullptr) {
    return decode_skin(mod::ByteReader(b, e, "t", "rec"), info);
}

const MeshLookup mesh_a = [](std::int32_t id) -> std::optional<MeshExtent> {
    if (id == name_id("MESH_A")) return MeshExtent{4, 2};
    return std::nullopt;
};

std::size_t mismatches(const std::vector<Finding>& f) {
    std::size_t n = 0;
    for (const auto& x : f) n += x.level == Finding::Level::mismatch;
    return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_skin)

BOOST_AUTO_TEST_CASE(fields_land_where_the_seed_puts_them) {
    for (Endian e : {Endian::big, Endian::little}) {
        auto bytes = skin_payload(e, true, true);
        Skin s = decode(bytes, e);
        BOOST_TEST(s.header.item_type == 3);
        BOOST_TEST(s.header.item_subtype == 2);
        BOOST_TEST(s.header.unknown[1].value() == 1.5f);
        BOOST_TEST(s.header.junk[5] == 0xAB);
        BOOST_TEST(s.mesh_ids == std::vector<std::int32_t>{name_id("MESH_A")});
        BOOST_REQUIRE(s.sections.size() == 1u);
        BOOST_TEST(s.sections[0].group_id == name_id("BONE_A"));
        const auto& sub = s.sections[0].subsections.at(0);
        BOOST_TEST(sub.vertices.size() == 2u);
        BOOST_TEST(sub.vertices[1].id == 2u);
        BOOST_TEST(sub.vertices[1].weight.value() == 0.5f);
        BOOST_TEST(sub.normals.at(0).id == 1u);
        BOOST_TEST(sub.normals[0].weight.value() == 0.25f);
        BOOST_TEST(s.anims.size() == 2u);
        BOOST_TEST(s.anims[1].symbol == 5u);
        BOOST_TEST(s.anims[1].anim_id == name_id("ANIM_RUN"));
        BOOST_TEST(s.unknown.at(0).vertices == std::vector<std::uint32_t>{2});
        BOOST_TEST(s.unknown[0].normals == std::vector<std::uint32_t>{1});
        BOOST_TEST(encode_skin(s, e) == bytes);
        BOOST_TEST(mismatches(check_skin(s, mesh_a)) == 0u);
    }
}

BOOST_AUTO_TEST_CASE(zero2_reading_is_detected_per_record) {
    for (Endian e : {Endian::big, Endian::little}) {
        SkinDecodeInfo info;
        auto with = skin_payload(e, true, true);
        Skin a = decode(with, e, &info);
        BOOST_TEST(to_string(info.reading) == std::string("seed"));
        BOOST_TEST(!info.ambiguous);
        BOOST_TEST(encode_skin(a, e) == with);

        auto without = skin_payload(e, true, false);
        Skin b = decode(without, e, &info);
        BOOST_TEST(to_string(info.reading) == std::string("chum-world"));
        BOOST_TEST(!info.ambiguous);
        BOOST_TEST(encode_skin(b, e) == without);
        // Same content either way; only the trailing word differs.
        BOOST_TEST(a.sections == b.sections);
        BOOST_TEST(a.unknown == b.unknown);
        BOOST_TEST(without.size() + 4 == with.size());

        auto none = skin_payload(e, false, false);
        Skin c = decode(none, e, &info);
        BOOST_TEST(to_string(info.reading) == std::string("no-anim-block"));
        BOOST_TEST(encode_skin(c, e) == none);
    }
}

BOOST_AUTO_TEST_CASE(forced_readings_must_consume_the_payload) {
    auto with = skin_payload(Endian::big, true, true);
    BOOST_CHECK_NO_THROW(decode_skin_as(mod::ByteReader(with, Endian::big), Zero2Reading::seed));
    auto err = modtest::catch_error([&] { decode_skin_as(mod::ByteReader(with, Endian::big, "f", "rec"), Zero2Reading::chum_world); });
    BOOST_REQUIRE(err);
    BOOST_TEST(err->message().find("bytes left after the unknown entries") != std::string::npos);
    BOOST_TEST(err->path().find("rec.skin") == 0u);
}

BOOST_AUTO_TEST_CASE(ambiguous_payloads_follow_the_documented_preference) {
    // After the anim entries: words 1, 1, 0, 0. Without zero2: one unknown entry
    // {vertices [0], normals []}. With zero2 = 1: one entry {[], []}. Both end exactly.
    ByteWriter w(Endian::big);
    auto full = skin_payload(Endian::big, true, false);
    full.resize(full.size() - 20);  // drop the unknown tail
    w.bytes(full);
    for (std::uint32_t v : {1u, 1u, 0u, 0u}) w.u32(v);
    auto bytes = w.take();
    SkinDecodeInfo info;
    Skin s = decode(bytes, Endian::big, &info);
    BOOST_TEST(info.ambiguous);
    // zero2 would be 1 under the seed's reading, contradicting "always 0": Chum World's wins.
    BOOST_TEST(to_string(info.reading) == std::string("chum-world"));
    BOOST_TEST(s.unknown.at(0).vertices == std::vector<std::uint32_t>{0});
    BOOST_TEST(encode_skin(s, Endian::big) == bytes);
}

BOOST_AUTO_TEST_CASE(checks_report_every_documented_disagreement) {
    auto bytes = skin_payload(Endian::big, true, true, 7);
    Skin s = decode(bytes, Endian::big);
    BOOST_TEST(mismatches(check_skin(s, mesh_a)) == 1u);  // zero2 = 7
    s.zero2 = 0;
    s.sections[0].subsections[0].vertices[1].id = 4;  // MESH_A has 4 positions
    s.sections[0].subsections[0].normals[0].weight = F32::of(std::numeric_limits<float>::quiet_NaN());
    auto f = check_skin(s, mesh_a);
    BOOST_TEST(mismatches(f) == 2u);
    BOOST_TEST(f[0].path == "skin.sections[0].subsections[0].vertices[1]");
    s = decode(bytes, Endian::big);
    s.zero2 = 0;
    s.unknown[0].vertices[0] = 3;  // > the subsection's 2 vertices
    s.unknown.push_back({});       // 2 entries for 1 section
    s.sections[0].subsections[0].mesh_index = 1;
    s.header.item_subtype = 1;
    f = check_skin(s, mesh_a);
    BOOST_TEST(mismatches(f) == 4u);
    // A target that is not an available MESH is a note, not a mismatch.
    f = check_skin(decode(skin_payload(Endian::big, false, false), Endian::big), {[](std::int32_t) {
        return std::optional<MeshExtent>();
    }});
    BOOST_TEST(f.size() == 1u);
    BOOST_TEST((f[0].level == Finding::Level::note));
}

BOOST_AUTO_TEST_CASE(truncated_and_corrupt_payloads_fail_cleanly) {
    for (bool zero2 : {true, false}) {
        auto bytes = skin_payload(Endian::little, true, zero2);
        auto dec = [](mod::ByteView v) { decode_skin(mod::ByteReader(v, Endian::little, "t", "rec")); };
        // No strict prefix is a valid SKIN except where the other zero2 reading ends.
        BOOST_TEST(modtest::truncation_loop(bytes, dec) >= bytes.size() - 1);
        BOOST_TEST(modtest::byte_flip_loop(bytes, dec) > 0u);
    }
    auto bytes = skin_payload(Endian::big, false, false);
    bytes.resize(0x70);
    auto err = modtest::catch_error([&] { decode_skin(mod::ByteReader(bytes, Endian::big, "f.DGC", "dgc.record[3]")); });
    BOOST_REQUIRE(err);
    BOOST_TEST(err->file() == "f.DGC");
    BOOST_TEST(err->has_offset());
    BOOST_TEST(err->path().find("dgc.record[3].skin") == 0u);
    // A hostile count must not allocate: it is rejected against the bytes left.
    auto hostile = skin_payload(Endian::big, false, false);
    mod::endian::store_be32(&hostile[0x70], 0x7FFFFFFF);  // section count
    err = modtest::catch_error([&] { decode_skin(mod::ByteReader(hostile, Endian::big)); });
    BOOST_REQUIRE(err);
    BOOST_TEST(err->offset() == 0x74u);
}

BOOST_AUTO_TEST_CASE(encoder_rejects_inconsistent_models) {
    Skin s = decode(skin_payload(Endian::big, true, true), Endian::big);
    s.reading = Zero2Reading::no_anim_block;
    BOOST_CHECK_THROW(encode_skin(s, Endian::big), mod::Error);
    s = decode(skin_payload(Endian::big, false, false), Endian::big);
    s.anims.push_back({1, 2});
    BOOST_CHECK_THROW(encode_skin(s, Endian::big), mod::Error);
    // Models whose bytes would read back as another model: the animation block dropped but
    // the seed reading kept, and a zero2 value the chosen reading does not write.
    s = decode(skin_payload(Endian::big, true, true, 5), Endian::big);
    s.has_anims = 0;
    s.anims.clear();
    BOOST_CHECK_THROW(encode_skin(s, Endian::big), mod::Error);
    s.reading = Zero2Reading::no_anim_block;
    BOOST_CHECK_THROW(encode_skin(s, Endian::big), mod::Error);  // zero2 = 5 still set
    s.zero2 = 0;
    auto bytes = encode_skin(s, Endian::big);
    BOOST_TEST((decode(bytes, Endian::big) == s));
    s = decode(skin_payload(Endian::big, true, false), Endian::big);
    s.zero2 = 1;
    BOOST_CHECK_THROW(encode_skin(s, Endian::big), mod::Error);
}

BOOST_AUTO_TEST_CASE(ambiguous_payloads_that_break_both_invariants_take_the_seed_layout) {
    // After the anim entries: words 2, 1, 2, 0, 0, 0. Without zero2: two entries
    // {[2], []} and {[], []} (2 entries for 1 section). With zero2 = 2: one entry {[0, 0], []}
    // (zero2 != 0). Neither reading satisfies the seed's invariants: the seed's layout wins.
    ByteWriter w(Endian::big);
    auto full = skin_payload(Endian::big, true, false);
    full.resize(full.size() - 20);
    w.bytes(full);
    for (std::uint32_t v : {2u, 1u, 2u, 0u, 0u, 0u}) w.u32(v);
    auto bytes = w.take();
    SkinDecodeInfo info;
    Skin s = decode(bytes, Endian::big, &info);
    BOOST_TEST(info.ambiguous);
    BOOST_TEST(to_string(info.reading) == std::string("seed"));
    BOOST_TEST(s.zero2 == 2u);
    BOOST_TEST((s.unknown.at(0).vertices == std::vector<std::uint32_t>{0, 0}));
    BOOST_TEST(encode_skin(s, Endian::big) == bytes);
}

BOOST_AUTO_TEST_CASE(when_neither_reading_fits_the_error_points_at_the_deeper_failure) {
    // A seed-layout payload with one stray byte: the seed reading fails only at that byte;
    // Chum World's takes zero2 as a count of 0 and fails 21 bytes earlier.
    auto bytes = skin_payload(Endian::little, true, true);
    bytes.push_back(0x99);
    auto err = modtest::catch_error([&] { decode(bytes, Endian::little); });
    BOOST_REQUIRE(err);
    BOOST_TEST(err->offset() == bytes.size() - 1);
    BOOST_TEST(err->message().find("with zero2 (seed)") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
