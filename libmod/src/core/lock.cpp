#include "libmod/core/lock.hpp"

#include "libmod/core/error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <tuple>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mod {

namespace fs = std::filesystem;

namespace {

// The folder itself, or its nearest existing parent when it is not there yet.
fs::path existing_folder(fs::path p) {
    std::error_code ec;
    if (p.empty()) p = ".";
    while (!fs::is_directory(p, ec)) {
        if (!p.has_parent_path() || p.parent_path() == p) return ".";
        p = p.parent_path();
        if (p.empty()) return ".";
    }
    return p;
}

}  // namespace

FolderLocks::FolderLocks(std::span<const fs::path> folders, bool wait,
                         const std::function<void(const fs::path&)>& on_wait) {
    struct Item {
        dev_t dev;
        ino_t ino;
        fs::path path;
        int fd;
    };
    std::vector<Item> items;
    try {
        for (const auto& f : folders) {
            const fs::path dir = existing_folder(f);
            // A folder this user cannot open (no read permission) goes unlocked: the lock is
            // advisory, and the write itself reports what it cannot do.
            const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (fd < 0) continue;
            struct stat st;
            if (::fstat(fd, &st) != 0) {
                ::close(fd);
                continue;
            }
            if (std::any_of(items.begin(), items.end(), [&](const Item& i) { return i.dev == st.st_dev && i.ino == st.st_ino; })) {
                ::close(fd);
                continue;
            }
            items.push_back({st.st_dev, st.st_ino, dir, fd});
        }
        // One global order (device, inode): two processes locking overlapping sets cannot deadlock.
        std::sort(items.begin(), items.end(),
                  [](const Item& a, const Item& b) { return std::tie(a.dev, a.ino) < std::tie(b.dev, b.ino); });
        for (auto& i : items) {
            if (::flock(i.fd, LOCK_EX | LOCK_NB) == 0) continue;
            if (errno != EWOULDBLOCK && errno != EINTR)
                throw Error(ErrorKind::io, std::string("cannot lock the folder: ") + std::strerror(errno), i.path.string());
            if (!wait)
                throw Error(ErrorKind::conflict,
                            "another modkit process is writing here (the folder is locked); run again when it has "
                            "finished, or without --no-wait to wait for it",
                            i.path.string());
            if (on_wait) on_wait(i.path);
            int r;
            while ((r = ::flock(i.fd, LOCK_EX)) != 0 && errno == EINTR) {
            }
            if (r != 0) throw Error(ErrorKind::io, std::string("cannot lock the folder: ") + std::strerror(errno), i.path.string());
        }
    } catch (...) {
        for (auto& i : items) ::close(i.fd);  // closing releases any lock taken
        throw;
    }
    for (auto& i : items) fds_.push_back(i.fd);
}

FolderLocks::~FolderLocks() {
    for (int fd : fds_) ::close(fd);
}

}  // namespace mod
