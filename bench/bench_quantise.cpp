// The quantiser against libimagequant (issue 20): a fixed set of 256x256 images (generated
// deterministically, plus the RGBA pictures of ../shared/corpus/yay0) quantised by
// mod::image::quantise (one thread) and by libimagequant (default speed 4, no dithering, one
// OpenMP thread: the program re-runs itself with OMP_NUM_THREADS=1) in the same process,
// alternating (modkit first on even rounds), timed in process CPU time. Prints per image and
// colour count: the medians, their ratio modkit / libimagequant, and the mean and max CIEDE2000
// between each opaque input pixel and the colour its index shows (modkit's palette is RGBA5551,
// libimagequant's RGBA8). Checks that modkit gives the same palette and indices with all
// threads as with one.
//
// Usage: bench_quantise [--rounds N] [--colours 16,256] [--save FILE] [--baseline FILE]
//   --save FILE      writes "image colours mean max" of modkit's ΔE per image (the baseline)
//   --baseline FILE  compares modkit's ΔE with a saved baseline; exit 1 if any mean is worse
//   --iterations N   modkit's k-means rounds (QuantiseOptions::max_iterations; default as the library)
#include "timing.hpp"

#include "libmod/image/colour.hpp"
#include "libmod/image/quantise.hpp"

#include <libimagequant.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using mod::image::Rgba8;
using mod::image::RgbaImage;

constexpr std::uint32_t side = 256;

struct Named {
    std::string name;
    RgbaImage image;
};

std::uint64_t lcg(std::uint64_t& s) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 33;
}

RgbaImage blank() { return {side, side, mod::Bytes(std::size_t(side) * side * 4)}; }

void put(RgbaImage& img, std::uint32_t x, std::uint32_t y, Rgba8 c) {
    std::uint8_t* p = &img.pixels[4 * (std::size_t(y) * side + x)];
    p[0] = c.r, p[1] = c.g, p[2] = c.b, p[3] = c.a;
}

std::uint8_t clamp8(double v) { return static_cast<std::uint8_t>(std::clamp(v, 0.0, 255.0) + 0.5); }

// Gradient with xor texture and uniform noise (the image bench_texels uses, opaque).
RgbaImage photo_gradient() {
    RgbaImage img = blank();
    std::uint64_t s = 1;
    for (std::uint32_t y = 0; y < side; ++y)
        for (std::uint32_t x = 0; x < side; ++x)
            put(img, x, y,
                {static_cast<std::uint8_t>(std::min<std::uint64_t>(255, x * 255 / side + lcg(s) % 12)),
                 static_cast<std::uint8_t>(std::min<std::uint64_t>(255, y * 200 / side + lcg(s) % 12)),
                 static_cast<std::uint8_t>(std::min<std::uint64_t>(255, (x ^ y) % 64 * 3 + lcg(s) % 12)), 255});
    return img;
}

// Smooth blend of three coloured light sources with small noise: a "sky and skin" picture.
RgbaImage photo_smooth() {
    RgbaImage img = blank();
    std::uint64_t s = 2;
    for (std::uint32_t y = 0; y < side; ++y)
        for (std::uint32_t x = 0; x < side; ++x) {
            const double u = x / 255.0, v = y / 255.0;
            const double w1 = std::exp(-((u - 0.2) * (u - 0.2) + (v - 0.3) * (v - 0.3)) * 6);
            const double w2 = std::exp(-((u - 0.8) * (u - 0.8) + (v - 0.7) * (v - 0.7)) * 5);
            const double w3 = 0.5 + 0.5 * std::sin(u * 9 + v * 4);
            const double n = static_cast<double>(lcg(s) % 7) - 3;
            put(img, x, y,
                {clamp8(40 + 200 * w1 + 60 * w3 + n), clamp8(60 + 90 * w2 + 70 * w1 * w3 + n),
                 clamp8(90 + 150 * w2 - 50 * w1 + 30 * w3 + n), 255});
        }
    return img;
}

// Filled circles and rectangles in `colours` flat colours on a transparent background; with
// `aa`, circle edges blend with what is below (anti-aliased sprites: a few hundred colours).
RgbaImage sprite(unsigned colours, bool aa, std::uint64_t seed) {
    RgbaImage img = blank();
    std::uint64_t s = seed;
    std::vector<Rgba8> palette;
    for (unsigned i = 0; i < colours; ++i)
        palette.push_back({static_cast<std::uint8_t>(lcg(s)), static_cast<std::uint8_t>(lcg(s)),
                           static_cast<std::uint8_t>(lcg(s)), 255});
    for (unsigned shape = 0; shape < 60; ++shape) {
        const Rgba8 c = palette[shape % colours];
        const double cx = static_cast<double>(lcg(s) % side), cy = static_cast<double>(lcg(s) % side);
        const double r = 6 + static_cast<double>(lcg(s) % 40);
        const bool circle = lcg(s) % 3 != 0;
        for (std::uint32_t y = 0; y < side; ++y)
            for (std::uint32_t x = 0; x < side; ++x) {
                double cover;
                if (circle) {
                    const double d = std::hypot(x + 0.5 - cx, y + 0.5 - cy);
                    cover = aa ? std::clamp(r - d + 0.5, 0.0, 1.0) : (d <= r ? 1.0 : 0.0);
                } else {
                    cover = std::fabs(x - cx) <= r && std::fabs(y - cy) <= r * 0.6 ? 1.0 : 0.0;
                }
                if (cover <= 0) continue;
                std::uint8_t* p = &img.pixels[4 * (std::size_t(y) * side + x)];
                if (p[3] == 0 || cover >= 1) {
                    put(img, x, y, c);
                } else {
                    p[0] = clamp8(p[0] * (1 - cover) + c.r * cover);
                    p[1] = clamp8(p[1] * (1 - cover) + c.g * cover);
                    p[2] = clamp8(p[2] * (1 - cover) + c.b * cover);
                }
            }
    }
    return img;
}

// A W x H picture cropped (centred) or mirrored at the bottom/right edge to 256 x 256.
RgbaImage fit(const std::vector<Rgba8>& src, std::uint32_t w, std::uint32_t h) {
    RgbaImage img = blank();
    const std::uint32_t x0 = w > side ? (w - side) / 2 : 0, y0 = h > side ? (h - side) / 2 : 0;
    for (std::uint32_t y = 0; y < side; ++y)
        for (std::uint32_t x = 0; x < side; ++x) {
            std::uint32_t sx = x0 + x, sy = y0 + y;
            if (sx >= w) sx = 2 * w - 1 - sx;
            if (sy >= h) sy = 2 * h - 1 - sy;
            put(img, x, y, src[std::size_t(sy) * w + sx]);
        }
    return img;
}

std::vector<std::uint8_t> read_all(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// The corpus's pictures (framebuffer dumps: their alpha is coverage, so every pixel is opaque).
void corpus_images(std::vector<Named>& out) {
    const auto dir = bench::shared_dir() / "corpus" / "yay0";
    auto fb16 = read_all(dir / "pl_fb16_image.rgba16");  // 320x240 RGBA5551, big-endian
    if (fb16.size() == 320 * 240 * 2) {
        std::vector<Rgba8> px;
        for (std::size_t i = 0; i < fb16.size(); i += 2) {
            Rgba8 c = mod::image::from_rgba5551(static_cast<std::uint16_t>(fb16[i] << 8 | fb16[i + 1]));
            c.a = 255;
            px.push_back(c);
        }
        out.push_back({"corpus_fb16", fit(px, 320, 240)});
    }
    auto fb32 = read_all(dir / "pl_vi_coverage_fb.rgba");  // 320x237 RGBA8
    if (fb32.size() == 320 * 237 * 4) {
        std::vector<Rgba8> px;
        for (std::size_t i = 0; i < fb32.size(); i += 4) px.push_back({fb32[i], fb32[i + 1], fb32[i + 2], 255});
        out.push_back({"corpus_vi_fb", fit(px, 320, 237)});
    }
    auto i8 = read_all(dir / "pl_frame.i8");  // 320x240 I8
    if (i8.size() == 320 * 240) {
        std::vector<Rgba8> px;
        for (auto v : i8) px.push_back({v, v, v, 255});
        out.push_back({"corpus_frame_i8", fit(px, 320, 240)});
    }
}

double cpu_now() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + t.tv_nsec * 1e-9;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

struct Quality {
    double mean = 0, max = 0;
};

// CIEDE2000 between each opaque input pixel and the colour shown through the palette.
Quality measure(const RgbaImage& img, const std::vector<Rgba8>& palette, const std::uint8_t* indices) {
    Quality q;
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < img.pixel_count(); ++i) {
        const Rgba8 in = img.at(i);
        if (in.a < 128) continue;
        const double d = mod::image::ciede2000(mod::image::to_cielab(in), mod::image::to_cielab(palette[indices[i]]));
        q.mean += d, q.max = std::max(q.max, d);
        ++n;
    }
    q.mean = n ? q.mean / static_cast<double>(n) : 0;
    return q;
}

struct Output {
    std::vector<Rgba8> palette;
    std::vector<std::uint8_t> indices;
};

unsigned iterations = mod::image::QuantiseOptions{}.max_iterations;

Output run_modkit(const RgbaImage& img, unsigned colours, unsigned threads) {
    mod::image::QuantiseOptions o;
    o.max_iterations = iterations;
    o.palette_size = colours;
    o.threads = threads;
    auto r = mod::image::quantise(std::span(&img, 1), o);
    Output out;
    for (auto c : r.palette) out.palette.push_back(mod::image::from_rgba5551(c));
    out.indices.assign(r.indices[0].begin(), r.indices[0].end());
    return out;
}

// lattice5551: libimagequant told that only 5 bits per channel survive (min posterization 3)
// and its palette snapped to RGBA5551, as a CI texture's TLUT would store it.
Output run_liq(const RgbaImage& img, unsigned colours, bool lattice5551 = false) {
    liq_attr* attr = liq_attr_create();
    liq_set_max_colors(attr, static_cast<int>(colours));
    if (lattice5551) liq_set_min_posterization(attr, 3);
    liq_image* image = liq_image_create_rgba(attr, img.pixels.data(), static_cast<int>(img.width),
                                             static_cast<int>(img.height), 0);
    liq_result* result = nullptr;
    Output out;
    if (liq_image_quantize(image, attr, &result) != LIQ_OK) {
        std::fprintf(stderr, "libimagequant failed\n");
        std::exit(2);
    }
    liq_set_dithering_level(result, 0);
    out.indices.resize(img.pixel_count());
    liq_write_remapped_image(result, image, out.indices.data(), out.indices.size());
    const liq_palette* pal = liq_get_palette(result);
    for (unsigned i = 0; i < pal->count; ++i)
        out.palette.push_back({pal->entries[i].r, pal->entries[i].g, pal->entries[i].b, pal->entries[i].a});
    if (lattice5551)
        for (auto& c : out.palette) c = mod::image::snap_rgba5551(c);
    liq_result_destroy(result);
    liq_image_destroy(image);
    liq_attr_destroy(attr);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    // libgomp reads OMP_NUM_THREADS when it is loaded, before main: re-run with it set.
    if (const char* omp = std::getenv("OMP_NUM_THREADS"); !omp || std::strcmp(omp, "1") != 0) {
        setenv("OMP_NUM_THREADS", "1", 1);
        execv("/proc/self/exe", argv);
        std::perror("execv");
        return 2;
    }
    int rounds = 7;
    std::vector<unsigned> colour_counts = {16, 256};
    std::string save, baseline;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--rounds" && i + 1 < argc) rounds = std::max(1, std::atoi(argv[++i]));
        else if (a == "--save" && i + 1 < argc) save = argv[++i];
        else if (a == "--baseline" && i + 1 < argc) baseline = argv[++i];
        else if (a == "--iterations" && i + 1 < argc) iterations = static_cast<unsigned>(std::atoi(argv[++i]));
        else if (a == "--colours" && i + 1 < argc) {
            colour_counts.clear();
            std::stringstream ss(argv[++i]);
            for (std::string t; std::getline(ss, t, ',');) colour_counts.push_back(static_cast<unsigned>(std::stoul(t)));
        } else {
            std::fprintf(stderr, "usage: bench_quantise [--rounds N] [--colours 16,256] [--save FILE] [--baseline FILE] [--iterations N]\n");
            return 1;
        }
    }
    std::map<std::string, Quality> base;
    if (!baseline.empty()) {
        std::ifstream f(baseline);
        std::string name;
        unsigned c;
        Quality q;
        while (f >> name >> c >> q.mean >> q.max) base[name + "/" + std::to_string(c)] = q;
        if (base.empty()) {
            std::fprintf(stderr, "no baseline in %s\n", baseline.c_str());
            return 1;
        }
    }

    std::vector<Named> set;
    set.push_back({"photo_gradient", photo_gradient()});
    set.push_back({"photo_smooth", photo_smooth()});
    set.push_back({"sprite_12", sprite(12, false, 3)});
    set.push_back({"sprite_aa", sprite(24, true, 4)});
    corpus_images(set);

    std::printf("quantiser vs libimagequant %s (speed 4, no dithering, 1 thread), 256x256, median of %d "
                "alternating rounds, process CPU time\n",
                LIQ_VERSION_STRING, rounds);
    std::printf("%-16s %4s %9s %9s %6s | %7s %7s %7s | %7s %7s | %7s %7s %s\n", "image", "cols", "modkit ms", "liq ms",
                "ratio", "mk mean", "mk max", "base", "liq mean", "liq max", "liq5551", "max", "");
    std::ofstream saved;
    if (!save.empty()) saved.open(save);
    saved.precision(17);
    int worse = 0, nondeterministic = 0;
    for (unsigned colours : colour_counts) {
        double sum_mk = 0, sum_liq = 0, sum_liq5 = 0, worst_ratio = 0;
        std::vector<double> ratios;
        for (const auto& [name, img] : set) {
            std::vector<double> tm, tl;
            Output mk, lq;
            for (int r = 0; r < rounds; ++r) {
                for (int side_ = 0; side_ < 2; ++side_) {
                    const bool modkit_now = (side_ == 0) == (r % 2 == 0);
                    const double t0 = cpu_now();
                    if (modkit_now) mk = run_modkit(img, colours, 1);
                    else lq = run_liq(img, colours);
                    (modkit_now ? tm : tl).push_back(cpu_now() - t0);
                }
            }
            Output all = run_modkit(img, colours, 0);
            const bool same = all.palette == mk.palette && all.indices == mk.indices;
            nondeterministic += !same;
            const Quality qm = measure(img, mk.palette, mk.indices.data());
            const Quality ql = measure(img, lq.palette, lq.indices.data());
            const Output lq5 = run_liq(img, colours, true);
            const Quality ql5 = measure(img, lq5.palette, lq5.indices.data());
            sum_liq5 += ql5.mean;
            const double ratio = median(tm) / median(tl);
            ratios.push_back(ratio);
            worst_ratio = std::max(worst_ratio, ratio);
            sum_mk += qm.mean, sum_liq += ql.mean;
            std::string note;
            const std::string key = name + "/" + std::to_string(colours);
            char basecol[32] = "-";
            if (auto it = base.find(key); it != base.end()) {
                std::snprintf(basecol, sizeof basecol, "%.4f", it->second.mean);
                if (qm.mean > it->second.mean + 1e-9) note += " WORSE than baseline", ++worse;
            }
            if (!same) note += " THREADS CHANGE OUTPUT";
            std::printf("%-16s %4u %9.2f %9.2f %6.2f | %7.4f %7.3f %7s | %7.4f %7.3f | %7.4f %7.3f%s\n",
                        name.c_str(), colours, median(tm) * 1e3, median(tl) * 1e3, ratio, qm.mean, qm.max, basecol,
                        ql.mean, ql.max, ql5.mean, ql5.max, note.c_str());
            if (saved) saved << name << ' ' << colours << ' ' << qm.mean << ' ' << qm.max << '\n';
        }
        const double n = static_cast<double>(set.size());
        std::printf("  %u colours: time ratio median %.2f, worst %.2f; mean dE00 over the set modkit %.4f, "
                    "libimagequant %.4f (%.2fx), libimagequant on RGBA5551 %.4f (%.2fx)\n",
                    colours, median(ratios), worst_ratio, sum_mk / n, sum_liq / n, sum_mk / sum_liq, sum_liq5 / n,
                    sum_mk / sum_liq5);
    }
    if (!baseline.empty()) std::printf("baseline: %d image/colour pairs worse\n", worse);
    std::printf("determinism (1 thread vs all): %s\n", nondeterministic ? "DIFFERENT" : "identical");
    return worse || nondeterministic ? 1 : 0;
}
