// Yay0 benchmark over ../shared/corpus/yay0: total bytes and MB/s per mode, one thread per
// stream (the figures issue 2 asks for). Usage: bench_yay0 [REPEATS] [nintendo|best]
// (a mode restricts the run to it, e.g. for profiling under callgrind)
#include "timing.hpp"

#include "libmod/codec/yay0.hpp"
#include "libmod/core/file.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    int repeats = argc > 1 ? std::atoi(argv[1]) : 5;
    std::vector<mod::Bytes> inputs;
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(bench::shared_dir() / "corpus" / "yay0"))
        if (e.is_regular_file()) {
            names.push_back(e.path().filename().string());
            inputs.push_back(mod::read_file(e.path()));
        }
    std::uint64_t input_total = 0;
    for (auto& in : inputs) input_total += in.size();
    std::printf("corpus: %zu files, %llu bytes\n", inputs.size(), static_cast<unsigned long long>(input_total));

    const std::string only = argc > 2 ? argv[2] : "";
    for (auto mode : {mod::yay0::Mode::nintendo, mod::yay0::Mode::best}) {
        if (!only.empty() && only != mod::yay0::to_string(mode)) continue;
        std::vector<mod::Bytes> packed(inputs.size());
        auto encode_all = [&] {
            for (std::size_t i = 0; i < inputs.size(); ++i) packed[i] = mod::yay0::encode(inputs[i], mode);
        };
        const int n = mode == mod::yay0::Mode::best ? std::max(1, repeats / 2) : repeats;
        double seconds = bench::best_seconds(n, encode_all);
        double cpu = bench::best_cpu_seconds(n, encode_all);
        std::uint64_t out_total = 0;
        for (auto& p : packed) out_total += p.size();
        std::printf("encode %-8s %9llu bytes  %7.2f MB/s wall  %7.2f MB/s cpu\n", mod::yay0::to_string(mode),
                    static_cast<unsigned long long>(out_total), bench::mb_per_s(input_total, seconds),
                    bench::mb_per_s(input_total, cpu));
        if (mode == mod::yay0::Mode::nintendo) {
            auto decode_all = [&] {
                for (auto& p : packed) {
                    auto d = mod::yay0::decode(p);
                    if (d.size() != mod::yay0::read_header(mod::ByteReader(p, mod::Endian::big)).decompressed_size) std::abort();
                }
            };
            double dsec = bench::best_seconds(repeats * 10, decode_all);
            double dcpu = bench::best_cpu_seconds(repeats * 10, decode_all);
            std::printf("decode            %9llu bytes  %7.2f MB/s wall  %7.2f MB/s cpu (of decoded output)\n",
                        static_cast<unsigned long long>(input_total), bench::mb_per_s(input_total, dsec),
                        bench::mb_per_s(input_total, dcpu));
        }
    }
    return 0;
}
