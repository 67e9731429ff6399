// The files `apply --watch` polls (watch.hpp).
#include "libmod/manifest/watch.hpp"

#include <string_view>
#include <system_error>

namespace mod::manifest {

namespace fs = std::filesystem;

namespace {

constexpr int watch_max_depth = 8;
constexpr std::size_t watch_max_files = 20000;

void watch_stamp(WatchSnapshot& out, const fs::path& file) {
    std::error_code ec;
    const auto status = fs::status(file, ec);
    if (ec || !fs::is_regular_file(status)) return;
    const auto mtime = fs::last_write_time(file, ec);
    if (ec) return;
    const auto size = fs::file_size(file, ec);
    if (ec) return;
    out[file.lexically_normal()] = FileStamp{mtime, size};
}

bool watch_skipped_name(const fs::path& p) {
    const std::string name = p.filename().string();
    return name.find(".modkit-tmp.") != std::string::npos;
}

void watch_walk(WatchSnapshot& out, const fs::path& dir, int depth) {
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    for (; !ec && it != end && out.size() < watch_max_files; it.increment(ec)) {
        const fs::path p = it->path();
        const std::string name = p.filename().string();
        std::error_code e2;
        if (it->is_symlink(e2)) {
            if (!watch_skipped_name(p)) watch_stamp(out, p);  // a symlink to a file; never into folders
            continue;
        }
        if (it->is_directory(e2)) {
            if (!name.empty() && name[0] != '.' && depth < watch_max_depth) watch_walk(out, p, depth + 1);
            continue;
        }
        if (it->is_regular_file(e2) && !watch_skipped_name(p)) watch_stamp(out, p);
    }
}

}  // namespace

WatchSnapshot take_watch_snapshot(std::span<const fs::path> manifests, std::span<const fs::path> extra) {
    WatchSnapshot out;
    std::vector<fs::path> folders;
    for (const auto& m : manifests) {
        watch_stamp(out, m);
        fs::path dir = m.parent_path();
        if (dir.empty()) dir = ".";
        dir = dir.lexically_normal();
        bool seen = false;
        for (const auto& f : folders) seen = seen || f == dir;
        if (!seen) folders.push_back(dir);
    }
    for (const auto& d : folders) watch_walk(out, d, 1);
    for (const auto& e : extra) watch_stamp(out, e);
    return out;
}

std::vector<fs::path> changed_files(const WatchSnapshot& before, const WatchSnapshot& after, std::size_t limit) {
    std::vector<fs::path> out;
    auto b = before.begin();
    auto a = after.begin();
    while ((b != before.end() || a != after.end()) && out.size() < limit) {
        if (a == after.end() || (b != before.end() && b->first < a->first)) {
            out.push_back(b++->first);  // vanished
        } else if (b == before.end() || a->first < b->first) {
            out.push_back(a++->first);  // appeared
        } else {
            if (!(a->second == b->second)) out.push_back(a->first);
            ++a;
            ++b;
        }
    }
    return out;
}

}  // namespace mod::manifest
