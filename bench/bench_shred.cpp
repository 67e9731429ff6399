// SHRED benchmark on the disc-scale synthetic set (the seed's figures: 3,412 meshes, 311,835
// batches with 31,471/69,931/94,313/116,120 of 1/2/3/4 influences, 3,302,877 vertices), one
// core: the preprocessor (vertices/s) and decode + validate + re-encode (GB/s of stream bytes).
// Usage: bench_shred [REPEATS]
#include "timing.hpp"

#include "libmod/sample/shred.hpp"
#include "libmod/shred/preprocess.hpp"
#include "libmod/shred/stream.hpp"

#include <cstdio>
#include <ctime>
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <vector>

int main(int argc, char** argv) {
    int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
    mod::sample::ShredDiscFigures fig;
    std::vector<mod::shred::SkinnedMesh> meshes;
    std::vector<std::uint32_t> bone_counts;
    meshes.reserve(fig.meshes);
    mod::sample::generate_shred_disc_set([&](std::size_t, const mod::shred::SkinnedMesh& m, std::uint32_t bones) {
        meshes.push_back(m);
        bone_counts.push_back(bones);
    }, fig);

    // The machine is shared: besides wall time, CPU time of this process (one thread) is the
    // fair "one core" figure when other work competes for the cores.
    auto cpu_best = [&](const std::function<void()>& fn) {
        double best = 1e30;
        for (int r = 0; r < repeats; ++r) {
            std::clock_t c0 = std::clock();
            fn();
            best = std::min(best, double(std::clock() - c0) / CLOCKS_PER_SEC);
        }
        return best;
    };
    std::vector<mod::Bytes> streams(meshes.size());
    auto run_pre = [&] {
        for (std::size_t i = 0; i < meshes.size(); ++i) {
            mod::shred::PreprocessOptions o;
            o.bone_count = bone_counts[i];
            streams[i] = mod::shred::encode_stream(mod::shred::preprocess(meshes[i], o).stream);
        }
    };
    double pre = bench::best_seconds(repeats, run_pre);
    double pre_cpu = cpu_best(run_pre);

    // The set must have exactly the seed's figures.
    std::uint64_t bytes = 0, vertices = 0;
    std::array<std::uint64_t, 5> by_inf{};
    for (std::size_t i = 0; i < streams.size(); ++i) {
        auto s = mod::shred::decode_stream(mod::ByteReader(streams[i], mod::Endian::big));
        bytes += streams[i].size();
        vertices += s.vertices.size();
        auto h = s.batches_by_influence();
        for (int k = 1; k <= 4; ++k) by_inf[k] += h[k];
    }
    bool exact = vertices == fig.vertices && streams.size() == fig.meshes;
    for (int k = 1; k <= 4; ++k) exact &= by_inf[k] == fig.batches_by_influence[k];
    std::printf("set: %zu meshes, %llu vertices, batches 1/2/3/4 = %llu/%llu/%llu/%llu, %llu stream bytes (%s the seed's figures)\n",
                streams.size(), (unsigned long long)vertices, (unsigned long long)by_inf[1], (unsigned long long)by_inf[2],
                (unsigned long long)by_inf[3], (unsigned long long)by_inf[4], (unsigned long long)bytes,
                exact ? "exactly" : "NOT");

    std::uint64_t checksum = 0;
    auto run_codec = [&] {
        for (std::size_t i = 0; i < streams.size(); ++i) {
            mod::shred::StreamContext ctx;
            ctx.vertex_count = static_cast<std::uint32_t>(meshes[i].vertices.size());
            ctx.bone_count = bone_counts[i];
            auto s = mod::shred::decode_stream(mod::ByteReader(streams[i], mod::Endian::big), ctx);
            auto out = mod::shred::encode_stream(s);
            checksum += out.size() + out[out.size() / 2];
        }
    };
    double codec = bench::best_seconds(repeats, run_codec);
    double codec_cpu = cpu_best(run_codec);
    for (std::size_t i = 0; i < streams.size(); i += 97)
        if (mod::shred::encode_stream(mod::shred::decode_stream(mod::ByteReader(streams[i], mod::Endian::big))) != streams[i])
            std::abort();

    std::printf("preprocess                     %8.2f M vertices/s  (wall %.3f s; CPU time %.3f s = %.2f M vertices/s)\n",
                double(vertices) / 1e6 / pre, pre, pre_cpu, double(vertices) / 1e6 / pre_cpu);
    std::printf("decode + validate + re-encode  %8.3f GB/s          (wall %.3f s, %.2f M vertices/s; CPU time %.3f s = %.3f GB/s)\n",
                double(bytes) / 1e9 / codec, codec, double(vertices) / 1e6 / codec, codec_cpu, double(bytes) / 1e9 / codec_cpu);
    std::printf("(checksum %llu)\n", (unsigned long long)checksum);
    return exact ? 0 : 1;
}
