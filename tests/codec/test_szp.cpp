#include "libmod/codec/szp.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/sample/payload.hpp"

#include "test_support.hpp"

using namespace mod;

namespace {

struct Layout {
    std::uint32_t header_size = 0x18;
    std::uint32_t size1 = 0;
    std::uint32_t size2 = 0;
    std::vector<szp::Fixup> fixups;
    std::size_t padding = 0;  // bytes between the fix-up table and the stream
};

// A PERS-SZP blob laid out by hand, so tests control every header field.
Bytes make_blob(const Layout& l, ByteView yay0_stream) {
    ByteWriter w(Endian::big);
    w.string("PERS-SZP");
    w.u32(l.header_size);
    w.u32(l.size1);
    w.u32(l.size2);
    w.u32(static_cast<std::uint32_t>(l.fixups.size()));
    for (const auto& f : l.fixups) {
        w.u32(f.value);
        w.u32(f.offset);
    }
    w.fill(l.padding, 0);
    w.bytes(yay0_stream);
    return w.take();
}

ByteReader reader(const Bytes& b) { return ByteReader(b, Endian::big, "entry.szp", "szp"); }

}  // namespace

BOOST_AUTO_TEST_SUITE(pers_szp)

BOOST_AUTO_TEST_CASE(pack_then_unpack_round_trips_in_both_modes) {
    auto content = sample::synthetic_payload(40000, 11);
    for (auto mode : {yay0::Mode::nintendo, yay0::Mode::best}) {
        auto blob = szp::pack(content, mode);
        auto u = szp::unpack(reader(blob));
        BOOST_TEST(u.data == content);
        BOOST_TEST(u.header.header_size == 0x18u);
        BOOST_TEST(u.header.size1 == content.size());
        BOOST_TEST(u.header.size2 == content.size());
        BOOST_TEST(u.header.fixups.empty());
        BOOST_TEST(u.yay0.stream_end + 0x18 == blob.size());
    }
}

BOOST_AUTO_TEST_CASE(fixups_apply_in_order_and_size2_tail_is_zeroed) {
    Bytes content(64, 0xAB);
    auto stream = yay0::encode(content);
    Layout l;
    l.size1 = 48;
    l.size2 = 80;
    l.fixups = {{0x11111111, 0}, {0x22222222, 60}, {0x33333333, 0}};  // later entries win
    l.header_size = 0x18 + 24 + 4;
    l.padding = 4;
    auto blob = make_blob(l, stream);
    auto u = szp::unpack(reader(blob));
    BOOST_REQUIRE_EQUAL(u.data.size(), 80u);
    BOOST_TEST(endian::load_be32(&u.data[0]) == 0x33333333u);
    BOOST_TEST(u.data[4] == 0xAB);
    BOOST_TEST(u.data[47] == 0xAB);
    for (std::size_t i = 48; i < 80; ++i) BOOST_TEST(u.data[i] == 0, "byte " << i << " zero-filled");
    BOOST_TEST(u.uninitialised_bytes == 0u);
    BOOST_TEST(u.header.fixups.size() == 3u);
}

// A fix-up writes 4 bytes: one at size2 - 4 fills the buffer's last word; one that starts
// 3, 2 or 1 bytes before the end (or at it) would write past the buffer and is refused.
BOOST_AUTO_TEST_CASE(a_fixup_must_fit_entirely_inside_size2) {
    Bytes content(16, 0xAB);
    auto stream = yay0::encode(content);
    Layout l;
    l.size1 = 20;
    l.size2 = 20;
    l.header_size = 0x18 + 8;
    l.fixups = {{0x01020304, 16}};
    auto u = szp::unpack(reader(make_blob(l, stream)));
    BOOST_REQUIRE_EQUAL(u.data.size(), 20u);
    BOOST_TEST(endian::load_be32(&u.data[12]) == 0xABABABABu);
    BOOST_TEST(endian::load_be32(&u.data[16]) == 0x01020304u);
    for (std::uint32_t offset : {17u, 18u, 19u, 20u, 0xFFFFFFFEu}) {
        l.fixups = {{0x01020304, offset}};
        auto blob = make_blob(l, stream);
        auto e = modtest::catch_error([&] { szp::unpack(reader(blob)); });
        BOOST_REQUIRE(e);
        BOOST_TEST(e->path() == "szp.fixup[0]");
        BOOST_TEST(e->offset() == 0x1Cu);
        BOOST_TEST(e->file() == "entry.szp");
    }
}

BOOST_AUTO_TEST_CASE(an_unchanged_entry_is_written_back_from_its_original_bytes) {
    Bytes content(300);
    for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<std::uint8_t>(i / 7);
    Layout l;
    l.size1 = 300;
    l.size2 = 320;
    l.fixups = {{0xDEADBEEF, 8}};
    l.header_size = 0x20;
    auto original = make_blob(l, yay0::encode(content, yay0::Mode::best));
    auto u = szp::unpack(reader(original));
    bool reused = false;
    auto again = szp::repack(original, u.data, yay0::Mode::nintendo, &reused);
    BOOST_TEST(reused);
    BOOST_TEST(again == original);

    auto edited = u.data;
    edited[100] ^= 1;
    auto repacked = szp::repack(original, edited, yay0::Mode::nintendo, &reused);
    BOOST_TEST(!reused);
    BOOST_TEST(szp::unpack(reader(repacked)).data == edited);
    BOOST_TEST(szp::read_header(reader(repacked)).fixups.empty(), "edited entries bake fix-ups in");
}

BOOST_AUTO_TEST_CASE(a_stream_ending_before_size1_is_reported) {
    Bytes content(32, 1);
    Layout l;
    l.size1 = 40;
    l.size2 = 40;
    auto u = szp::unpack(reader(make_blob(l, yay0::encode(content))));
    BOOST_TEST(u.uninitialised_bytes == 8u);
}

BOOST_AUTO_TEST_CASE(inconsistent_headers_fail_with_named_fields) {
    auto stream = yay0::encode(Bytes(64, 3));
    struct Case {
        const char* what;
        Layout layout;
        const char* expect;
    };
    std::vector<Case> cases;
    { Layout l; l.size1 = 64; l.size2 = 32; cases.push_back({"size1 > size2", l, "larger than size2"}); }
    { Layout l; l.size1 = 32; l.size2 = 32; cases.push_back({"yay0 larger than size2", l, "exceeds the allocation size2"}); }
    { Layout l; l.size1 = l.size2 = 64; l.header_size = 0x1A; l.padding = 2; cases.push_back({"misaligned", l, "not 4-byte aligned"}); }
    { Layout l; l.size1 = l.size2 = 64; l.fixups = {{1, 62}}; l.header_size = 0x20; cases.push_back({"fixup outside", l, "outside the"}); }
    { Layout l; l.size1 = l.size2 = 64; l.header_size = 0x10; cases.push_back({"header inside the table", l, "header size"}); }
    for (const auto& c : cases) {
        BOOST_TEST_CONTEXT(c.what) {
            auto blob = make_blob(c.layout, stream);
            auto e = modtest::catch_error([&] { szp::unpack(reader(blob)); });
            BOOST_REQUIRE(e);
            BOOST_TEST(e->message().find(c.expect) != std::string::npos, e->what());
            BOOST_TEST(e->file() == "entry.szp");
        }
    }
    Layout huge;
    huge.size1 = huge.size2 = 0xFFFFFFF0;
    auto e = modtest::catch_error([&] { szp::unpack(reader(make_blob(huge, stream))); });
    BOOST_REQUIRE(e);
    BOOST_TEST((e->kind() == ErrorKind::limit));
    Layout many;
    many.size1 = many.size2 = 64;
    auto blob = make_blob(many, stream);
    endian::store_be32(&blob[0x14], 0x10000000);  // fix-up count far past the blob
    BOOST_CHECK_THROW(szp::unpack(reader(blob)), Error);
}

BOOST_AUTO_TEST_CASE(errors_inside_the_stream_carry_the_yay0_path) {
    auto blob = szp::pack(Bytes(100, 9));
    blob[0x18 + 2] = 'X';  // break the Yay0 magic
    auto e = modtest::catch_error([&] { szp::unpack(reader(blob)); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->path() == "szp.yay0");
    BOOST_TEST(e->offset() == 0x18u);
}

BOOST_AUTO_TEST_CASE(every_truncation_and_byte_flip_fails_cleanly) {
    auto blob = szp::pack(sample::synthetic_payload(3000, 5));
    auto decode = [](ByteView v) { szp::unpack(ByteReader(v, Endian::big)); };
    BOOST_TEST(modtest::truncation_loop(blob, decode) == blob.size());
    BOOST_TEST(modtest::byte_flip_loop(blob, decode, 3) > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
