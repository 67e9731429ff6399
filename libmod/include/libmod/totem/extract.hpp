#pragma once
// Extracting an archive to one file per record plus `index.json`, and reading that index
// back for repacking. Spec: doc/formats/totem-archive.md ("Extract folder").

#include "libmod/totem/archive.hpp"
#include "libmod/totem/names.hpp"

#include <optional>
#include <string>
#include <vector>

namespace mod::totem {

inline constexpr const char* index_file_name = "index.json";

struct ExtractEntry {
    std::size_t index = 0;  // record index in the archive
    std::size_t chunk = 0;
    std::string file;       // relative path, '/'-separated
};

// One unique, safe relative path per record: the name with a leading "DB:>" removed, '>' as
// folder separators, characters other than [A-Za-z0-9._-] replaced by '_', then "." and the
// type name; records without a name go to "_unnamed/0xHASH.TYPE". Clashes get "~N".
std::vector<ExtractEntry> plan_extract(const Archive& archive, const NameTable& names);

// The index: platform, byte order, chunk size, and per record its original index, chunk,
// file, type/name/subtype (text when the table has it) and their ids.
std::string extract_index_json(const Archive& archive, const NameTable& names,
                               const std::vector<ExtractEntry>& entries, Platform platform);

struct IndexItem {
    std::optional<std::size_t> origin;  // "index": the original record this one replaces
    std::string file;
    std::int32_t type_id = 0, name_id = 0, subtype_id = 0;
    // Names given only as text (no id field): the repacker adds them to the name table.
    std::vector<std::string> new_names;
};

// Reads an index written by extract_index_json and possibly edited: records may be removed,
// reordered or added (no "index"); for each of type/name/subtype the "_id" field wins, else
// the text is hashed. Throws format (naming `index.records[i]`) on malformed JSON, missing
// fields, or a file path that is absolute or leaves the folder.
std::vector<IndexItem> read_extract_index(std::string_view json, const std::string& file = {});

}  // namespace mod::totem
