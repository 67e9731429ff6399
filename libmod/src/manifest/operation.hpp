#pragma once
// The edit operations behind manifests. Each operation is a pair of functions registered by
// name (ops_<game>.cpp): `plan` reads the base files and declares what the edit touches,
// `apply` runs it on the in-memory file through the library's own edit functions (nothing is
// re-implemented here). Adding an operation: its definition in schemas/manifest.schema.json
// (+ the `op` enum), a plan and an apply function, and one line in its game's register list.
// Internal to the manifest layer.

#include "json_source.hpp"
#include "libmod/core/digest_cache.hpp"
#include "libmod/core/bytes.hpp"
#include "libmod/image/recolour.hpp"
#include "libmod/manifest/apply.hpp"

#include "libmod/core/rapidjson.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mod::stadium {
struct Archive;
}

namespace mod::manifest {
struct ReportPageOptions;
}

namespace mod::manifest::detail {

// One base file in memory: its original bytes and what the edits so far made of it.
struct FileState {
    std::string key;      // file identity ("dev:inode")
    std::string display;  // how messages name it (the path as the first manifest wrote it)
    std::filesystem::path path;
    std::string kind;     // "rom", "pak", "archive", "names"
    // ROMs: `current` is kept in z64 order; the output returns to the input's order.
    std::string rom_order;
    // `original` is empty during the edits of a run that never reads it again (a Stadium ROM in
    // a dry run, or without patch and report: apply.cpp open_workspaces).
    Bytes original, current;
    std::optional<std::filesystem::path> output;
    std::vector<std::string> notes;
    bool fix_checksums = false;     // stadium: a byte patch touched the CIC-covered range
    std::string names_key;          // totemtech archives: the name table's key ("" when none)
    std::optional<std::string> platform;
    bool edited = false;
    // Digests of `original` by algorithm ("sha1", "md5", "crc32"), computed once or found in
    // the digest cache by the file's stamp (original_digest in apply_detail.hpp).
    std::map<std::string, std::string> original_digests;
    std::optional<FileStamp> stamp;  // the same before and after the read; none: not cached
    std::int64_t read_at_ns = 0;     // when the read began (CLOCK_REALTIME)
};

// The model archive of a Stadium ROM in the workspace (z64 order) as a view of `current`
// (stadium::view_archive: only the header and the table are read, nothing is copied), so
// parsing it for every edit costs no more than checking a cached parse would (issue 31). Valid
// until `current` next changes: an edit that writes the ROM asks again for what it reads after.
// Errors as stadium::read_archive's.
std::shared_ptr<const stadium::Archive> workspace_archive(const FileState& f);

using Workspace = std::map<std::string, FileState>;
using Allocator = rapidjson::Document::AllocatorType;

// What an operation sees: its parameters (already schema-valid) and the files.
struct EditEnv {
    const Manifest& manifest;
    const EditDecl& edit;
    const rapidjson::Value& params;
    FileState& target;
    FileState* names = nullptr;  // totemtech: the name table of the target archive
    Workspace& files;
    unsigned threads = 0;

    bool has(const char* field) const { return params.HasMember(field); }
    std::string pointer(const char* field) const { return pointer_join(edit.pointer, field); }
    // A usage error (or `kind`) located at the field in the manifest.
    [[noreturn]] void fail(const char* field, std::string message, ErrorKind kind = ErrorKind::usage) const;

    std::uint64_t u64(const char* field) const;
    std::optional<std::uint64_t> opt_u64(const char* field) const;
    double number(const char* field, double fallback) const;
    bool flag(const char* field, bool fallback) const;
    std::string text(const char* field, const std::string& fallback = {}) const;
    std::vector<std::uint64_t> u64_list(const char* field) const;  // a number or an array of them
    std::vector<std::string> text_list(const char* field) const;   // a string or an array of them
    // Offsets: an integer or "0x…".
    std::uint64_t offset(const char* field) const;
    // Hex byte strings ("0A FF 10").
    Bytes hex_bytes(const char* field) const;
    // Palette slots: [1,2] or "0-1,5" (image::parse_slot_list); sorted, each once; none: empty.
    std::vector<unsigned> slots(const char* field) const;
    // {"SLOT": "RRGGBB[AA]", …} (image::parse_slot_colour), by slot.
    std::vector<image::SlotColour> slot_colours(const char* field) const;
    // A colour "#RRGGBB[AA]" (image::parse_colour_text), when the field is there.
    std::optional<image::Rgba8> colour(const char* field) const;
    // The palette.hsv shift of every game: "hue" (degrees, 0), "saturation" (x1), "value" (x1).
    image::HsvShift hsv_shift() const;
    // A path field resolved against the manifest's folder (checked when the manifest was loaded).
    std::filesystem::path path(const char* field) const;
    std::filesystem::path path_at(const char* field, std::size_t index) const;
    // Reads a path field's file (io errors located at the field).
    Bytes read(const char* field) const;
    Bytes read_path(const char* field, const std::filesystem::path& p) const;
};

// Where an edit writes its part of the report.
struct ReportOut {
    rapidjson::Value& obj;
    Allocator& a;
    std::vector<std::string>& warnings;

    ReportOut& set(const char* key, rapidjson::Value v);
    ReportOut& set(const char* key, const std::string& v);
    ReportOut& set(const char* key, std::uint64_t v);
    ReportOut& set(const char* key, double v);
    ReportOut& set(const char* key, bool v);
    rapidjson::Value str(const std::string& s) { return json_str(a, s); }
    void warn(const std::string& message) { warnings.push_back(message); }
};

struct OpInfo {
    const char* name;
    std::optional<Game> game;  // nullopt: any game
    void (*plan)(const EditEnv& env, PlannedEdit& out);
    void (*apply)(EditEnv& env, ReportOut& report);
    // A field that tells this game's implementation from another game's of the same name (the
    // schema's if/required picks the branch by it): totemtech palette.set needs "bitmap".
    const char* marker = nullptr;
};

// Operations by name. One name may have one implementation per game (palette.set is a
// pokemon-stadium and a totemtech operation); the schema tells their parameters apart.
using OpTable = std::multimap<std::string, OpInfo>;

// Registers `info` under its own name.
inline void add_op(OpTable& ops, OpInfo info) { ops.emplace(info.name, info); }

// Every operation, by name.
const OpTable& operations();
// The implementation of `name` for `game` (a game's own before an any-game one), or nullptr.
const OpInfo* find_operation(const std::string& name, Game game);
// The games that have an operation `name` ("" for an any-game one), in registration order.
std::vector<std::string> games_of_operation(const std::string& name);

void register_common_ops(OpTable& ops);
void register_stadium_ops(OpTable& ops);
void register_stadium_anim_ops(OpTable& ops);  // ops_stadium_anim.cpp: animation.replace
// The families outside the core of the layer (mod_manifest_full: mesh.replace, SHRED, TotemTech),
// which import models through Assimp. Each file registers its family at static initialisation
// with its rank (register_family); the table adds them in rank order after the core's, so it is
// the same whatever order the initialisers ran in. A program without them (the lean `modkit`,
// doc/architecture.md "Two executables") has only the core's operations.
using OpFamily = void (*)(OpTable& ops);
bool register_family(int rank, OpFamily family);  // returns true, for an initialiser

// The report page builder (report_page.cpp registers it; the lean `modkit` has none).
using ReportPageBuilder = std::string (*)(const std::string& report_json, const ReportPageOptions& options);
bool register_report_page_builder(ReportPageBuilder builder);
ReportPageBuilder report_page_builder();  // nullptr without one

// Touch helpers.
inline constexpr std::uint64_t to_end = UINT64_MAX;
Touch touch(const FileState& f, std::string region, std::uint64_t begin, std::uint64_t end, bool exclusive,
            std::string what);

// "3-5,9" for a sorted list of numbers.
std::string ranges_text(const std::vector<unsigned>& values);
std::string hex_text(ByteView bytes, std::size_t max = 64);

}  // namespace mod::manifest::detail
