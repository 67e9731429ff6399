// Finding a mod's base files outside its folder: by hash among the folders a user names
// (ApplyOptions::bases, apply.hpp).
#include "apply_detail.hpp"

#include "libmod/core/file.hpp"

#include <algorithm>
#include <system_error>

namespace mod::manifest::detail {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t largest_base = 1ull << 30;
constexpr int deepest = 4;

void collect(const fs::path& dir, int depth, std::vector<fs::path>& out) {
    std::error_code ec;
    std::vector<fs::path> here;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) here.push_back(it->path());
    std::sort(here.begin(), here.end());
    for (const auto& p : here) {
        if (fs::is_directory(p, ec)) {
            if (depth < deepest) collect(p, depth + 1, out);
        } else if (fs::is_regular_file(p, ec) && fs::file_size(p, ec) <= largest_base && !ec) {
            out.push_back(p);
        }
    }
}

// Every declared hash matches (the cheapest first, stopping at the first mismatch).
bool matches(const InputDecl& in, ByteView b) {
    if (in.crc32 && crc32_hex(b) != *in.crc32) return false;
    if (in.md5 && to_hex(md5(b)) != *in.md5) return false;
    if (in.sha1 && sha1_hex(b) != *in.sha1) return false;
    return true;
}

}  // namespace

std::optional<fs::path> find_base(const InputDecl& in, const std::vector<fs::path>& bases, std::size_t& looked_at) {
    looked_at = 0;
    if (!in.sha1 && !in.md5 && !in.crc32) return std::nullopt;
    for (const auto& dir : bases) {
        std::vector<fs::path> files;
        collect(dir, 0, files);
        for (const auto& f : files) {
            ++looked_at;
            try {
                if (matches(in, read_file(f))) return f;
            } catch (const Error&) {
                // unreadable: not this one
            }
        }
    }
    return std::nullopt;
}

}  // namespace mod::manifest::detail
