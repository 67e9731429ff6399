#pragma once
// Edit manifests: one JSON file describes a mod (which base files, which edits, what to write).
// Format and error catalogue: doc/manifest.md; the schema: schemas/manifest.schema.json.
//
// load_manifests() reads and validates: JSON syntax, the schema (every problem, each with
// file:line:column, the JSON path and a plain-English message), then the rules a schema cannot
// say (output names that name an input, edit inputs that exist, operations of the manifest's
// game, unique edit ids, paths that stay inside the manifest's folder). Nothing is read besides
// the manifests themselves; the base files are read by plan/apply (apply.hpp).

#include "libmod/manifest/diagnostic.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mod::manifest {

namespace detail {
class JsonSource;
}

enum class Game { pokemon_stadium, thps_shred, totemtech };
const char* to_string(Game game) noexcept;  // "pokemon-stadium", "thps-shred", "totemtech"

struct InputDecl {
    std::string name;                  // the key in "inputs"
    std::filesystem::path path;        // resolved (manifest folder / relative path)
    std::string path_text;             // as written
    std::optional<std::string> sha1;   // lower-case hex
    std::optional<std::string> crc32;  // lower-case hex
    std::optional<std::string> md5;    // lower-case hex (the public checksum of many ROM dumps)
    std::optional<std::string> names;  // totemtech: the input holding the name table
    std::optional<std::string> platform;
};

struct EditDecl {
    std::size_t index = 0;  // position in "edits"
    std::string id;         // "id", or "edits[i]" when none was given
    std::string op;
    std::string input;      // the input it edits (resolved: the only one when not given)
    std::string pointer;    // JSON pointer of the edit object ("/edits/3")
};

struct Manifest {
    std::filesystem::path file;  // as given
    std::filesystem::path dir;   // the folder paths are relative to
    std::string name;
    // The mod-folder convention (doc/manifest.md, "Sharing a mod"): free text, not interpreted,
    // except `preview`, a picture in the folder that `manifest pack` requires to exist.
    std::string id, version, description;
    std::vector<std::string> authors;  // "authors", then "author"
    std::optional<std::filesystem::path> preview;  // resolved
    Game game = Game::pokemon_stadium;
    std::vector<InputDecl> inputs;
    std::map<std::string, std::filesystem::path> outputs;  // input name -> resolved output path
    std::vector<std::string> patches;                      // "bps", "zpatch"
    std::optional<std::filesystem::path> report;           // folder for report.json
    std::vector<EditDecl> edits;
    std::shared_ptr<const detail::JsonSource> source;      // the parsed text, for positions

    const InputDecl* input(const std::string& name) const;
    // file:line:column diagnostic at a JSON pointer of this manifest.
    Diagnostic at(const std::string& pointer, std::string message, bool key = false) const;
};

// Reads and validates one manifest. Throws ManifestError (format) with every problem found.
Manifest load_manifest(const std::filesystem::path& file);
// Reads and validates several; every problem of every manifest is reported in one error.
std::vector<Manifest> load_manifests(std::span<const std::filesystem::path> files);
// Validates manifest text already in memory (`file` names it in diagnostics; paths are taken
// relative to `dir`). For tests and fuzzing.
Manifest parse_manifest(std::string text, const std::filesystem::path& file, const std::filesystem::path& dir);

// The operation names the schema allows, with the game each belongs to ("" for any game).
std::vector<std::pair<std::string, std::string>> operation_names();

// The embedded schemas (what `modkit manifest schema` prints).
std::string manifest_schema();
std::string report_schema();
// Problems the report schema finds in a report (JSON text); empty when it conforms.
std::vector<std::string> check_report(const std::string& report_json);

}  // namespace mod::manifest
