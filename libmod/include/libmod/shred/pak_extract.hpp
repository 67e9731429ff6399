#pragma once
// `shred pak extract` / `shred pak repack`: where each PAK entry goes in the extraction folder
// and the DIR/index.json that maps the files back to the entries.
//
// An entry is written under its name as a relative path ('\\' read as '/', empty and '.'
// segments dropped). A name that cannot have that file of its own — a second entry of the same
// name (PAKs may repeat names), a name another entry uses as a folder or that lies below
// another entry's file, or "index.json" — gets a distinct file: the path with '/' as '_' when a
// folder on its way is taken, then "~N" (the first free N >= 1). index.json records every
// entry's name and file, so an unedited extract -> repack gives the PAK back byte for byte.

#include "libmod/shred/pak.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace mod::shred {

inline constexpr const char* pak_index_file_name = "index.json";

// The file of every entry (relative to the folder), in table order, all distinct, checked by
// mod::check_folder_plan (core/folder.hpp): an error naming pak.entries[i] when a name is
// empty, absolute, has a ".." segment, a control byte, or a segment or path too long for the
// file system (format or limit; nothing is planned, so nothing is written).
std::vector<std::string> pak_extract_files(const Pak& pak);

// DIR/index.json: {"format": "modkit-shred-pak-extract", "version": 1, "entries": [{"index",
// "name", "file"}, …]}.
std::string pak_extract_index_json(const Pak& pak, const std::vector<std::string>& files);

// Reads an index back for `pak`: the file of each entry. Format error naming index.entries[i]
// (and `file`) when it is malformed or a file leaves the folder; conflict when its entries are
// not the PAK's (count or names differ: extracted from another PAK).
std::vector<std::string> read_pak_extract_index(std::string_view json, const Pak& pak, const std::string& file = {});

}  // namespace mod::shred
