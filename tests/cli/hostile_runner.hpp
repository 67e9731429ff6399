#pragma once
// The hostile-input catalogue's machinery (test_hostile_catalogue.cpp): hostile variants of a
// file (truncations, byte flips, crafted header words) and a runner that starts modkit on each
// with its stderr captured and its peak memory measured (wait4's rusage), two at a time.

#include "libmod/core/bytes.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hostile {

namespace fs = std::filesystem;

// A hostile file, kept as the original (shared), a length and a few changed bytes, so that a
// catalogue of 32 MiB ROMs does not hold a copy per variant.
struct Variant {
    std::string label;  // "trunc 123", "flip 0x40^FF", "word 0x10=FFFFFFFF"
    std::shared_ptr<const mod::Bytes> base;
    std::size_t size = 0;
    std::vector<std::pair<std::size_t, std::uint8_t>> edits;  // (offset, new byte)

    Variant() = default;
    Variant(std::string l, std::shared_ptr<const mod::Bytes> b, std::size_t n) : label(std::move(l)), base(std::move(b)), size(n) {}
    // A whole crafted file.
    Variant(std::string l, mod::Bytes whole);
    mod::Bytes bytes() const;
};

struct VariantOptions {
    std::size_t every_length_below = 2048;  // all truncations of smaller files
    std::size_t truncations = 48;           // else this many lengths, spread over the file
    std::size_t flips = 48;                 // random byte flips (0xFF, 0x80, 0x01 in turn)
    std::size_t header_bytes = 128;         // 32-bit words stomped in [0, header_bytes)
    std::vector<std::size_t> extra_words;   // and at these offsets (tables found by the caller)
    mod::Endian endian = mod::Endian::big;
    std::uint64_t seed = 21;
};

// Truncations, flips and, at every 4-aligned header word and extra word, 0xFFFFFFFF,
// 0x7FFFFFFF, the word's own offset (pointing at itself) and the file size + 0x100 (outside).
std::vector<Variant> variants(std::shared_ptr<const mod::Bytes> file, const VariantOptions& options);

// One run of the catalogue: a command line with the hostile file in place.
struct Case {
    std::string label;
    // {"IN"} is replaced by the hostile file, {"OUT/name"} by a path in a fresh output folder.
    std::vector<std::string> args;
    Variant input;               // the hostile file
    std::string input_name;      // its file name (the extension some commands look at)
    // Other files the command reads, unchanged: name -> bytes (written beside the input).
    std::vector<std::pair<std::string, mod::Bytes>> others;
    // Address space allowed (RLIMIT_AS, not applied under ASan): a reader that tries to use
    // more gets "out of memory", which the catalogue counts as a failure.
    std::uint64_t memory_bound = 0;
};

struct Outcome {
    std::string label;
    int exit_code = -1;   // -1: killed by a signal
    int signal = 0;
    std::string err;      // stderr
    std::uint64_t peak_rss = 0;     // wait4's ru_maxrss (Linux keeps the forked test's across exec)
    bool inputs_unchanged = true;
    std::vector<std::string> left;  // files left in the output folder
};

// Runs every case with `workers` processes at a time (each in its own scratch folder below
// `scratch`), modkit being `program`. CPU time per run is capped at 120 s (a hang is a signal).
std::vector<Outcome> run_all(const std::string& program, const std::vector<Case>& cases, const fs::path& scratch,
                             unsigned workers = 2);

}  // namespace hostile
