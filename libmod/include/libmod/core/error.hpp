#pragma once
// mod::Error — the one exception type libmod throws.
//
// Every failure says *what kind* it is (so the CLI can pick an exit code), *where* it is
// (file, byte offset, structure path) and *why* (message). The offset is relative to the byte
// buffer the structure path names: a file offset for top-level structures, an offset inside
// the decompressed data once the path has passed through a decompression step (e.g.
// `archive[12].szp.yay0` then `.fragment.reloc[40]`).

#include <cstdint>
#include <exception>
#include <iosfwd>
#include <string>
#include <string_view>

namespace mod {

enum class ErrorKind {
    format,    // the input does not follow the format (truncated, inconsistent, hostile)
    limit,     // a size/count exceeds a format, runtime or configured limit
    conflict,  // two requests cannot both be honoured (edits, overlapping placements)
    io,        // reading or writing a file failed
    usage,     // the caller asked for something meaningless (bad option, bad argument)
};

const char* to_string(ErrorKind kind) noexcept;
std::ostream& operator<<(std::ostream& os, ErrorKind kind);

// Process exit code for an error kind: usage 1, format 2, limit/conflict 3, io 4.
int exit_code(ErrorKind kind) noexcept;

inline constexpr std::uint64_t no_offset = UINT64_MAX;

class Error : public std::exception {
public:
    Error(ErrorKind kind, std::string message, std::string file = {},
          std::uint64_t offset = no_offset, std::string path = {});

    ErrorKind kind() const noexcept { return kind_; }
    const std::string& message() const noexcept { return message_; }
    const std::string& file() const noexcept { return file_; }
    std::uint64_t offset() const noexcept { return offset_; }
    bool has_offset() const noexcept { return offset_ != no_offset; }
    const std::string& path() const noexcept { return path_; }

    // One line: "file: offset 0x1A2B: archive[12].fragment.reloc[40]: message" (absent parts
    // omitted). Control bytes that came from input files (in names, paths, messages) are
    // escaped as \xNN, so a hostile name cannot forge or split the line.
    const char* what() const noexcept override { return what_.c_str(); }

    // Fill in the file name when the thrower did not know it (e.g. a codec fed from memory).
    Error& set_file_if_empty(std::string_view file);
    // Prefix the structure path, for containers that decode a child from memory.
    Error& prefix_path(std::string_view parent);
    // For a child decoded from a copy of its bytes: add where the copy starts in the parent,
    // so the offset becomes a file offset again (no-op without an offset).
    Error& rebase_offset(std::uint64_t delta);
    // Say which buffer the offset is relative to when it is not the file, e.g. "the data
    // decompressed from archive[3]": what() then reads "offset 0x1A in <buffer>".
    Error& set_offset_buffer(std::string_view buffer);
    const std::string& offset_buffer() const noexcept { return offset_buffer_; }

private:
    void rebuild();

    ErrorKind kind_;
    std::string message_;
    std::string file_;
    std::uint64_t offset_;
    std::string path_;
    std::string offset_buffer_;  // empty: the offset is in the file
    std::string what_;
};

// `text` with control bytes (C0 and DEL) written as \xNN: for names and text taken from input
// files before they go into a message or a terminal line.
std::string escape_controls(std::string_view text);

// Joins a structure path: join_path("archive[3]", "fragment") == "archive[3].fragment",
// join_path("archive", "[3]") == "archive[3]", join_path("", "x") == "x".
std::string join_path(std::string_view parent, std::string_view child);

// "[i]" for indexing a path.
std::string index_path(std::string_view parent, std::uint64_t index);

}  // namespace mod
