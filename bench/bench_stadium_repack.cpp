// Repacking the sample Stadium ROM's model archive: with no change (pure copying, target
// < 0.2 s for the whole 32 MiB image) and with every entry re-encoded (parallel, deterministic).
#include "timing.hpp"

#include "libmod/sample/stadium.hpp"
#include "libmod/stadium/archive.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <cstdio>

int main() {
    using namespace mod::stadium;
    const mod::Bytes image = mod::sample::stadium_rom();
    const StadiumRom rom = load_rom_bytes(image, "sample");
    // Calibration: one plain copy of the image on this machine (page faults included).
    mod::Bytes scratch;
    const double copy = bench::best_seconds(5, [&] { scratch = mod::Bytes(image.begin(), image.end()); });
    std::printf("one plain copy of the 32 MiB image: %.4f s\n", copy);
    const Archive archive = read_archive(rom);
    std::uint64_t decoded_bytes = 0, stored_bytes = 0;
    for (std::size_t i = 0; i < archive.entries.size(); ++i) {
        decoded_bytes += decode_entry(archive, i).content.size();
        stored_bytes += archive.entries[i].size;
    }
    std::printf("sample ROM: %zu bytes, %zu entries, %ju stored bytes, %ju decoded bytes\n", image.size(),
                archive.entries.size(), std::uintmax_t(stored_bytes), std::uintmax_t(decoded_bytes));

    mod::Bytes out;
    // The CLI's path: the file's bytes (here a copy of the image, as reading the file makes)
    // are moved in, the region repacked and written back in place, the image moved out.
    const double unchanged = bench::best_seconds(5, [&] {
        StadiumRom r = load_rom_bytes(mod::Bytes(image.begin(), image.end()), "sample");
        const Archive a = read_archive(r);
        apply_archive(r, repack_archive(a, {}));
        out = take_image(std::move(r));
    });
    std::printf("no change, ROM in -> ROM out:   %8.4f s  %8.1f MB/s  identical=%s\n", unchanged,
                bench::mb_per_s(image.size(), unchanged), out == image ? "yes" : "NO");

    mod::Bytes first;
    for (unsigned threads : {1u, 2u}) {
        RepackOptions opt;
        opt.reencode_all = true;
        opt.threads = threads;
        RepackResult result;
        const double t = bench::best_seconds(3, [&] { result = repack_archive(archive, {}, opt); });
        if (first.empty()) first = result.region;
        std::printf("every entry re-encoded, %u thread%s: %8.4f s  %8.2f MB/s of decoded data  (%zu re-encoded, same bytes as 1 thread: %s)\n",
                    threads, threads == 1 ? " " : "s", t, bench::mb_per_s(decoded_bytes, t), result.reencoded,
                    result.region == first ? "yes" : "NO");
    }
    return 0;
}
