#pragma once
// State shared by the apply steps (apply.cpp: load, plan, execute; outputs.cpp: finish, write,
// report). Internal to the manifest layer.

#include "operation.hpp"

#include "libmod/core/hash.hpp"

#include <cstdio>

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mod::manifest::detail {

// How the report and the hash checks spell digests: lower-case hex.
inline std::string sha1_hex(ByteView b) { return to_hex(sha1(b)); }
inline std::string crc32_hex(ByteView b) {
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08x", crc32(b));
    return buf;
}

// The input's digests, computed on first use and kept (`original` never changes).
inline const std::string& original_sha1(FileState& f) {
    if (f.original_sha1.empty()) f.original_sha1 = sha1_hex(f.original);
    return f.original_sha1;
}
inline const std::string& original_crc32(FileState& f) {
    if (f.original_crc32.empty()) f.original_crc32 = crc32_hex(f.original);
    return f.original_crc32;
}

// The first regular file below `bases` (sorted, 4 levels deep, at most 1 GiB) whose every
// hash `in` declares matches; nullopt when none does or `in` declares no hash. `looked_at`
// counts the files read. (bases.cpp)
std::optional<std::filesystem::path> find_base(const InputDecl& in, const std::vector<std::filesystem::path>& bases,
                                               std::size_t& looked_at);

struct EditResult {
    rapidjson::Value report;
    std::vector<std::string> warnings;
    double ms = 0;
    // Later edits that made part of this one invisible (shadows.cpp): (edit index, what).
    std::vector<std::pair<std::size_t, std::string>> shadowed_by;
};

struct Build {
    Workspace files;                                                 // by file identity
    std::map<std::pair<std::size_t, std::string>, std::string> input_keys;  // (manifest, input) -> key
    Plan plan;
    std::vector<std::pair<std::size_t, const EditDecl*>> edit_refs;  // plan order
    rapidjson::Document report_doc;
    Allocator& alloc() { return report_doc.GetAllocator(); }
    std::vector<EditResult> results;                                 // one per executed edit
    std::vector<std::pair<std::string, double>> timings;
};

// Edits a later edit overrode or cut off, found from the executed edits' results (issue 30
// item 3): each shadowed edit gets shadowed_by entries and a warning ending with the fix; the
// shadowing edit gets a warning naming it. Rules (doc/manifest.md "Edits that shadow others"):
//   * stadium: a palette edit that coloured texture T, then a texture.replace of T that forked
//     T onto a palette of its own (the palette edit no longer reaches T; said too when the
//     edited palette is drawn by nothing at the end);
//   * totemtech: a palette edit of a BITMAP, then a texture.replace of the BITMAP that rewrote
//     some of the slots it set (its colours there are gone).
// Conflicts (two exclusive claims of one slot) are refused at plan time and never get here.
void find_shadowed_edits(Build& b);

Build load_build(const std::vector<Manifest>& manifests, const ApplyOptions& options);
EditEnv env_for(Build& b, const Manifest& m, std::size_t manifest_index, const EditDecl& e, unsigned threads);
// Finishes the files (checksums, byte order), makes and verifies the patches, builds the report
// and writes everything all or none.
ApplyResult write_outputs(Build& b, const std::vector<Manifest>& manifests, const ApplyOptions& options);

}  // namespace mod::manifest::detail
