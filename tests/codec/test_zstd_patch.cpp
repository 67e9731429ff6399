// zstd MZPT patches: round trips, the header, wrong-source refusal before decoding, damaged
// patches, the CLI.
#include "test_support.hpp"

#include "libmod/codec/zstd_patch.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"

#include <algorithm>
#include <ostream>

namespace {

using mod::Bytes;
using mod::ByteView;

Bytes with_edits(const Bytes& source, std::uint64_t seed, int edits) {
    modtest::Rng rng(seed);
    Bytes t = source;
    for (int e = 0; e < edits; ++e) {
        const std::size_t at = t.empty() ? 0 : rng.below(static_cast<std::uint32_t>(t.size()));
        Bytes ins(1 + rng.below(40));
        for (auto& b : ins) b = static_cast<std::uint8_t>(rng.next());
        if (rng.below(2)) {
            t.insert(t.begin() + static_cast<std::ptrdiff_t>(at), ins.begin(), ins.end());
        } else {
            for (std::size_t k = 0; k < ins.size() && at + k < t.size(); ++k) t[at + k] = ins[k];
        }
    }
    return t;
}

mod::zpatch::CreateOptions fast() {
    mod::zpatch::CreateOptions o;
    o.level = 3;
    return o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(zstd_patch)

BOOST_AUTO_TEST_CASE(round_trips_on_corpus_files) {
    std::size_t patch_total = 0, target_total = 0;
    std::uint64_t seed = 3;
    for (const auto& p : modtest::yay0_corpus_files()) {
        BOOST_TEST_CONTEXT(p.filename()) {
            const Bytes source = modtest::read(p);
            const Bytes target = with_edits(source, seed++, 10);
            const Bytes patch = mod::zpatch::create(source, target, fast());
            mod::zpatch::Header h;
            BOOST_TEST(mod::zpatch::apply(patch, source, {}, &h) == target);
            BOOST_TEST(h.source_size == source.size());
            BOOST_TEST(h.target_size == target.size());
            BOOST_TEST(h.source_sha1 == mod::sha1(source));
            BOOST_TEST(h.target_crc32 == mod::crc32(target));
            BOOST_TEST((std::uint64_t(1) << h.window_log) >= source.size() + target.size());
            patch_total += patch.size();
            target_total += target.size();
        }
    }
    // The source is used: the patches are a small fraction of the targets.
    BOOST_TEST(patch_total * 30 < target_total);
}

BOOST_AUTO_TEST_CASE(deterministic_and_edge_cases) {
    const Bytes source = modtest::read(modtest::corpus("yay0/pl_frame.i8"));
    const Bytes target = with_edits(source, 11, 5);
    BOOST_TEST(mod::zpatch::create(source, target) == mod::zpatch::create(source, target));
    const Bytes empty;
    for (const auto& [s, t] : {std::pair{empty, empty}, std::pair{empty, target}, std::pair{source, empty}}) {
        const Bytes patch = mod::zpatch::create(s, t, fast());
        BOOST_TEST(mod::zpatch::apply(patch, s) == t);
    }
    BOOST_CHECK_THROW(mod::zpatch::create(source, target, mod::zpatch::CreateOptions{0}), mod::Error);
    BOOST_CHECK_THROW(mod::zpatch::create(source, target, mod::zpatch::CreateOptions{23}), mod::Error);
}

BOOST_AUTO_TEST_CASE(wrong_source_is_refused_before_decoding) {
    const Bytes source = modtest::read(modtest::corpus("yay0/pl_image.lz"));
    const Bytes target = with_edits(source, 5, 4);
    const Bytes patch = mod::zpatch::create(source, target, fast());
    Bytes other = source;
    other.back() ^= 0x01;  // same size, one bit different
    auto e = modtest::catch_error([&] {
        mod::zpatch::apply(mod::ByteReader(patch, mod::Endian::little, "p.zpatch", "zpatch"), other);
    });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::conflict);
    BOOST_TEST(e->file() == "p.zpatch");
    BOOST_TEST(e->message().find("CRC-32 " + mod::hex(mod::crc32(other), 8)) != std::string::npos);
    BOOST_TEST(e->message().find(mod::to_hex(mod::sha1(source))) != std::string::npos);  // the expected identity
    e = modtest::catch_error([&] { mod::zpatch::apply(patch, target); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->message().find("already the patched result") != std::string::npos);
    // Limits are checked before allocation.
    mod::zpatch::ApplyOptions small;
    small.max_target = target.size() - 1;
    e = modtest::catch_error([&] { mod::zpatch::apply(patch, source, small); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::limit);
    mod::zpatch::ApplyOptions narrow;
    narrow.max_window_log = 10;
    BOOST_CHECK_THROW(mod::zpatch::apply(patch, source, narrow), mod::Error);
}

BOOST_AUTO_TEST_CASE(damaged_patches_fail_cleanly) {
    const Bytes source = modtest::read(modtest::corpus("yay0/pl_internalpalette_rom.bin"));
    const Bytes target = with_edits(source, 17, 30);
    const Bytes patch = mod::zpatch::create(source, target, fast());
    auto apply = [&](ByteView v) {
        const Bytes out = mod::zpatch::apply(v, source);
        BOOST_REQUIRE(out == target);  // whatever succeeds is exactly right
    };
    // Every prefix disagrees with the header's frame size.
    BOOST_TEST(modtest::truncation_loop(patch, apply) == patch.size());
    // Header flips break the header CRC; frame flips are caught by zstd or by the SHA-1.
    // (Every third byte keeps the test fast; all three patterns at each.)
    // A flip zstd does not read (e.g. an unused bit) may still give the right target, which
    // `apply` above requires byte for byte; almost all flips must be refused.
    const std::size_t rejected = modtest::byte_flip_loop(patch, apply, 3);
    BOOST_TEST(rejected * 100 >= (patch.size() + 2) / 3 * 3 * 98);
    // A header with a recomputed CRC but a lying target size is refused by the frame check.
    Bytes lying = patch;
    mod::endian::store_le64(lying.data() + 0x28, target.size() + 1);
    mod::endian::store_le32(lying.data() + 0x54, mod::crc32(ByteView(lying).first(0x54)));
    auto e = modtest::catch_error([&] { mod::zpatch::apply(lying, source); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->path() == "zpatch.frame");
    // Trailing bytes after the frame.
    Bytes trailing = patch;
    trailing.push_back(0);
    BOOST_CHECK_THROW(mod::zpatch::apply(trailing, source), mod::Error);
    // Bytes after the frame that the header's frame size does cover: an empty skippable frame
    // (zstd would skip it and decode the target) with the frame size and header CRC updated.
    Bytes skippable = patch;
    for (std::uint8_t b : {0x50, 0x2A, 0x4D, 0x18, 0x00, 0x00, 0x00, 0x00}) skippable.push_back(b);
    mod::endian::store_le32(skippable.data() + 0x4C, static_cast<std::uint32_t>(skippable.size() - 0x58));
    mod::endian::store_le32(skippable.data() + 0x54, mod::crc32(ByteView(skippable).first(0x54)));
    BOOST_REQUIRE_NO_THROW(mod::zpatch::read_header(mod::ByteReader(skippable, mod::Endian::little)));
    e = modtest::catch_error([&] { mod::zpatch::apply(skippable, source); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->path() == "zpatch.frame");
    BOOST_TEST(e->message().find("bytes after the zstd frame") != std::string::npos, e->what());
    BOOST_CHECK_THROW(mod::zpatch::read_header(mod::ByteReader(ByteView(patch).first(10), mod::Endian::little)),
                      mod::Error);
}

BOOST_AUTO_TEST_CASE(cli_patch_zpatch) {
    modtest::TempDir tmp;
    const auto source_path = modtest::corpus("yay0/pl_spcemu_rom.bin");
    const Bytes source = modtest::read(source_path);
    const Bytes target = with_edits(source, 23, 20);
    mod::write_file_atomic(tmp / "t.bin", target);
    auto r = modtest::run_cli({"patch", "create", source_path.string(), (tmp / "t.bin").string(),
                               (tmp / "m.zpatch").string(), "--level", "5"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(mod::zpatch::has_magic(modtest::read(tmp / "m.zpatch")));
    r = modtest::run_cli({"patch", "info", (tmp / "m.zpatch").string(), "--json"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find(mod::to_hex(mod::sha1(source))) != std::string::npos);
    BOOST_TEST(r.out.find("\"level\": 5") != std::string::npos);
    r = modtest::run_cli({"patch", "apply", (tmp / "m.zpatch").string(), source_path.string(), (tmp / "o.bin").string()});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(modtest::read(tmp / "o.bin") == target);
    r = modtest::run_cli({"patch", "apply", (tmp / "m.zpatch").string(), (tmp / "t.bin").string(),
                          (tmp / "x.bin").string()});
    BOOST_TEST(r.exit_code == 3);
    BOOST_TEST(!modtest::fs::exists(tmp / "x.bin"));
    // Never overwrite an input.
    BOOST_TEST(modtest::run_cli({"patch", "apply", (tmp / "m.zpatch").string(), source_path.string(),
                                 (tmp / "m.zpatch").string()}).exit_code == 3);
    BOOST_TEST(modtest::run_cli({"patch", "apply", (tmp / "m.zpatch").string(), source_path.string(),
                                 (tmp / "y.bin").string(), "--ignore-source-crc"}).exit_code == 1);
}

BOOST_AUTO_TEST_SUITE_END()
