#include "libmod/core/file.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace mod {

namespace fs = std::filesystem;

namespace {

std::string errno_text() { return std::strerror(errno); }

struct FdCloser {
    int fd;
    ~FdCloser() {
        if (fd >= 0) ::close(fd);
    }
};

std::string temporary_name(const fs::path& target) {
    static std::atomic<unsigned> counter{0};
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a known false positive) on
    // "literal" + std::string chains.
    std::string name = ".";
    name += target.filename().string();
    name += ".tmp.";
    name += std::to_string(::getpid());
    name += '.';
    name += std::to_string(counter.fetch_add(1));
    return name;
}

}  // namespace

Bytes read_file(const fs::path& path, std::uint64_t max_size) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(ErrorKind::io, "cannot open for reading: " + errno_text(), path.string());
    FdCloser closer{fd};
    // The size of the file opened (not of whatever the path names by now).
    struct stat info {};
    if (::fstat(fd, &info) != 0) throw Error(ErrorKind::io, "cannot read the size: " + errno_text(), path.string());
    // Worded as std::filesystem::file_size worded it before (a folder, a device, a FIFO).
    if (!S_ISREG(info.st_mode))
        throw Error(ErrorKind::io,
                    std::string("cannot read the size: ") + (S_ISDIR(info.st_mode) ? "Is a directory" : "Operation not supported"),
                    path.string());
    const auto size = static_cast<std::uint64_t>(info.st_size);
    if (size > max_size)
        throw Error(ErrorKind::limit,
                    "file is " + std::to_string(size) + " bytes, above the limit of " +
                        std::to_string(max_size),
                    path.string());
    Bytes data(static_cast<std::size_t>(size));
    std::size_t done = 0;
    while (done < data.size()) {
        auto got = ::read(fd, data.data() + done, data.size() - done);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw Error(ErrorKind::io, "read failed: " + errno_text(), path.string(), done);
        }
        if (got == 0) throw Error(ErrorKind::io, "file shrank while reading", path.string(), done);
        done += static_cast<std::size_t>(got);
    }
    return data;
}

void ensure_distinct_output(const fs::path& output, std::span<const fs::path> inputs) {
    std::error_code ec;
    if (!fs::exists(output, ec)) return;
    for (const auto& in : inputs) {
        std::error_code ec2;
        if (fs::equivalent(output, in, ec2))
            throw Error(ErrorKind::conflict,
                        "output is the same file as the input " + in.string() +
                            "; inputs are never modified in place",
                        output.string());
    }
}

void write_file_atomic(const fs::path& path, ByteView data, std::span<const fs::path> inputs) {
    ensure_distinct_output(path, inputs);
    fs::path dir = path.parent_path();
    if (dir.empty()) dir = ".";
    fs::path tmp = dir / temporary_name(path);
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    // Named after the output the user asked for (the temporary name means nothing to them).
    if (fd < 0)
        throw Error(ErrorKind::io, "cannot create a temporary file in '" + dir.string() + "' to write it: " + errno_text(),
                    path.string());
    bool ok = false;
    {
        FdCloser closer{fd};
        std::size_t done = 0;
        while (done < data.size()) {
            auto put = ::write(fd, data.data() + done, data.size() - done);
            if (put < 0) {
                if (errno == EINTR) continue;
                break;
            }
            done += static_cast<std::size_t>(put);
        }
        ok = done == data.size();
    }
    if (!ok) {
        std::string why = errno_text();
        ::unlink(tmp.c_str());
        throw Error(ErrorKind::io, "write failed: " + why, path.string());
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        std::string why = errno_text();
        ::unlink(tmp.c_str());
        throw Error(ErrorKind::io, "cannot rename the temporary file into place: " + why, path.string());
    }
}

void write_file_atomic(const fs::path& path, std::string_view text, std::span<const fs::path> inputs) {
    write_file_atomic(path, ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()),
                      inputs);
}

}  // namespace mod
