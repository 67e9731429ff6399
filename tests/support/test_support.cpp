#include <fstream>
#include "test_support.hpp"

#include "libmod/core/file.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

namespace modtest {

fs::path shared_dir() {
    if (const char* env = std::getenv("MODKIT_SHARED")) return env;
    return MODKIT_SHARED_DIR;
}

fs::path corpus(const std::string& relative) { return shared_dir() / "corpus" / relative; }

mod::Bytes read(const fs::path& path) { return mod::read_file(path); }

std::vector<fs::path> yay0_corpus_files() {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(corpus("yay0")))
        if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

TempDir::TempDir() {
    static std::atomic<unsigned> counter{0};
    path_ = fs::path(MODKIT_BINARY_DIR) / "test-tmp" /
            (std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
}

void write_text_file(const fs::path& path, const std::string& text) {
    if (path.has_parent_path()) fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

namespace {
std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out + "'";
}

std::string slurp(const fs::path& p) {
    std::string s;
    if (FILE* f = std::fopen(p.c_str(), "rb")) {
        std::array<char, 4096> buf;
        std::size_t n;
        while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) s.append(buf.data(), n);
        std::fclose(f);
    }
    return s;
}
}  // namespace

CliResult run_cli(const std::vector<std::string>& args) {
    const char* exe = std::getenv("MODKIT_CLI");
    std::string program = exe ? exe : (fs::path(MODKIT_BINARY_DIR) / "modkit").string();
    TempDir tmp;
    std::string cmd = shell_quote(program);
    for (const auto& a : args) cmd += " " + shell_quote(a);
    cmd += " >" + shell_quote((tmp / "out").string()) + " 2>" + shell_quote((tmp / "err").string()) +
           " </dev/null";
    int status = std::system(cmd.c_str());
    CliResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(tmp / "out");
    r.err = slurp(tmp / "err");
    return r;
}

std::optional<mod::Error> catch_error(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const mod::Error& e) {
        return e;
    }
    BOOST_ERROR("expected a mod::Error, nothing was thrown");
    return std::nullopt;
}

std::size_t truncation_loop(const mod::Bytes& valid, const std::function<void(mod::ByteView)>& decode) {
    std::size_t rejected = 0;
    for (std::size_t len = 0; len < valid.size(); ++len) {
        // A private copy of exactly `len` bytes, so any overread lands outside the allocation
        // (visible under sanitizers and valgrind).
        mod::Bytes prefix(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(len));
        try {
            decode(prefix);
        } catch (const mod::Error&) {
            ++rejected;
        }
    }
    return rejected;
}

std::size_t byte_flip_loop(const mod::Bytes& valid, const std::function<void(mod::ByteView)>& decode,
                           std::size_t stride, std::vector<std::uint8_t> patterns) {
    std::size_t rejected = 0;
    mod::Bytes copy = valid;
    for (std::size_t i = 0; i < copy.size(); i += stride) {
        for (auto pattern : patterns) {
            copy[i] ^= pattern;
            try {
                decode(copy);
            } catch (const mod::Error&) {
                ++rejected;
            }
            copy[i] ^= pattern;
        }
    }
    return rejected;
}

std::uint64_t Rng::next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

mod::Bytes random_bytes(std::size_t n, std::uint64_t seed) {
    Rng rng(seed);
    mod::Bytes b(n);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng.next());
    return b;
}

mod::Bytes random_edits(const mod::Bytes& source, std::uint64_t seed, int edits, const EditScript& script) {
    Rng rng(seed);
    mod::Bytes t = source;
    for (int e = 0; e < edits; ++e) {
        const std::size_t n = t.size();
        const std::size_t at = n ? rng.below(static_cast<std::uint32_t>(n)) : 0;
        const std::size_t len = 1 + rng.below(script.max_len);
        switch (rng.below(4)) {
            case 0:  // overwrite
                for (std::size_t k = at; k < std::min(n, at + len); ++k) t[k] = static_cast<std::uint8_t>(rng.next());
                break;
            case 1: {  // insert
                mod::Bytes ins(len);
                for (std::size_t k = 0; k < len; ++k)
                    ins[k] = script.text_inserts ? static_cast<std::uint8_t>('a' + (k * 7 + std::size_t(e)) % 26)
                                                 : static_cast<std::uint8_t>(rng.next());
                t.insert(t.begin() + static_cast<std::ptrdiff_t>(at), ins.begin(), ins.end());
                break;
            }
            case 2:  // delete
                t.erase(t.begin() + static_cast<std::ptrdiff_t>(at), t.begin() + static_cast<std::ptrdiff_t>(std::min(n, at + len)));
                break;
            default: {  // copy a block from elsewhere
                if (n == 0) break;
                const std::size_t from = rng.below(static_cast<std::uint32_t>(n));
                const mod::Bytes block(t.begin() + static_cast<std::ptrdiff_t>(from),
                                       t.begin() + static_cast<std::ptrdiff_t>(std::min(n, from + len * script.copy_factor)));
                t.insert(t.begin() + static_cast<std::ptrdiff_t>(at), block.begin(), block.end());
            }
        }
    }
    return t;
}

std::string without_viewer_scripts(const std::string& html, std::size_t* scripts) {
    if (scripts) *scripts = 0;
    const std::size_t from = html.find("<!-- The 3D view: <model-viewer>");
    const std::size_t body = html.rfind("</body>");
    if (from == std::string::npos || body == std::string::npos || body < from) return html;
    const std::string cut = html.substr(from, body - from);
    if (scripts)
        for (std::size_t at = cut.find("<script>"); at != std::string::npos; at = cut.find("<script>", at + 1)) ++*scripts;
    return html.substr(0, from) + html.substr(body);
}

}  // namespace modtest
