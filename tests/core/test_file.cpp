#include "libmod/core/file.hpp"

#include "test_support.hpp"

#include <fstream>

using namespace mod;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(file)

BOOST_AUTO_TEST_CASE(atomic_write_then_read_back) {
    modtest::TempDir dir;
    const Bytes data = {1, 2, 3, 4, 5};
    write_file_atomic(dir / "out.bin", data);
    BOOST_TEST(read_file(dir / "out.bin") == data);
    // Overwriting an existing output (not an input) replaces it whole.
    write_file_atomic(dir / "out.bin", Bytes{9});
    BOOST_TEST(read_file(dir / "out.bin") == Bytes{9});
    // No temporary files are left behind.
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++entries;
    BOOST_TEST(entries == 1u);
}

BOOST_AUTO_TEST_CASE(refuses_to_overwrite_an_input_even_through_another_name) {
    modtest::TempDir dir;
    const Bytes original = {7, 7, 7};
    write_file_atomic(dir / "in.bin", original);
    fs::create_hard_link(dir / "in.bin", dir / "alias.bin");
    const fs::path inputs[] = {dir / "in.bin"};
    auto e = modtest::catch_error([&] { write_file_atomic(dir / "alias.bin", Bytes{1}, inputs); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == ErrorKind::conflict);
    BOOST_TEST(read_file(dir / "in.bin") == original);
}

BOOST_AUTO_TEST_CASE(missing_and_oversized_inputs_fail_with_the_right_kind) {
    modtest::TempDir dir;
    auto missing = modtest::catch_error([&] { read_file(dir / "nope.bin"); });
    BOOST_REQUIRE(missing);
    BOOST_TEST(missing->kind() == ErrorKind::io);
    BOOST_TEST(missing->file() == (dir / "nope.bin").string());
    write_file_atomic(dir / "big.bin", Bytes(100));
    auto big = modtest::catch_error([&] { read_file(dir / "big.bin", 99); });
    BOOST_REQUIRE(big);
    BOOST_TEST(big->kind() == ErrorKind::limit);
    BOOST_TEST(read_file(dir / "big.bin", 100).size() == 100u);  // the limit itself is allowed
    auto folder = modtest::catch_error([&] { read_file(dir.path()); });  // opens, but is no file
    BOOST_REQUIRE(folder);
    BOOST_TEST(folder->kind() == ErrorKind::io);
    BOOST_TEST(folder->file() == dir.path().string());
    BOOST_TEST(folder->message() == "cannot read the size: Is a directory");
    auto device = modtest::catch_error([&] { read_file("/dev/null"); });
    BOOST_REQUIRE(device);
    BOOST_TEST(device->kind() == ErrorKind::io);
    BOOST_TEST(device->message() == "cannot read the size: Operation not supported");
}

BOOST_AUTO_TEST_CASE(unwritable_destination_is_an_io_error) {
    modtest::TempDir dir;
    write_file_atomic(dir / "file", Bytes{1});
    // The folder cannot be made: a parent is a file.
    auto e = modtest::catch_error([&] { write_file_atomic(dir / "file" / "sub" / "x.bin", Bytes{1}); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == ErrorKind::io);
    BOOST_TEST(std::string(e->what()).find((dir / "file").string()) != std::string::npos, e->what());
}

// Issue 16: `modkit ... out/mod.z64` failed with "cannot create a temporary file" when out/
// did not exist yet; output folders are made.
BOOST_AUTO_TEST_CASE(a_missing_output_folder_is_created) {
    modtest::TempDir dir;
    write_file_atomic(dir / "no-such-folder" / "sub" / "x.bin", Bytes{1, 2});
    BOOST_TEST((read_file(dir / "no-such-folder" / "sub" / "x.bin") == Bytes{1, 2}));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(file_part)

BOOST_AUTO_TEST_CASE(reads_the_range_and_stops_at_the_end) {
    modtest::TempDir dir;
    Bytes data(10000);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = std::uint8_t(i * 7 + 3);
    write_file_atomic(dir / "f.bin", data);
    std::uint64_t size = 0;
    BOOST_TEST((read_file_part(dir / "f.bin", 100, 50, size) == Bytes(data.begin() + 100, data.begin() + 150)));
    BOOST_TEST(size == 10000u);
    // Past the end: what is there, then nothing.
    BOOST_TEST((read_file_part(dir / "f.bin", 9990, 50, size) == Bytes(data.begin() + 9990, data.end())));
    BOOST_TEST(read_file_part(dir / "f.bin", 10000, 50, size).empty());
    BOOST_TEST(read_file_part(dir / "f.bin", 20000, 50, size).empty());
    BOOST_TEST(read_file_part(dir / "f.bin", 0, UINT64_MAX, size) == data);
    // The file's size is held to the limit, as read_file's.
    const auto e = modtest::catch_error([&] { (void)read_file_part(dir / "f.bin", 0, 10, size, 9999); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == ErrorKind::limit);
    const auto missing = modtest::catch_error([&] { (void)read_file_part(dir / "none.bin", 0, 10, size); });
    BOOST_REQUIRE(missing);
    BOOST_TEST(missing->kind() == ErrorKind::io);
    const auto folder = modtest::catch_error([&] { (void)read_file_part(dir.path(), 0, 10, size); });
    BOOST_REQUIRE(folder);
    BOOST_TEST(folder->kind() == ErrorKind::io);
}

BOOST_AUTO_TEST_CASE(large_outputs_are_written_sparse_with_the_same_bytes) {
    modtest::TempDir dir;
    // 8 MiB: zero blocks, an unaligned non-zero run, a zero tail ending mid-block.
    Bytes data(sparse_output_min * 8 + 123, 0);
    for (std::size_t i = 5000; i < 70000; ++i) data[i] = std::uint8_t(i);
    data[data.size() - 200] = 9;
    write_file_atomic(dir / "big.bin", data);
    BOOST_TEST(read_file(dir / "big.bin") == data);
    BOOST_TEST(fs::file_size(dir / "big.bin") == data.size());
    // Overwriting with all zeros still gives the full size.
    const Bytes zeros(sparse_output_min + 1, 0);
    write_file_atomic(dir / "big.bin", zeros);
    BOOST_TEST(read_file(dir / "big.bin") == zeros);
}

BOOST_AUTO_TEST_SUITE_END()
