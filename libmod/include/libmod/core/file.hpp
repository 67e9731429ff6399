#pragma once
// File input and atomic output.
//
// Inputs are never modified: write_file_atomic refuses an output that is the same file as any
// listed input (an input folder stands for every file below it), refuses an output that exists
// and is not a regular file (a symlink, device, FIFO, socket or folder is never replaced),
// writes to a temporary file `NAME.modkit-tmp.PID.N` in the destination folder and renames it
// over the destination only after every byte is written, so a failure never leaves a half file.
// The temporary file is also removed when the process gets SIGINT, SIGTERM or SIGHUP. One left
// by a process that no longer runs (SIGKILL, power loss) is removed by a later process: the
// first time it writes in that folder (a sweep of the folder), and wherever it writes (each
// process lists its temporaries in a journal under ~/.local/state/modkit/pending, which the next
// writer reads), and by `modkit clean` (doc/architecture.md, "Temporary files").

#include "libmod/core/bytes.hpp"
#include "libmod/core/page_buffer.hpp"

#include <filesystem>
#include <functional>
#include <initializer_list>
#include <span>
#include <vector>

namespace mod {

inline constexpr std::uint64_t default_max_input = 1ull << 32;  // 4 GiB

// Read a whole file. Throws io when unreadable, limit when larger than max_size.
Bytes read_file(const std::filesystem::path& path, std::uint64_t max_size = default_max_input);
// The same into a PageBuffer (no zero-filling pass, huge pages): for files of megabytes that are
// only read, such as the source of a patch.
PageBuffer read_file_pages(const std::filesystem::path& path, std::uint64_t max_size = default_max_input);
// The bytes [offset, offset + length) of a file, fewer where the file ends first (none when it
// ends before `offset`); `file_size` receives its size. Errors as read_file (the file's size,
// not the part's, is held to max_size).
Bytes read_file_part(const std::filesystem::path& path, std::uint64_t offset, std::uint64_t length,
                     std::uint64_t& file_size, std::uint64_t max_size = default_max_input);

// Outputs of at least this many bytes are written by write_file_atomic (and apply's staging)
// with PendingOutput::write_sparse: the same bytes, their 4 KiB zero blocks left as holes.
inline constexpr std::size_t sparse_output_min = 1u << 20;

// Write `data` to `path` atomically. Throws conflict when `path` is one of `inputs` (same
// file, even through another name; an input that is a folder counts every file below it), io
// when `path` exists and is not a regular file (the message names what it is) and on any
// write failure. An existing output keeps its permission bits (rwx of user, group, others).
// A missing output folder is created (with its parents) first.
void write_file_atomic(const std::filesystem::path& path, ByteView data,
                       std::span<const std::filesystem::path> inputs = {});
void write_file_atomic(const std::filesystem::path& path, std::string_view text,
                       std::span<const std::filesystem::path> inputs = {});

// Throws conflict when `output` names the same file as any of `inputs`, compared by file
// identity (device and inode), so hard links, symlinks and other spellings are caught. An
// input that is a folder stands for every file below it (symlinks to files included, folders
// reached through symlinks not). A missing input or output cannot conflict.
void ensure_distinct_output(const std::filesystem::path& output,
                            std::span<const std::filesystem::path> inputs);

// Throws conflict when two of `outputs` (the outputs of one command) are the same file. An
// output that does not exist yet is identified by its folder's identity and its name, so
// `dir/x` and `link-to-dir/x` are the same output before either is written.
void ensure_distinct_outputs(std::span<const std::filesystem::path> outputs);

// Throws io when `output` exists and is not a regular file, naming what it is ("a symbolic
// link", "a character device", "a FIFO", …). A missing output is fine.
void ensure_replaceable_output(const std::filesystem::path& output);

// The temporary file of one output: created beside `path` (checks as write_file_atomic),
// written with write(), optionally closed early by finish(), renamed over `path` by commit(). Until then it is removed by the
// destructor and, on SIGINT, SIGTERM or SIGHUP, by a signal handler that then re-raises the
// signal with the handler that was there before (a signal that was ignored stays ignored).
class PendingOutput {
public:
    PendingOutput(const std::filesystem::path& path, std::span<const std::filesystem::path> inputs = {});
    ~PendingOutput();
    PendingOutput(const PendingOutput&) = delete;
    PendingOutput& operator=(const PendingOutput&) = delete;

    void write(ByteView data);
    // As write(), but 4 KiB blocks of zeros at 4 KiB-aligned file offsets are skipped (left as
    // holes, which read as zeros) and the file is extended to its full size: the same bytes,
    // fewer written. For large outputs that are mostly padding (ROM images).
    void write_sparse(ByteView data);
    // Closes the temporary file after the last write (giving it the permissions of the output
    // it replaces): a caller staging many outputs before committing them all holds no file
    // descriptor per output. write() after finish() is a usage error; commit() then only
    // renames. The temporary file is still removed by the destructor and on a signal.
    void finish();
    void commit();
    const std::filesystem::path& temporary() const noexcept { return tmp_; }

private:
    std::filesystem::path path_;
    std::filesystem::path tmp_;
    int fd_ = -1;
    std::uint64_t written_ = 0;  // bytes written so far (write and write_sparse)
    int slot_ = -1;        // signal registry slot, -1 when not registered
    unsigned mode_ = 0;    // permission bits to give the result (an existing output's)
    bool keep_mode_ = false;
    bool finished_ = false;  // closed by finish(), not yet renamed
    bool done_ = false;
};

// Removes from `folder` the regular files named like our temporary files (`NAME.modkit-tmp.PID.N`,
// and `.NAME.tmp.PID.N` of modkit before issue 34; PID and N decimal) that belong to this user and whose process no longer runs, and returns
// their paths. Files of a running process (this one included), other names, symlinks and
// folders are left alone. A folder that cannot be listed gives an empty list.
std::vector<std::filesystem::path> sweep_stale_temporaries(const std::filesystem::path& folder);

// `modkit clean`: removes the stale temporary files listed in the journals of processes that no
// longer run (wherever they are), then those in each of `folders` and the folders below them
// (symbolic links not followed), by the rules of sweep_stale_temporaries. Returns their paths.
std::vector<std::filesystem::path> clean_stale_temporaries(std::span<const std::filesystem::path> folders);

// Called with each file write_file_atomic's sweep removed (the CLI warns); none by default.
// Set it once at start-up: it is not synchronised with running writes.
void set_stale_temporary_notifier(std::function<void(const std::filesystem::path&)> notify);

}  // namespace mod
