// The manifest conflict check (issue 34 item 8): a dry run of N disjoint one-byte bytes.patch
// edits on the TotemTech sample archive, for N = 2,000 and 20,000. A near-linear check gives a
// time ratio near 10 (an all-pairs check gave about 100: 18.6 s for 20,000). The step times
// come from ApplyResult::timings ("plan", "conflict check"). Run by hand (never a timed test).
#include "timing.hpp"

#include "libmod/core/file.hpp"
#include "libmod/manifest/apply.hpp"
#include "libmod/manifest/manifest.hpp"
#include "libmod/sample/totem.hpp"

#include <cstdio>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string hex_byte(std::uint8_t b) {
    static const char* digits = "0123456789ABCDEF";
    return std::string{digits[b >> 4], digits[b & 15]};
}

// The manifest text of n disjoint one-byte patches from offset 0x800 on.
std::string manifest_text(const mod::Bytes& dgc, std::size_t n) {
    std::string edits;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t off = 0x800 + i;
        edits += (i ? ",\n" : "") + std::string(R"({"op": "bytes.patch", "offset": )") + std::to_string(off) +
                 R"(, "expect": ")" + hex_byte(dgc.at(off)) + R"(", "bytes": ")" + hex_byte(dgc[off] ^ 0xFF) + "\"}";
    }
    return R"({"modkit": 1, "name": "bench", "game": "totemtech",
  "inputs": {"data": {"path": "SAMPLE.DGC", "names": "names"}, "names": {"path": "SAMPLE.NGC"}},
  "outputs": {"data": "out/x.DGC"}, "edits": [)" + edits + "]}";
}

struct Run {
    double seconds = 0, conflict_ms = 0;
};

Run dry_run(const fs::path& dir, const mod::Bytes& dgc, std::size_t n) {
    const std::string text = manifest_text(dgc, n);
    Run best;
    best.seconds = bench::best_seconds(3, [&] {
        std::vector<mod::manifest::Manifest> ms;
        ms.push_back(mod::manifest::parse_manifest(text, dir / "mod.json", dir));
        mod::manifest::ApplyOptions o;
        o.dry_run = true;
        o.quiet = true;
        const auto r = mod::manifest::apply_manifests(ms, o);
        for (const auto& [step, ms_] : r.timings)
            if (step == "conflict check") best.conflict_ms = ms_;
    });
    return best;
}

}  // namespace

int main() {
    const fs::path dir = fs::temp_directory_path() / "bench_conflicts";
    fs::create_directories(dir);
    mod::sample::write_totem_sample(dir);
    const mod::Bytes dgc = mod::read_file(dir / "SAMPLE.DGC");
    if (dgc.size() < 0x800 + 20000) {
        std::fprintf(stderr, "the sample archive is too small for 20,000 one-byte edits\n");
        return 1;
    }
    const Run small = dry_run(dir, dgc, 2000), large = dry_run(dir, dgc, 20000);
    std::printf("2,000 disjoint edits, dry run (parse + load + plan + conflict check): %.3f s (conflict check %.1f ms)\n",
                small.seconds, small.conflict_ms);
    std::printf("20,000 disjoint edits, dry run: %.3f s (conflict check %.1f ms)\n", large.seconds, large.conflict_ms);
    std::printf("ratio 20,000 / 2,000: %.1f (near-linear: ~10; all pairs: ~100)\n",
                small.seconds > 0 ? large.seconds / small.seconds : 0.0);
    fs::remove_all(dir);
    return 0;
}
