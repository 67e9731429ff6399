#include "libmod/core/error.hpp"

#include "libmod/core/bytes.hpp"

#include <ostream>

namespace mod {

const char* to_string(ErrorKind kind) noexcept {
    switch (kind) {
    case ErrorKind::format: return "format";
    case ErrorKind::limit: return "limit";
    case ErrorKind::conflict: return "conflict";
    case ErrorKind::io: return "io";
    case ErrorKind::usage: return "usage";
    }
    return "unknown";
}

std::ostream& operator<<(std::ostream& os, ErrorKind kind) { return os << to_string(kind); }

int exit_code(ErrorKind kind) noexcept {
    switch (kind) {
    case ErrorKind::usage: return 1;
    case ErrorKind::format: return 2;
    case ErrorKind::limit:
    case ErrorKind::conflict: return 3;
    case ErrorKind::io: return 4;
    }
    return 2;
}

Error::Error(ErrorKind kind, std::string message, std::string file, std::uint64_t offset,
             std::string path)
    : kind_(kind), message_(std::move(message)), file_(std::move(file)), offset_(offset),
      path_(std::move(path)) {
    rebuild();
}

Error& Error::set_file_if_empty(std::string_view file) {
    if (file_.empty()) {
        file_ = file;
        rebuild();
    }
    return *this;
}

Error& Error::prefix_path(std::string_view parent) {
    path_ = join_path(parent, path_);
    rebuild();
    return *this;
}

Error& Error::rebase_offset(std::uint64_t delta) {
    if (has_offset()) {
        offset_ += delta;
        rebuild();
    }
    return *this;
}

Error& Error::set_offset_buffer(std::string_view buffer) {
    offset_buffer_ = buffer;
    rebuild();
    return *this;
}

namespace {
// Control bytes (C0, DEL) become \xNN; everything else, UTF-8 included, is kept.
void append_escaped(std::string& out, std::string_view text) {
    static const char digits[] = "0123456789ABCDEF";
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7F) {
            out += "\\x";
            out += digits[u >> 4];
            out += digits[u & 15];
        } else {
            out += c;
        }
    }
}
}  // namespace

std::string escape_controls(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    append_escaped(out, text);
    return out;
}

void Error::rebuild() {
    what_.clear();
    if (!file_.empty()) {
        append_escaped(what_, file_);
        what_ += ": ";
    }
    if (has_offset()) {
        what_ += "offset " + hex(offset_);
        if (!offset_buffer_.empty()) {
            what_ += " in ";
            append_escaped(what_, offset_buffer_);
        }
        what_ += ": ";
    }
    if (!path_.empty()) {
        append_escaped(what_, path_);
        what_ += ": ";
    }
    append_escaped(what_, message_);
}

std::string join_path(std::string_view parent, std::string_view child) {
    if (parent.empty()) return std::string(child.starts_with('.') ? child.substr(1) : child);
    if (child.empty()) return std::string(parent);
    std::string out(parent);
    if (child.front() != '[' && child.front() != '.') out += '.';
    out += child;
    return out;
}

std::string index_path(std::string_view parent, std::uint64_t index) {
    return std::string(parent) + "[" + std::to_string(index) + "]";
}

const char* to_string(Endian e) noexcept { return e == Endian::big ? "big" : "little"; }

}  // namespace mod
