#pragma once
// A persistent cache of whole-file digests, so that applying a mod again to the same base file
// does not hash its 32 MiB again (issue 31). A file is recognised without reading it by its
// stamp: device, inode, size, modification and status-change times in nanoseconds. Every write
// to a file moves its status-change time (ctime) forward, and no ordinary tool can set it back
// (`touch -d` sets mtime, and in doing so moves ctime), so a stamp seen again names the same
// bytes. The one window, a write within the same clock tick as the stamp, is closed as Git
// closes its "racy" index entries: a digest is stored only for a file whose ctime is at least
// `settle_seconds` older than the moment it was hashed, so any later write lands on a later
// ctime. (doc/formats/digest-cache.md has the file format and the reasoning.)
//
// The cache is an optimisation only: a missing, unreadable, corrupt or oversized cache file is
// an empty cache, a failed save is ignored, and MODKIT_DIGEST_CACHE=off turns it off. Where it
// lives: $MODKIT_CACHE_DIR, else $XDG_CACHE_HOME/modkit, else $HOME/.cache/modkit (none: off).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mod {

struct FileStamp {
    std::uint64_t device = 0, inode = 0, size = 0;
    std::int64_t mtime_ns = 0, ctime_ns = 0;
    bool operator==(const FileStamp&) const = default;
};

// The stamp of the regular file at `path` (symlinks followed); nullopt when it cannot be
// read or is not a regular file.
std::optional<FileStamp> file_stamp(const std::filesystem::path& path);

// How old a file's ctime must be (seconds, against the clock when the digest was computed) for
// its digest to be stored.
inline constexpr int settle_seconds = 2;

class DigestCache {
public:
    // At most this many digests are kept (the most recently stored); a cache file larger than
    // max_file_bytes is not read.
    static constexpr std::size_t max_entries = 256;
    static constexpr std::size_t max_file_bytes = 256 * 1024;

    // The cache at `file` (read now; an unreadable file is an empty cache). An empty path is
    // a cache that keeps nothing.
    explicit DigestCache(std::filesystem::path file);
    // The user's cache (see the header comment), or one that keeps nothing when it is off.
    static DigestCache user();
    // Where user() keeps its file; empty when the cache is off.
    static std::filesystem::path user_file();

    // The digest `algorithm` ("md5", "sha1", "crc32"; any short word) of the file whose stamp
    // is `stamp`, when one was stored.
    std::optional<std::string> find(const FileStamp& stamp, const std::string& algorithm) const;
    // Records `digest` unless the file's ctime is younger than settle_seconds at `hashed_at_ns`
    // (CLOCK_REALTIME nanoseconds, taken before the file was read). Returns whether it was kept.
    bool remember(const FileStamp& stamp, const std::string& algorithm, const std::string& digest, std::int64_t hashed_at_ns);
    // Writes the cache back atomically when remember() kept something; errors are ignored.
    void save() const;

    std::size_t size() const { return entries_.size(); }

private:
    struct Entry {
        FileStamp stamp;
        std::string algorithm, digest;
    };
    std::filesystem::path file_;
    std::vector<Entry> entries_;  // oldest first
    bool changed_ = false;
};

// CLOCK_REALTIME in nanoseconds (the clock ctime is taken from).
std::int64_t realtime_ns();

}  // namespace mod
