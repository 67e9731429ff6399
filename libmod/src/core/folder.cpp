#include "libmod/core/folder.hpp"

#include "libmod/core/file.hpp"

#include <sys/stat.h>
#include <cerrno>
#include <cstdlib>

namespace mod {

namespace fs = std::filesystem;

namespace {
std::string reason(std::error_code ec) {
    std::string text = ec.message();
    return text.empty() ? "error " + std::to_string(ec.value()) : text;
}
}  // namespace

namespace {
// Throws format for an absolute `relative`, a ".." part, or a part below `folder` that is a
// symbolic link (checked up to the first part that does not exist).
void check_inside(const fs::path& folder, const fs::path& relative) {
    const std::string text = relative.string();
    if (relative.empty() || relative.is_absolute() || text[0] == '/')
        throw Error(ErrorKind::format, "\"" + escape_controls(text) + "\" is not a path inside the folder " + folder.string(),
                    (folder / relative).string());
    fs::path at = folder;
    for (const auto& part : relative) {
        if (part == "..")
            throw Error(ErrorKind::format, "\"" + escape_controls(text) + "\" leaves the folder " + folder.string() + " (\"..\")",
                        (folder / relative).string());
        if (part.empty() || part == ".") continue;
        at /= part;
        struct stat st;
        if (::lstat(at.c_str(), &st) != 0) return;
        if (S_ISLNK(st.st_mode))
            throw Error(ErrorKind::format,
                        "is a symbolic link; files of " + folder.string() +
                            " are read only inside it (a link could lead anywhere, so links are refused)",
                        at.string());
    }
}
}  // namespace

Bytes read_file_in_folder(const fs::path& folder, const fs::path& relative, std::uint64_t max_size) {
    check_inside(folder, relative);
    return read_file(folder / relative, max_size);
}

bool exists_in_folder(const fs::path& folder, const fs::path& relative) {
    check_inside(folder, relative);
    struct stat st;
    return ::lstat((folder / relative).c_str(), &st) == 0;
}

Error io_error(const fs::path& path, std::string_view action, std::error_code ec) {
    return Error(ErrorKind::io, "cannot " + std::string(action) + ": " + reason(ec), path.string());
}

Error io_error(const fs::filesystem_error& e) {
    std::string message = reason(e.code());
    if (!e.path2().empty()) message += " (with '" + e.path2().string() + "')";
    return Error(ErrorKind::io, message, e.path1().string());
}

void create_folder(const fs::path& dir) {
    if (dir.empty()) return;  // the current folder
    std::error_code ec;
    // Walk up to the deepest part that exists, so a file in the way is named exactly.
    fs::path existing = dir;
    while (!existing.empty()) {
        const auto status = fs::status(existing, ec);
        if (!ec && fs::exists(status)) {
            if (!fs::is_directory(status))
                throw Error(ErrorKind::io, existing == dir ? "cannot use as a folder: it exists and is not a folder"
                                                           : "cannot create a folder inside '" + existing.string() +
                                                                 "': it is not a folder",
                            dir.string());
            break;
        }
        if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
            throw io_error(dir, "create the folder", ec);  // ENAMETOOLONG, EACCES, ELOOP, …
        if (!existing.has_relative_path()) break;
        existing = existing.parent_path();
    }
    ec.clear();
    fs::create_directories(dir, ec);
    if (ec) throw io_error(dir, "create the folder", ec);
}

ScratchFolder::ScratchFolder(std::string_view prefix) {
    std::error_code ec;
    const std::filesystem::path base = std::filesystem::temp_directory_path(ec);
    if (ec) throw io_error(std::filesystem::path("/tmp"), "find the temporary folder", ec);
    std::string pattern = (base / (std::string(prefix) + "XXXXXX")).string();
    if (!mkdtemp(pattern.data()))
        throw io_error(pattern, "make a temporary folder", std::error_code(errno, std::generic_category()));
    path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

}  // namespace mod
