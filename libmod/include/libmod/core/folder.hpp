#pragma once
// Output folders, and file-system failures as mod::Error.
//
// std::filesystem reports failures by throwing std::filesystem::filesystem_error, which is not
// a mod::Error and would reach the CLI as an "internal error". Everything that creates a folder
// goes through create_folder, and io_error turns a filesystem_error that escaped anyway into
// the io error it is, naming the path.

#include "libmod/core/error.hpp"

#include <filesystem>
#include <system_error>

namespace mod {

// Creates `dir` and its missing parents. An existing folder is fine. Throws io naming the path
// when it cannot: a parent (or `dir` itself) is a file, permission denied, name too long, …
void create_folder(const std::filesystem::path& dir);

// An io error for a failed file-system operation on `path`: "cannot <action>: <reason>".
Error io_error(const std::filesystem::path& path, std::string_view action, std::error_code ec);
// The same for a filesystem_error (names its first path, or both when it has two).
Error io_error(const std::filesystem::filesystem_error& e);

}  // namespace mod
