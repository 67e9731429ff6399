// The contained import: Assimp runs in a forked child under memory, time and output limits and
// the Scene comes back through the wire format (scene_wire.hpp). Why and what it costs:
// doc/formats/scene-import.md, "Contained import".
#include "scene/contained.hpp"

#include "libmod/core/error.hpp"
#include "libmod/scene/scene_wire.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <new>
#include <optional>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define MODKIT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MODKIT_ASAN 1
#endif
#endif

namespace mod::scene {
namespace {

// The child's message: one tag byte, then the tag's payload, then EOF.
constexpr std::uint8_t tag_scene = 'S';   // wire bytes
constexpr std::uint8_t tag_error = 'E';   // a mod::Error (kind, message, file, offset, path, buffer)
constexpr std::uint8_t tag_memory = 'M';  // std::bad_alloc
constexpr std::uint8_t tag_other = 'X';   // another exception's what()

bool write_all(int fd, const std::uint8_t* p, std::size_t n) {
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += w;
        n -= static_cast<std::size_t>(w);
    }
    return true;
}

void put_string(ByteWriter& w, std::string_view s) {
    w.u32(static_cast<std::uint32_t>(std::min<std::size_t>(s.size(), 1u << 20)));
    w.string(s.substr(0, 1u << 20));
}

std::string read_string(ByteReader& r) {
    const std::uint32_t n = r.u32();
    r.require(n);
    return r.fixed_string(n);
}

// The address space this process maps now (first field of /proc/self/statm, in pages).
std::uint64_t mapped_bytes() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long long pages = 0;
    if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
    std::fclose(f);
    return pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

[[noreturn]] void child(int fd, const ImportOptions& options, const std::function<Scene()>& import) {
    // Only the pipe stays open: another thread's child must not hold our pipe (nor we theirs).
    if (fd != 3) {
        ::dup2(fd, 3);
        fd = 3;
    }
    ::close_range(4, ~0u, 0);
    // The parent's handlers (temporary-file cleanup, a test framework's crash reports) are not
    // the child's: a crash must end it with the signal the parent reports.
    for (int sig : {SIGINT, SIGTERM, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM, SIGPIPE}) ::signal(sig, SIG_DFL);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    rlimit core{0, 0};
    ::setrlimit(RLIMIT_CORE, &core);
#if !defined(MODKIT_ASAN)
    const std::uint64_t limit = mapped_bytes() + options.contained_memory_bytes;
    rlimit memory{static_cast<rlim_t>(limit), static_cast<rlim_t>(limit)};
    ::setrlimit(RLIMIT_AS, &memory);
#endif
    ::alarm(options.contained_timeout_ms / 1000 + 2);  // backstop should the parent not kill us
    ByteWriter w(Endian::little);
    try {
        if (options.contained_child_hook) options.contained_child_hook();
        Bytes wire = encode_wire(import());
        w.u8(tag_scene);
        if (!write_all(fd, w.data().data(), 1) || !write_all(fd, wire.data(), wire.size())) ::_exit(3);
        ::_exit(0);
    } catch (const Error& e) {
        w.u8(tag_error);
        w.u8(static_cast<std::uint8_t>(e.kind()));
        put_string(w, e.message());
        put_string(w, e.file());
        w.u64(e.offset());
        put_string(w, e.path());
        put_string(w, e.offset_buffer());
    } catch (const std::bad_alloc&) {
        w = ByteWriter(Endian::little);
        w.u8(tag_memory);
    } catch (const std::exception& e) {
        w.u8(tag_other);
        put_string(w, e.what());
    } catch (...) {
        w.u8(tag_other);
        put_string(w, "unknown exception");
    }
    ::_exit(write_all(fd, w.data().data(), w.size()) ? 0 : 3);
}

std::string importer_name(std::string_view name) {
    std::string ext = std::filesystem::path(std::string(name)).extension().string();
    if (ext.size() < 2) return "the Assimp importer";
    std::string upper;
    for (char c : ext.substr(1)) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return "the " + escape_controls(upper) + " importer";
}

std::string mib(std::uint64_t bytes) {
    if (bytes < (1u << 20)) return std::to_string(bytes) + " bytes";
    return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB";
}

std::string seconds(std::uint32_t ms) {
    if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", ms / 1000.0);
    return text;
}

}  // namespace

Scene run_contained(std::string_view name, const ImportOptions& options, const std::function<Scene()>& import) {
    const std::string file(name);
    auto failed = [&](const std::string& why) {
        return Error(ErrorKind::format, importer_name(name) + " failed on this file (" + why + ")", file);
    };
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw Error(ErrorKind::io, std::string("cannot start the contained importer: ") + std::strerror(errno), file);
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int err = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        throw Error(ErrorKind::io, std::string("cannot start the contained importer: ") + std::strerror(err), file);
    }
    if (pid == 0) {
        ::close(fds[0]);
        child(fds[1], options, import);
    }
    ::close(fds[1]);

    // Read until EOF, the deadline or the output limit.
    Bytes got;
    enum class Stop { eof, timeout, too_large, error } stop = Stop::eof;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(options.contained_timeout_ms);
    std::uint8_t buffer[1 << 16];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            stop = Stop::timeout;
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1 << 30)));
        if (ready < 0) {
            if (errno == EINTR) continue;
            stop = Stop::error;
            break;
        }
        if (ready == 0) continue;  // the deadline check above ends the loop
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            stop = Stop::error;
            break;
        }
        if (n == 0) break;
        // One tag byte beyond the scene's limit.
        if (got.size() + static_cast<std::size_t>(n) > options.contained_output_bytes + 1) {
            stop = Stop::too_large;
            break;
        }
        got.insert(got.end(), buffer, buffer + n);
    }
    ::close(fds[0]);
    if (stop != Stop::eof) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) break;

    if (stop == Stop::timeout) throw failed("took longer than " + seconds(options.contained_timeout_ms));
    if (stop == Stop::too_large) throw failed("produced more than " + mib(options.contained_output_bytes));
    if (stop == Stop::error) throw failed("lost contact with it");
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        if (sig == SIGALRM) throw failed("took longer than " + seconds(options.contained_timeout_ms));
        throw failed("crashed with signal " + std::to_string(sig) + ", " + escape_controls(strsignal(sig)));
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got.empty())
        throw failed("exited without a result");
    const ByteView payload = ByteView(got).subspan(1);
    switch (got[0]) {
    case tag_scene:
        try {
            return decode_wire(payload, file);
        } catch (const Error& e) {
            throw failed(std::string("sent a malformed scene: ") + e.what());
        }
    case tag_memory:
        throw failed("needed more than " + mib(options.contained_memory_bytes));
    case tag_error:
    case tag_other: {
        std::optional<Error> sent;
        try {
            ByteReader r(payload, Endian::little, file);
            if (got[0] == tag_other) {
                sent = failed("threw " + escape_controls(read_string(r)));
            } else {
                const std::uint8_t kind = r.u8();
                if (kind > static_cast<std::uint8_t>(ErrorKind::usage)) throw failed("unknown error kind");
                std::string message = read_string(r), where = read_string(r);
                const std::uint64_t offset = r.u64();
                std::string path = read_string(r), offset_buffer = read_string(r);
                sent.emplace(static_cast<ErrorKind>(kind), std::move(message), std::move(where), offset, std::move(path));
                if (!offset_buffer.empty()) sent->set_offset_buffer(offset_buffer);
            }
            r.expect_end();
        } catch (const Error&) {
            throw failed("sent a malformed error");
        }
        throw *sent;
    }
    default:
        throw failed("sent an unknown reply");
    }
}

}  // namespace mod::scene
