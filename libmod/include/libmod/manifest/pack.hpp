#pragma once
// Mod packs (doc/manifest.md, "Sharing a mod"): a zip of a mod's folder that carries no base
// game file, and the way back from one to a folder `apply` can run.

#include "libmod/manifest/manifest.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace mod::manifest {

struct PackedFile {
    std::string name;  // relative to the mod's folder, '/' between folders
    std::uint64_t size = 0;
};

struct LeftOut {
    std::string name;  // relative; a folder ends with '/'
    std::string why;
};

struct PackResult {
    std::vector<PackedFile> files;  // in the zip, sorted by name (the manifest among them)
    std::vector<LeftOut> left_out;  // sorted by name
    std::vector<std::string> warnings;
    std::uint64_t zip_bytes = 0;
};

// Writes `out_zip` (atomically) holding every regular file below the manifest's folder except:
// a file that is, or has the size and SHA-1 (or the declared MD5/CRC-32) of, an input's base
// file (never a game file, whatever its name); the outputs apply writes (outputs, their patches,
// the report folder: they hold the base game); folders and files whose name starts with '.';
// modkit's temporaries; symlinks (a pack holds files); `out_zip` itself. Each is listed in
// left_out with why. The zip is deterministic (sorted names, fixed dates and modes) and its
// comment names the manifest ("modkit pack 1; manifest: mod.json").
// Errors: io when `preview` is declared and missing, format when it is not PNG or JPEG, usage
// when out_zip is inside an output's or the report's place, limit above 20,000 files or 2 GiB.
// Warnings: an input that declares no sha1 or md5 (players can then only name their copy with
// --input; the warning gives the sha1 to declare when the base file is at hand).
PackResult pack_mod(const Manifest& manifest, const std::filesystem::path& out_zip);

struct Unpacked {
    std::filesystem::path manifest;  // inside `dir`
    std::size_t files = 0;
    std::uint64_t bytes = 0;
};

// Unpacks the pack `zip` into `dir` (which must exist and be empty) and returns its manifest.
// Before anything is written: every entry is checked (read_zip's rules: no name leaving the
// folder, no symlink, no duplicate, 10,000 entries and 2 GiB at most), the manifest the comment
// names (else "mod.json" at the top) must be there and valid (its problems, with file:line:column,
// as load_manifest gives them, located in the pack), and no entry may carry the bytes an input
// declares by hash (format: the entry and the input are named: a pack must not carry the game).
Unpacked unpack_mod(const std::filesystem::path& zip, const std::filesystem::path& dir);

// True when the file starts with a zip's local header ("PK\3\4") or an empty zip's end record.
bool looks_like_pack(const std::filesystem::path& file);

}  // namespace mod::manifest
