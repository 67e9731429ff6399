#include "libmod/codec/yay0.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/sample/payload.hpp"

#include "test_support.hpp"

#include <thread>

using namespace mod;

namespace {

// The Nintendo parse written down literally from its definition, with a brute-force search:
// slow and obviously right, to check the fast encoder on inputs beyond the corpus.
Bytes reference_nintendo_encode(ByteView in) {
    struct M { std::size_t len = 0, dist = 0; };
    auto search = [&](std::size_t pos) {
        M best;
        if (pos >= in.size()) return best;
        std::size_t limit = std::min<std::size_t>(in.size() - pos, yay0::max_match);
        std::size_t from = pos > yay0::max_distance ? pos - yay0::max_distance : 0;
        for (std::size_t q = from; q < pos; ++q) {  // oldest first: strictly longer wins
            std::size_t len = 0;
            while (len < limit && in[q + len] == in[pos + len]) ++len;
            if (len > best.len) best = {len, pos - q};
        }
        return best.len >= 3 ? best : M{};
    };
    std::vector<bool> mask;
    std::vector<std::uint16_t> links;
    Bytes chunks;
    auto match = [&](M m) {
        mask.push_back(false);
        if (m.len >= 0x12) {
            links.push_back(static_cast<std::uint16_t>(m.dist - 1));
            chunks.push_back(static_cast<std::uint8_t>(m.len - 0x12));
        } else {
            links.push_back(static_cast<std::uint16_t>((m.dist - 1) | ((m.len - 2) << 12)));
        }
    };
    for (std::size_t pos = 0; pos < in.size();) {
        M m = search(pos);
        if (m.len <= 2) {
            mask.push_back(true);
            chunks.push_back(in[pos++]);
            continue;
        }
        M next = search(pos + 1);
        if (next.len >= m.len + 2) {
            mask.push_back(true);
            chunks.push_back(in[pos++]);
            m = next;
        }
        match(m);
        pos += m.len;
    }
    ByteWriter w(Endian::big);
    std::size_t words = (mask.size() + 31) / 32;
    w.string("Yay0");
    w.u32(static_cast<std::uint32_t>(in.size()));
    w.u32(static_cast<std::uint32_t>(16 + 4 * words));
    w.u32(static_cast<std::uint32_t>(16 + 4 * words + 2 * links.size()));
    for (std::size_t i = 0; i < words; ++i) {
        std::uint32_t word = 0;
        for (std::size_t b = 0; b < 32 && 32 * i + b < mask.size(); ++b)
            if (mask[32 * i + b]) word |= 0x80000000u >> b;
        w.u32(word);
    }
    for (auto l : links) w.u16(l);
    w.bytes(chunks);
    return w.take();
}

std::string corpus_name(const modtest::fs::path& p) { return p.filename().string(); }

Bytes random_structured(modtest::Rng& rng, std::size_t size) {
    Bytes out;
    while (out.size() < size) {
        switch (rng.below(4)) {
        case 0: out.insert(out.end(), 1 + rng.below(600), static_cast<std::uint8_t>(rng.below(3)));
            break;
        case 1:  // copy from earlier, possibly overlapping the end
            if (!out.empty()) {
                std::size_t dist = 1 + rng.below(static_cast<std::uint32_t>(std::min<std::size_t>(out.size(), 5000)));
                std::size_t len = 1 + rng.below(400);
                for (std::size_t i = 0; i < len; ++i) out.push_back(out[out.size() - dist]);
            }
            break;
        case 2:
            for (std::size_t i = 0, n = 1 + rng.below(64); i < n; ++i) out.push_back(static_cast<std::uint8_t>(rng.next()));
            break;
        default:  // short period patterns
            for (std::size_t i = 0, n = 1 + rng.below(300), p = 1 + rng.below(6); i < n; ++i)
                out.push_back(static_cast<std::uint8_t>((i % p) * 17));
        }
    }
    out.resize(size);
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(yay0_codec)

BOOST_AUTO_TEST_CASE(nintendo_mode_reproduces_every_corpus_file_exactly) {
    auto files = modtest::yay0_corpus_files();
    BOOST_REQUIRE_EQUAL(files.size(), 18u);
    std::size_t total = 0;
    for (const auto& f : files) {
        BOOST_TEST_CONTEXT(corpus_name(f)) {
            auto input = modtest::read(f);
            auto expected = modtest::read(modtest::corpus("yay0/nintendo-parse/" + corpus_name(f) + ".yay0"));
            auto packed = yay0::encode(input, yay0::Mode::nintendo);
            BOOST_TEST(packed == expected);
            total += packed.size();
        }
    }
    BOOST_TEST(total == 868807u);
}

BOOST_AUTO_TEST_CASE(both_modes_round_trip_the_corpus_and_best_is_optimal) {
    std::size_t best_total = 0;
    for (const auto& f : modtest::yay0_corpus_files()) {
        BOOST_TEST_CONTEXT(corpus_name(f)) {
            auto input = modtest::read(f);
            auto nintendo = yay0::encode(input, yay0::Mode::nintendo);
            auto best = yay0::encode(input, yay0::Mode::best);
            BOOST_TEST(yay0::decode(nintendo) == input);
            BOOST_TEST(yay0::decode(best) == input);
            BOOST_TEST(best.size() <= nintendo.size());
            best_total += best.size();
        }
    }
    // The optimal-parse figure for this corpus (DESIGN.md performance anchors).
    BOOST_TEST(best_total <= 864772u);
}

BOOST_AUTO_TEST_CASE(nintendo_mode_follows_the_rule_on_other_inputs) {
    modtest::Rng rng(2024);
    for (int round = 0; round < 40; ++round) {
        std::size_t size = round < 8 ? static_cast<std::size_t>(round) : 200 + rng.below(9000);
        Bytes input = random_structured(rng, size);
        BOOST_TEST_CONTEXT("round " << round << ", " << size << " bytes") {
            BOOST_TEST(yay0::encode(input, yay0::Mode::nintendo) == reference_nintendo_encode(input));
        }
    }
}

// The match finder's per-position arrays are rings of 0x2000 positions (the window and the
// look-ahead), reused as the parse advances: inputs several rings long, with runs of one byte
// longer than the window and the ring (their start falls out of the window while their
// positions are still candidates) and runs ending exactly at ring boundaries, must parse as
// the reference encoder does.
BOOST_AUTO_TEST_CASE(nintendo_mode_follows_the_rule_on_inputs_many_rings_long) {
    modtest::Rng rng(4096);
    for (int round = 0; round < 4; ++round) {
        Bytes input = random_structured(rng, 20000 + rng.below(20000));
        // A long run (up to 3x the ring), then structure again, then a run ending on a ring boundary.
        input.insert(input.end(), 3000 + rng.below(21000), static_cast<std::uint8_t>(round));
        const Bytes more = random_structured(rng, 9000);
        input.insert(input.end(), more.begin(), more.end());
        const std::size_t boundary = (input.size() / 0x2000 + 2) * 0x2000;
        input.resize(boundary, 0xAA);
        input.push_back(0x01);
        const Bytes tail = random_structured(rng, 5000);
        input.insert(input.end(), tail.begin(), tail.end());
        BOOST_TEST_CONTEXT("round " << round << ", " << input.size() << " bytes") {
            BOOST_TEST(yay0::encode(input, yay0::Mode::nintendo) == reference_nintendo_encode(input));
        }
    }
}

// The match finder keeps its working arrays per thread between encodes (grown, never cleared):
// what an earlier, larger input left in them must not change a later result.
BOOST_AUTO_TEST_CASE(nintendo_mode_does_not_depend_on_earlier_encodes_in_the_thread) {
    modtest::Rng rng(77);
    const Bytes small = random_structured(rng, 3000);
    Bytes fresh;
    std::thread([&] { fresh = yay0::encode(small, yay0::Mode::nintendo); }).join();
    BOOST_TEST(fresh == reference_nintendo_encode(small));

    (void)yay0::encode(random_structured(rng, 50000), yay0::Mode::nintendo);
    BOOST_TEST(yay0::encode(small, yay0::Mode::nintendo) == fresh);
    Bytes large(std::size_t(17) << 20);  // far larger than the rings
    for (std::size_t i = 0; i < large.size(); i += 4096) large[i] = static_cast<std::uint8_t>(i >> 12);
    BOOST_TEST(yay0::decode(yay0::encode(large, yay0::Mode::nintendo)) == large);
    BOOST_TEST(yay0::encode(small, yay0::Mode::nintendo) == fresh);
}

BOOST_AUTO_TEST_CASE(best_mode_is_deterministic_and_round_trips_odd_inputs) {
    modtest::Rng rng(99);
    for (int round = 0; round < 30; ++round) {
        Bytes input = random_structured(rng, round < 5 ? static_cast<std::size_t>(round) : 1 + rng.below(20000));
        auto a = yay0::encode(input, yay0::Mode::best);
        BOOST_TEST(yay0::decode(a) == input);
        BOOST_TEST(yay0::encode(input, yay0::Mode::best) == a);
    }
    auto payload = sample::synthetic_payload(50000, 3);
    BOOST_TEST(yay0::decode(yay0::encode(payload, yay0::Mode::best)) == payload);
}

BOOST_AUTO_TEST_CASE(decode_reports_the_stream_extent) {
    auto input = modtest::read(modtest::corpus("yay0/ld_mario16.sprite"));
    auto packed = yay0::encode(input);
    Bytes padded = packed;
    padded.resize(packed.size() + 13, 0xEE);  // containers pad after the stream
    yay0::DecodeInfo info;
    BOOST_TEST(yay0::decode(padded, {}, &info) == input);
    BOOST_TEST(info.stream_end == packed.size());
    BOOST_TEST(info.header.decompressed_size == input.size());
}

BOOST_AUTO_TEST_CASE(every_truncation_fails_cleanly) {
    for (const char* name : {"ld_mario16.sprite", "pl_rotatefillline_rom.bin"}) {
        auto packed = modtest::read(modtest::corpus(std::string("yay0/nintendo-parse/") + name + ".yay0"));
        std::size_t rejected = modtest::truncation_loop(packed, [](ByteView v) { yay0::decode(v); });
        BOOST_TEST(rejected == packed.size(), name << ": every strict prefix is rejected");
    }
}

BOOST_AUTO_TEST_CASE(byte_flips_never_crash) {
    auto packed = modtest::read(modtest::corpus("yay0/nintendo-parse/ld_mario16.sprite.yay0"));
    std::size_t rejected = modtest::byte_flip_loop(packed, [](ByteView v) {
        yay0::DecodeOptions o;
        o.max_decoded = 1 << 20;
        yay0::decode(v, o);
    });
    BOOST_TEST(rejected > 0u);
}

namespace {
Bytes header(std::uint32_t size, std::uint32_t link, std::uint32_t chunk) {
    ByteWriter w(Endian::big);
    w.string("Yay0");
    w.u32(size);
    w.u32(link);
    w.u32(chunk);
    return w.take();
}

ErrorKind decode_error_kind(const Bytes& stream, std::string* message = nullptr) {
    auto e = modtest::catch_error([&] { yay0::decode(stream); });
    if (!e) return ErrorKind::usage;
    if (message) *message = e->message();
    return e->kind();
}
}  // namespace

BOOST_AUTO_TEST_CASE(hostile_headers_are_rejected_with_reasons) {
    std::string msg;
    Bytes bad_magic = header(0, 16, 16);
    bad_magic[3] = 'z';
    BOOST_TEST((decode_error_kind(bad_magic, &msg) == ErrorKind::format));
    BOOST_TEST(msg.find("bad magic") != std::string::npos);

    BOOST_TEST((decode_error_kind(header(0xFFFFFFFF, 16, 16), &msg) == ErrorKind::limit));
    BOOST_TEST(msg.find("exceeds the limit") != std::string::npos);

    BOOST_TEST((decode_error_kind(header(4, 0x1000, 0x1000), &msg) == ErrorKind::format));
    BOOST_TEST(msg.find("link-table offset") != std::string::npos);

    Bytes odd = header(4, 17, 18);
    odd.resize(18);
    BOOST_TEST((decode_error_kind(odd, &msg) == ErrorKind::format));
    BOOST_TEST(msg.find("odd") != std::string::npos);

    Bytes chunk_before_link = header(4, 20, 18);
    chunk_before_link.resize(24);
    BOOST_TEST((decode_error_kind(chunk_before_link, &msg) == ErrorKind::format));

    // A 64 MiB declaration with no data is refused before allocating (limit is 64 MiB).
    yay0::DecodeOptions small;
    small.max_decoded = 1000;
    auto e = modtest::catch_error([&] { yay0::decode(header(1001, 16, 16), small); });
    BOOST_REQUIRE(e);
    BOOST_TEST((e->kind() == ErrorKind::limit));
}

BOOST_AUTO_TEST_CASE(hostile_streams_are_rejected_with_paths) {
    std::string msg;
    // Mask stream runs into the link table: 4 bytes wanted, no mask words at all.
    BOOST_TEST((decode_error_kind(header(4, 16, 16), &msg) == ErrorKind::format));
    BOOST_TEST(msg.find("mask stream runs into the link table") != std::string::npos);

    // Back-reference before the start: first token is a match.
    Bytes back = header(8, 20, 22);
    ByteWriter w(Endian::big);
    w.u32(0x00000000);  // match first
    w.u16(0x1000);      // length 3, distance 1
    back.insert(back.end(), w.data().begin(), w.data().end());
    auto e = modtest::catch_error([&] { yay0::decode(back); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->message().find("reaches before the start") != std::string::npos);
    BOOST_TEST(e->path() == "yay0.link[0]");
    BOOST_TEST(e->offset() == 20u);

    // A match overrunning the declared size: literal, then a 17-byte match for 4 bytes.
    Bytes over = header(4, 20, 22);
    ByteWriter o(Endian::big);
    o.u32(0x80000000);
    o.u16(0xF000);
    o.u8(0x41);
    over.insert(over.end(), o.data().begin(), o.data().end());
    BOOST_TEST((decode_error_kind(over, &msg) == ErrorKind::format));
    BOOST_TEST(msg.find("overruns the declared size") != std::string::npos);

    // Truncated chunk stream: literals wanted, no chunk bytes.
    Bytes lit = header(2, 20, 20);
    ByteWriter l(Endian::big);
    l.u32(0xC0000000);
    lit.insert(lit.end(), l.data().begin(), l.data().end());
    BOOST_TEST((decode_error_kind(lit, &msg) == ErrorKind::format));
    BOOST_TEST(msg.find("chunk stream truncated") != std::string::npos);

    // Truncated link table: a match wanted, link table empty.
    Bytes link = header(5, 20, 20);
    ByteWriter k(Endian::big);
    k.u32(0x80000000);
    link.insert(link.end(), k.data().begin(), k.data().end());
    link.push_back(0x41);
    BOOST_TEST((decode_error_kind(link, &msg) == ErrorKind::format));
    BOOST_TEST(msg.find("link table truncated") != std::string::npos);
}

// Issue 34: a large declared size the stream cannot produce is refused at the size word, before
// the output is allocated, whatever max_decoded allows (here 4 GiB; the stream holds 1 mask word,
// 2 link halfwords and 4 chunk bytes: at most 4 + 2 x 0x111 = 550 bytes).
BOOST_AUTO_TEST_CASE(a_large_size_the_stream_cannot_produce_is_refused_before_allocating) {
    yay0::DecodeOptions any;
    any.max_decoded = 0xFFFFFFFFull;
    for (std::uint32_t declared : {0x100001u, 0x7FFFFFFFu, 0xFFFFFFFFu}) {
        Bytes b = header(declared, 20, 24);
        ByteWriter w(Endian::big);
        w.u32(0);
        w.u16(0x0001);
        w.u16(0x0001);
        w.u32(0x41424344);
        b.insert(b.end(), w.data().begin(), w.data().end());
        auto e = modtest::catch_error([&] { yay0::decode(b, any); });
        BOOST_REQUIRE(e);
        BOOST_TEST((e->kind() == ErrorKind::format));
        BOOST_TEST(e->offset() == 4u);
        BOOST_TEST(e->message().find("(at most 550 bytes") != std::string::npos, e->message());
    }
}

BOOST_AUTO_TEST_CASE(empty_and_tiny_inputs) {
    for (std::size_t n = 0; n < 6; ++n) {
        Bytes in(n, 0x55);
        for (auto mode : {yay0::Mode::nintendo, yay0::Mode::best}) {
            auto packed = yay0::encode(in, mode);
            BOOST_TEST(yay0::decode(packed) == in);
        }
    }
    BOOST_TEST(yay0::encode(Bytes{}).size() == 16u);
}

BOOST_AUTO_TEST_CASE(mode_names) {
    BOOST_TEST((yay0::parse_mode("nintendo") == yay0::Mode::nintendo));
    BOOST_TEST((yay0::parse_mode("best") == yay0::Mode::best));
    BOOST_CHECK_THROW(yay0::parse_mode("fast"), Error);
}

BOOST_AUTO_TEST_SUITE_END()
