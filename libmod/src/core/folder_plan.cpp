// Extraction plans (folder.hpp): check every name and the disk, then write all or none.
#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"

#include <map>
#include <set>
#include <sys/stat.h>

namespace mod {

namespace fs = std::filesystem;

namespace {

// The name as a message shows it: at most 60 bytes (a 300-byte name stays readable).
std::string shown(std::string_view name) {
    // Appended piece by piece (GCC 12's -Wrestrict false positive on "literal" + std::string).
    std::string out = "'";
    if (name.size() <= 60) {
        out += name;
        out += '\'';
        return out;
    }
    out += name.substr(0, 40);
    out += "…";
    out += name.substr(name.size() - 12);
    out += "' (";
    out += std::to_string(name.size());
    out += " bytes)";
    return out;
}

[[noreturn]] void refuse(ErrorKind kind, const FolderFile& f, const std::string& why, const std::string& file) {
    throw Error(kind, "cannot extract " + shown(f.path) + ": " + why + "; nothing was written", file, no_offset,
                f.entry);
}

void check_name(const FolderFile& f, const std::string& file) {
    const std::string& p = f.path;
    if (p.empty()) refuse(ErrorKind::format, f, "the name is empty", file);
    if (p.front() == '/') refuse(ErrorKind::format, f, "an absolute path would leave the output folder", file);
    for (char c : p) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\\') refuse(ErrorKind::format, f, "a backslash is not a folder separator here", file);
        if (u == 0) refuse(ErrorKind::format, f, "the name holds a NUL byte", file);
        if (u < 0x20 || u == 0x7F) refuse(ErrorKind::format, f, "the name holds a control byte", file);
    }
    if (p.size() > max_path_bytes)
        refuse(ErrorKind::limit, f, "the path is " + std::to_string(p.size()) + " bytes, more than " +
                                        std::to_string(max_path_bytes), file);
    for (std::size_t start = 0; start <= p.size();) {
        const std::size_t end = std::min(p.find('/', start), p.size());
        const std::string_view seg(p.data() + start, end - start);
        const bool last = end == p.size();
        if (seg.empty()) refuse(ErrorKind::format, f, "the path has an empty segment", file);
        if (seg == ".") refuse(ErrorKind::format, f, "the path has a '.' segment", file);
        if (seg == "..") refuse(ErrorKind::format, f, "a '..' segment would leave the output folder", file);
        const std::size_t limit = last ? max_file_name_bytes : max_segment_bytes;
        if (seg.size() > limit)
            refuse(ErrorKind::limit, f, std::string(last ? "the file name" : "a folder name") + " is " +
                                            std::to_string(seg.size()) + " bytes, more than " + std::to_string(limit),
                   file);
        start = end + 1;
    }
}

}  // namespace

void check_folder_plan(std::span<const FolderFile> plan, const std::string& file) {
    std::map<std::string, std::size_t> files;  // path -> plan index
    std::map<std::string, std::size_t> folders;  // folder -> first plan index needing it
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const FolderFile& f = plan[i];
        check_name(f, file);
        if (auto it = files.find(f.path); it != files.end())
            refuse(ErrorKind::conflict, f, "entry " + plan[it->second].entry + " is extracted to the same file", file);
        if (auto it = folders.find(f.path); it != folders.end())
            refuse(ErrorKind::conflict, f, "entry " + plan[it->second].entry + " needs a folder of that name", file);
        for (std::size_t slash = f.path.find('/'); slash != std::string::npos; slash = f.path.find('/', slash + 1)) {
            const std::string folder = f.path.substr(0, slash);
            if (auto it = files.find(folder); it != files.end())
                refuse(ErrorKind::conflict, f, "entry " + plan[it->second].entry + " is extracted to the file " +
                                                   shown(folder) + ", where this one needs a folder", file);
            folders.emplace(folder, i);
        }
        files.emplace(f.path, i);
    }
}

void check_folder_plan(const fs::path& dir, std::span<const FolderFile> plan, std::span<const fs::path> inputs,
                       const std::string& file) {
    check_folder_plan(plan, file);
    std::error_code ec;
    const fs::path base = fs::absolute(dir, ec);
    const std::size_t base_bytes = (ec ? dir : base).string().size() + 1;
    std::set<std::string> folders_checked;
    const auto disk_error = [&](const FolderFile& f, const fs::path& at, const std::string& why) {
        throw Error(ErrorKind::io, "cannot extract " + shown(f.path) + " (" + f.entry + "): " + why + "; nothing was written",
                    at.string());
    };
    // The output folder itself, then each folder on the way and each file.
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode) && !plan.empty())
        disk_error(plan.front(), dir, "the output folder exists and is not a folder");
    for (const FolderFile& f : plan) {
        if (base_bytes + f.path.size() > max_path_bytes)
            refuse(ErrorKind::limit, f, "the output path is " + std::to_string(base_bytes + f.path.size()) +
                                            " bytes, more than " + std::to_string(max_path_bytes), file);
        for (std::size_t slash = f.path.find('/'); slash != std::string::npos; slash = f.path.find('/', slash + 1)) {
            const std::string folder = f.path.substr(0, slash);
            if (!folders_checked.insert(folder).second) continue;
            const fs::path at = dir / folder;
            if (::lstat(at.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
                disk_error(f, at, "it exists and is not a folder, and this entry needs a folder there");
        }
        const fs::path at = dir / f.path;
        if (::lstat(at.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
            disk_error(f, at, S_ISDIR(st.st_mode) ? "a folder is in the way" : "it exists and is not a regular file");
        try {
            ensure_distinct_output(at, inputs);
        } catch (Error& e) {
            throw Error(e.kind(), e.message() + " (" + f.entry + "); nothing was written", e.file());
        }
    }
}

std::vector<fs::path> create_folder_recording(const fs::path& dir) {
    // Record the missing folders from the outermost down, then create them.
    std::vector<fs::path> missing;
    std::error_code ec;
    for (fs::path p = dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
        missing.push_back(p);
        if (!p.has_relative_path() || p == p.parent_path()) break;
    }
    create_folder(dir);
    return {missing.rbegin(), missing.rend()};
}

void remove_made_folders(std::span<const fs::path> made) noexcept {
    std::error_code ec;
    for (auto it = made.rbegin(); it != made.rend(); ++it) fs::remove(*it, ec);  // only if empty
}

void write_folder(const fs::path& dir, std::span<const FolderFile> plan,
                  const std::function<ByteView(std::size_t)>& content, std::span<const fs::path> inputs,
                  const std::string& file) {
    check_folder_plan(dir, plan, inputs, file);
    std::vector<fs::path> made_folders;  // outermost first
    std::vector<fs::path> made_files;
    const auto make_folder = [&](const fs::path& folder) {
        auto made = create_folder_recording(folder);
        made_folders.insert(made_folders.end(), made.begin(), made.end());
    };
    try {
        make_folder(dir);
        for (std::size_t i = 0; i < plan.size(); ++i) {
            const fs::path out = dir / plan[i].path;
            make_folder(out.parent_path());
            std::error_code ec;
            const bool existed = fs::exists(out, ec);
            write_file_atomic(out, content(i), inputs);
            if (!existed) made_files.push_back(out);
        }
    } catch (...) {
        std::error_code ec;
        for (auto it = made_files.rbegin(); it != made_files.rend(); ++it) fs::remove(*it, ec);
        remove_made_folders(made_folders);
        throw;
    }
}

}  // namespace mod
