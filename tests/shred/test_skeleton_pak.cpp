// SCP skeletons and RIDE-layout PAKs.
#include "shred_util.hpp"

#include "libmod/core/file.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/shred/skeleton.hpp"

#include <cstring>

using namespace mod::shred;

namespace {

std::vector<BoneSpec> bones(std::size_t n) {
    std::vector<BoneSpec> out;
    for (std::size_t i = 0; i < n; ++i) {
        BoneSpec b;
        b.name = i == 0 ? "Root" : "Bone" + std::to_string(i);
        b.parent = i == 0 ? no_parent : static_cast<std::uint32_t>(i - 1);
        b.matrix = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, float(i), 2, 3, 1};
        b.word0 = 0x1000 + static_cast<std::uint32_t>(i);
        out.push_back(b);
    }
    return out;
}

Skeleton dec(const mod::Bytes& b) { return decode_skeleton(mod::ByteReader(b, mod::Endian::big, "scp", "scp")); }

}  // namespace

BOOST_AUTO_TEST_SUITE(shred_skeleton)

BOOST_AUTO_TEST_CASE(build_decode_encode) {
    auto bytes = build_skeleton(bones(40));
    auto s = dec(bytes);
    BOOST_REQUIRE_EQUAL(s.bones.size(), 40u);
    BOOST_CHECK_EQUAL(s.bones[7].name, "Bone7");
    BOOST_CHECK_EQUAL(s.bones[7].parent, 6u);
    BOOST_CHECK_EQUAL(s.bones[7].word0, 0x1007u);
    BOOST_CHECK_EQUAL(s.bones[7].matrix()[12], 7.0f);
    BOOST_CHECK(*s.find("Bone39") == 39u);
    BOOST_CHECK(!s.find("Nope"));
    BOOST_CHECK(affine_layout(s.bones[3].matrix()) == AffineLayout::translation_in_row3);
    BOOST_CHECK(encode_skeleton(s) == bytes);
    s.bones[2].matrix_bits[12] = 0x40A00000;  // 5.0
    auto edited = encode_skeleton(s);
    BOOST_CHECK_EQUAL(dec(edited).bones[2].matrix()[12], 5.0f);
}

BOOST_AUTO_TEST_CASE(validation_errors) {
    auto good = build_skeleton(bones(4));
    auto s = dec(good);
    std::size_t table = s.table_offset;
    auto expect = [&](mod::Bytes b, const std::string& path_part) {
        auto e = modtest::catch_error([&] { dec(b); });
        BOOST_REQUIRE(e);
        BOOST_CHECK_MESSAGE(e->path().find(path_part) != std::string::npos, e->what());
    };
    auto b = good;
    mod::endian::store_be32(b.data() + table + 16 * 2 + 4, 9);
    expect(b, "bone[2].parent");
    b = good;
    mod::endian::store_be32(b.data() + table + 16 * 2 + 4, 2);  // its own parent
    expect(b, "bone[2].parent");
    b = good;
    mod::endian::store_be32(b.data() + s.bones[1].matrix_offset + 20, 0x7FC00000);
    expect(b, "bone[1].matrix");
    b = good;
    mod::endian::store_be32(b.data() + s.bones[1].matrix_offset + 60, 0x40000000);  // m[15] = 2
    expect(b, "bone[1].matrix");
    b = good;
    b[s.bones[3].name_offset] = 0x01;
    expect(b, "bone[3].name");
    b = good;
    mod::endian::store_be32(b.data() + table + 16 * 1 + 8, static_cast<std::uint32_t>(b.size() + 5));
    expect(b, "bone[1].name_offset");
    b = good;
    mod::endian::store_be32(b.data() + 0x20, 0);
    expect(b, "bone_count");
    auto dec_view = [](mod::ByteView v) { decode_skeleton(mod::ByteReader(v, mod::Endian::big)); };
    modtest::truncation_loop(good, dec_view);
    modtest::byte_flip_loop(good, dec_view, 2);
}

// The edges of the range checks: the last bone is a valid parent (of any bone, even an earlier
// one), the bone count is not; a matrix may end exactly at the end of the file, not one byte past.
BOOST_AUTO_TEST_CASE(validation_edges) {
    auto good = build_skeleton(bones(4));
    const auto s = dec(good);
    const std::size_t table = s.table_offset;
    auto b = good;
    mod::endian::store_be32(b.data() + table + 16 * 1 + 4, 3);
    BOOST_CHECK_EQUAL(dec(b).bones[1].parent, 3u);
    mod::endian::store_be32(b.data() + table + 16 * 1 + 4, 4);
    auto e = modtest::catch_error([&] { dec(b); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_EQUAL(e->path(), "scp.bone[1].parent");
    BOOST_CHECK_EQUAL(e->offset(), table + 16 + 4);
    // Bone 2's matrix copied to the last 64 bytes of the file.
    b = good;
    const std::uint32_t at = static_cast<std::uint32_t>(b.size());
    b.insert(b.end(), good.begin() + s.bones[2].matrix_offset, good.begin() + s.bones[2].matrix_offset + 64);
    mod::endian::store_be32(b.data() + table + 16 * 2 + 12, at);
    BOOST_CHECK_EQUAL(dec(b).bones[2].matrix_offset, at);
    BOOST_CHECK(encode_skeleton(dec(b)) == b);
    mod::endian::store_be32(b.data() + table + 16 * 2 + 12, at + 4);
    e = modtest::catch_error([&] { dec(b); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_EQUAL(e->path(), "scp.bone[2].matrix_offset");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(shred_pak)

namespace {
std::vector<PakBuildEntry> entries() {
    std::vector<PakBuildEntry> e;
    for (int i = 0; i < 5; ++i) {
        PakBuildEntry x;
        x.name = "dir/file" + std::to_string(i) + ".bin";
        x.hash = 0xABC00000u + static_cast<std::uint32_t>(i);
        x.unknown1 = 7;
        x.unknown2 = 100u + static_cast<std::uint32_t>(i);
        x.data.assign(50 + 37 * static_cast<std::size_t>(i), static_cast<std::uint8_t>('a' + i));
        e.push_back(x);
    }
    return e;
}
}  // namespace

BOOST_AUTO_TEST_CASE(read_and_identity_repack) {
    auto bytes = build_pak(entries(), 3, 9, 32);
    auto pak = read_pak(bytes, "t.pak");
    BOOST_CHECK_EQUAL(pak.unknown_a, 3);
    BOOST_CHECK_EQUAL(pak.unknown_b, 9);
    BOOST_REQUIRE_EQUAL(pak.entries.size(), 5u);
    BOOST_CHECK_EQUAL(pak.entries[2].name, "dir/file2.bin");
    BOOST_CHECK_EQUAL(pak.entries[2].hash, 0xABC00002u);
    BOOST_CHECK_EQUAL(pak.entries[2].unknown2, 102u);
    BOOST_CHECK_EQUAL(pak.data(2).size(), 124u);
    BOOST_CHECK_EQUAL(pak_data_alignment(pak), 32u);
    std::vector<std::optional<mod::Bytes>> none(5);
    BOOST_CHECK(repack_pak(pak, none) == bytes);
    none[1] = mod::Bytes(pak.data(1).begin(), pak.data(1).end());  // same data: same file
    BOOST_CHECK(repack_pak(pak, none) == bytes);
}

BOOST_AUTO_TEST_CASE(repack_with_grown_and_shrunk_entries) {
    auto bytes = build_pak(entries(), 3, 9, 32);
    auto pak = read_pak(bytes, "t.pak");
    std::vector<std::optional<mod::Bytes>> r(5);
    r[1] = mod::Bytes(500, 0x42);
    r[3] = mod::Bytes(3, 0x43);
    auto out = repack_pak(pak, r);
    auto again = read_pak(out, "out.pak");
    for (std::size_t i = 0; i < 5; ++i) {
        BOOST_CHECK_EQUAL(again.entries[i].hash, pak.entries[i].hash);
        BOOST_CHECK_EQUAL(again.entries[i].name, pak.entries[i].name);
        BOOST_CHECK_EQUAL(again.entries[i].unknown1, pak.entries[i].unknown1);
        BOOST_CHECK_EQUAL(again.entries[i].unknown2, pak.entries[i].unknown2);
        BOOST_CHECK_EQUAL(again.entries[i].data_offset % 32, 0u);
        mod::ByteView want = r[i] ? mod::ByteView(*r[i]) : pak.data(i);
        auto got = again.data(i);
        BOOST_CHECK(std::equal(got.begin(), got.end(), want.begin(), want.end()));
    }
    // Each entry found through the new file's own table, as the replacement's self-check does.
    for (std::size_t i = 0; i < 5; ++i) {
        auto view = pak_entry_data(out, i, "out.pak");
        auto want = again.data(i);
        BOOST_CHECK(view.data() == out.data() + again.entries[i].data_offset);
        BOOST_CHECK(std::equal(view.begin(), view.end(), want.begin(), want.end()));
    }
    auto absent = modtest::catch_error([&] { pak_entry_data(out, 5, "out.pak"); });
    BOOST_REQUIRE(absent);
    BOOST_CHECK(absent->kind() == mod::ErrorKind::usage);
    mod::Bytes cut(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(again.entries[4].data_offset + 1));
    auto past = modtest::catch_error([&] { pak_entry_data(cut, 4, "cut.pak"); });
    BOOST_REQUIRE(past);
    BOOST_CHECK(past->kind() == mod::ErrorKind::format);
    BOOST_CHECK_EQUAL(past->file(), "cut.pak");
    BOOST_CHECK(past->message().find("not a RIDE-layout PAK: ") == 0);
    BOOST_CHECK_EQUAL(past->path(), "pak.entry[4].data_offset");
    for (std::size_t n : {0, 3, 15, 20})
        BOOST_CHECK(modtest::catch_error([&] {
            pak_entry_data(mod::ByteView(out).first(n), 0, "short.pak");
        }).has_value());
    // Putting the old data back gives the original bytes.
    std::vector<std::optional<mod::Bytes>> back(5);
    back[1] = mod::Bytes(pak.data(1).begin(), pak.data(1).end());
    back[3] = mod::Bytes(pak.data(3).begin(), pak.data(3).end());
    BOOST_CHECK(repack_pak(again, back) == bytes);
}

BOOST_AUTO_TEST_CASE(misfits_say_what_differed) {
    auto bytes = build_pak(entries());
    auto expect = [](mod::Bytes b, const std::string& words) {
        auto e = modtest::catch_error([&] { read_pak(b, "x.pak"); });
        BOOST_REQUIRE(e);
        BOOST_CHECK_MESSAGE(e->message().rfind("not a RIDE-layout PAK: ", 0) == 0, e->what());
        BOOST_CHECK_MESSAGE(e->message().find(words) != std::string::npos, e->what());
    };
    auto b = bytes;
    b[0] = 'X';
    expect(b, "magic");
    b = bytes;
    mod::endian::store_be32(b.data() + 8, 100000);
    expect(b, "entries of 24 bytes");
    b = bytes;
    mod::endian::store_be32(b.data() + 12, 0x7FFFFFFF);
    expect(b, "name table");
    b = bytes;
    mod::endian::store_be32(b.data() + 0x10 + 24 + 4, 0x10000);
    expect(b, "name offset");
    b = bytes;
    mod::endian::store_be32(b.data() + 0x10 + 24 * 2 + 20, 0x100000);
    expect(b, "past the end");
    b = bytes;
    mod::endian::store_be32(b.data() + 0x10 + 24 * 2 + 16, 0x14);
    expect(b, "inside the header");
    auto dec = [](mod::ByteView v) { read_pak(mod::Bytes(v.begin(), v.end())); };
    modtest::truncation_loop(bytes, dec);
    modtest::byte_flip_loop(bytes, dec, 5);
}

BOOST_AUTO_TEST_CASE(overlapping_data_cannot_be_relaid) {
    auto bytes = build_pak(entries());
    auto pak0 = read_pak(bytes);
    // Entry 1 now points into entry 0's data.
    mod::endian::store_be32(bytes.data() + 0x10 + 24 + 16, pak0.entries[0].data_offset + 4);
    auto pak = read_pak(bytes);
    std::vector<std::optional<mod::Bytes>> none(5);
    BOOST_CHECK(repack_pak(pak, none) == bytes);
    none[4] = mod::Bytes(10, 1);
    auto e = modtest::catch_error([&] { repack_pak(pak, none); });
    BOOST_REQUIRE(e);
    BOOST_CHECK(e->kind() == mod::ErrorKind::conflict);
}

BOOST_AUTO_TEST_CASE(sample_paks_read_and_repack_identically) {
    for (const char* name : {"char_sample.pak", "layer_sample.pak"}) {
        auto bytes = mod::read_file(shredtest::sample_dir() / name);
        auto pak = read_pak(bytes, name);
        BOOST_CHECK_GE(pak.entries.size(), 9u);
        std::vector<std::optional<mod::Bytes>> all(pak.entries.size());
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = mod::Bytes(pak.data(i).begin(), pak.data(i).end());
        BOOST_CHECK(repack_pak(pak, all) == bytes);
    }
}

BOOST_AUTO_TEST_SUITE_END()
