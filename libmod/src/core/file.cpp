#include "libmod/core/file.hpp"

#include "libmod/core/folder.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <optional>
#include <set>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <utility>

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

// NAME.modkit-tmp.PID.N: visible, beside its output, and named so that `modkit clean` or a
// search for "*.modkit-tmp.*" finds it. Before issue 34 the name was .NAME.tmp.PID.N (hidden);
// the sweeps still recognise that one.
constexpr std::string_view temporary_infix = ".modkit-tmp.";
constexpr std::string_view legacy_infix = ".tmp.";

std::string temporary_name(const fs::path& target) {
    static std::atomic<unsigned> counter{0};
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a known false positive) on
    // "literal" + std::string chains.
    std::string name = target.filename().string();
    name += temporary_infix;
    name += std::to_string(::getpid());
    name += '.';
    name += std::to_string(counter.fetch_add(1));
    return name;
}

// ---- file identity ----------------------------------------------------------------------

struct FileId {
    dev_t dev = 0;
    ino_t ino = 0;
    bool operator==(const FileId&) const = default;
    auto operator<=>(const FileId&) const = default;
};

std::optional<FileId> identity(const fs::path& path, mode_t* mode = nullptr) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    if (mode) *mode = st.st_mode;
    return FileId{st.st_dev, st.st_ino};
}

fs::path folder_of(const fs::path& path) {
    fs::path dir = path.parent_path();
    return dir.empty() ? fs::path(".") : dir;
}

const char* kind_name(mode_t mode) {
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// ---- temporary files removed on SIGINT / SIGTERM / SIGHUP ---------------------------------
// A fixed table the handler can walk without allocating or locking: a slot is 0 free, 1 being
// filled, 2 live (its path may be unlinked). Writes beyond the table's size still work; they
// are only not cleaned up on a signal (the next run's sweep removes them).

constexpr int slot_count = 64;
constexpr std::size_t slot_path_bytes = 4096;
struct Slot {
    std::atomic<int> state{0};
    char path[slot_path_bytes] = {};
};
static_assert(std::atomic<int>::is_always_lock_free);
// constinit: zero bytes in .bss, never touched at start-up (a dynamic initialiser writing each
// slot's state faulted in 64 pages, a fifth of a short run's page faults).
constinit Slot slots[slot_count];

constexpr int handled_signals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction previous_actions[std::size(handled_signals)];
std::mutex install_mutex;

void on_signal(int sig) {
    const int saved = errno;
    for (auto& s : slots)
        if (s.state.load(std::memory_order_acquire) == 2) ::unlink(s.path);
    // Back to what was there before (the default: terminate), then the same signal again: it
    // is blocked while this handler runs and delivered as soon as it returns.
    for (std::size_t k = 0; k < std::size(handled_signals); ++k)
        if (handled_signals[k] == sig) ::sigaction(sig, &previous_actions[k], nullptr);
    errno = saved;
    ::raise(sig);
}

// Called for every temporary file, so a handler replaced since (or a forked child's) is
// taken over again; an ignored signal stays ignored.
void install_signal_handlers() {
    std::lock_guard lock(install_mutex);
    for (std::size_t k = 0; k < std::size(handled_signals); ++k) {
        struct sigaction current {};
        if (::sigaction(handled_signals[k], nullptr, &current) != 0) continue;
        const bool plain = (current.sa_flags & SA_SIGINFO) == 0;
        if (plain && (current.sa_handler == SIG_IGN || current.sa_handler == on_signal)) continue;
        previous_actions[k] = current;
        struct sigaction mine {};
        mine.sa_handler = on_signal;
        sigemptyset(&mine.sa_mask);
        mine.sa_flags = SA_RESTART;
        ::sigaction(handled_signals[k], &mine, nullptr);
    }
}

int register_temporary(const fs::path& tmp) {
    const std::string& text = tmp.native();
    if (text.size() >= slot_path_bytes) return -1;
    install_signal_handlers();
    for (int i = 0; i < slot_count; ++i) {
        int expected = 0;
        if (slots[i].state.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) {
            std::memcpy(slots[i].path, text.c_str(), text.size() + 1);
            slots[i].state.store(2, std::memory_order_release);
            return i;
        }
    }
    return -1;
}

void unregister_temporary(int slot) {
    if (slot >= 0) slots[slot].state.store(0, std::memory_order_release);
}

// ---- stale temporary files ----------------------------------------------------------------

std::function<void(const fs::path&)>& stale_notifier() {
    static std::function<void(const fs::path&)> notify;
    return notify;
}

// The PID of a name `NAME.modkit-tmp.PID.N` or (before issue 34) `.NAME.tmp.PID.N` (NAME
// non-empty, PID and N decimal), 0 for other names.
pid_t temporary_owner(const std::string& name) {
    if (name.size() < 2) return 0;
    const auto digits_before = [&](std::size_t end) {  // start of the digit run ending at end
        std::size_t b = end;
        while (b > 0 && name[b - 1] >= '0' && name[b - 1] <= '9') --b;
        return b;
    };
    const std::size_t n_start = digits_before(name.size());
    if (n_start == name.size() || n_start == 0 || name[n_start - 1] != '.') return 0;
    const std::size_t pid_end = n_start - 1;
    const std::size_t pid_start = digits_before(pid_end);
    if (pid_start == pid_end || pid_end - pid_start > 9) return 0;
    const auto ends_pid = [&](std::string_view infix, std::size_t name_start) {
        return pid_start >= infix.size() + name_start + 1 &&
               name.compare(pid_start - infix.size(), infix.size(), infix) == 0;
    };
    if (!ends_pid(temporary_infix, 0) && !(name[0] == '.' && ends_pid(legacy_infix, 1))) return 0;
    return static_cast<pid_t>(std::stol(name.substr(pid_start, pid_end - pid_start)));
}

bool process_runs(pid_t pid) {
    if (pid == ::getpid()) return true;
    if (::kill(pid, 0) == 0) return true;
    return errno == EPERM;  // it exists, it is someone else's
}

// write_file_atomic sweeps a folder the first time the process writes there rather than
// leaving it to each command: every output of every command (and of the library's own
// multi-file writers: extractions, exports) is covered, and the cost is one listing per folder
// per process, not per file.
// Folders are remembered by identity and spelling: an inode number alone may come back for a
// new folder once one is deleted.
void sweep_once(const fs::path& dir) {
    static std::mutex mutex;
    static std::set<std::pair<FileId, std::string>> swept;
    auto id = identity(dir);
    if (!id) return;
    {
        std::lock_guard lock(mutex);
        if (!swept.insert({*id, dir.lexically_normal().string()}).second) return;
    }
    for (const auto& removed : sweep_stale_temporaries(dir))
        if (stale_notifier()) stale_notifier()(removed);
}

// ---- the journal of temporary files: any later run can remove what a killed one left --------
// Each process that writes appends the path of each temporary file it creates to its own
// journal, PENDING/PID (PENDING: $MODKIT_PENDING_DIR, else $XDG_STATE_HOME/modkit/pending,
// else ~/.local/state/modkit/pending), and removes the journal when it exits normally. The
// first write of a later process, and `modkit clean`, read the journals of processes that no
// longer run and remove the temporary files they list (still there, still named like ours with
// that PID, regular, ours). Best effort: without a writable home the journal is skipped, and
// the per-folder sweep remains.

fs::path pending_dir() {
    if (const char* d = std::getenv("MODKIT_PENDING_DIR"); d && *d) return d;
    if (const char* d = std::getenv("XDG_STATE_HOME"); d && *d) return fs::path(d) / "modkit" / "pending";
    if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".local" / "state" / "modkit" / "pending";
    return {};
}

std::mutex journal_mutex;
int journal_fd = -1;  // -1 not yet made, -2 none in this process
pid_t journal_pid = 0;  // the process the journal belongs to (a forked child makes its own)
fs::path journal_path;

void remove_own_journal() {
    if (journal_pid != ::getpid()) return;
    if (journal_fd >= 0) ::close(journal_fd), journal_fd = -1;
    if (!journal_path.empty()) ::unlink(journal_path.c_str());
}

// Removes the temporaries a dead process's journal lists, then the journal.
void replay_journal(const fs::path& journal, pid_t pid, std::vector<fs::path>& removed) {
    std::FILE* f = std::fopen(journal.c_str(), "r");
    if (!f) return;
    char line[slot_path_bytes + 2];
    while (std::fgets(line, sizeof line, f)) {
        std::string p = line;
        if (!p.empty() && p.back() == '\n') p.pop_back();
        const fs::path tmp(p);
        if (p.empty() || temporary_owner(tmp.filename().string()) != pid) continue;
        struct stat st {};
        if (::lstat(tmp.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) continue;
        if (::unlink(tmp.c_str()) == 0) removed.push_back(tmp);
    }
    std::fclose(f);
    ::unlink(journal.c_str());
}

std::vector<fs::path> replay_dead_journals() {
    std::vector<fs::path> removed;
    const fs::path dir = pending_dir();
    if (dir.empty()) return removed;
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.empty() || name.size() > 9 || name.find_first_not_of("0123456789") != std::string::npos) continue;
        const pid_t pid = static_cast<pid_t>(std::stol(name));
        // Our own PID's journal before we wrote one is an earlier process's (the PID came back).
        if (pid != ::getpid() ? process_runs(pid) : journal_fd >= 0) continue;
        replay_journal(it->path(), pid, removed);
    }
    return removed;
}

// Appends `tmp` to this process's journal (made, after replaying dead ones, on first use).
void journal_temporary(const fs::path& tmp) {
    std::lock_guard lock(journal_mutex);
    if (journal_fd != -1 && journal_pid != ::getpid()) {  // forked: the parent's journal is not ours
        if (journal_fd >= 0) ::close(journal_fd);
        journal_fd = -1;
        journal_path.clear();
    }
    if (journal_fd == -2) return;  // no journal in this process
    if (journal_fd < 0) {
        journal_pid = ::getpid();
        for (const auto& p : replay_dead_journals())
            if (stale_notifier()) stale_notifier()(p);
        const fs::path dir = pending_dir();
        std::error_code ec;
        if (dir.empty() || (fs::create_directories(dir, ec), ec)) {
            journal_fd = -2;
            return;
        }
        journal_path = dir / std::to_string(::getpid());
        journal_fd = ::open(journal_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
        if (journal_fd < 0) {
            journal_fd = -2;
            journal_path.clear();
            return;
        }
        static const bool registered = (std::atexit(remove_own_journal), true);
        (void)registered;
    }
    std::string line = fs::absolute(tmp).lexically_normal().string();
    line += '\n';
    if (::write(journal_fd, line.data(), line.size()) < 0) {
        // Best effort: the per-folder sweep still finds it.
    }
}

}  // namespace

std::vector<fs::path> clean_stale_temporaries(std::span<const fs::path> folders) {
    std::vector<fs::path> removed;
    {
        std::lock_guard lock(journal_mutex);
        removed = replay_dead_journals();
    }
    for (const auto& folder : folders) {
        for (auto& p : sweep_stale_temporaries(folder)) removed.push_back(std::move(p));
        std::error_code ec;
        fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
        for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
            if (it->is_directory(ec) && !it->is_symlink(ec))
                for (auto& p : sweep_stale_temporaries(it->path())) removed.push_back(std::move(p));
    }
    return removed;
}

namespace {
// Opens `path`, checks it is a regular file of at most max_size bytes (its size into
// `file_size`), makes the buffer with make(n) for the part [offset, offset + length) that the
// file holds, and reads that part into it.
template <class Buffer, class Make>
Buffer read_part(const fs::path& path, std::uint64_t offset, std::uint64_t length, std::uint64_t max_size,
                 std::uint64_t& file_size, Make make) {
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
    file_size = static_cast<std::uint64_t>(info.st_size);
    if (file_size > max_size)
        throw Error(ErrorKind::limit,
                    "file is " + std::to_string(file_size) + " bytes, above the limit of " + std::to_string(max_size),
                    path.string());
    const std::uint64_t n = offset >= file_size ? 0 : std::min(length, file_size - offset);
    Buffer data = make(static_cast<std::size_t>(n));
    std::size_t done = 0;
    while (done < data.size()) {
        auto got = ::pread(fd, data.data() + done, data.size() - done, static_cast<off_t>(offset + done));
        if (got < 0) {
            if (errno == EINTR) continue;
            throw Error(ErrorKind::io, "read failed: " + errno_text(), path.string(), offset + done);
        }
        if (got == 0) throw Error(ErrorKind::io, "file shrank while reading", path.string(), offset + done);
        done += static_cast<std::size_t>(got);
    }
    return data;
}

Bytes make_bytes(std::size_t n) { return Bytes(n); }
PageBuffer make_pages(std::size_t n) { return PageBuffer(n); }
}  // namespace

Bytes read_file(const fs::path& path, std::uint64_t max_size) {
    std::uint64_t size = 0;
    return read_part<Bytes>(path, 0, UINT64_MAX, max_size, size, make_bytes);
}

PageBuffer read_file_pages(const fs::path& path, std::uint64_t max_size) {
    std::uint64_t size = 0;
    return read_part<PageBuffer>(path, 0, UINT64_MAX, max_size, size, make_pages);
}

Bytes read_file_part(const fs::path& path, std::uint64_t offset, std::uint64_t length, std::uint64_t& file_size,
                     std::uint64_t max_size) {
    return read_part<Bytes>(path, offset, length, max_size, file_size, make_bytes);
}

void ensure_distinct_output(const fs::path& output, std::span<const fs::path> inputs) {
    const auto out = identity(output);
    if (!out) return;
    for (const auto& in : inputs) {
        mode_t mode = 0;
        const auto id = identity(in, &mode);
        if (!id) continue;
        if (*id == *out)
            throw Error(ErrorKind::conflict,
                        "output is the same file as the input " + in.string() +
                            "; inputs are never modified in place",
                        output.string());
        if (!S_ISDIR(mode)) continue;
        std::error_code ec;
        fs::recursive_directory_iterator it(in, fs::directory_options::skip_permission_denied, ec);
        for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (identity(it->path()) == out)
                throw Error(ErrorKind::conflict,
                            "output is the file " + it->path().string() + " of the input folder " + in.string() +
                                "; inputs are never modified in place",
                            output.string());
        }
    }
}

void ensure_distinct_outputs(std::span<const fs::path> outputs) {
    struct Key {
        FileId id;
        std::string name;  // empty for an existing file
        auto operator<=>(const Key&) const = default;
    };
    std::vector<std::pair<Key, std::size_t>> keys;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const fs::path& p = outputs[i];
        if (auto id = identity(p)) keys.push_back({{*id, {}}, i});
        else if (auto dir = identity(folder_of(p))) keys.push_back({{*dir, p.filename().string()}, i});
        // A folder that does not exist: the write will fail and say so.
    }
    for (std::size_t a = 0; a < keys.size(); ++a)
        for (std::size_t b = a + 1; b < keys.size(); ++b)
            if (keys[a].first == keys[b].first)
                throw Error(ErrorKind::conflict,
                            "two outputs of one command are the same file: " + outputs[keys[a].second].string() +
                                " and " + outputs[keys[b].second].string(),
                            outputs[keys[b].second].string());
}

void ensure_replaceable_output(const fs::path& output) {
    struct stat st {};
    if (::lstat(output.c_str(), &st) != 0) return;  // missing (or unreachable: creating it says why)
    if (!S_ISREG(st.st_mode))
        throw Error(ErrorKind::io,
                    std::string("the output exists and is ") + kind_name(st.st_mode) +
                        "; only regular files are replaced",
                    output.string());
}

PendingOutput::PendingOutput(const fs::path& path, std::span<const fs::path> inputs) : path_(path) {
    ensure_replaceable_output(path);
    ensure_distinct_output(path, inputs);
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
        keep_mode_ = true;
        mode_ = st.st_mode & 0777;
    }
    const fs::path dir = folder_of(path);
    // An output folder that does not exist yet is made (its missing parents too), as a user
    // writing out/mod.z64 expects; a parent that is a file is an io error naming it.
    std::error_code exists_ec;
    if (!fs::exists(dir, exists_ec)) create_folder(dir);
    sweep_once(dir);
    tmp_ = dir / temporary_name(path);
    // Registered before it exists, so there is no moment when it exists unregistered.
    journal_temporary(tmp_);
    slot_ = register_temporary(tmp_);
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    // Named after the output the user asked for (the temporary name means nothing to them).
    if (fd_ < 0) {
        std::string why = errno_text();
        unregister_temporary(slot_);
        slot_ = -1;
        done_ = true;
        throw Error(ErrorKind::io, "cannot create a temporary file in '" + dir.string() + "' to write it: " + why,
                    path.string());
    }
}

PendingOutput::~PendingOutput() {
    if (fd_ >= 0) ::close(fd_);
    if (!done_) ::unlink(tmp_.c_str());
    unregister_temporary(slot_);
}

void PendingOutput::write(ByteView data) {
    if (done_ || fd_ < 0) throw Error(ErrorKind::usage, "write after commit", path_.string());
    std::size_t done = 0;
    while (done < data.size()) {
        auto put = ::write(fd_, data.data() + done, data.size() - done);
        if (put < 0) {
            if (errno == EINTR) continue;
            throw Error(ErrorKind::io, "write failed: " + errno_text(), path_.string());
        }
        done += static_cast<std::size_t>(put);
    }
    written_ += data.size();
}

namespace {
constexpr std::size_t sparse_block = 4096;
bool all_zero(const std::uint8_t* p, std::size_t n) noexcept {
    // Most blocks that are not zero differ in their first bytes: test those first.
    std::uint64_t first = 0;
    std::memcpy(&first, p, 8);
    if (first != 0) return false;
    std::uint64_t acc = 0;
    for (std::size_t i = 0; i < n; i += 32) {
        std::uint64_t w[4];
        std::memcpy(w, p + i, 32);
        acc |= w[0] | w[1] | w[2] | w[3];
    }
    return acc == 0;
}
}  // namespace

void PendingOutput::write_sparse(ByteView data) {
    if (done_ || fd_ < 0) throw Error(ErrorKind::usage, "write after finish or commit", path_.string());
    const std::uint64_t start = written_;
    std::size_t at = 0;
    // Up to the first aligned block, and whatever follows the last whole one, are written.
    const std::size_t head = static_cast<std::size_t>((sparse_block - start % sparse_block) % sparse_block);
    if (head > 0) write(data.first(std::min(head, data.size())));
    at = written_ - start;
    bool skipped = false;
    while (at < data.size()) {
        // A run of blocks that are not zero, written at once.
        std::size_t run = at;
        while (data.size() - run >= sparse_block && !all_zero(data.data() + run, sparse_block)) run += sparse_block;
        if (run == at && data.size() - at < sparse_block) run = data.size();  // the tail
        if (run > at) {
            if (skipped && ::lseek(fd_, static_cast<off_t>(start + at), SEEK_SET) < 0)
                throw Error(ErrorKind::io, "seek failed: " + errno_text(), path_.string());
            skipped = false;
            write(data.subspan(at, run - at));
            at = run;
            continue;
        }
        // A run of zero blocks: skipped.
        while (data.size() - at >= sparse_block && all_zero(data.data() + at, sparse_block)) at += sparse_block;
        written_ = start + at;
        skipped = true;
    }
    if (skipped) {
        // The file ends in a hole: extend it to its size (and leave the offset there).
        if (::ftruncate(fd_, static_cast<off_t>(written_)) != 0 ||
            ::lseek(fd_, static_cast<off_t>(written_), SEEK_SET) < 0)
            throw Error(ErrorKind::io, "write failed: " + errno_text(), path_.string());
    }
}

void PendingOutput::finish() {
    if (done_ || fd_ < 0) throw Error(ErrorKind::usage, "finish after finish or commit", path_.string());
    if (keep_mode_ && ::fchmod(fd_, static_cast<mode_t>(mode_)) != 0)
        throw Error(ErrorKind::io, "cannot give the new file the permissions of the one it replaces: " + errno_text(),
                    path_.string());
    const int fd = fd_;
    fd_ = -1;
    finished_ = true;
    if (::close(fd) != 0) throw Error(ErrorKind::io, "write failed: " + errno_text(), path_.string());
}

void PendingOutput::commit() {
    if (done_ || (fd_ < 0 && !finished_)) throw Error(ErrorKind::usage, "commit after commit", path_.string());
    if (!finished_) finish();
    if (::rename(tmp_.c_str(), path_.c_str()) != 0)
        throw Error(ErrorKind::io, "cannot rename the temporary file into place: " + errno_text(), path_.string());
    done_ = true;
    unregister_temporary(slot_);
    slot_ = -1;
}

void write_file_atomic(const fs::path& path, ByteView data, std::span<const fs::path> inputs) {
    PendingOutput out(path, inputs);
    // Images of megabytes (ROMs) are mostly padding: their zero blocks are left as holes.
    if (data.size() >= sparse_output_min) out.write_sparse(data);
    else out.write(data);
    out.commit();
}

void write_file_atomic(const fs::path& path, std::string_view text, std::span<const fs::path> inputs) {
    write_file_atomic(path, ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()),
                      inputs);
}

std::vector<fs::path> sweep_stale_temporaries(const fs::path& folder) {
    std::vector<fs::path> removed;
    std::error_code ec;
    fs::directory_iterator it(folder, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const fs::path p = it->path();
        const pid_t pid = temporary_owner(p.filename().string());
        if (pid <= 0 || process_runs(pid)) continue;
        struct stat st {};
        if (::lstat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) continue;
        if (::unlink(p.c_str()) == 0) removed.push_back(p);
    }
    return removed;
}

void set_stale_temporary_notifier(std::function<void(const fs::path&)> notify) {
    stale_notifier() = std::move(notify);
}

}  // namespace mod
