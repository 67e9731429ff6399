// zstd MZPT apply into caller memory (zpatch::apply_into, used by `modkit patch apply` with a
// PageBuffer) and the CLI's sparse, atomic output (issue 20).
#include "test_support.hpp"

#include "libmod/codec/zstd_patch.hpp"
#include "libmod/core/endian.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/core/page_buffer.hpp"

#include <sys/stat.h>

namespace {

using mod::Bytes;
using mod::ByteView;
namespace fs = std::filesystem;

// A ROM-like image: noise in 64 KiB islands separated by zero padding (about half of it).
Bytes rom_like(std::size_t size, std::uint64_t seed) {
    modtest::Rng rng(seed);
    Bytes b(size);
    for (std::size_t at = 0; at < size; at += 128 * 1024)
        for (std::size_t i = at; i < std::min(size, at + 64 * 1024); ++i) b[i] = static_cast<std::uint8_t>(rng.next());
    return b;
}

Bytes edited(Bytes b) {
    for (std::size_t k = 0; k < 20; ++k) b[(k * 0x31337) % b.size()] ^= 0x5A;  // in noise and in padding
    return b;
}

std::size_t entries(const fs::path& dir) {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
    return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(zstd_patch_paths)

BOOST_AUTO_TEST_CASE(apply_into_gives_the_bytes_of_apply_and_asks_once_for_the_target_size) {
    const Bytes source = rom_like(1 << 20, 1);
    const Bytes target = edited(source);
    const Bytes patch = mod::zpatch::create(source, target);
    const mod::ByteReader reader(patch, mod::Endian::little, "p.zpatch", "zpatch");
    int calls = 0;
    std::uint64_t asked = 0;
    mod::PageBuffer out;
    const auto h = mod::zpatch::apply_into(reader, source, [&](std::uint64_t size) {
        ++calls;
        asked = size;
        out = mod::PageBuffer(static_cast<std::size_t>(size));
        return out.span();
    });
    BOOST_TEST(calls == 1);
    BOOST_TEST(asked == target.size());
    BOOST_TEST(h.target_size == target.size());
    BOOST_TEST((Bytes(out.view().begin(), out.view().end()) == target));
    BOOST_TEST((mod::zpatch::apply(patch, source) == target));
    // A buffer of the wrong size is the caller's bug: a usage error, nothing decoded.
    Bytes small(target.size() - 1, 0xEE);
    auto e = modtest::catch_error([&] {
        (void)mod::zpatch::apply_into(reader, source, [&](std::uint64_t) { return std::span<std::uint8_t>(small); });
    });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::usage);
    BOOST_TEST(std::count(small.begin(), small.end(), 0xEE) == static_cast<std::ptrdiff_t>(small.size()));
}

BOOST_AUTO_TEST_CASE(apply_into_asks_for_no_memory_when_the_patch_is_refused_early) {
    const Bytes source = rom_like(300 * 1024, 2);
    const Bytes target = edited(source);
    const Bytes patch = mod::zpatch::create(source, target, mod::zpatch::CreateOptions{3});
    int calls = 0;
    auto buffer = [&](std::uint64_t) -> std::span<std::uint8_t> {
        ++calls;
        return {};
    };
    auto run = [&](ByteView p, ByteView s, const mod::zpatch::ApplyOptions& o = {}) {
        return modtest::catch_error(
            [&] { (void)mod::zpatch::apply_into(mod::ByteReader(p, mod::Endian::little, "p", "zpatch"), s, buffer, o); });
    };
    // Every truncation (the header's frame size disagrees with the bytes that follow).
    for (std::size_t n = 0; n < patch.size(); n += std::max<std::size_t>(1, patch.size() / 97)) {
        auto e = run(ByteView(patch).first(n), source);
        BOOST_REQUIRE(e);
        BOOST_TEST(e->kind() == mod::ErrorKind::format);
    }
    // A wrong source (one bit), and the target as its own source.
    Bytes other = source;
    other[1000] ^= 1;
    auto e = run(patch, other);
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::conflict);
    // A target above --max-size.
    mod::zpatch::ApplyOptions small;
    small.max_target = target.size() - 1;
    e = run(patch, source, small);
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::limit);
    BOOST_TEST(calls == 0);
}

BOOST_AUTO_TEST_CASE(cli_apply_writes_the_target_with_holes_and_nothing_on_failure) {
    modtest::TempDir tmp;
    const Bytes source = rom_like(6 << 20, 3);
    const Bytes target = edited(source);
    mod::write_file_atomic(tmp / "s.z64", source);
    mod::write_file_atomic(tmp / "t.z64", target);
    auto r = modtest::run_cli({"patch", "create", (tmp / "s.z64").string(), (tmp / "t.z64").string(),
                               (tmp / "p.zpatch").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const Bytes patch = modtest::read(tmp / "p.zpatch");
    // What the library makes, byte for byte (the CLI reads into page buffers).
    BOOST_TEST((patch == mod::zpatch::create(source, target)));
    fs::create_directory(tmp / "out");
    r = modtest::run_cli({"patch", "apply", (tmp / "p.zpatch").string(), (tmp / "s.z64").string(),
                          (tmp / "out" / "r.z64").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST((modtest::read(tmp / "out" / "r.z64") == target));
    // The padding (about half of the 6 MiB) was not written: it takes no disk blocks.
    struct stat st {};
    BOOST_REQUIRE(::stat((tmp / "out" / "r.z64").c_str(), &st) == 0);
    BOOST_TEST(static_cast<std::uint64_t>(st.st_blocks) * 512 < target.size() * 3 / 4);
    BOOST_TEST(entries(tmp / "out") == 1u);
    // A truncated patch, and one whose last byte (in the frame's content checksum, checked
    // after the target is decoded in memory) is flipped: exit 2, nothing in the output folder,
    // the earlier result untouched.
    Bytes cut = patch;
    cut.resize(patch.size() - 7);
    mod::write_file_atomic(tmp / "cut.zpatch", cut);
    Bytes flipped = patch;
    flipped.back() ^= 0x10;
    mod::write_file_atomic(tmp / "flipped.zpatch", flipped);
    for (const char* bad : {"cut.zpatch", "flipped.zpatch"}) {
        r = modtest::run_cli({"patch", "apply", (tmp / bad).string(), (tmp / "s.z64").string(),
                              (tmp / "out" / "x.z64").string()});
        BOOST_TEST(r.exit_code == 2, bad << ": " << r.err);
        BOOST_TEST(!fs::exists(tmp / "out" / "x.z64"));
        BOOST_TEST(entries(tmp / "out") == 1u);
    }
    r = modtest::run_cli({"patch", "apply", (tmp / "flipped.zpatch").string(), (tmp / "s.z64").string(),
                          (tmp / "out" / "r.z64").string()});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST((modtest::read(tmp / "out" / "r.z64") == target));
    BOOST_TEST((modtest::read(tmp / "s.z64") == source));  // the input is never modified
}

BOOST_AUTO_TEST_SUITE_END()
