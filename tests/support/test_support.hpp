#pragma once
// Shared helpers for modkit's tests: where the shared corpus is, scratch folders, running the
// CLI, and the "every truncation / every byte flip fails cleanly" loops.

#include "libmod/core/bytes.hpp"
#include "libmod/core/error.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace modtest {

namespace fs = std::filesystem;

// ../shared (MODKIT_SHARED env var overrides the configured path).
fs::path shared_dir();
fs::path corpus(const std::string& relative);
mod::Bytes read(const fs::path& path);
// Writes `text` to `path` (its folder created), for fixtures tests make.
void write_text_file(const fs::path& path, const std::string& text);
// The Yay0 corpus inputs (excluding nintendo-parse/), sorted by name.
std::vector<fs::path> yay0_corpus_files();

// A fresh empty folder under the build tree, removed on destruction.
class TempDir {
public:
    TempDir();
    ~TempDir();
    const fs::path& path() const { return path_; }
    fs::path operator/(const std::string& name) const { return path_ / name; }

private:
    fs::path path_;
};

struct CliResult {
    int exit_code = -1;
    std::string out;
    std::string err;
};
// Runs the built modkit executable (MODKIT_CLI env var, set by CTest) with `args`.
CliResult run_cli(const std::vector<std::string>& args);

// Calls fn and returns the mod::Error it threw; fails the test if it did not throw one.
std::optional<mod::Error> catch_error(const std::function<void()>& fn);

// A report page without the 3D view's two script elements (model-viewer's bundle and the
// controller, which the page puts last, right before </body>, after an HTML comment naming the
// bundle): what the page's own rules (no script, no url(), no URL in a tag, no timings) are
// checked on; the browser test checks that the scripts request nothing. `scripts` gets the
// number of <script> elements cut (0 for a page without a 3D view).
std::string without_viewer_scripts(const std::string& html, std::size_t* scripts = nullptr);

// Runs `decode` on every strict prefix of `valid` and requires each to either throw mod::Error
// or return normally (a prefix may itself be valid); anything else (crash, other exception)
// fails. Returns how many prefixes were rejected.
std::size_t truncation_loop(const mod::Bytes& valid,
                            const std::function<void(mod::ByteView)>& decode);

// Flips every bit pattern in `patterns` at every `stride`-th byte and requires decode to
// throw mod::Error or succeed; returns how many variants were rejected.
std::size_t byte_flip_loop(const mod::Bytes& valid, const std::function<void(mod::ByteView)>& decode,
                           std::size_t stride = 1, std::vector<std::uint8_t> patterns = {0xFF, 0x80, 0x01});

// Deterministic pseudo-random bytes (splitmix64) for property tests.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    std::uint32_t below(std::uint32_t bound) { return static_cast<std::uint32_t>(next() % bound); }

private:
    std::uint64_t state_;
};

// `n` bytes from Rng(seed).
mod::Bytes random_bytes(std::size_t n, std::uint64_t seed);

// A random edit script for patch tests: `edits` overwrites, insertions, deletions and copies of
// a block from elsewhere (a move or duplication), each 1..max_len bytes (copies copy_factor times
// that), from Rng(seed). text_inserts: insertions are letters (as new text is), else random.
struct EditScript {
    std::uint32_t max_len = 64;
    std::size_t copy_factor = 8;
    bool text_inserts = false;
};
mod::Bytes random_edits(const mod::Bytes& source, std::uint64_t seed, int edits, const EditScript& script = {});

}  // namespace modtest
