// Plain driver for fuzz targets built without libFuzzer: replays seed inputs and a fixed,
// seeded set of mutations of each, so fuzz targets double as regression tests under g++.
// A target may throw mod::Error (clean rejection); any other escape, crash or sanitizer
// report fails the run.
// --memory-limit-mb N bounds the address space (RLIMIT_AS) so that an input making a decoder
// allocate without bound (a size word of 0xFFFFF800 taken at its word) fails the run with
// std::bad_alloc instead of passing on a machine with memory to spare. Not under ASan, whose
// shadow memory needs terabytes of address space (libFuzzer's -rss_limit_mb/-malloc_limit_mb
// cover that build: doc/fuzzing.md).

#include "libmod/core/error.hpp"
#include "libmod/core/file.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/resource.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

std::uint64_t splitmix(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void run_one(const std::vector<std::uint8_t>& input) {
    // Exact-size heap copy so an overread is visible to valgrind and sanitizers.
    std::unique_ptr<std::uint8_t[]> copy(new std::uint8_t[input.size() ? input.size() : 1]);
    if (!input.empty()) std::memcpy(copy.get(), input.data(), input.size());
    LLVMFuzzerTestOneInput(copy.get(), input.size());
}

std::vector<std::uint8_t> mutate(const std::vector<std::uint8_t>& seed, std::uint64_t& rng) {
    std::vector<std::uint8_t> m = seed;
    switch (splitmix(rng) % 5) {
    case 0:  // truncate
        m.resize(m.empty() ? 0 : splitmix(rng) % m.size());
        break;
    case 1:  // flip bits
        for (int i = 0, n = 1 + static_cast<int>(splitmix(rng) % 8); i < n && !m.empty(); ++i)
            m[splitmix(rng) % m.size()] ^= static_cast<std::uint8_t>(1u << (splitmix(rng) % 8));
        break;
    case 2:  // overwrite a word with an extreme value
        if (m.size() >= 4) {
            std::size_t at = (splitmix(rng) % (m.size() - 3)) & ~std::size_t(3);
            static const std::uint32_t extremes[] = {0, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 1, 0x10};
            std::uint32_t v = extremes[splitmix(rng) % 6];
            for (int k = 0; k < 4; ++k) m[at + k] = static_cast<std::uint8_t>(v >> (24 - 8 * k));
        }
        break;
    case 3:  // duplicate a range (shifts everything after it)
        if (!m.empty()) {
            std::size_t a = splitmix(rng) % m.size();
            std::size_t n = std::min<std::size_t>(splitmix(rng) % 64 + 1, m.size() - a);
            m.insert(m.begin() + static_cast<std::ptrdiff_t>(a), m.begin() + static_cast<std::ptrdiff_t>(a),
                     m.begin() + static_cast<std::ptrdiff_t>(a + n));
        }
        break;
    default:  // random bytes at a random place
        for (int i = 0, n = 1 + static_cast<int>(splitmix(rng) % 16); i < n && !m.empty(); ++i)
            m[splitmix(rng) % m.size()] = static_cast<std::uint8_t>(splitmix(rng));
    }
    return m;
}

std::string expand(std::string line, const std::string& shared, const std::string& build) {
    auto replace = [&](const std::string& key, const std::string& value) {
        if (line.rfind(key, 0) == 0) line = value + line.substr(key.size());
    };
    replace("$SHARED", shared);
    replace("$BUILD", build);
    return line;
}

bool under_address_sanitizer() {
#if defined(__SANITIZE_ADDRESS__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return true;
#else
    return false;
#endif
#else
    return false;
#endif
}

}  // namespace

int main(int argc, char** argv) {
    int mutations = 0;
    unsigned long memory_limit_mb = 0;
    std::string seeds_file, shared = ".", build = ".";
    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--mutations" && i + 1 < argc) mutations = std::stoi(argv[++i]);
        else if (a == "--seeds-file" && i + 1 < argc) seeds_file = argv[++i];
        else if (a == "--shared" && i + 1 < argc) shared = argv[++i];
        else if (a == "--build" && i + 1 < argc) build = argv[++i];
        else if (a == "--memory-limit-mb" && i + 1 < argc) memory_limit_mb = std::stoul(argv[++i]);
        else inputs.emplace_back(a);
    }
    if (!seeds_file.empty()) {
        std::ifstream in(seeds_file);
        for (std::string line; std::getline(in, line);)
            if (!line.empty() && line[0] != '#') inputs.emplace_back(expand(line, shared, build));
    }
    std::vector<fs::path> files;
    for (const auto& p : inputs) {
        if (fs::is_directory(p)) {
            for (const auto& e : fs::recursive_directory_iterator(p))
                if (e.is_regular_file()) files.push_back(e.path());
        } else if (fs::is_regular_file(p)) {
            files.push_back(p);
        } else {
            std::fprintf(stderr, "fuzz replay: seed not found: %s\n", p.c_str());
            return 1;
        }
    }
    std::sort(files.begin(), files.end());
    if (memory_limit_mb && !under_address_sanitizer()) {
        const rlim_t bytes = rlim_t(memory_limit_mb) << 20;
        const rlimit limit{bytes, bytes};
        if (setrlimit(RLIMIT_AS, &limit) != 0) {
            std::perror("fuzz replay: setrlimit(RLIMIT_AS)");
            return 1;
        }
    }
    std::size_t runs = 0;
    for (const auto& f : files) {
        auto seed = mod::read_file(f);
        run_one(seed);
        ++runs;
        std::uint64_t rng = std::hash<std::string>{}(f.filename().string());
        for (int m = 0; m < mutations; ++m, ++runs) run_one(mutate(seed, rng));
    }
    std::printf("fuzz replay: %zu inputs from %zu seeds, no crash%s\n", runs, files.size(),
                memory_limit_mb && !under_address_sanitizer() ? " within the memory limit" : "");
    return files.empty() ? 1 : 0;
}
