// Issue 17 item 6: readings the seed does not state are named hypotheses that the tools report
// on, never refuse: influence-palette/1 (a header's influence count = its used slots),
// shred-flags/1 (the processed flag at +0xB4 is a big-endian u32, bit 0 = byte 0xB7), and the
// shred-quartet/1 box offsets (+0x10/+0x1C) checked against the positions (seed S0 L40: every
// position is "inside the stored box in every mesh").
#include "shred_util.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/core/file.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/shred/scan.hpp"

#include <bit>

using namespace mod::shred;
namespace fs = std::filesystem;

namespace {

mod::Bytes char_bytes() { return mod::read_file(shredtest::sample_dir() / "char_sample.pak"); }

// The first mesh scan finds in skater01's metadata: the seed's shoe mesh (f1cf719c).
FoundMesh shoe(const mod::Bytes& pak) {
    auto found = scan(pak, "char");
    BOOST_REQUIRE(!found.empty());
    BOOST_REQUIRE_EQUAL(mod::endian::load_be32(pak.data() + found[0].metadata_offset), 0xF1CF719Cu);
    return found[0];
}

fs::path write_temp(const modtest::TempDir& dir, const std::string& name, const mod::Bytes& b) {
    auto p = dir.path() / name;
    mod::write_file_atomic(p, b);
    return p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shred_hypotheses)

BOOST_AUTO_TEST_CASE(influence_palette_is_reported_not_refused) {
    // Palette 83,84,82,255 (three used slots) with influence count 2 written in its header.
    mod::shred::SkinnedMesh m;
    for (int i = 0; i < 3; ++i) {
        SkinnedVertex v;
        v.position = {float(i), 0, 0};
        v.normal = {0, 1, 0};
        v.tangent = {1, 0, 0};
        v.influence_count = 3;
        v.influences[0] = {83, 139 / 255.0f};
        v.influences[1] = {84, 113 / 255.0f};
        v.influences[2] = {82, 3 / 255.0f};
        m.vertices.push_back(v);
    }
    auto bytes = shredtest::make_stream(m);
    mod::endian::store_be16(bytes.data() + 64 + 6, 2);
    StreamReport rep;
    auto s = shredtest::decode(bytes, {}, &rep);
    BOOST_CHECK_EQUAL(rep.influence_palette_mismatches, 1u);
    BOOST_REQUIRE_EQUAL(rep.warnings.size(), 1u);
    BOOST_CHECK(rep.warnings[0].kind == StreamWarning::Kind::influence_palette);
    BOOST_CHECK_EQUAL(rep.warnings[0].offset, 64u + 6u);
    BOOST_CHECK_EQUAL(rep.warnings[0].batch, 0u);
    BOOST_CHECK_EQUAL(std::string(to_string(rep.warnings[0].kind)), "influence-palette");
    // Kept as stored, and the weights are read per used slot whatever the count.
    BOOST_CHECK(encode_stream(s) == bytes);
    BOOST_CHECK_EQUAL(s.batches[0].header.influence_count(), 2u);
    auto back = mesh_from_stream(s);
    BOOST_CHECK_EQUAL(back.vertices[0].influence_count, 3u);
    BOOST_CHECK_EQUAL(back.vertices[0].influences[2].bone, 82u);
    BOOST_CHECK_EQUAL(back.vertices[0].influences[2].weight, 3 / 255.0f);
    // validate_stream reports the same.
    StreamReport rep2;
    validate_stream(s, {}, &rep2);
    BOOST_CHECK_EQUAL(rep2.influence_palette_mismatches, 1u);
}

BOOST_AUTO_TEST_CASE(scan_reports_a_real_stream_that_breaks_influence_palette) {
    auto pak = char_bytes();
    auto m = shoe(pak);
    BOOST_CHECK_EQUAL(m.report.influence_palette_mismatches, 0u);
    // First batch: "STR\xFF", three used slots; claim 4.
    mod::endian::store_be16(pak.data() + m.stream_offset + 64 + 6, 4);
    auto again = shoe(pak);
    BOOST_CHECK_MESSAGE(again.error.empty(), again.error);
    BOOST_CHECK_EQUAL(again.report.influence_palette_mismatches, 1u);
    BOOST_CHECK_EQUAL(again.batches_by_influence[4], m.batches_by_influence[4] + 1);
    modtest::TempDir dir;
    auto r = modtest::run_cli({"shred", "scan", write_temp(dir, "p.pak", pak).string()});
    BOOST_CHECK_EQUAL(r.exit_code, 0);
    BOOST_CHECK_NE(r.out.find("influence-palette/1 disagrees"), std::string::npos);
    BOOST_CHECK_NE(r.out.find("influence-palette/1: 1 meshes"), std::string::npos);
}

BOOST_AUTO_TEST_CASE(processed_flag_width_is_a_hypothesis_with_every_reading_reported) {
    std::uint8_t word[4] = {0, 0, 0, 1};
    auto r = processed_readings(word);
    BOOST_CHECK(r.u32 && !r.u16 && !r.u8);
    std::uint8_t byte_b4[4] = {1, 0, 0, 0};
    r = processed_readings(byte_b4);
    BOOST_CHECK(!r.u32 && !r.u16 && r.u8);
    std::uint8_t byte_b5[4] = {0, 1, 0, 0};
    r = processed_readings(byte_b5);
    BOOST_CHECK(!r.u32 && r.u16 && !r.u8);

    auto pak = char_bytes();
    for (const auto& m : scan(pak, "char")) {
        if (!m.processed) continue;  // the forge's unprocessed mesh is tested below
        BOOST_CHECK_EQUAL(m.flags, 1u);
        BOOST_CHECK(m.processed_as.u32 && !m.processed_as.u16 && !m.processed_as.u8);
    }
    // A u8 flag at 0xB4 would read this as processed; the u32 reading does not. Reported.
    auto m = shoe(pak);
    mod::endian::store_be32(pak.data() + m.metadata_offset + 0xB4, 0x01000000);
    auto again = shoe(pak);
    BOOST_CHECK(!again.processed);
    BOOST_CHECK(again.processed_as.u8);
    BOOST_CHECK(again.error.empty());
    modtest::TempDir dir;
    auto out = modtest::run_cli({"shred", "scan", write_temp(dir, "p.pak", pak).string()});
    BOOST_CHECK_EQUAL(out.exit_code, 0);
    BOOST_CHECK_NE(out.out.find("processed flag NOT set; flag at +0xB4 read as u8 1, u16 0, u32 0"), std::string::npos);
    BOOST_CHECK_NE(out.out.find("DISAGREES"), std::string::npos);
}

BOOST_AUTO_TEST_CASE(positions_are_compared_with_the_stored_box) {
    auto pak = char_bytes();
    auto m = shoe(pak);
    BOOST_REQUIRE(m.box);
    BOOST_CHECK_EQUAL(m.box->outside, 0u);
    BOOST_CHECK(m.box->tight);
    // The shoe (sample/shred.cpp): two tubes of 6 rings x 12 segments, ring r at y = 0.05 r,
    // radius 0.06, shifted by +0.1 (left) and -0.1 (right) in x.
    BOOST_CHECK_EQUAL(m.box->min[1], 0.0f);
    BOOST_CHECK_EQUAL(m.box->max[1], 0.05f * 5.0f);
    BOOST_CHECK_EQUAL(m.box->max[0], 0.06f * std::cos(0.0f) + 0.1f);
    BOOST_CHECK_EQUAL(m.box->min[0], 0.06f * std::cos(2 * 3.14159265f * 6.0f / 12.0f) - 0.1f);
    // The box words at +0x10 (min) and +0x1C (max), big-endian f32.
    BOOST_CHECK_EQUAL(std::bit_cast<float>(mod::endian::load_be32(pak.data() + m.metadata_offset + 0x20)), 0.25f);
    // Lower max y below the top ring: its 2 x 12 vertices are outside.
    mod::endian::store_be32(pak.data() + m.metadata_offset + 0x20, std::bit_cast<std::uint32_t>(0.24f));
    auto again = shoe(pak);
    BOOST_REQUIRE(again.box);
    BOOST_CHECK_EQUAL(again.box->outside, 24u);
    BOOST_CHECK(!again.box->tight);
    BOOST_CHECK(again.error.empty());
    modtest::TempDir dir;
    auto p = write_temp(dir, "p.pak", pak);
    auto out = modtest::run_cli({"shred", "scan", p.string()});
    BOOST_CHECK_EQUAL(out.exit_code, 0);
    BOOST_CHECK_NE(out.out.find("24 positions OUTSIDE the box at +0x10/+0x1C (shred-quartet/1 disagrees)"), std::string::npos);
    auto json = modtest::run_cli({"shred", "scan", p.string(), "--json"});
    BOOST_CHECK_NE(json.out.find("\"positions_outside\": 24"), std::string::npos);
    // show reads the box from the quartet's record too (the edited box is still laid out as read).
    auto show = modtest::run_cli({"shred", "show", p.string()});
    BOOST_CHECK_NE(show.out.find("24 positions OUTSIDE the box"), std::string::npos);
    auto clean = modtest::run_cli({"shred", "show", (shredtest::sample_dir() / "char_sample.pak").string()});
    BOOST_CHECK_NE(clean.out.find("positions inside the box at +0x10/+0x1C (tight)"), std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
