#pragma once
// Advisory locks on folders, so that two modkit processes writing the same outputs at once take
// turns instead of the later silently winning (doc/manifest.md, "Two applies at once").
//
// The lock is flock(2) LOCK_EX on the folder itself (opened read-only): it needs no lock file,
// is released by the kernel when the process ends however it ends (SIGKILL included), and only
// other modkit processes (or anything else that flocks the folder) are held up by it.

#include <filesystem>
#include <functional>
#include <span>
#include <vector>

namespace mod {

class FolderLocks {
public:
    // Locks each folder of `folders` (duplicates and other spellings of one folder, by
    // identity, are locked once; in a fixed order, so two processes cannot deadlock). A folder
    // that does not exist yet stands for its nearest existing parent. When another process holds
    // a lock: with `wait`, calls on_wait(folder) once and blocks until it is released; without,
    // throws conflict naming the folder. A folder that cannot be opened is not locked; io only
    // when flock itself fails.
    FolderLocks(std::span<const std::filesystem::path> folders, bool wait,
                const std::function<void(const std::filesystem::path&)>& on_wait = {});
    ~FolderLocks();
    FolderLocks(const FolderLocks&) = delete;
    FolderLocks& operator=(const FolderLocks&) = delete;

private:
    std::vector<int> fds_;
};

}  // namespace mod
