// read_rom_archive (issue 31): the archive of a ROM file read without reading the whole image
// gives what read_archive(load_rom(path)) gives: the same archive for every byte order and the
// same error, word for word, for every truncation.
#include "stadium_test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/n64/rom.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <algorithm>

using namespace mod::stadium;
using modtest::catch_error;

namespace {

void same_archive(const Archive& a, const Archive& b) {
    BOOST_TEST(a.file == b.file);
    BOOST_TEST(a.base == b.base);
    BOOST_TEST(a.header.count == b.header.count);
    BOOST_TEST(a.header.total_size == b.header.total_size);
    BOOST_TEST(a.header.flags == b.header.flags);
    BOOST_TEST(a.header.fragment_id == b.header.fragment_id);
    BOOST_TEST(a.header.word4 == b.header.word4);
    BOOST_REQUIRE(a.entries.size() == b.entries.size());
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        BOOST_TEST(a.entries[i].offset == b.entries[i].offset);
        BOOST_TEST(a.entries[i].size == b.entries[i].size);
        BOOST_TEST(a.entries[i].cache == b.entries[i].cache);
        BOOST_TEST(a.entries[i].unknown == b.entries[i].unknown);
    }
    // The region read holds the table and every entry: a prefix of the whole reader's region
    // that reaches the last entry's end.
    std::uint64_t end = archive_header_size + std::uint64_t(descriptor_size) * b.entries.size();
    for (const auto& d : b.entries) end = std::max<std::uint64_t>(end, std::uint64_t(d.offset) + d.size);
    BOOST_TEST(a.region.size() >= end);
    BOOST_TEST_REQUIRE(a.region.size() <= b.region.size());
    BOOST_TEST(std::equal(a.region.begin(), a.region.end(), b.region.begin()));
}

// The last entry's end: how much of the region read_rom_archive reads from a z64 file.
std::size_t used_bytes(const Archive& a) {
    std::size_t end = 0;
    for (const auto& d : a.entries) end = std::max<std::size_t>(end, std::size_t(d.offset) + d.size);
    return end;
}

// The error read_rom_archive gives, and the one the whole-image reader gives.
std::pair<std::string, std::string> both_errors(const std::filesystem::path& p) {
    const auto part = catch_error([&] { (void)read_rom_archive(p); });
    const auto whole = catch_error([&] { (void)read_archive(load_rom(p)); });
    return {part ? part->what() : "no error", whole ? whole->what() : "no error"};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rom_archive_read)

BOOST_AUTO_TEST_CASE(every_byte_order_gives_the_whole_image_readers_archive) {
    modtest::TempDir dir;
    const mod::Bytes& z64 = stadiumtest::sample_rom_bytes();
    for (auto order : {mod::n64::ByteOrder::z64, mod::n64::ByteOrder::v64, mod::n64::ByteOrder::n64}) {
        const auto path = dir / (std::string("rom.") + mod::n64::to_string(order));
        mod::write_file_atomic(path, order == mod::n64::ByteOrder::z64 ? z64 : mod::n64::from_z64(z64, order));
        mod::n64::ByteOrder seen = mod::n64::ByteOrder::z64;
        if (order == mod::n64::ByteOrder::z64) seen = mod::n64::ByteOrder::v64;  // must be overwritten
        const Archive part = read_rom_archive(path, &seen);
        BOOST_TEST(int(seen) == int(order));
        same_archive(part, read_archive(load_rom(path)));
        // A z64 file: the archive up to its last entry's end (not the 12.6 MiB region [0x920000,
        // 0x15C0000): issue 31), byte for byte; other orders read the image whole.
        const std::size_t want = order == mod::n64::ByteOrder::z64 ? used_bytes(part)
                                                                    : std::size_t(model_archive_rom_end - model_archive_rom);
        BOOST_TEST(part.region.size() == want);
        BOOST_TEST(std::equal(part.region.begin(), part.region.end(), z64.begin() + model_archive_rom));
    }
}

BOOST_AUTO_TEST_CASE(a_rom_ending_inside_the_region_keeps_what_is_there) {
    modtest::TempDir dir;
    const mod::Bytes& z64 = stadiumtest::sample_rom_bytes();
    // Ends 0x100000 after the archive start: the region is shorter, the entries still inside.
    const mod::Bytes cut(z64.begin(), z64.begin() + model_archive_rom + 0x100000);
    mod::write_file_atomic(dir / "cut.z64", cut);
    const Archive part = read_rom_archive(dir / "cut.z64");
    same_archive(part, read_archive(load_rom(dir / "cut.z64")));
    BOOST_TEST(part.region.size() == used_bytes(part));
    BOOST_TEST(used_bytes(part) < 0x100000u);
}

BOOST_AUTO_TEST_CASE(truncations_and_damage_give_the_whole_image_readers_errors) {
    modtest::TempDir dir;
    const mod::Bytes& z64 = stadiumtest::sample_rom_bytes();
    const auto path = dir / "bad.z64";
    // Inside the boot area, before the archive, inside its header and table, a size that is
    // not a multiple of 4, and not an N64 image at all.
    for (std::size_t size : {std::size_t(0), std::size_t(0x40), std::size_t(0xFFF), std::size_t(0x1000),
                             std::size_t(model_archive_rom), std::size_t(model_archive_rom + 8),
                             std::size_t(model_archive_rom + 0x20), std::size_t(model_archive_rom + 0x1001)}) {
        mod::write_file_atomic(path, mod::Bytes(z64.begin(), z64.begin() + long(size)));
        const auto [part, whole] = both_errors(path);
        BOOST_TEST_INFO("size " << size);
        BOOST_TEST(part == whole);
        BOOST_TEST(part != "no error");
    }
    mod::Bytes junk(0x2000000, 0x11);
    mod::write_file_atomic(path, junk);
    {
        const auto [part, whole] = both_errors(path);
        BOOST_TEST(part == whole);
        BOOST_TEST(part != "no error");
    }
    // A descriptor pointing past the region: the error names the file offset, as read_archive's.
    mod::Bytes damaged = z64;
    const std::size_t at = model_archive_rom + archive_header_size + 4;  // entry 0's size
    damaged[at] = 0x7F;
    mod::write_file_atomic(path, damaged);
    {
        const auto [part, whole] = both_errors(path);
        BOOST_TEST(part == whole);
        BOOST_TEST(part.find("archive[0]") != std::string::npos);
    }
    // A missing file.
    const auto [part, whole] = both_errors(dir / "missing.z64");
    BOOST_TEST(part == whole);
}

BOOST_AUTO_TEST_SUITE_END()
