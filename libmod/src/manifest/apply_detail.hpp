#pragma once
// State shared by the apply steps (apply.cpp: load, plan, execute; outputs.cpp: finish, write,
// report). Internal to the manifest layer.

#include "operation.hpp"

#include "libmod/core/digest_cache.hpp"
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

// How the hash checks and the report spell each algorithm's digest of `b`.
inline std::string digest_hex(const std::string& algorithm, ByteView b) {
    if (algorithm == "sha1") return sha1_hex(b);
    if (algorithm == "crc32") return crc32_hex(b);
    return to_hex(md5(b));  // "md5"
}

// The input's digest, computed on first use and kept (before open_workspaces may hand `original`
// to the workspace; every caller runs before that or only when it kept it), or found in
// the digest cache by the file's stamp (and stored there for the next run).
inline const std::string& original_digest(FileState& f, const std::string& algorithm, DigestCache& cache) {
    auto it = f.original_digests.find(algorithm);
    if (it != f.original_digests.end()) return it->second;
    std::optional<std::string> known;
    if (f.stamp) known = cache.find(*f.stamp, algorithm);
    if (!known) {
        known = digest_hex(algorithm, f.original);
        if (f.stamp) cache.remember(*f.stamp, algorithm, *known, f.read_at_ns);
    }
    return f.original_digests.emplace(algorithm, std::move(*known)).first->second;
}

// Whether the run needs the digests of inputs and outputs: when it writes a report (a manifest
// names a report folder and this is no dry run), or the caller shows them (ApplyOptions::digests).
// Whether the run writes a report folder (report.json and its page): a manifest names one and
// this is no dry run.
inline bool writes_report_folder(const std::vector<Manifest>& manifests, const ApplyOptions& options) {
    if (options.dry_run) return false;
    for (const auto& m : manifests)
        if (m.report) return true;
    return false;
}

inline bool builds_report(const std::vector<Manifest>& manifests, const ApplyOptions& options) {
    return options.digests || writes_report_folder(manifests, options);
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
    DigestCache digests = DigestCache::user();                      // saved after the hash checks
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
