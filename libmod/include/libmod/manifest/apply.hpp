#pragma once
// Applying manifests: validate -> load and check the base files -> plan -> execute in memory ->
// write. Several manifests may be applied together (two mods in one build): edits run in
// manifest order, then edit order, on one in-memory copy of each base file (files are the same
// when they are the same file on disk), and conflicts are checked across all of them.
//
// The plan names, for each edit, what it touches (file, structure, byte or slot ranges) and
// the limits it is checked against. Two edits conflict when they touch the same structure at
// overlapping ranges and at least one of them writes it exclusively; every conflict is reported
// before anything runs, naming both edits by id and manifest line.
//
// Outputs are all or none: every output, patch and report is first written to a temporary file
// beside its destination; only when all of them exist are they renamed into place. A failure
// at any step leaves no output, no temporary file, and the inputs untouched. The same manifests
// give the same output bytes whatever `threads` says.

#include "libmod/manifest/manifest.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mod::manifest {

struct Touch {
    std::string file;    // the input's display name ("mod.json:rom", or its path)
    std::string region;  // structure: "archive[25].fragment", "entry[a.skn]", "bytes", ...
    std::uint64_t begin = 0, end = 0;  // [begin, end) inside the region (UINT64_MAX: to the end)
    bool exclusive = true;             // false: rebuilds/reads the region but tolerates others
    std::string what;                  // plain words: "palette 0 slots 3-5", "texels of texture 2"
};

struct PlannedEdit {
    std::string manifest;  // file of the manifest
    std::string id;
    std::string op;
    std::size_t line = 0, column = 0;
    std::string input;                // the input name it edits
    std::vector<Touch> touches;
    std::vector<std::string> limits;  // limits the edit is checked against, in words
    std::string summary;              // one line saying what it does
    std::vector<std::string> notes;   // what the user should look at before sharing (e.g. every palette a palette edit could mean)
};

struct PlannedFile {
    std::string key;                    // "manifest:input"
    std::filesystem::path input;
    std::optional<std::filesystem::path> output;
    std::uint64_t size = 0;
    std::string sha1, crc32;            // of the input as read
    std::string kind;                   // "rom", "pak", "archive", "names"
    std::vector<std::string> notes;     // e.g. "byte-swapped (v64) dump of the expected ROM"
};

struct Plan {
    std::vector<PlannedFile> files;
    std::vector<PlannedEdit> edits;
};

struct ApplyOptions {
    bool dry_run = false;  // plan, read every asset and run every edit in memory; nothing is written
    std::optional<std::filesystem::path> out_dir;  // outputs go here (relative output paths kept)
    unsigned threads = 0;                         // 0 = all cores
    bool quiet = false;                           // no progress line
    // Whether the caller shows the digests a run need not compute: with false, the plan's
    // PlannedFile::sha1/crc32 stay empty, and unless a manifest names a report folder no report
    // is built (ApplyResult::report_json and WrittenFile::sha1 empty). The hashes a manifest
    // declares for its inputs are checked either way. (`apply -q` without --json; issue 31.)
    bool digests = true;
    // Where the base files are (issue 30: a shared mod folder holds no base game). An input
    // named here is read from this path instead of its manifest path (every manifest declaring
    // the name; a name no manifest declares is a usage error) (`apply --input NAME=PATH`).
    std::map<std::string, std::filesystem::path> input_paths;
    // An input whose manifest path does not exist is looked up by its declared hashes among the
    // regular files of these folders (and their subfolders, 4 levels deep at most; files over
    // 1 GiB skipped): the first in path order whose every declared hash (sha1, md5, crc32)
    // matches is read instead, and the plan notes it. An input that declares no hash is not looked up. (`apply --bases DIR`, and the
    // MODKIT_BASES environment variable: folders separated by ':'.)
    std::vector<std::filesystem::path> bases;
};

struct WrittenFile {
    std::filesystem::path path;
    std::string role;  // "output", "patch", "report"
    std::uint64_t size = 0;
    std::string sha1;
};

struct ApplyResult {
    Plan plan;
    std::vector<WrittenFile> written;   // empty for a dry run
    std::vector<std::string> warnings;
    std::string report_json;            // the report (also written when a manifest names a folder)
    // Milliseconds per step ("load", "plan", "conflict check" (part of plan), "edits") and per edit
    // ("edit ID"; not for a dry run); kept out of the
    // report so that the same inputs give the same report bytes (`modkit apply --timings`).
    std::vector<std::pair<std::string, double>> timings;
};

// Loads the base files, checks their hashes, plans and checks conflicts (throws ManifestError
// with every problem found), then (unless dry_run) executes and writes.
ApplyResult apply_manifests(const std::vector<Manifest>& manifests, const ApplyOptions& options = {});

// What the manifests need that this program does not carry, in words ("" when it carries it
// all). Every program linking libmod whole carries everything; the lean `modkit` carries the
// core operations (common, and Pokémon Stadium's palette, texture, entry, fragment and animation
// edits) and no report page, and hands anything else to modkit-scene before any side effect
// (doc/architecture.md, "Two executables").
std::string missing_capability(const std::vector<Manifest>& manifests, const ApplyOptions& options);

// Usage error when a name of `input_paths` (--input NAME=PATH) is no input of any manifest,
// naming the declared ones. apply_manifests checks it first; `manifest check --input` too.
void check_input_names(const std::vector<Manifest>& manifests, const std::map<std::string, std::filesystem::path>& input_paths);

}  // namespace mod::manifest
