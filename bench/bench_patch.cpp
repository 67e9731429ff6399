// Patch creation and application speed and size: BPS and zstd (MZPT) on a 32 MiB ROM-like
// image with typical mod edits (model-archive entries rewritten, a block inserted, the header
// CRC changed). Run by hand: bench_patch [repeats].
#include "timing.hpp"

#include "libmod/codec/bps.hpp"
#include "libmod/codec/zstd_patch.hpp"
#include "libmod/core/bytes.hpp"

#include <cstdio>
#include <cstdlib>

namespace {

// Deterministic, compressible-but-not-trivial content: runs of a few repeated structures with
// noise, like ROM data (code, compressed blobs and padding).
mod::Bytes make_rom(std::size_t size) {
    mod::Bytes rom(size);
    std::uint64_t s = 0x1234567;
    for (std::size_t i = 0; i < size; ++i) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        const std::size_t region = (i >> 16) % 4;
        rom[i] = region == 0 ? 0 : region == 1 ? static_cast<std::uint8_t>(s >> 56)
                                : static_cast<std::uint8_t>((i * 7) ^ (s >> 60));
    }
    return rom;
}

mod::Bytes edit(const mod::Bytes& rom) {
    mod::Bytes t = rom;
    std::uint64_t s = 99;
    for (int e = 0; e < 40; ++e) {  // 40 "entries" of 4-40 KB rewritten
        s = s * 6364136223846793005ull + 1;
        const std::size_t at = 0x920000 + (s >> 40) % 0x1000000;
        const std::size_t len = 4096 + (s >> 20) % 36864;
        for (std::size_t k = 0; k < len && at + k < t.size(); ++k) t[at + k] = static_cast<std::uint8_t>(s >> (k % 56));
    }
    t.insert(t.begin() + 0x1800000, 70000, 0xAB);  // a grown entry shifts what follows
    t[0x10] ^= 0xFF;
    return t;
}

}  // namespace

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::atoi(argv[1]) : 1;
    const mod::Bytes source = make_rom(32u << 20);
    const mod::Bytes target = edit(source);
    std::printf("source %zu bytes, target %zu bytes\n", source.size(), target.size());
    std::printf("%-14s %12s %10s %10s %10s\n", "format", "patch bytes", "create s", "apply s", "apply MB/s");

    mod::Bytes bps;
    const double bps_create = bench::best_seconds(repeats, [&] { bps = mod::bps::create(source, target); });
    const double bps_apply = bench::best_seconds(repeats, [&] {
        if (mod::bps::apply(bps, source) != target) std::abort();
    });
    std::printf("%-14s %12zu %10.3f %10.3f %10.1f\n", "bps", bps.size(), bps_create, bps_apply,
                bench::mb_per_s(target.size(), bps_apply));

    for (int level : {3, 9, 19}) {
        mod::Bytes z;
        mod::zpatch::CreateOptions o;
        o.level = level;
        const double create = bench::best_seconds(repeats, [&] { z = mod::zpatch::create(source, target, o); });
        const double apply = bench::best_seconds(repeats, [&] {
            if (mod::zpatch::apply(z, source) != target) std::abort();
        });
        char name[32];
        std::snprintf(name, sizeof name, "zpatch -%d", level);
        std::printf("%-14s %12zu %10.3f %10.3f %10.1f\n", name, z.size(), create, apply,
                    bench::mb_per_s(target.size(), apply));
    }
    return 0;
}
