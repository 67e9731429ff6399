// BPS patches: varints, round trips on corpus files and random edits, wrong-source refusal,
// hand-built patches for each action, broken patches, the CLI.
#include "test_support.hpp"

#include "libmod/codec/bps.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"

#include <algorithm>
#include <ostream>

namespace {

using mod::Bytes;
using mod::ByteView;

// A random edit script (test_support's, with its defaults: 1..64 bytes, copies of up to 8x).
Bytes edited(const Bytes& source, std::uint64_t seed, int edits) { return modtest::random_edits(source, seed, edits); }

Bytes round_trip(const Bytes& source, const Bytes& target, const mod::bps::CreateOptions& o = {}) {
    const Bytes patch = mod::bps::create(source, target, o);
    BOOST_TEST(mod::bps::has_magic(patch));
    mod::bps::Info info;
    const Bytes out = mod::bps::apply(patch, source, {}, &info);
    BOOST_TEST(out == target);
    BOOST_TEST(info.source_size == source.size());
    BOOST_TEST(info.target_size == target.size());
    BOOST_TEST(info.source_crc32 == mod::crc32(source));
    BOOST_TEST(info.target_crc32 == mod::crc32(target));
    return patch;
}

// A hand-built patch from raw action bytes (footer computed for the given source/target).
Bytes build_patch(const Bytes& source, const Bytes& target, const Bytes& actions) {
    mod::ByteWriter w(mod::Endian::little);
    w.string("BPS1");
    mod::bps::write_varint(w, source.size());
    mod::bps::write_varint(w, target.size());
    mod::bps::write_varint(w, 0);
    w.bytes(actions);
    w.u32(mod::crc32(source));
    w.u32(mod::crc32(target));
    w.u32(mod::crc32(w.data()));
    return w.take();
}

Bytes varint_bytes(std::uint64_t v) {
    mod::ByteWriter w;
    mod::bps::write_varint(w, v);
    return w.take();
}

Bytes cat(std::initializer_list<Bytes> parts) {
    Bytes out;
    for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

Bytes action(mod::bps::Action kind, std::uint64_t length) {
    return varint_bytes(((length - 1) << 2) | static_cast<std::uint64_t>(kind));
}

// A patch using every action kind, built by hand:
// target: "abcd" (SourceRead 4) "XY" (TargetRead 2) "gh" (SourceCopy +6) "bc" (SourceCopy -8)
//         "cccc" (TargetCopy from 9, overlapping the bytes it writes: a run)
struct HandBuilt {
    Bytes source, target, patch;
};
HandBuilt every_action_patch() {
    HandBuilt h;
    h.source = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
    h.target = {'a', 'b', 'c', 'd', 'X', 'Y', 'g', 'h', 'b', 'c', 'c', 'c', 'c', 'c'};
    using A = mod::bps::Action;
    const Bytes actions = cat({action(A::source_read, 4), action(A::target_read, 2), Bytes{'X', 'Y'},
                               action(A::source_copy, 2), varint_bytes(6 << 1), action(A::source_copy, 2),
                               varint_bytes((7 << 1) | 1), action(A::target_copy, 4), varint_bytes(9 << 1)});
    h.patch = build_patch(h.source, h.target, actions);
    return h;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bps)

BOOST_AUTO_TEST_CASE(varints_match_the_spec) {
    // The spec's bijective encoding: 0..127 one byte with bit 7 set, 128 = 00 80.
    BOOST_TEST(varint_bytes(0) == Bytes({0x80}));
    BOOST_TEST(varint_bytes(127) == Bytes({0xFF}));
    BOOST_TEST(varint_bytes(128) == Bytes({0x00, 0x80}));
    BOOST_TEST(varint_bytes(16511) == Bytes({0x7F, 0xFF}));
    BOOST_TEST(varint_bytes(16512) == Bytes({0x00, 0x00, 0x80}));
    for (std::uint64_t v : {0ull, 1ull, 127ull, 128ull, 300ull, 16511ull, 16512ull, 1ull << 32, (1ull << 63) + 12345,
                            ~0ull}) {
        const Bytes b = varint_bytes(v);
        mod::ByteReader r(b, mod::Endian::little);
        BOOST_TEST(mod::bps::read_varint(r) == v);
        BOOST_TEST(r.at_end());
    }
    // Eleven continuation bytes overflow 64 bits; a missing end byte is truncated.
    Bytes too_big(10, 0x7F);
    too_big.push_back(0x81);
    mod::ByteReader big(too_big, mod::Endian::little);
    BOOST_CHECK_THROW(mod::bps::read_varint(big), mod::Error);
    const Bytes open_ended = {0x00, 0x01};
    mod::ByteReader open(open_ended, mod::Endian::little);
    BOOST_CHECK_THROW(mod::bps::read_varint(open), mod::Error);
}

BOOST_AUTO_TEST_CASE(hand_built_patch_uses_every_action) {
    const auto [source, target, patch] = every_action_patch();
    mod::bps::Info info;
    BOOST_TEST(mod::bps::apply(patch, source, {}, &info) == target);
    BOOST_TEST(info.action_count[0] == 1u);
    BOOST_TEST(info.action_count[2] == 2u);
    BOOST_TEST(info.action_bytes[3] == 4u);
    const auto described = mod::bps::describe(mod::ByteReader(patch, mod::Endian::little));
    BOOST_TEST(described.action_bytes[1] == 2u);
}

// first_difference (the encoder's self-check without a third image): the hand-built patch of
// every action kind reproduces its target, and a byte changed anywhere in the expected target
// is reported at exactly its offset, also where a TargetCopy reads the changed byte (the
// expected bytes stand for the target written so far) and inside the overlapping run.
BOOST_AUTO_TEST_CASE(first_difference_finds_each_changed_byte) {
    const auto [source, target, patch] = every_action_patch();
    using A = mod::bps::Action;
    const mod::ByteReader reader(patch, mod::Endian::little, "p.bps", "bps");
    BOOST_TEST(!mod::bps::first_difference(reader, source, target).has_value());
    for (std::size_t i = 0; i < target.size(); ++i) {
        Bytes expected = target;
        expected[i] = 'Z';
        const auto at = mod::bps::first_difference(reader, source, expected);
        BOOST_TEST_REQUIRE(at.has_value(), "byte " << i);
        BOOST_TEST(*at == i);
    }
    // Sizes that differ: the shorter size, after every action was still checked.
    BOOST_TEST(*mod::bps::first_difference(reader, source, Bytes(target.begin(), target.end() - 1)) == target.size() - 1);
    Bytes longer = target;
    longer.push_back('!');
    BOOST_TEST(*mod::bps::first_difference(reader, source, longer) == target.size());
    // apply()'s refusals: a wrong source, and an action past the source's end.
    BOOST_CHECK_THROW(mod::bps::first_difference(reader, Bytes(source.begin(), source.end() - 1), target), mod::Error);
    const Bytes hostile = build_patch(source, target, cat({action(A::source_read, 9), action(A::target_read, 5), Bytes(5, 'x')}));
    BOOST_CHECK_THROW(mod::bps::first_difference(mod::ByteReader(hostile, mod::Endian::little), source, target), mod::Error);
}

// On random edits of a corpus-sized buffer, first_difference agrees with apply(): nullopt for
// the target, and for a target changed at one place, that place.
BOOST_AUTO_TEST_CASE(first_difference_agrees_with_apply) {
    Bytes source(70000);
    std::uint32_t x = 12345;
    for (auto& b : source) b = static_cast<std::uint8_t>((x = x * 1103515245u + 12345u) >> 24);
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        const Bytes target = edited(source, seed, 12);
        const Bytes patch = mod::bps::create(source, target);
        const mod::ByteReader reader(patch, mod::Endian::little);
        BOOST_TEST(!mod::bps::first_difference(reader, source, target).has_value());
        Bytes wrong = target;
        const std::size_t at = (seed * 7919) % wrong.size();
        wrong[at] ^= 0x40;
        BOOST_TEST(*mod::bps::first_difference(reader, source, wrong) == at);
    }
}

BOOST_AUTO_TEST_CASE(hostile_actions_fail_with_the_action_index) {
    const Bytes source = {1, 2, 3, 4};
    const Bytes target = {1, 2, 3, 4, 5, 6};
    using A = mod::bps::Action;
    auto expect_action_error = [&](const Bytes& actions, const std::string& index) {
        const Bytes patch = build_patch(source, target, actions);
        auto e = modtest::catch_error([&] {
            mod::bps::apply(mod::ByteReader(patch, mod::Endian::little, "p.bps", "bps"), source);
        });
        BOOST_REQUIRE(e);
        BOOST_TEST(e->kind() == mod::ErrorKind::format);
        BOOST_TEST(e->file() == "p.bps");
        BOOST_TEST(e->path() == "bps.action[" + index + "]");
    };
    // SourceRead past the source's end (target is longer).
    expect_action_error(action(A::source_read, 6), "0");
    // SourceCopy before the source start.
    expect_action_error(cat({action(A::source_copy, 2), varint_bytes((1 << 1) | 1)}), "0");
    // SourceCopy past the end.
    expect_action_error(cat({action(A::source_copy, 2), varint_bytes(3 << 1)}), "0");
    // TargetCopy from bytes not yet written.
    expect_action_error(cat({action(A::source_read, 2), action(A::target_copy, 2), varint_bytes(2 << 1)}), "1");
    // An action writing past the declared target size.
    expect_action_error(cat({action(A::source_read, 4), action(A::target_read, 3), Bytes{5, 6, 7}}), "1");
    // TargetRead longer than the patch.
    expect_action_error(cat({action(A::source_read, 4), action(A::target_read, 2), Bytes{5}}), "1");
    // Too few bytes written.
    const Bytes short_patch = build_patch(source, target, action(A::source_read, 4));
    BOOST_CHECK_THROW(mod::bps::apply(short_patch, source), mod::Error);
    // A huge declared target is refused before allocation.
    mod::ByteWriter w(mod::Endian::little);
    w.string("BPS1");
    mod::bps::write_varint(w, 4);
    mod::bps::write_varint(w, 1ull << 40);
    mod::bps::write_varint(w, 0);
    w.u32(mod::crc32(source));
    w.u32(0);
    w.u32(mod::crc32(w.data()));
    auto e = modtest::catch_error([&] { mod::bps::apply(w.data(), source); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::limit);
}

// Actions that stop short of the declared size are refused by the size check itself, not only
// by the target CRC: here the bytes never written are zeros, which is exactly what the declared
// target holds, so the CRC alone would pass the patch. describe() has no CRC to fall back on.
BOOST_AUTO_TEST_CASE(actions_writing_fewer_bytes_than_declared_are_refused) {
    const Bytes source = {1, 2, 3, 4};
    const Bytes target = {1, 2, 3, 4, 0, 0};
    const Bytes patch = build_patch(source, target, action(mod::bps::Action::source_read, 4));
    const mod::ByteReader reader(patch, mod::Endian::little, "short.bps", "bps");
    for (int use_describe = 0; use_describe < 2; ++use_describe) {
        auto e = modtest::catch_error([&] {
            if (use_describe) mod::bps::describe(reader);
            else mod::bps::apply(reader, source);
        });
        BOOST_REQUIRE(e);
        BOOST_TEST(e->kind() == mod::ErrorKind::format);
        BOOST_TEST(e->file() == "short.bps");
        BOOST_TEST(e->offset() == patch.size() - mod::bps::footer_size);  // where the actions end
        BOOST_TEST(e->message().find("the actions write 4 bytes, the header declares 6") != std::string::npos,
                   e->what());
    }
    // The same actions with a declared size of 4 are a valid patch.
    BOOST_TEST(mod::bps::apply(build_patch(source, source, action(mod::bps::Action::source_read, 4)), source) == source);
}

BOOST_AUTO_TEST_CASE(corpus_round_trips_with_random_edits) {
    std::size_t total_patch = 0, total_target = 0;
    std::uint64_t seed = 1;
    for (const auto& p : modtest::yay0_corpus_files()) {
        BOOST_TEST_CONTEXT(p.filename()) {
            const Bytes source = modtest::read(p);
            // No change: the patch is tiny (one SourceRead) and exact.
            const Bytes same = round_trip(source, source);
            BOOST_TEST(same.size() < 40u);
            for (int edits : {1, 8, 64}) {
                const Bytes target = edited(source, seed++, edits);
                const Bytes patch = round_trip(source, target);
                if (edits == 8) BOOST_TEST(mod::bps::create(source, target) == patch);  // deterministic
                total_patch += patch.size();
                total_target += target.size();
            }
        }
    }
    // Edits are small, so the patches must be much smaller than the targets.
    BOOST_TEST(total_patch * 50 < total_target);
}

BOOST_AUTO_TEST_CASE(edge_cases_round_trip) {
    const Bytes empty;
    const Bytes zeros(100000, 0);
    Bytes random(5000);
    modtest::Rng rng(42);
    for (auto& b : random) b = static_cast<std::uint8_t>(rng.next());
    round_trip(empty, empty);
    round_trip(empty, random);
    round_trip(random, empty);
    round_trip(zeros, random);
    round_trip(random, zeros);
    BOOST_TEST(round_trip(empty, zeros).size() < 40u);  // one literal + one overlapping TargetCopy
    // Reversed halves: everything comes from SourceCopy.
    Bytes swapped(random.begin() + 2500, random.end());
    swapped.insert(swapped.end(), random.begin(), random.begin() + 2500);
    BOOST_TEST(round_trip(random, swapped).size() < 60u);
    // Metadata is stored and reported verbatim.
    mod::bps::CreateOptions o;
    o.metadata = "{\"mod\": \"test\"}";
    const Bytes patch = round_trip(random, swapped, o);
    BOOST_TEST(mod::bps::read_info(mod::ByteReader(patch, mod::Endian::little)).metadata == o.metadata);
}

BOOST_AUTO_TEST_CASE(wrong_source_is_refused_before_applying) {
    const Bytes source = modtest::read(modtest::corpus("yay0/pl_frame.i4"));
    const Bytes target = edited(source, 7, 10);
    const Bytes patch = mod::bps::create(source, target);
    Bytes other = source;
    other[100] ^= 1;
    auto e = modtest::catch_error([&] { mod::bps::apply(patch, other); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::conflict);
    BOOST_TEST(e->message().find("CRC-32") != std::string::npos);
    // Applying to the already patched file says so.
    e = modtest::catch_error([&] { mod::bps::apply(patch, target); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->message().find("already the patched result") != std::string::npos);
    // Ignoring the source CRC still catches the wrong result by the target CRC.
    mod::bps::ApplyOptions o;
    o.ignore_source_crc = true;
    Bytes flipped = source;
    for (auto& b : flipped) b ^= 1;
    e = modtest::catch_error([&] { mod::bps::apply(patch, flipped, o); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::format);
    BOOST_TEST(e->message().find("check was skipped") != std::string::npos);
    // A size mismatch is refused even when ignoring the CRC.
    Bytes shorter(source.begin(), source.end() - 1);
    BOOST_CHECK_THROW(mod::bps::apply(patch, shorter, o), mod::Error);
}

BOOST_AUTO_TEST_CASE(truncated_and_flipped_patches_fail_cleanly) {
    const Bytes source = modtest::read(modtest::corpus("yay0/pl_rotatefillline_rom.bin"));
    const Bytes target = edited(source, 99, 20);
    const Bytes patch = mod::bps::create(source, target);
    auto apply = [&](ByteView v) {
        const Bytes out = mod::bps::apply(v, source);
        BOOST_REQUIRE(out == target);  // whatever succeeds is exactly right
    };
    // Every prefix loses the footer, so the patch CRC rejects it.
    BOOST_TEST(modtest::truncation_loop(patch, apply) == patch.size());
    BOOST_TEST(modtest::byte_flip_loop(patch, apply) == patch.size() * 3);
    // With the CRC fixed up after each flip, the action checks must hold on their own.
    std::size_t rejected = 0, accepted = 0;
    for (std::size_t i = 4; i + 12 < patch.size(); ++i) {
        Bytes bad = patch;
        bad[i] ^= 0x5A;
        mod::endian::store_le32(bad.data() + bad.size() - 4, mod::crc32(ByteView(bad).first(bad.size() - 4)));
        try {
            mod::bps::describe(mod::ByteReader(bad, mod::Endian::little));
            (void)mod::bps::apply(bad, source);
            ++accepted;
        } catch (const mod::Error&) {
            ++rejected;
        }
    }
    BOOST_TEST(rejected > 0u);
    BOOST_TEST(accepted == 0u);  // the target CRC catches anything the bounds allow
}

BOOST_AUTO_TEST_CASE(cli_patch_bps) {
    modtest::TempDir tmp;
    const auto source_path = modtest::corpus("yay0/ld_font.sprite");
    const Bytes source = modtest::read(source_path);
    const Bytes target = edited(source, 5, 12);
    mod::write_file_atomic(tmp / "target.bin", target);
    auto r = modtest::run_cli({"patch", "create", source_path.string(), (tmp / "target.bin").string(),
                               (tmp / "mod.bps").string(), "--metadata", "hello"});
    BOOST_TEST(r.exit_code == 0);
    r = modtest::run_cli({"patch", "info", (tmp / "mod.bps").string(), "--json"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find("\"metadata\": \"hello\"") != std::string::npos);
    r = modtest::run_cli({"patch", "apply", (tmp / "mod.bps").string(), source_path.string(), (tmp / "out.bin").string()});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(modtest::read(tmp / "out.bin") == target);
    // Wrong source: conflict (3), nothing written.
    r = modtest::run_cli({"patch", "apply", (tmp / "mod.bps").string(), (tmp / "target.bin").string(),
                          (tmp / "bad.bin").string()});
    BOOST_TEST(r.exit_code == 3);
    BOOST_TEST(r.err.find("already the patched result") != std::string::npos);
    BOOST_TEST(!modtest::fs::exists(tmp / "bad.bin"));
    // Unknown extension without --format: usage (1). A non-patch: format (2).
    BOOST_TEST(modtest::run_cli({"patch", "create", source_path.string(), (tmp / "target.bin").string(),
                                 (tmp / "mod.xyz").string()}).exit_code == 1);
    BOOST_TEST(modtest::run_cli({"patch", "create", source_path.string(), (tmp / "target.bin").string(),
                                 (tmp / "mod.xyz").string(), "--format", "bps"}).exit_code == 0);
    BOOST_TEST(mod::bps::has_magic(modtest::read(tmp / "mod.xyz")));
    BOOST_TEST(modtest::run_cli({"patch", "info", source_path.string()}).exit_code == 2);
}

BOOST_AUTO_TEST_SUITE_END()
