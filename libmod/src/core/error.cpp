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

void Error::rebuild() {
    what_.clear();
    if (!file_.empty()) what_ += file_ + ": ";
    if (has_offset()) what_ += "offset " + hex(offset_) + ": ";
    if (!path_.empty()) what_ += path_ + ": ";
    what_ += message_;
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
