#pragma once
// Zip archives through libzip, for mod packs (pack.hpp): written in memory with fixed dates and
// attributes (the same files give the same bytes), read with every entry checked before a byte
// of it is kept.

#include "libmod/core/bytes.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace mod::manifest::detail {

struct ZipEntry {
    std::string name;  // relative, '/' between folders
    Bytes data;
};

// A zip of `entries` in the order given, deflated (level 9; stored where that is not smaller),
// every entry dated 1980-01-01 00:00 with mode 0644, and `comment` as the archive comment.
Bytes write_zip(const std::vector<ZipEntry>& entries, const std::string& comment);

struct ZipLimits {
    std::uint64_t max_entries = 10000;
    std::uint64_t max_total = std::uint64_t(2) << 30;  // uncompressed bytes, all entries
};

struct ZipContents {
    std::vector<ZipEntry> files;  // folders left out
    std::string comment;
};

// Reads every entry of the zip in `bytes` (`file` names it in errors). Format errors name the
// entry (index and name) and what is wrong: an unreadable archive, a damaged or encrypted
// entry, a name that is absolute, holds "..", a backslash, a control byte or a drive letter,
// two entries of one name (compared case-folded), a symlink entry; limit errors before
// allocating for more entries or bytes than `limits` allow (the declared sizes are checked
// first, then each read is held to its declaration).
ZipContents read_zip(ByteView bytes, const std::string& file, const ZipLimits& limits = {});

}  // namespace mod::manifest::detail
