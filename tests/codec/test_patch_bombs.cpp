// Memory bombs (issue 21): BPS and zstd patches of a few dozen bytes whose headers claim a
// 4 GiB target. Each is refused before the target is allocated: the library calls run in a
// child process whose address space is capped at what it maps plus 256 MiB, so an up-front
// allocation ends in std::bad_alloc there instead of a clean mod::Error.
#include "test_support.hpp"

#include "libmod/codec/bps.hpp"
#include "libmod/codec/zstd_patch.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <functional>
#include <new>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using mod::Bytes;

constexpr int exit_no_error = 0, exit_bad_alloc = 50, exit_other = 51;
int exit_for(mod::ErrorKind kind) { return 10 + static_cast<int>(kind); }

// Runs fn in a child with a capped address space; returns its exit code (see above).
int run_capped(const std::function<void()>& fn) {
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
#if !defined(__SANITIZE_ADDRESS__)
        unsigned long long pages = 0;
        if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
            if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
            std::fclose(f);
        }
        const rlim_t cap = static_cast<rlim_t>(pages * ::sysconf(_SC_PAGESIZE) + (256ull << 20));
        rlimit r{cap, cap};
        ::setrlimit(RLIMIT_AS, &r);
#endif
        int code = exit_no_error;
        try {
            fn();
        } catch (const mod::Error& e) {
            code = exit_for(e.kind());
        } catch (const std::bad_alloc&) {
            code = exit_bad_alloc;
        } catch (...) {
            code = exit_other;
        }
        ::_exit(code);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

// "BPS1", source 0 bytes, target 0xFFFFFFFF bytes, no metadata, no action, footer (source CRC
// of the empty file, any target CRC, the patch CRC): 23 bytes.
Bytes bps_bomb() {
    mod::ByteWriter w(mod::Endian::little);
    w.string("BPS1");
    mod::bps::write_varint(w, 0);
    mod::bps::write_varint(w, 0xFFFFFFFFull);
    mod::bps::write_varint(w, 0);
    w.u32(mod::crc32({}));
    w.u32(0x12345678);
    w.u32(mod::crc32(w.data()));
    return w.take();
}

// An MZPT header for the empty source claiming a 0xFFFFFFFF-byte target, and a zstd frame
// whose header claims the same but holds one RLE block of 100 bytes: 106 bytes.
Bytes zpatch_bomb() {
    const std::uint64_t claim = 0xFFFFFFFFull;
    mod::ByteWriter frame(mod::Endian::little);
    frame.u32(0xFD2FB528);            // zstd magic
    frame.u8(0xC0);                   // 8-byte content size, window descriptor, no checksum
    frame.u8(0x58);                   // window 2 MiB
    frame.u64(claim);                 // frame content size
    const std::uint32_t block = 1 | (1 << 1) | (100 << 3);  // last block, RLE, 100 bytes
    frame.u8(block & 0xFF);
    frame.u8((block >> 8) & 0xFF);
    frame.u8((block >> 16) & 0xFF);
    frame.u8('A');
    const Bytes f = frame.take();
    mod::ByteWriter w(mod::Endian::little);
    w.string("MZPT");
    w.u16(1);
    w.u16(0x58);
    w.u64(0);
    w.u32(mod::crc32({}));
    const auto empty_sha = mod::sha1({});
    w.bytes(empty_sha);
    w.u64(claim);
    w.u32(0);
    w.fill(20);
    w.u8(21);  // window log
    w.u8(9);
    w.u16(0);
    w.u32(static_cast<std::uint32_t>(f.size()));
    w.u32(0);
    w.u32(mod::crc32(w.data()));
    w.bytes(f);
    return w.take();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(patch_bombs)

BOOST_AUTO_TEST_CASE(bps_claiming_4_gib_is_refused_before_allocating) {
    const Bytes patch = bps_bomb();
    BOOST_TEST(patch.size() == 23u);
    // Default limit: a limit error naming how to raise it.
    auto e = modtest::catch_error([&] { (void)mod::bps::apply(patch, {}); });
    BOOST_REQUIRE(e);
    BOOST_TEST((e->kind() == mod::ErrorKind::limit));
    BOOST_TEST(e->message().find("--max-size") != std::string::npos, e->what());
    // A user who raised the limit: the actions (none) cannot fill the claim, refused before the
    // 4 GiB are allocated.
    mod::bps::ApplyOptions raised;
    raised.max_target = 8ull << 30;
    BOOST_TEST(run_capped([&] { (void)mod::bps::apply(patch, {}, raised); }) == exit_for(mod::ErrorKind::format));
    auto f = modtest::catch_error([&] { (void)mod::bps::apply(patch, {}, raised); });
    BOOST_REQUIRE(f);
    BOOST_TEST(f->message().find("the actions write 0 bytes, the header declares 4294967295") != std::string::npos,
               f->what());
}

BOOST_AUTO_TEST_CASE(zpatch_claiming_4_gib_is_refused_before_allocating) {
    const Bytes patch = zpatch_bomb();
    BOOST_TEST(patch.size() == 106u);
    BOOST_TEST(mod::zpatch::inspect(mod::ByteReader(patch, mod::Endian::little)).target_size == 0xFFFFFFFFull);
    // The default limit is safe (1 GiB) and the error says how to raise it.
    BOOST_TEST(mod::zpatch::default_max_target <= (1ull << 30));
    auto e = modtest::catch_error([&] { (void)mod::zpatch::apply(patch, {}); });
    BOOST_REQUIRE(e);
    BOOST_TEST((e->kind() == mod::ErrorKind::limit));
    BOOST_TEST(e->message().find("--max-size") != std::string::npos, e->what());
    // Raised limit: the frame's blocks bound the output far below the claim.
    mod::zpatch::ApplyOptions raised;
    raised.max_target = 8ull << 30;
    BOOST_TEST(run_capped([&] { (void)mod::zpatch::apply(patch, {}, raised); }) == exit_for(mod::ErrorKind::format));
    auto f = modtest::catch_error([&] { (void)mod::zpatch::apply(patch, {}, raised); });
    BOOST_REQUIRE(f);
    BOOST_TEST(f->message().find("produce at most") != std::string::npos, f->what());
}

// The CLI's path (zpatch::apply_into into a PageBuffer): the memory is asked for only after the
// limit and the frame's bound, so a bomb gets none, whatever --max-size says.
BOOST_AUTO_TEST_CASE(zpatch_apply_into_asks_no_memory_for_a_bomb) {
    const Bytes patch = zpatch_bomb();
    int calls = 0;
    auto buffer = [&](std::uint64_t) -> std::span<std::uint8_t> {
        ++calls;
        return {};
    };
    const mod::ByteReader reader(patch, mod::Endian::little, "bomb.zpatch", "zpatch");
    auto e = modtest::catch_error([&] { (void)mod::zpatch::apply_into(reader, {}, buffer); });
    BOOST_REQUIRE(e);
    BOOST_TEST((e->kind() == mod::ErrorKind::limit));
    mod::zpatch::ApplyOptions raised;
    raised.max_target = 8ull << 30;
    BOOST_TEST(run_capped([&] { (void)mod::zpatch::apply_into(reader, {}, buffer, raised); }) ==
               exit_for(mod::ErrorKind::format));
    auto f = modtest::catch_error([&] { (void)mod::zpatch::apply_into(reader, {}, buffer, raised); });
    BOOST_REQUIRE(f);
    BOOST_TEST(f->message().find("produce at most") != std::string::npos, f->what());
    BOOST_TEST(calls == 0);
    // The CLI with the limit raised to 8 GiB: a format error, nothing written.
    modtest::TempDir tmp;
    mod::write_file_atomic(tmp / "empty.bin", Bytes{});
    mod::write_file_atomic(tmp / "bomb.zpatch", patch);
    auto r = modtest::run_cli({"patch", "apply", (tmp / "bomb.zpatch").string(), (tmp / "empty.bin").string(),
                               (tmp / "out.bin").string(), "--max-size", "8589934592"});
    BOOST_TEST(r.exit_code == 2, r.err);
    BOOST_TEST(r.err.find("produce at most") != std::string::npos, r.err);
    BOOST_TEST(!modtest::fs::exists(tmp / "out.bin"));
}

BOOST_AUTO_TEST_CASE(cli_refuses_both_with_the_default_limit) {
    modtest::TempDir tmp;
    mod::write_file_atomic(tmp / "empty.bin", Bytes{});
    mod::write_file_atomic(tmp / "bomb.bps", bps_bomb());
    mod::write_file_atomic(tmp / "bomb.zpatch", zpatch_bomb());
    for (const char* p : {"bomb.bps", "bomb.zpatch"}) {
        auto r = modtest::run_cli({"patch", "apply", (tmp / p).string(), (tmp / "empty.bin").string(),
                                   (tmp / "out.bin").string()});
        BOOST_TEST(r.exit_code == 3, p << ": " << r.err);
        BOOST_TEST(r.err.find("exceeds the limit of 1073741824 bytes (raise it with --max-size)") != std::string::npos,
                   r.err);
        BOOST_TEST(!modtest::fs::exists(tmp / "out.bin"));
    }
}

BOOST_AUTO_TEST_SUITE_END()
