// libmod/core/digest_cache.hpp: a stored digest is found again by the file's stamp, any rewrite
// of the file (even one that keeps its size and mtime) changes the stamp, files younger than
// settle_seconds are not stored, and a damaged or oversized cache file is an empty cache.
#include "libmod/core/digest_cache.hpp"

#include "libmod/core/file.hpp"

#include "test_support.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

using namespace mod;
namespace fs = std::filesystem;

namespace {

constexpr std::int64_t second = 1000000000;

void write_text(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(digest_cache)

BOOST_AUTO_TEST_CASE(a_stored_digest_is_found_by_the_same_stamp_after_a_reload) {
    modtest::TempDir tmp;
    write_text(tmp / "base.bin", "base bytes");
    const auto stamp = file_stamp(tmp / "base.bin");
    BOOST_REQUIRE(stamp);
    BOOST_TEST(stamp->size == 10u);
    {
        DigestCache cache(tmp / "cache" / "digests.txt");
        // Hashed "3 s after" its ctime: settled.
        BOOST_TEST(cache.remember(*stamp, "md5", "0123abcd", stamp->ctime_ns + 3 * second));
        cache.save();
    }
    DigestCache again(tmp / "cache" / "digests.txt");
    BOOST_TEST(again.size() == 1u);
    BOOST_TEST(again.find(*stamp, "md5").value_or("") == "0123abcd");
    BOOST_TEST(!again.find(*stamp, "sha1"));
    FileStamp other = *stamp;
    other.inode += 1;
    BOOST_TEST(!again.find(other, "md5"));
}

BOOST_AUTO_TEST_CASE(a_file_younger_than_the_settle_time_is_not_stored) {
    modtest::TempDir tmp;
    write_text(tmp / "base.bin", "fresh");
    const auto stamp = file_stamp(tmp / "base.bin");
    BOOST_REQUIRE(stamp);
    DigestCache cache(tmp / "digests.txt");
    BOOST_TEST(!cache.remember(*stamp, "md5", "00", realtime_ns()));
    BOOST_TEST(!cache.remember(*stamp, "md5", "00", stamp->ctime_ns + settle_seconds * second - 1));
    BOOST_TEST(cache.remember(*stamp, "md5", "00", stamp->ctime_ns + settle_seconds * second));
    BOOST_TEST(cache.size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_rewrite_that_keeps_size_and_mtime_still_changes_the_stamp) {
    modtest::TempDir tmp;
    const fs::path p = tmp / "base.bin";
    write_text(p, "AAAA");
    const auto before = file_stamp(p);
    BOOST_REQUIRE(before);
    // Same size, other bytes, the old mtime put back (what `touch -d` would do): ctime moves.
    struct timespec spin {0, 20 * 1000 * 1000};
    ::nanosleep(&spin, nullptr);  // past the clock tick of the first write
    write_text(p, "BBBB");
    struct timespec times[2] = {{before->mtime_ns / second, before->mtime_ns % second},
                                {before->mtime_ns / second, before->mtime_ns % second}};
    BOOST_REQUIRE(::utimensat(AT_FDCWD, p.c_str(), times, 0) == 0);
    const auto after = file_stamp(p);
    BOOST_REQUIRE(after);
    BOOST_TEST(after->size == before->size);
    BOOST_TEST(after->mtime_ns == before->mtime_ns);
    BOOST_TEST(after->ctime_ns > before->ctime_ns);
    BOOST_TEST(!(*after == *before));
    DigestCache cache(tmp / "digests.txt");
    cache.remember(*before, "md5", "aaaa", before->ctime_ns + 3 * second);
    BOOST_TEST(!cache.find(*after, "md5"));
}

BOOST_AUTO_TEST_CASE(no_stamp_for_a_folder_or_a_missing_file) {
    modtest::TempDir tmp;
    BOOST_TEST(!file_stamp(tmp.path()));
    BOOST_TEST(!file_stamp(tmp / "missing"));
}

BOOST_AUTO_TEST_CASE(damaged_lines_are_skipped_and_a_wrong_header_is_an_empty_cache) {
    modtest::TempDir tmp;
    write_text(tmp / "a.txt",
               "modkit-digest-cache 1\n"
               "1 2 3 4 5 md5 abcd\n"
               "1 2 3 4 5 md5\n"                 // too short
               "1 2 3 4 5 md5 abcd extra\n"      // too long
               "x 2 3 4 5 md5 abcd\n"            // not a number
               "1 2 3 4 6 md5 ABCD\n"            // not lower-case hex
               "1 2 3 4 7 sha1 0f0f\n");
    DigestCache a(tmp / "a.txt");
    BOOST_TEST(a.size() == 2u);
    BOOST_TEST(a.find(FileStamp{1, 2, 3, 4, 5}, "md5").value_or("") == "abcd");
    BOOST_TEST(a.find(FileStamp{1, 2, 3, 4, 7}, "sha1").value_or("") == "0f0f");
    write_text(tmp / "b.txt", "some other file\n1 2 3 4 5 md5 abcd\n");
    BOOST_TEST(DigestCache(tmp / "b.txt").size() == 0u);
    write_text(tmp / "c.txt", "modkit-digest-cache 1\n" + std::string(DigestCache::max_file_bytes, '#'));
    BOOST_TEST(DigestCache(tmp / "c.txt").size() == 0u);
    BOOST_TEST(DigestCache(tmp / "missing.txt").size() == 0u);
    DigestCache none{fs::path()};
    BOOST_TEST(!none.remember(FileStamp{1, 2, 3, 4, 5}, "md5", "ab", 100 * second));
}

BOOST_AUTO_TEST_CASE(only_the_newest_entries_are_kept) {
    modtest::TempDir tmp;
    {
        DigestCache cache(tmp / "d.txt");
        for (std::uint64_t i = 0; i < DigestCache::max_entries + 10; ++i)
            BOOST_REQUIRE(cache.remember(FileStamp{1, i, 3, 4, 5}, "md5", "ab", 100 * second));
        BOOST_TEST(cache.size() == DigestCache::max_entries);
        cache.save();
    }
    DigestCache again(tmp / "d.txt");
    BOOST_TEST(again.size() == DigestCache::max_entries);
    BOOST_TEST(!again.find(FileStamp{1, 9, 3, 4, 5}, "md5"));
    BOOST_TEST(again.find(FileStamp{1, DigestCache::max_entries + 9, 3, 4, 5}, "md5").value_or("") == "ab");
}

BOOST_AUTO_TEST_CASE(the_user_cache_follows_the_environment) {
    const char* keep_dir = std::getenv("MODKIT_CACHE_DIR");
    const char* keep_off = std::getenv("MODKIT_DIGEST_CACHE");
    const std::string saved_dir = keep_dir ? keep_dir : "", saved_off = keep_off ? keep_off : "";
    ::setenv("MODKIT_CACHE_DIR", "/somewhere/cache", 1);
    ::unsetenv("MODKIT_DIGEST_CACHE");
    BOOST_TEST(DigestCache::user_file() == fs::path("/somewhere/cache/digests.txt"));
    ::setenv("MODKIT_DIGEST_CACHE", "off", 1);
    BOOST_TEST(DigestCache::user_file().empty());
    if (keep_dir) ::setenv("MODKIT_CACHE_DIR", saved_dir.c_str(), 1);
    else ::unsetenv("MODKIT_CACHE_DIR");
    if (keep_off) ::setenv("MODKIT_DIGEST_CACHE", saved_off.c_str(), 1);
    else ::unsetenv("MODKIT_DIGEST_CACHE");
}

BOOST_AUTO_TEST_SUITE_END()
