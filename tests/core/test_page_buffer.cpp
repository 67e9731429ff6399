// PageBuffer, read_file_pages and PendingOutput::write_sparse (issue 20: zstd patch apply
// without a zero-filled 32 MiB vector, and with ROM padding left as holes).
#include "libmod/core/file.hpp"
#include "libmod/core/page_buffer.hpp"

#include "test_support.hpp"

#include <sys/stat.h>

using namespace mod;
namespace fs = std::filesystem;

namespace {
// Every file in `dir` (to find temporary files left behind).
std::size_t entries(const fs::path& dir) {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
    return n;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(page_buffer)

BOOST_AUTO_TEST_CASE(reads_as_zero_moves_and_frees) {
    for (std::size_t size : {std::size_t(0), std::size_t(1), std::size_t(4095), std::size_t(5) << 20}) {
        PageBuffer b(size);
        BOOST_TEST(b.size() == size);
        std::size_t nonzero = 0;
        for (std::size_t i = 0; i < size; ++i) nonzero += b.data()[i] != 0;
        BOOST_TEST(nonzero == 0u);
        if (size) BOOST_TEST(reinterpret_cast<std::uintptr_t>(b.data()) % 4096 == 0u);  // whole pages
        if (size) b.data()[size - 1] = 7;
        PageBuffer moved(std::move(b));
        BOOST_TEST(b.size() == 0u);
        BOOST_TEST(moved.size() == size);
        if (size) BOOST_TEST(moved.view().back() == 7);
        PageBuffer assigned;
        assigned = std::move(moved);
        BOOST_TEST(assigned.size() == size);
    }
    // An impossible size is a limit error, not a crash.
    auto e = modtest::catch_error([] { PageBuffer huge(SIZE_MAX - 100); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == ErrorKind::limit);
}

BOOST_AUTO_TEST_CASE(page_alloc_gives_writable_aligned_blocks) {
    page_free(nullptr);
    std::vector<std::pair<std::uint8_t*, std::size_t>> blocks;
    for (std::size_t size : {std::size_t(1), std::size_t(100), (std::size_t(2) << 20) - 1, std::size_t(2) << 20,
                             std::size_t(9) << 20}) {
        auto* p = static_cast<std::uint8_t*>(page_alloc(size));
        BOOST_REQUIRE(p != nullptr);
        BOOST_TEST(reinterpret_cast<std::uintptr_t>(p) % 16 == 0u);
        p[0] = 1;
        p[size - 1] = 2;
        blocks.push_back({p, size});
    }
    for (auto [p, size] : blocks) {  // no block overlaps another
        if (size > 1) BOOST_TEST(p[0] == 1);
        BOOST_TEST(p[size - 1] == 2);
        page_free(p);
    }
    BOOST_TEST(page_alloc(SIZE_MAX - 10) == nullptr);
}

BOOST_AUTO_TEST_CASE(read_file_pages_reads_what_read_file_reads_with_the_same_limits) {
    modtest::TempDir dir;
    modtest::Rng rng(5);
    Bytes data(3 << 20);
    for (auto& b : data) b = static_cast<std::uint8_t>(rng.next());
    write_file_atomic(dir / "f.bin", data);
    const PageBuffer pages = read_file_pages(dir / "f.bin");
    BOOST_TEST((Bytes(pages.view().begin(), pages.view().end()) == data));
    auto big = modtest::catch_error([&] { (void)read_file_pages(dir / "f.bin", data.size() - 1); });
    BOOST_REQUIRE(big);
    BOOST_TEST(big->kind() == ErrorKind::limit);
    auto missing = modtest::catch_error([&] { (void)read_file_pages(dir / "nope.bin"); });
    BOOST_REQUIRE(missing);
    BOOST_TEST(missing->kind() == ErrorKind::io);
    auto folder = modtest::catch_error([&] { (void)read_file_pages(dir.path()); });
    BOOST_REQUIRE(folder);
    BOOST_TEST(folder->message() == "cannot read the size: Is a directory");
    BOOST_TEST(read_file_pages(dir / "f.bin", data.size()).size() == data.size());
}

BOOST_AUTO_TEST_CASE(write_sparse_writes_the_same_bytes_and_leaves_zero_blocks_as_holes) {
    modtest::TempDir dir;
    constexpr std::size_t k = 4096;
    modtest::Rng rng(9);
    auto noise = [&](Bytes& b, std::size_t from, std::size_t n) {
        for (std::size_t i = from; i < from + n; ++i) b[i] = static_cast<std::uint8_t>(1 + rng.below(255));
    };
    // Layouts: zeros at the start, in the middle (aligned and not), at the end (whole blocks, a
    // partial block), all zeros, no zeros, shorter than a block, empty.
    std::vector<Bytes> cases;
    Bytes a(64 * k);  // 1 MiB of zeros at 16..31 blocks; a zero tail of 3 blocks + 100 bytes
    noise(a, 0, 16 * k);
    noise(a, 32 * k, 64 * k - 32 * k - 3 * k - 100);
    cases.push_back(a);
    Bytes b(10 * k + 5);  // leading zeros, noise from the middle of block 4, zero tail of 5 bytes
    noise(b, 4 * k + 17, 6 * k - 17);
    cases.push_back(b);
    cases.push_back(Bytes(8 * k));  // all zeros
    Bytes c(3 * k + 1);
    noise(c, 0, c.size());
    cases.push_back(c);  // no zeros
    cases.push_back(Bytes(100));
    cases.push_back(Bytes{});
    Bytes d(6 * k);  // a zero block whose last byte only is set is not skipped
    d[2 * k + k - 1] = 1;
    cases.push_back(d);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        BOOST_TEST_CONTEXT("case " << i) {
            const fs::path out = dir / ("s" + std::to_string(i) + ".bin");
            PendingOutput p(out);
            p.write_sparse(cases[i]);
            p.commit();
            BOOST_TEST(read_file(out) == cases[i]);
            BOOST_TEST(fs::file_size(out) == cases[i].size());
        }
    }
    // write then write_sparse: alignment is by file offset (the first 100 bytes shift it).
    {
        Bytes head(100, 0xAB);
        PendingOutput p(dir / "mixed.bin");
        p.write(head);
        p.write_sparse(a);
        p.write(Bytes{1, 2, 3});
        p.commit();
        Bytes want = head;
        want.insert(want.end(), a.begin(), a.end());
        want.insert(want.end(), {1, 2, 3});
        BOOST_TEST(read_file(dir / "mixed.bin") == want);
    }
    // The megabyte of zeros in case 0 took no disk blocks (ext4 and tmpfs keep holes).
    struct stat st {};
    BOOST_REQUIRE(::stat((dir / "s0.bin").c_str(), &st) == 0);
    BOOST_TEST(static_cast<std::uint64_t>(st.st_blocks) * 512 <= 60u * k);
    // Nothing but the outputs in the folder: no temporary file left.
    BOOST_TEST(entries(dir.path()) == cases.size() + 1);
    // An output never committed leaves nothing.
    {
        PendingOutput p(dir / "never.bin");
        p.write_sparse(a);
    }
    BOOST_TEST(!fs::exists(dir / "never.bin"));
    BOOST_TEST(entries(dir.path()) == cases.size() + 1);
}

BOOST_AUTO_TEST_SUITE_END()
