// The persistent digest cache (libmod/core/digest_cache.hpp, doc/formats/digest-cache.md).
#include "libmod/core/digest_cache.hpp"

#include "libmod/core/file.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>

namespace mod {

namespace fs = std::filesystem;

namespace {

constexpr const char* cache_magic = "modkit-digest-cache 1";

std::int64_t ns_of(const struct timespec& t) { return std::int64_t(t.tv_sec) * 1000000000 + t.tv_nsec; }

// A digest or algorithm word: 1–64 characters of [0-9a-z].
bool plain_word(const std::string& s) {
    return !s.empty() && s.size() <= 64 &&
           std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'); });
}

}  // namespace

std::int64_t realtime_ns() {
    struct timespec t {};
    ::clock_gettime(CLOCK_REALTIME, &t);
    return ns_of(t);
}

std::optional<FileStamp> file_stamp(const fs::path& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    return FileStamp{std::uint64_t(st.st_dev), std::uint64_t(st.st_ino), std::uint64_t(st.st_size), ns_of(st.st_mtim),
                     ns_of(st.st_ctim)};
}

fs::path DigestCache::user_file() {
    const char* off = std::getenv("MODKIT_DIGEST_CACHE");
    if (off && std::string(off) == "off") return {};
    fs::path dir;
    if (const char* d = std::getenv("MODKIT_CACHE_DIR"); d && *d) dir = d;
    else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) dir = fs::path(x) / "modkit";
    else if (const char* h = std::getenv("HOME"); h && *h) dir = fs::path(h) / ".cache" / "modkit";
    else return {};
    return dir / "digests.txt";
}

DigestCache DigestCache::user() { return DigestCache(user_file()); }

DigestCache::DigestCache(fs::path file) : file_(std::move(file)) {
    if (file_.empty()) return;
    std::error_code ec;
    const auto size = fs::file_size(file_, ec);
    if (ec || size > max_file_bytes) return;
    std::ifstream in(file_);
    std::string line;
    if (!std::getline(in, line) || line != cache_magic) return;
    while (std::getline(in, line) && entries_.size() < max_entries) {
        std::istringstream words(line);
        Entry e;
        if (!(words >> e.stamp.device >> e.stamp.inode >> e.stamp.size >> e.stamp.mtime_ns >> e.stamp.ctime_ns >> e.algorithm >>
              e.digest))
            continue;  // a damaged line is no entry
        std::string extra;
        if (words >> extra || !plain_word(e.algorithm) || !plain_word(e.digest)) continue;
        entries_.push_back(std::move(e));
    }
}

std::optional<std::string> DigestCache::find(const FileStamp& stamp, const std::string& algorithm) const {
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
        if (it->stamp == stamp && it->algorithm == algorithm) return it->digest;
    return std::nullopt;
}

bool DigestCache::remember(const FileStamp& stamp, const std::string& algorithm, const std::string& digest,
                           std::int64_t hashed_at_ns) {
    if (file_.empty() || !plain_word(algorithm) || !plain_word(digest)) return false;
    if (hashed_at_ns - stamp.ctime_ns < std::int64_t(settle_seconds) * 1000000000) return false;
    if (find(stamp, algorithm) == digest) return true;
    std::erase_if(entries_, [&](const Entry& e) { return e.stamp == stamp && e.algorithm == algorithm; });
    entries_.push_back({stamp, algorithm, digest});
    if (entries_.size() > max_entries) entries_.erase(entries_.begin(), entries_.end() - max_entries);
    changed_ = true;
    return true;
}

void DigestCache::save() const {
    if (!changed_ || file_.empty()) return;
    std::string text = std::string(cache_magic) + "\n";
    for (const auto& e : entries_)
        text += std::to_string(e.stamp.device) + " " + std::to_string(e.stamp.inode) + " " + std::to_string(e.stamp.size) + " " +
                std::to_string(e.stamp.mtime_ns) + " " + std::to_string(e.stamp.ctime_ns) + " " + e.algorithm + " " + e.digest +
                "\n";
    try {
        write_file_atomic(file_, std::string_view(text));
    } catch (...) {
        // An optimisation only: a cache that cannot be saved is not an error of the command.
    }
}

}  // namespace mod
