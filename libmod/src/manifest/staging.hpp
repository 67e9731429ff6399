#pragma once
// All-or-none output: every file is first written to a temporary file beside its destination
// (mod::PendingOutput: same checks and naming as write_file_atomic, removed on SIGINT/SIGTERM);
// commit() renames them all into place once every one exists. Destroying an uncommitted stage
// removes its temporary files and the folders it created. Internal to the manifest layer.

#include "libmod/core/bytes.hpp"
#include "libmod/core/file.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace mod::manifest::detail {

class Stage {
public:
    // `inputs`: every file the build read; no output may be one of them (by file identity).
    explicit Stage(std::vector<std::filesystem::path> inputs);
    ~Stage();
    Stage(const Stage&) = delete;
    Stage& operator=(const Stage&) = delete;

    // Checks the destination (not an input, not another output, not a folder or special
    // file), creates its folder if needed and writes the temporary file. Throws io/conflict.
    void add(const std::filesystem::path& destination, ByteView data);
    // Renames every temporary file into place (keeping an existing destination's permissions).
    void commit();

private:
    std::vector<std::filesystem::path> inputs_;
    std::vector<std::filesystem::path> destinations_;
    std::vector<std::unique_ptr<PendingOutput>> items_;
    std::vector<std::filesystem::path> created_dirs_;  // deepest last
    bool committed_ = false;
};

}  // namespace mod::manifest::detail
