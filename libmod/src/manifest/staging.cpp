#include "staging.hpp"

#include "libmod/core/error.hpp"
#include "libmod/core/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <span>

namespace mod::manifest::detail {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void io_error(const fs::path& p, const std::string& what) {
    throw Error(ErrorKind::io, what + ": " + std::strerror(errno), p.string());
}

const char* kind_of(mode_t m) {
    if (S_ISDIR(m)) return "a folder";
    if (S_ISLNK(m)) return "a symbolic link";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

bool same_file(const fs::path& a, const fs::path& b) {
    struct stat sa {}, sb {};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace

Stage::Stage(std::vector<fs::path> inputs) : inputs_(std::move(inputs)) {}

Stage::~Stage() {
    if (committed_) return;
    for (const auto& it : items_) ::unlink(it.temporary.c_str());
    for (auto d = created_dirs_.rbegin(); d != created_dirs_.rend(); ++d) ::rmdir(d->c_str());
}

void Stage::add(const fs::path& destination, ByteView data) {
    struct stat st {};
    if (::lstat(destination.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw Error(ErrorKind::io, std::string("the output exists and is ") + kind_of(st.st_mode) + "; refusing to replace it",
                    destination.string());
    ensure_distinct_output(destination, inputs_);
    for (const auto& it : items_)
        if (it.destination.lexically_normal() == destination.lexically_normal() || same_file(it.destination, destination))
            throw Error(ErrorKind::conflict, "two outputs of this build are the same file", destination.string());

    fs::path dir = destination.parent_path();
    if (dir.empty()) dir = ".";
    std::vector<fs::path> missing;
    for (fs::path d = dir; !d.empty() && !fs::exists(d); d = d.parent_path()) missing.push_back(d);
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        if (::mkdir(it->c_str(), 0777) != 0 && errno != EEXIST) io_error(*it, "cannot create the output folder");
        created_dirs_.push_back(*it);
    }
    struct stat ds {};
    if (::stat(dir.c_str(), &ds) != 0 || !S_ISDIR(ds.st_mode))
        throw Error(ErrorKind::io, "the output's folder is not a folder", dir.string());

    const fs::path tmp = dir / ("." + destination.filename().string() + ".tmp." + std::to_string(::getpid()) + "." +
                                std::to_string(items_.size()));
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) io_error(destination, "cannot create a temporary file in " + dir.string());
    items_.push_back({destination, tmp});
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            const int saved = errno;
            ::close(fd);
            errno = saved;
            io_error(destination, "cannot write");
        }
        done += std::size_t(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) io_error(destination, "cannot write");
}

void Stage::commit() {
    for (const auto& it : items_) {
        struct stat st {};
        if (::stat(it.destination.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::chmod(it.temporary.c_str(), st.st_mode & 07777);
    }
    for (std::size_t i = 0; i < items_.size(); ++i) {
        if (::rename(items_[i].temporary.c_str(), items_[i].destination.c_str()) != 0) {
            const int saved = errno;
            for (std::size_t k = i; k < items_.size(); ++k) ::unlink(items_[k].temporary.c_str());
            committed_ = true;
            errno = saved;
            io_error(items_[i].destination, "cannot rename the finished output into place (" + std::to_string(i) +
                                                " of " + std::to_string(items_.size()) + " outputs were already in place)");
        }
    }
    committed_ = true;
}

}  // namespace mod::manifest::detail
