// Issue 17, "a forge that can fail", SHRED (review §5.1): the sample's skater03 quartet holds
// tied weights, an active palette slot of weight 0, rotated SCP matrices in the column-3
// layout and an unprocessed mesh; board01 is a quartet of one static (non-skinned) mesh. Each
// decoded value is checked against what the rule or the forge's specification says, computed
// here by hand.
#include "shred_util.hpp"

#include "libmod/core/file.hpp"
#include "libmod/shred/import.hpp"
#include "libmod/shred/quartet.hpp"
#include "libmod/shred/scan.hpp"

#include <cmath>

using namespace mod::shred;

namespace {

Pak char_pak() {
    auto p = shredtest::sample_dir() / "char_sample.pak";
    return read_pak(mod::read_file(p), p.string());
}

std::array<std::uint8_t, 4> weights_of(const Stream& s, std::size_t batch) {
    return s.vertices[s.batches[batch].first_vertex].weights();
}

using B4 = std::array<std::uint8_t, 4>;

}  // namespace

BOOST_AUTO_TEST_SUITE(shred_forge_cases)

BOOST_AUTO_TEST_CASE(tied_weights_follow_bone_order_and_zero_weights_keep_their_slot) {
    auto model = read_pak_quartet(char_pak(), "skater03");
    const Stream& s = model.meshes.at(0).stream;
    BOOST_REQUIRE_EQUAL(s.batches.size(), 3u);
    // Sorted by (influence count, palette bytes): 3,5,7 < 10,11,12 (three influences), then four.
    // 1/3 each -> 255/3 = 85 exactly, a three-way tie: ascending bone id.
    BOOST_CHECK((s.batches[0].header.bones() == B4{3, 5, 7, 255}));
    BOOST_CHECK_EQUAL(s.batches[0].header.influence_count(), 3u);
    BOOST_CHECK((weights_of(s, 0) == B4{85, 85, 85, 0}));
    // 200, 55, 0.01 (sum 255.01): x = 199.992, 54.998, 0.010; floors 199, 54, 0 leave 2 units for
    // the largest remainders (0.998 then 0.992): 200, 55, 0. Bone 12 keeps its slot at weight 0.
    BOOST_CHECK((s.batches[1].header.bones() == B4{10, 11, 12, 255}));
    BOOST_CHECK_EQUAL(s.batches[1].header.influence_count(), 3u);
    BOOST_CHECK((weights_of(s, 1) == B4{200, 55, 0, 0}));
    // 64, 64, 64, 63: the three tied 64s in bone order 2, 6, 9, then 4.
    BOOST_CHECK((s.batches[2].header.bones() == B4{2, 6, 9, 4}));
    BOOST_CHECK_EQUAL(s.batches[2].header.influence_count(), 4u);
    BOOST_CHECK((weights_of(s, 2) == B4{64, 64, 64, 63}));
    for (const auto& b : s.batches) BOOST_CHECK_EQUAL(b.vertex_count, 4u);
    // On this stream the three ordering rules differ: only weight-desc reproduces it.
    auto c = check_conformance(s);
    BOOST_CHECK(c.reproduces[0]);   // weight-desc
    BOOST_CHECK(!c.reproduces[1]);  // count-desc (four influences first)
    BOOST_CHECK(!c.reproduces[2]);  // bone-sorted (2, 4, 6, 9)
    // The zero-weight slot comes back as an influence of weight 0, not dropped.
    auto mesh = mesh_from_stream(s);
    const auto& v = mesh.vertices[s.batches[1].first_vertex];
    BOOST_CHECK_EQUAL(v.influence_count, 3u);
    BOOST_CHECK_EQUAL(v.influences[2].bone, 12u);
    BOOST_CHECK_EQUAL(v.influences[2].weight, 0.0f);
}

BOOST_AUTO_TEST_CASE(rotated_column3_scp_matrices_are_the_bind_as_stored) {
    auto model = read_pak_quartet(char_pak(), "skater03");
    BOOST_REQUIRE_EQUAL(model.skeleton.bones.size(), 40u);
    // Bone 1: rotation about z by 15 degrees, translation (0.01, 0.05, -0.02) in column 3.
    const auto m = model.skeleton.bones[1].matrix();
    const float a = 3.14159265f / 12.0f, c = std::cos(a), sn = std::sin(a);
    BOOST_CHECK(affine_layout(m) == AffineLayout::translation_in_column3);
    BOOST_CHECK_CLOSE(m[0], 0.96592583f, 1e-4);  // cos 15°
    BOOST_CHECK_CLOSE(m[4], 0.25881905f, 1e-4);  // sin 15°
    BOOST_CHECK_EQUAL(m[1], -sn);
    BOOST_CHECK_EQUAL(m[3], 0.01f);
    BOOST_CHECK_EQUAL(m[7], 0.05f);
    BOOST_CHECK_EQUAL(m[11], -0.02f);
    BOOST_CHECK_EQUAL(m[15], 1.0f);
    // scp-bind/1: a column-3 matrix is used as stored (row-major, column vectors); it maps the
    // point (1, 0, 0) to (cos 15° + 0.01, sin 15° + 0.05, -0.02).
    const auto bind = scp_bind_matrix(model.skeleton.bones[1]);
    BOOST_CHECK((bind == m));
    const float px = bind[0] * 1 + bind[3], py = bind[4] * 1 + bind[7], pz = bind[8] * 1 + bind[11];
    BOOST_CHECK_CLOSE(px, c + 0.01f, 1e-4);
    BOOST_CHECK_CLOSE(py, sn + 0.05f, 1e-4);
    BOOST_CHECK_CLOSE(pz, -0.02f, 1e-4);
    // Bone 0 (angle 0) is a translation only, bone 6 (angle 0 again, i % 6 == 0) too.
    BOOST_CHECK_EQUAL(model.skeleton.bones[6].matrix()[0], 1.0f);
    auto sk = to_scene_skeleton(model.skeleton);
    BOOST_CHECK((sk.bones[1].bind == m));
}

BOOST_AUTO_TEST_CASE(the_unprocessed_mesh_is_read_reported_and_set_by_a_replacement) {
    auto pak = char_pak();
    auto q = *find_quartet(pak, "skater03");
    auto files = quartet_files(pak, q);
    auto model = read_quartet(files, "skater03");
    BOOST_REQUIRE_EQUAL(model.meshes.size(), 2u);
    BOOST_CHECK_EQUAL(mod::endian::load_be32(model.meshes[1].head.data() + 0xB4), 0u);
    BOOST_CHECK_EQUAL(mod::endian::load_be32(model.meshes[0].head.data() + 0xB4), 1u);
    // Kept as read.
    auto again = write_quartet(model);
    BOOST_CHECK(again.meta == files.meta);
    // scan and show report it.
    auto found = scan(files.meta, "skater03.rmg");
    BOOST_REQUIRE_EQUAL(found.size(), 2u);
    BOOST_CHECK(found[0].processed);
    BOOST_CHECK(!found[1].processed);
    BOOST_CHECK(!found[1].processed_as.u8 && !found[1].processed_as.u16 && !found[1].processed_as.u32);
    const auto pak_path = (shredtest::sample_dir() / "char_sample.pak").string();
    auto show = modtest::run_cli({"shred", "show", pak_path});
    BOOST_CHECK_EQUAL(show.exit_code, 0);
    BOOST_CHECK_NE(show.out.find("processed flag NOT set (flag at +0xB4 read as u8 0, u16 0, u32 0)"), std::string::npos);
    auto sc = modtest::run_cli({"shred", "scan", pak_path});
    BOOST_CHECK_EQUAL(sc.exit_code, 0);
    BOOST_CHECK_NE(sc.out.find("shred-flags/1 (u32 at +0xB4): processed in 7 of 8 meshes"), std::string::npos);
    // A replacement writes a processed stream and sets bit 0.
    auto same = mesh_from_stream(model.meshes[1].stream);
    for (const auto& t : model.meshes[1].triangles) same.triangles.push_back(t);
    auto out = replace_mesh(files, 1, same, {}, "skater03");
    auto replaced = read_quartet(out, "skater03");
    BOOST_CHECK_EQUAL(mod::endian::load_be32(replaced.meshes[1].head.data() + 0xB4), 1u);
}

BOOST_AUTO_TEST_CASE(a_static_quartet_is_outside_the_hypothesis_not_a_failure) {
    auto pak = char_pak();
    auto q = find_quartet(pak, "board01");
    BOOST_REQUIRE(q);
    auto meta = pak.data(q->meta);
    BOOST_CHECK_EQUAL(mod::endian::load_be32(meta.data() + 0x30 + 0x9C), 0xFFFFFFFFu);
    BOOST_CHECK(is_static_quartet(meta));
    BOOST_CHECK(!is_static_quartet(pak.data(find_quartet(pak, "skater01")->meta)));
    BOOST_CHECK(scan(meta).empty());  // no skinned mesh in it
    auto e = modtest::catch_error([&] { read_quartet(quartet_files(pak, *q), "board01"); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_NE(std::string(e->what()).find("shred-quartet/1 does not match board01"), std::string::npos);
    auto show = modtest::run_cli({"shred", "show", (shredtest::sample_dir() / "char_sample.pak").string()});
    BOOST_CHECK_EQUAL(show.exit_code, 0);
    BOOST_CHECK_NE(show.out.find("quartet board01 (board01.rmg)\n    not skinned: every record has 0xFFFFFFFF at +0x9C"),
                   std::string::npos);
    auto json = modtest::run_cli({"shred", "show", (shredtest::sample_dir() / "char_sample.pak").string(), "--json"});
    BOOST_CHECK_NE(json.out.find("\"base\": \"board01\",\n            \"meta\": \"board01.rmg\",\n            \"skinned\": false"), std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
