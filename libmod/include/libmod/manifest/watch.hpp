#pragma once
// What `modkit apply --watch` watches (doc/manifest.md, "Watching"): a snapshot of the files a
// build can read, compared between polls. No inotify: a poll of stat() works on every file
// system a mod folder sits on (network shares, WSL's /mnt/c), and a mod folder is small.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <vector>

namespace mod::manifest {

struct FileStamp {
    std::filesystem::file_time_type mtime{};
    std::uintmax_t size = 0;
    bool operator==(const FileStamp&) const = default;
};

// path -> stamp of every regular file a build may read.
using WatchSnapshot = std::map<std::filesystem::path, FileStamp>;

// The manifests and every regular file below each manifest's folder (at most 8 folders deep and
// 20,000 files; folders whose name starts with '.' and modkit's own temporaries
// "*.modkit-tmp.*" skipped; symlinks followed to files, never into folders), plus `extra` (base
// files named outside the folder: --input paths). A file that vanishes while being listed is
// left out. Never throws for a missing or unreadable path: it is simply absent, so its return is a
// change.
WatchSnapshot take_watch_snapshot(std::span<const std::filesystem::path> manifests,
                                  std::span<const std::filesystem::path> extra = {});

// The paths whose stamp differs, that appeared or that vanished, sorted; at most `limit`.
std::vector<std::filesystem::path> changed_files(const WatchSnapshot& before, const WatchSnapshot& after,
                                                 std::size_t limit = 8);

}  // namespace mod::manifest
