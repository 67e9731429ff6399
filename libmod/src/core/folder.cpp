#include "libmod/core/folder.hpp"

namespace mod {

namespace fs = std::filesystem;

namespace {
std::string reason(std::error_code ec) {
    std::string text = ec.message();
    return text.empty() ? "error " + std::to_string(ec.value()) : text;
}
}  // namespace

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

}  // namespace mod
