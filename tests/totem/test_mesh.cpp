#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/totem/mesh.hpp"

using namespace mod::totem;
using namespace totemtest;

namespace {

Mesh decode(const Bytes& b, Endian e) { return decode_mesh(mod::ByteReader(b, e, "t", "rec")); }

std::array<std::uint32_t, 3> positions_of(const MeshTriangle& t) {
    return {t.corners[0].position, t.corners[1].position, t.corners[2].position};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_mesh)

BOOST_AUTO_TEST_CASE(fields_decode_and_round_trip_in_both_byte_orders) {
    for (Endian e : {Endian::big, Endian::little})
        for (bool groups : {false, true}) {
            auto bytes = mesh_payload(e, 1, groups);
            Mesh m = decode(bytes, e);
            BOOST_TEST(m.positions.size() == 4u);
            BOOST_TEST(m.positions[3][2].value() == -3.0f);
            BOOST_TEST(m.texcoords.size() == 3u);
            BOOST_TEST(m.texcoords[2][1].value() == 0.5f);
            BOOST_TEST(m.normals.size() == 2u);
            BOOST_TEST(m.strips.size() == 1u);
            BOOST_TEST((m.strips[0].vertex_ids == std::vector<std::uint16_t>{0, 1, 2, 3, 0}));
            BOOST_TEST(m.strip_groups.has_value() == groups);
            if (groups) BOOST_TEST(m.strip_groups->at(0) == 7);
            BOOST_TEST(m.strip_corners.at(0).size() == 5u);
            BOOST_TEST(m.strip_corners[0][4].texcoord_id == 1u);
            BOOST_TEST(m.materials == std::vector<std::int32_t>{name_id("MAT_A")});
            BOOST_TEST(m.spheres.at(0).radius.value() == 4.0f);
            BOOST_TEST(m.cuboids.at(0).matrix[15].value() == 15.0f);
            BOOST_TEST(m.cylinders.at(0).junk == 0xDEADBEEFu);
            BOOST_TEST(m.cylinders[0].radius.value() == 9.0f);
            BOOST_TEST(m.strip_order == std::vector<std::uint32_t>{0});
            BOOST_TEST(check_mesh(m).empty());
            BOOST_TEST(encode_mesh(m, e) == bytes);
        }
}

BOOST_AUTO_TEST_CASE(strips_alternate_corner_orders_from_tri_order) {
    // Strip 0 1 2 3 0: windows (0,1,2), (1,2,3), (2,3,0); orders (0,a,b), (0,b,a), (0,a,b).
    Mesh m1 = decode(mesh_payload(Endian::big, 1), Endian::big);
    auto t1 = build_triangles(m1);
    BOOST_REQUIRE(t1.size() == 3u);
    BOOST_TEST((positions_of(t1[0]) == std::array<std::uint32_t, 3>{0, 1, 2}));
    BOOST_TEST((positions_of(t1[1]) == std::array<std::uint32_t, 3>{1, 3, 2}));
    BOOST_TEST((positions_of(t1[2]) == std::array<std::uint32_t, 3>{2, 3, 0}));
    // Corner k of the strip carries UV k % 3 and normal k % 2: window 1, corner order (0,2,1).
    BOOST_TEST(t1[1].corners[1].texcoord == 0u);  // strip entry 3
    BOOST_TEST(t1[1].corners[1].normal == 1u);
    Mesh m2 = decode(mesh_payload(Endian::big, 2), Endian::big);
    auto t2 = build_triangles(m2);
    BOOST_TEST((positions_of(t2[0]) == std::array<std::uint32_t, 3>{0, 2, 1}));
    BOOST_TEST((positions_of(t2[1]) == std::array<std::uint32_t, 3>{1, 2, 3}));
    // Without corner lists (PS2 case) corners carry no UV/normal ids.
    Mesh m3 = decode(mesh_payload(Endian::little, 1, false, false), Endian::little);
    auto t3 = build_triangles(m3);
    BOOST_TEST(t3[0].corners[0].texcoord == no_index);
    BOOST_TEST(check_mesh(m3).size() == 1u);  // the note
}

BOOST_AUTO_TEST_CASE(bad_strips_are_refused_by_triangle_building_with_a_path) {
    Mesh m = decode(mesh_payload(Endian::big, 3), Endian::big);
    auto err = modtest::catch_error([&] { build_triangles(m); });
    BOOST_REQUIRE(err);
    BOOST_TEST(err->path() == "mesh.strips[0]");
    BOOST_TEST(check_mesh(m).size() == 1u);
    m = decode(mesh_payload(Endian::big, 1), Endian::big);
    m.strips[0].vertex_ids[2] = 9;
    BOOST_CHECK_THROW(build_triangles(m), mod::Error);
    m = decode(mesh_payload(Endian::big, 1), Endian::big);
    m.strip_corners[0].pop_back();
    BOOST_CHECK_THROW(build_triangles(m), mod::Error);
}

BOOST_AUTO_TEST_CASE(a_non_empty_unknown_shape_list_is_kept_raw) {
    auto bytes = mesh_payload(Endian::big, 1);
    // Set the unknown shape count (12 bytes from the end: count, strip order count, entry).
    mod::endian::store_be32(&bytes[bytes.size() - 12], 2);
    bytes.push_back(0x42);
    Mesh m = decode(bytes, Endian::big);
    BOOST_TEST(m.unknown_shape_count == 2u);
    BOOST_TEST(m.unparsed_tail.size() == 9u);
    BOOST_TEST(m.strip_order.empty());
    BOOST_TEST(encode_mesh(m, Endian::big) == bytes);
    BOOST_TEST(check_mesh(m).size() == 1u);
}

BOOST_AUTO_TEST_CASE(truncated_and_corrupt_payloads_fail_cleanly) {
    for (Endian e : {Endian::big, Endian::little}) {
        auto bytes = mesh_payload(e, 1, true);
        auto dec = [e](mod::ByteView v) { decode_mesh(mod::ByteReader(v, e, "t", "rec")); };
        BOOST_TEST(modtest::truncation_loop(bytes, dec) == bytes.size());
        BOOST_TEST(modtest::byte_flip_loop(bytes, dec, 3) > 0u);
        auto err = modtest::catch_error([&] { dec(mod::ByteView(bytes).first(0x64 + 4 + 12)); });
        BOOST_REQUIRE(err);
        // The count (4 positions) is checked against the bytes left before anything is read.
        BOOST_TEST(err->offset() == 0x64u + 4u);
        BOOST_TEST(err->path() == "rec.mesh.positions");
    }
}

BOOST_AUTO_TEST_CASE(encoder_checks_the_strip_group_flag) {
    Mesh m = decode(mesh_payload(Endian::big, 1, true), Endian::big);
    m.header.item_subtype = 0;
    BOOST_CHECK_THROW(encode_mesh(m, Endian::big), mod::Error);
}

BOOST_AUTO_TEST_SUITE_END()
