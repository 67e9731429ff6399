// Texel and quantiser benchmark: decode throughput per format (64x64 textures, MB/s of texel
// data and Mtexels/s), TLUT decode of CI textures, and quantiser time for 64x64 and 256x256
// images (photo-like gradient with noise) at 16 and 256 colours, 1 thread and all threads,
// with the mean/max ΔE reached. Usage: bench_texels [REPEATS]
#include "timing.hpp"

#include "libmod/image/quantise.hpp"
#include "libmod/n64/texel.hpp"
#include "libmod/n64/tlut.hpp"

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

mod::Bytes noise(std::size_t n, std::uint64_t seed) {
    mod::Bytes b(n);
    for (auto& x : b) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        x = static_cast<std::uint8_t>(seed >> 56);
    }
    return b;
}

mod::image::RgbaImage test_image(std::uint32_t size) {
    mod::image::RgbaImage img{size, size, mod::Bytes(std::size_t(size) * size * 4)};
    mod::Bytes jitter = noise(img.pixels.size(), size);
    for (std::uint32_t y = 0; y < size; ++y)
        for (std::uint32_t x = 0; x < size; ++x) {
            std::uint8_t* p = &img.pixels[4 * (std::size_t(y) * size + x)];
            const std::uint8_t* j = &jitter[4 * (std::size_t(y) * size + x)];
            p[0] = static_cast<std::uint8_t>(std::min(255u, x * 255 / size + j[0] % 12));
            p[1] = static_cast<std::uint8_t>(std::min(255u, y * 200 / size + j[1] % 12));
            p[2] = static_cast<std::uint8_t>(std::min(255u, (x ^ y) % 64 * 3 + j[2] % 12));
            p[3] = (x < size / 8 && y < size / 8) ? 0 : 255;
        }
    return img;
}

}  // namespace

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::atoi(argv[1]) : 5;
    using mod::n64::TexelFormat;
    const std::uint32_t w = 64, h = 64;
    const int batch = 200;  // textures per timed run
    std::printf("decode, %d textures of %ux%u per run, best of %d\n", batch, w, h, repeats);
    mod::n64::Tlut tlut;
    for (unsigned i = 0; i < 256; ++i) tlut.entries.push_back(static_cast<std::uint16_t>(i * 257));
    for (auto f : mod::n64::all_texel_formats) {
        mod::Bytes data = noise(mod::n64::texel_bytes(f, std::uint64_t(w) * h), static_cast<unsigned>(f) + 1);
        mod::ByteReader r(data, mod::Endian::big);
        std::size_t sink = 0;
        double s = bench::best_seconds(repeats, [&] {
            for (int i = 0; i < batch; ++i) {
                auto out = mod::n64::is_ci(f) ? mod::n64::decode_ci_rgba(f, r, w, h, tlut)
                                              : mod::n64::decode_rgba(f, r, w, h);
                sink += out[0];
            }
        });
        double texels = double(batch) * w * h;
        std::printf("  %-7s %8.1f MB/s of texels  %8.1f Mtexel/s  (sink %zu)\n", mod::n64::to_string(f),
                    bench::mb_per_s(std::uint64_t(data.size()) * batch, s), texels / s / 1e6, sink % 10);
    }
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    std::printf("quantise (median cut + k-means in Oklab, RGBA5551), %u cores\n", cores);
    for (std::uint32_t size : {64u, 256u}) {
        auto img = test_image(size);
        for (unsigned colours : {16u, 256u}) {
            for (unsigned threads : {1u, 0u}) {
                mod::image::QuantiseOptions o;
                o.palette_size = colours;
                o.threads = threads;
                mod::image::QuantiseResult r;
                double s = bench::best_seconds(std::max(1, repeats / 2), [&] { r = mod::image::quantise(std::span(&img, 1), o); });
                std::printf("  %3ux%-3u %3u colours %s  %8.1f ms  %u distinct in, %zu written, %u collapsed, "
                            "mean dE %.2f, max dE %.2f\n",
                            size, size, colours, threads == 1 ? "1 thread " : "all cores", s * 1e3, r.distinct_colours,
                            r.written_slots.size(), r.collapsed, r.reports[0].mean_delta_e, r.reports[0].max_delta_e);
            }
        }
    }
    return 0;
}
