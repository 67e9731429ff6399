#pragma once
// Output folders, and file-system failures as mod::Error.
//
// std::filesystem reports failures by throwing std::filesystem::filesystem_error, which is not
// a mod::Error and would reach the CLI as an "internal error". Everything that creates a folder
// goes through create_folder, and io_error turns a filesystem_error that escaped anyway into
// the io error it is, naming the path.

#include "libmod/core/bytes.hpp"
#include "libmod/core/error.hpp"

#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <system_error>
#include <vector>

namespace mod {

// Creates `dir` and its missing parents. An existing folder is fine. Throws io naming the path
// when it cannot: a parent (or `dir` itself) is a file, permission denied, name too long, …
void create_folder(const std::filesystem::path& dir);
// create_folder, returning the folders it made (outermost first; empty when `dir` existed),
// so that a failed all-or-none write can remove them again with remove_made_folders.
std::vector<std::filesystem::path> create_folder_recording(const std::filesystem::path& dir);
// Removes `made` (as create_folder_recording returned it) innermost first, each only when
// empty; errors are ignored (this runs while another error is on its way out).
void remove_made_folders(std::span<const std::filesystem::path> made) noexcept;

// An io error for a failed file-system operation on `path`: "cannot <action>: <reason>".
Error io_error(const std::filesystem::path& path, std::string_view action, std::error_code ec);
// The same for a filesystem_error (names its first path, or both when it has two).
Error io_error(const std::filesystem::filesystem_error& e);

// A private folder under the system's temporary folder (mkdtemp: a fresh name, mode 0700),
// removed with everything in it when the object goes. Throws io when it cannot be made.
class ScratchFolder {
public:
    explicit ScratchFolder(std::string_view prefix = "modkit-");
    ~ScratchFolder();
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    const std::filesystem::path& path() const noexcept { return path_; }

private:
    std::filesystem::path path_;
};

// ---- Reading a folder someone else made (an extraction folder given back to repack) -------
// A file an index names is read only from inside the folder: an absolute path, a ".." part
// and a symbolic link anywhere below `folder` (the folder itself may be one: the user named it)
// are refused (format, naming the path), as `apply` refuses a manifest path that leaves its
// folder. Checked component by component with lstat just before the file is read.

// The bytes of `folder`/`relative`. Throws format as above, io when it cannot be read, limit
// when larger than max_size.
Bytes read_file_in_folder(const std::filesystem::path& folder, const std::filesystem::path& relative,
                          std::uint64_t max_size = std::uint64_t(1) << 32);
// Whether `folder`/`relative` exists (as a file or anything else that is not a symbolic link);
// throws format for the same paths read_file_in_folder refuses.
bool exists_in_folder(const std::filesystem::path& folder, const std::filesystem::path& relative);

// ---- Extraction plans: a whole output folder checked before its first file is written ------
// `shred pak extract`, `stadium extract` and `totem extract` each turn their entries into one
// plan and write it with write_folder: a name the file system cannot hold, a name that would
// leave the folder, or something in the way on disk is one clean error naming the entry, and
// nothing is written.

struct FolderFile {
    std::string path;   // relative to the output folder, '/'-separated
    std::string entry;  // the structure path of what it comes from, for errors ("pak.entries[2]")
};

inline constexpr std::size_t max_segment_bytes = 255;  // a folder name (NAME_MAX)
// A file name: NAME_MAX less the room its temporary file ("NAME.modkit-tmp.PID.N") needs.
inline constexpr std::size_t max_file_name_bytes = 215;
inline constexpr std::size_t max_path_bytes = 4095;  // the folder and the file (PATH_MAX - 1)

// The names alone. Every path must be relative ('/'-separated, not starting with '/'), hold no
// '\\', NUL or other control byte, no empty, "." or ".." segment (format error); folder names
// at most max_segment_bytes, the file name at most max_file_name_bytes and the path at most
// max_path_bytes (limit error); no two files on one path and no file where another file needs
// a folder (conflict). The error's structure path is the entry's, `file` its file.
void check_folder_plan(std::span<const FolderFile> plan, const std::string& file = {});

// check_folder_plan, then the disk: `dir` joined with each path within max_path_bytes (limit),
// each folder on the way that exists is a folder, each file that exists a regular file (io,
// naming the entry and the path), and no file is one of `inputs` (conflict).
void check_folder_plan(const std::filesystem::path& dir, std::span<const FolderFile> plan,
                       std::span<const std::filesystem::path> inputs, const std::string& file = {});

// Writes a plan all or none: check_folder_plan with the disk, then `dir`, the folders and each
// file i with the bytes content(i) returns (written atomically, in plan order). When a write
// fails anyway (disk full, a file system that refuses a name), the files this call created and
// the folders it made are removed before the error goes on; a file it replaced keeps its new
// bytes.
void write_folder(const std::filesystem::path& dir, std::span<const FolderFile> plan,
                  const std::function<ByteView(std::size_t)>& content,
                  std::span<const std::filesystem::path> inputs = {}, const std::string& file = {});

}  // namespace mod
