// Skinning stream codec: exact round trips, every invariant's own error, warnings, hostile input.
#include "shred_util.hpp"

#include "libmod/shred/stream.hpp"

#include <cstring>
#include <set>

using namespace mod::shred;
using shredtest::decode;

namespace {

void put32(mod::Bytes& b, std::size_t at, std::uint32_t v) { mod::endian::store_be32(b.data() + at, v); }
void put16(mod::Bytes& b, std::size_t at, std::uint16_t v) { mod::endian::store_be16(b.data() + at, v); }

// A small valid stream: batch 0 has palette 83,84,82,255 (3 influences, "STR\xFF").
mod::Bytes str_stream() {
    SkinnedMesh m;
    for (int i = 0; i < 6; ++i) {
        SkinnedVertex v;
        v.position = {float(i), 1, 2};
        v.normal = {0, 1, 0};
        v.tangent = {1, 0, 0};
        v.uv0 = {0.5f, 0.25f};
        v.influence_count = 3;
        v.influences[0] = {82, 3 / 255.0f};
        v.influences[1] = {83, 139 / 255.0f};
        v.influences[2] = {84, 113 / 255.0f};
        if (i >= 3) v.influences[0].bone = 88, v.influences[1].bone = 89, v.influences[2].bone = 90;
        m.vertices.push_back(v);
    }
    return shredtest::make_stream(m);
}

void expect_violation(const mod::Bytes& bytes, Invariant inv, const StreamContext& ctx = {}) {
    auto e = modtest::catch_error([&] { decode(bytes, ctx); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_MESSAGE(is_violation(*e, inv), std::string("expected ") + to_string(inv) + ", got: " + e->what());
    BOOST_CHECK(e->kind() == mod::ErrorKind::format);
    BOOST_CHECK(e->has_offset());
    BOOST_CHECK_EQUAL(e->file(), "test");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shred_stream)

BOOST_AUTO_TEST_CASE(half_round_trip_is_exact_for_every_half) {
    for (std::uint32_t h = 0; h < 0x10000; ++h) {
        auto back = float_to_half(half_to_float(static_cast<std::uint16_t>(h)));
        if (back != h) BOOST_FAIL("half " + mod::hex(h, 4) + " came back as " + mod::hex(back, 4));
    }
    BOOST_CHECK_EQUAL(float_to_half(1.0f), 0x3C00);
    BOOST_CHECK_EQUAL(float_to_half(65520.0f), 0x7C00);       // rounds to infinity
    BOOST_CHECK_EQUAL(float_to_half(1.0f + 1.0f / 4096), 0x3C00);  // ties to even
    BOOST_CHECK_EQUAL(float_to_half(5.96e-8f), 0x0001);       // smallest subnormal
}

BOOST_AUTO_TEST_CASE(str_stream_is_an_ordinary_stream) {
    auto bytes = str_stream();
    BOOST_CHECK(std::memcmp(bytes.data() + 64, "STR\xFF", 4) == 0);
    BOOST_CHECK(std::memcmp(bytes.data() + 64 * 5, "YZX\xFF", 4) == 0);
    auto s = decode(bytes, {6u, 91u});
    BOOST_CHECK_EQUAL(s.vertices.size(), 6u);
    BOOST_CHECK_EQUAL(s.batches.size(), 2u);
    BOOST_CHECK_EQUAL(s.vertices[0].weights()[0], 139);
    BOOST_CHECK_EQUAL(s.vertices[0].weights()[1], 113);
    BOOST_CHECK_EQUAL(s.vertices[0].weights()[2], 3);
    BOOST_CHECK(encode_stream(s) == bytes);
    BOOST_CHECK_EQUAL(s.stream_size(), 64u * (6 + 2 + 2));
    BOOST_CHECK_EQUAL(measure_stream(mod::ByteReader(bytes, mod::Endian::big)), bytes.size());
}

BOOST_AUTO_TEST_CASE(round_trip_keeps_nan_payloads_and_unknown_words) {
    auto bytes = shredtest::make_stream(shredtest::random_mesh(500, 40, 7));
    // NaN normals with payloads, unknown extra/trailing words, a non-default terminal header.
    for (std::size_t v : {0u, 17u, 499u}) {
        std::size_t at = 0;
        auto s = decode(bytes);
        // record offset of vertex v
        std::size_t b = s.batch_of(static_cast<std::uint32_t>(v));
        at = 64 * (1 + b + 1 + v);
        put32(bytes, at + vertex_field::normal, 0x7FC00000u | std::uint32_t(v + 1));
        put32(bytes, at + vertex_field::normal + 4, 0xFFA00001u);
        put32(bytes, at + vertex_field::normal + 8, 0x7F800001u);  // signalling NaN
        put32(bytes, at + vertex_field::extra, 0xDEADBEEF);
        bytes[at + vertex_field::trailing + 3] = 0x5A;
    }
    std::size_t term = bytes.size() - 64;
    put32(bytes, term + 8, 0x01020304);
    bytes[term] = 7;
    StreamReport report;
    auto s = decode(bytes, {}, &report);
    BOOST_CHECK_EQUAL(report.non_finite_normals, 3u);
    BOOST_CHECK_EQUAL(report.warnings.size(), 3u);
    BOOST_CHECK(encode_stream(s) == bytes);
    BOOST_CHECK_EQUAL(s.terminal.raw[0], 7);
}

BOOST_AUTO_TEST_CASE(edits_through_accessors_are_bit_exact) {
    auto bytes = str_stream();
    auto s = decode(bytes);
    s.vertices[2].set_vec3(vertex_field::position, {1.5f, -2.25f, 3.0f});
    s.vertices[2].set_uv(1, {0.125f, 2.0f});
    auto again = decode(encode_stream(s));
    BOOST_CHECK(again.vertices[2].position() == (std::array<float, 3>{1.5f, -2.25f, 3.0f}));
    BOOST_CHECK(again.vertices[2].uv(1) == (std::array<float, 2>{0.125f, 2.0f}));
    BOOST_CHECK(again.vertices[2].halves(vertex_field::uv1)[0] == 0x3000);
}

BOOST_AUTO_TEST_CASE(every_invariant_has_its_own_error) {
    const auto good = str_stream();  // 2 batches x 3 vertices; batch headers at 64 and 320
    auto mutate = [&](auto fn) { mod::Bytes b = good; fn(b); return b; };
    expect_violation(mutate([](auto& b) { put32(b, 0, 64 * 11); }), Invariant::stream_size);
    expect_violation(mutate([](auto& b) { put32(b, 0, 100); }), Invariant::stream_size);
    expect_violation(mutate([](auto& b) { put32(b, 20, 0); }), Invariant::envelope_padding);
    expect_violation(mutate([](auto& b) { put32(b, 64 + 60, 0); }), Invariant::batch_padding);
    expect_violation(mutate([](auto& b) { put16(b, 64 + 4, 0); }), Invariant::empty_batch);
    expect_violation(mutate([](auto& b) { put16(b, 64 + 6, 5); }), Invariant::influence_range);
    expect_violation(mutate([](auto& b) { put16(b, 64 + 6, 0); }), Invariant::influence_range);
    // influence_count != used slots is hypothesis influence-palette/1: a warning (test_hypotheses.cpp).
    expect_violation(good, Invariant::coverage, {7, std::nullopt});
    expect_violation(good, Invariant::coverage, {4, std::nullopt});
    expect_violation(good, Invariant::terminal_header, {3, std::nullopt});
    expect_violation(good, Invariant::bone_range, {std::nullopt, 90});
    // vertex 0 record at 128: weights at +0x0C
    expect_violation(mutate([](auto& b) { b[128 + 0x0C] = 140; }), Invariant::weight_sum);
    expect_violation(mutate([](auto& b) { b[128 + 0x0C] = 138; b[128 + 0x0F] = 1; }), Invariant::inactive_weight);
    expect_violation(mutate([](auto& b) { put32(b, 128 + 4, 0x7FC00000); }), Invariant::position_finite);
    expect_violation(mutate([](auto& b) { put32(b, 128 + 0x24, 0xFF800000); }), Invariant::tangent_finite);
    expect_violation(mutate([](auto& b) { put16(b, 128 + 0x36, 0x7C00); }), Invariant::uv_finite);
    // The same checks on a model (after an edit) through validate_stream.
    auto s = decode(good);
    s.vertices[1].set_weights({100, 100, 100, 0});
    auto e = modtest::catch_error([&] { validate_stream(s); });
    BOOST_REQUIRE(e);
    BOOST_CHECK(is_violation(*e, Invariant::weight_sum));
    BOOST_CHECK_EQUAL(e->offset(), 64u * 3 + 0x0C);
    BOOST_CHECK_NE(std::string(e->path()).find("vertex[1]"), std::string::npos);
}

// validate_stream on models the codec cannot write back as they are: a batch above the u16
// vertex count (encode would write its count modulo 65,536, and the stream would read back as
// another one), batches that do not follow one another, vertices no batch holds. Usage errors
// naming the batch; a terminal header with counts is the terminal-header invariant.
BOOST_AUTO_TEST_CASE(validate_refuses_models_the_encoder_cannot_write) {
    const Stream good = decode(str_stream());  // 2 batches x 3 vertices
    BOOST_REQUIRE_NO_THROW(validate_stream(good));
    auto expect_usage = [](const Stream& s, const std::string& path) {
        auto e = modtest::catch_error([&] { validate_stream(s, {}, nullptr, {"m.bin", 0x1000, "stream"}); });
        BOOST_REQUIRE(e);
        BOOST_CHECK(e->kind() == mod::ErrorKind::usage);
        BOOST_CHECK_EQUAL(e->file(), "m.bin");
        BOOST_CHECK_EQUAL(e->path(), path);
    };
    {  // One batch of 65,536 vertices (one more than its u16 count holds).
        Stream s = good;
        s.batches.resize(1);
        s.vertices.assign(std::size_t(max_batch_vertices) + 1, good.vertices[0]);
        s.batches[0].vertex_count = max_batch_vertices + 1;
        expect_usage(s, "stream.batch[0]");
        // 65,535 is the largest batch, and it validates.
        s.vertices.pop_back();
        s.batches[0].vertex_count = max_batch_vertices;
        BOOST_CHECK_NO_THROW(validate_stream(s));
    }
    {  // A batch that does not start where the previous one ends.
        Stream s = good;
        s.batches[1].first_vertex = 2;
        expect_usage(s, "stream.batch[1]");
    }
    {  // A batch reaching past the vertices.
        Stream s = good;
        s.batches[1].vertex_count = 4;
        expect_usage(s, "stream.batch[1]");
    }
    {  // Vertices after the last batch.
        Stream s = good;
        s.vertices.push_back(s.vertices.back());
        expect_usage(s, "stream");
    }
    {  // A terminal header with a vertex count.
        Stream s = good;
        s.terminal = BatchHeader::make({255, 255, 255, 255}, 1, 0);
        auto e = modtest::catch_error([&] { validate_stream(s); });
        BOOST_REQUIRE(e);
        BOOST_CHECK(is_violation(*e, Invariant::terminal_header));
    }
}

// The vertex check tests several fields per instruction (stream_codec.cpp, vertex_ok): every
// field of every vertex of a batch must still be seen on its own, at its own offset.
BOOST_AUTO_TEST_CASE(every_vertex_field_is_checked_on_its_own) {
    const auto good = str_stream();  // vertices at 128, 192, 256 (batch 0) and 384.. (batch 1)
    for (std::size_t at : {128u, 192u, 256u, 384u, 512u}) {
        auto expect_at = [&](mod::Bytes b, Invariant inv, std::size_t field) {
            auto e = modtest::catch_error([&] { decode(b); });
            BOOST_REQUIRE(e);
            BOOST_CHECK_MESSAGE(is_violation(*e, inv), std::string("expected ") + to_string(inv) + ", got: " + e->what());
            BOOST_CHECK_EQUAL(e->offset(), at + field);
        };
        for (std::size_t k = 0; k < 3; ++k) {
            for (std::uint32_t bits : {0x7F800000u, 0xFF800000u, 0x7FC00001u}) {
                auto b = good;
                put32(b, at + vertex_field::position + 4 * k, bits);
                expect_at(b, Invariant::position_finite, vertex_field::position + 4 * k);
                b = good;
                put32(b, at + vertex_field::tangent + 4 * k, bits);
                expect_at(b, Invariant::tangent_finite, vertex_field::tangent + 4 * k);
                // A normal is a warning, never an error.
                b = good;
                put32(b, at + vertex_field::normal + 4 * k, bits);
                StreamReport r;
                decode(b, {}, &r);
                BOOST_REQUIRE_EQUAL(r.non_finite_normals, 1u);
                BOOST_CHECK_EQUAL(r.warnings[0].offset, at + vertex_field::normal);
            }
            // The largest finite value and its negative are fine.
            auto b = good;
            put32(b, at + vertex_field::position + 4 * k, 0x7F7FFFFFu);
            put32(b, at + vertex_field::tangent + 4 * k, 0xFF7FFFFFu);
            BOOST_CHECK_NO_THROW(decode(b));
        }
        for (std::size_t k = 0; k < 4; ++k) {
            for (std::uint16_t bits : {std::uint16_t(0x7C00), std::uint16_t(0xFC00), std::uint16_t(0x7E01)}) {
                auto b = good;
                put16(b, at + vertex_field::uv0 + 2 * k, bits);
                expect_at(b, Invariant::uv_finite, vertex_field::uv0 + 2 * k);
            }
            auto b = good;
            put16(b, at + vertex_field::uv0 + 2 * k, 0xFBFF);  // -65504
            BOOST_CHECK_NO_THROW(decode(b));
        }
        // Unknown words may hold anything (exponent bits included).
        auto b = good;
        put32(b, at + vertex_field::extra, 0x7F800000u);
        put32(b, at + vertex_field::trailing, 0x7C007C00u);
        put32(b, at + vertex_field::trailing + 4, 0x7F807F80u);
        StreamReport r;
        decode(b, {}, &r);
        BOOST_CHECK_EQUAL(r.warnings.size(), 0u);
        // Tangent signs: -1 and +1 silently, anything else a warning.
        for (std::uint32_t sign : {0x3F800000u, 0xBF800000u, 0x3F800001u, 0x3F000000u, 0x7F800000u, 0u}) {
            b = good;
            put32(b, at + vertex_field::tangent_sign, sign);
            StreamReport report;
            decode(b, {}, &report);
            BOOST_CHECK_EQUAL(report.odd_tangent_signs, (sign & 0x7FFFFFFFu) == 0x3F800000u ? 0u : 1u);
        }
    }
}

BOOST_AUTO_TEST_CASE(distinct_codes) {
    std::set<std::string> codes;
    for (int i = 0; i <= static_cast<int>(Invariant::tangent_finite); ++i)
        codes.insert(to_string(static_cast<Invariant>(i)));
    BOOST_CHECK_EQUAL(codes.size(), static_cast<std::size_t>(Invariant::tangent_finite) + 1);
}

BOOST_AUTO_TEST_CASE(odd_tangent_sign_is_a_warning) {
    auto bytes = str_stream();
    put32(bytes, 128 + 0x2C, 0x3F000000);  // 0.5
    StreamReport r;
    auto s = decode(bytes, {}, &r);
    BOOST_CHECK_EQUAL(r.odd_tangent_signs, 1u);
    BOOST_CHECK(encode_stream(s) == bytes);
}

BOOST_AUTO_TEST_CASE(stream_inside_a_larger_buffer_uses_only_its_bytes) {
    auto bytes = str_stream();
    auto n = bytes.size();
    bytes.resize(n + 100, 0xEE);
    auto s = decode(bytes);
    auto enc = encode_stream(s);
    BOOST_CHECK(enc.size() == n && std::equal(enc.begin(), enc.end(), bytes.begin()));
}

BOOST_AUTO_TEST_CASE(truncation_and_byte_flips_fail_cleanly) {
    auto bytes = shredtest::make_stream(shredtest::random_mesh(40, 20, 3));
    auto dec = [](mod::ByteView b) { decode(b, {}, nullptr); };
    auto rejected = modtest::truncation_loop(bytes, dec);
    BOOST_CHECK_EQUAL(rejected, bytes.size());  // no prefix of a stream is a stream
    modtest::byte_flip_loop(bytes, dec, 1);
    auto with_ctx = [](mod::ByteView b) { decode(b, {40, 20}, nullptr); };
    modtest::byte_flip_loop(bytes, with_ctx, 3);
}

BOOST_AUTO_TEST_CASE(hostile_sizes_do_not_allocate) {
    mod::Bytes b(64 * 3, 0);
    put32(b, 0, 0xFFFFFFC0);
    for (std::size_t w = 1; w < 16; ++w) put32(b, 4 * w, envelope_word);
    b[64] = 1, b[65] = 255, b[66] = 255, b[67] = 255;
    put16(b, 68, 0xFFFF);
    put16(b, 70, 1);
    for (std::size_t w = 0; w < 14; ++w) put32(b, 64 + 8 + 4 * w, batch_word);
    auto e = modtest::catch_error([&] { decode(b); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_NE(e->message().find("truncated"), std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
