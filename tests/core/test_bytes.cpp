#include "libmod/core/bytes.hpp"

#include "test_support.hpp"

#include <cmath>

using namespace mod;

BOOST_AUTO_TEST_SUITE(bytes)

BOOST_AUTO_TEST_CASE(reads_big_and_little_endian_fields) {
    const Bytes data = {0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0};
    ByteReader be(data, Endian::big);
    BOOST_TEST(be.u16() == 0x1234);
    BOOST_TEST(be.u32() == 0x56789ABCu);
    BOOST_TEST(be.u8() == 0xDE);
    BOOST_TEST(be.remaining() == 1u);
    ByteReader le(data, Endian::little);
    BOOST_TEST(le.u32() == 0x78563412u);
    BOOST_TEST(le.u16_at(6) == 0xF0DE);
    BOOST_TEST(ByteReader(data, Endian::big).u64() == 0x123456789ABCDEF0ull);
    BOOST_TEST(ByteReader(data, Endian::big).i16() == 0x1234);
    BOOST_TEST(ByteReader(Bytes{0xFF, 0xFE}, Endian::big).i16() == -2);
}

BOOST_AUTO_TEST_CASE(float_reads_keep_nan_payload_bits) {
    const Bytes data = {0x7F, 0xC1, 0x23, 0x45};
    ByteReader r(data, Endian::big);
    float f = r.f32();
    BOOST_TEST(std::isnan(f));
    BOOST_TEST(std::bit_cast<std::uint32_t>(f) == 0x7FC12345u);
    ByteWriter w(Endian::big);
    w.f32(f);
    BOOST_TEST(w.data() == data);
}

BOOST_AUTO_TEST_CASE(reading_past_the_end_names_file_offset_and_path) {
    const Bytes data(10, 0);
    ByteReader r(data, Endian::big, "model.bin", "archive[3]");
    r.skip(8);
    auto e = modtest::catch_error([&] { r.u32(); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == ErrorKind::format);
    BOOST_TEST(e->file() == "model.bin");
    BOOST_TEST(e->offset() == 8u);
    BOOST_TEST(e->path() == "archive[3]");
    BOOST_TEST(std::string(e->what()).find("need 4 bytes, 2 available") != std::string::npos);
    BOOST_TEST(r.tell() == 8u, "a failed read does not move the cursor");
}

BOOST_AUTO_TEST_CASE(child_readers_are_confined_and_keep_absolute_offsets) {
    Bytes data(64);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i);
    ByteReader top(data, Endian::big, "f", "archive");
    ByteReader entry = top.sub(16, 8, "[2]");
    BOOST_TEST(entry.size() == 8u);
    BOOST_TEST(entry.u8() == 16);
    BOOST_TEST(entry.path() == "archive[2]");
    ByteReader field = entry.sub(4, 4, "fragment");
    BOOST_TEST(field.absolute(0) == 20u);
    BOOST_TEST(field.path() == "archive[2].fragment");
    auto e = modtest::catch_error([&] { field.u32_at(2); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->offset() == 22u, "offsets in errors are absolute");
    BOOST_TEST(e->path() == "archive[2].fragment");
    // The child cannot see its neighbours even though the parent buffer continues.
    BOOST_CHECK_THROW(entry.sub(4, 5), Error);
    BOOST_CHECK_THROW(top.sub(60, 8), Error);
}

BOOST_AUTO_TEST_CASE(sub_range_checks_do_not_overflow) {
    const Bytes data(16);
    ByteReader r(data, Endian::big);
    BOOST_CHECK_THROW(r.sub(SIZE_MAX, 2), Error);
    BOOST_CHECK_THROW(r.sub(2, SIZE_MAX), Error);
    BOOST_CHECK_THROW(r.bytes_at(SIZE_MAX - 1, 4), Error);
    BOOST_CHECK_THROW(r.seek(17), Error);
    r.seek(16);
    BOOST_TEST(r.at_end());
}

BOOST_AUTO_TEST_CASE(array_counts_are_checked_before_allocation) {
    const Bytes data(16);
    ByteReader r(data, Endian::big);
    BOOST_TEST(r.require_array(4, 4) == 16u);
    auto e = modtest::catch_error([&] { r.require_array(0xFFFFFFFFull, 16); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == ErrorKind::format);
    BOOST_CHECK_THROW(r.require_array(UINT64_MAX, 8), Error);
}

BOOST_AUTO_TEST_CASE(expect_end_reports_trailing_bytes) {
    const Bytes data(6);
    ByteReader r(data, Endian::little);
    r.u32();
    auto e = modtest::catch_error([&] { r.expect_end(); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->message().find("2 unexpected trailing bytes") != std::string::npos);
    r.u16();
    r.expect_end();
}

BOOST_AUTO_TEST_CASE(writer_aligns_and_back_patches) {
    ByteWriter w(Endian::big);
    w.u8(1);
    auto at = w.placeholder_u32();
    w.align(16, 0xAA);
    BOOST_TEST(w.size() == 16u);
    BOOST_TEST(w.data()[15] == 0xAA);
    w.patch_u32(at, 0xCAFEBABE);
    BOOST_TEST(ByteReader(w.data(), Endian::big).u32_at(1) == 0xCAFEBABEu);
    w.align(16);
    BOOST_TEST(w.size() == 16u, "aligning an aligned size adds nothing");
    BOOST_CHECK_THROW(w.patch_u32(14, 0), Error);
    ByteWriter le(Endian::little);
    le.u16(0x1234);
    le.u32(0xA1B2C3D4);
    BOOST_TEST((le.data() == Bytes{0x34, 0x12, 0xD4, 0xC3, 0xB2, 0xA1}));
}

BOOST_AUTO_TEST_CASE(align_up_rounds_and_detects_overflow) {
    BOOST_TEST(align_up(0, 16) == 0u);
    BOOST_TEST(align_up(1, 16) == 16u);
    BOOST_TEST(align_up(33, 16) == 48u);
    BOOST_TEST(align_up(7, 3) == 9u);
    BOOST_CHECK_THROW(align_up(UINT64_MAX - 2, 16), Error);
}

BOOST_AUTO_TEST_SUITE_END()
