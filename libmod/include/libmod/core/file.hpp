#pragma once
// File input and atomic output.
//
// Inputs are never modified: write_file_atomic refuses an output that is the same file as any
// listed input, writes to a temporary file in the destination folder and renames it over the
// destination only after every byte is written, so a failure never leaves a half file.

#include "libmod/core/bytes.hpp"

#include <filesystem>
#include <initializer_list>
#include <span>

namespace mod {

inline constexpr std::uint64_t default_max_input = 1ull << 32;  // 4 GiB

// Read a whole file. Throws io when unreadable, limit when larger than max_size.
Bytes read_file(const std::filesystem::path& path, std::uint64_t max_size = default_max_input);

// Write `data` to `path` atomically. Throws conflict when `path` is one of `inputs`
// (same file, even through another name), io on any write failure.
void write_file_atomic(const std::filesystem::path& path, ByteView data,
                       std::span<const std::filesystem::path> inputs = {});
void write_file_atomic(const std::filesystem::path& path, std::string_view text,
                       std::span<const std::filesystem::path> inputs = {});

// Throws conflict when `output` names the same file as any of `inputs`.
void ensure_distinct_output(const std::filesystem::path& output,
                            std::span<const std::filesystem::path> inputs);

}  // namespace mod
