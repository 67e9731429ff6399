// Yay0 benchmark over ../shared/corpus/yay0: total bytes and MB/s per mode, one thread per
// stream (the figures issue 2 asks for). Usage: bench_yay0 [REPEATS]
#include "timing.hpp"

#include "libmod/codec/yay0.hpp"
#include "libmod/core/file.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
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

    for (auto mode : {mod::yay0::Mode::nintendo, mod::yay0::Mode::best}) {
        std::vector<mod::Bytes> packed(inputs.size());
        double seconds = bench::best_seconds(mode == mod::yay0::Mode::best ? std::max(1, repeats / 2) : repeats, [&] {
            for (std::size_t i = 0; i < inputs.size(); ++i) packed[i] = mod::yay0::encode(inputs[i], mode);
        });
        std::uint64_t out_total = 0;
        for (auto& p : packed) out_total += p.size();
        std::printf("encode %-8s %9llu bytes  %7.2f MB/s  (%.3f s)\n", mod::yay0::to_string(mode),
                    static_cast<unsigned long long>(out_total), bench::mb_per_s(input_total, seconds), seconds);
        if (mode == mod::yay0::Mode::nintendo) {
            double dsec = bench::best_seconds(repeats * 4, [&] {
                for (auto& p : packed) {
                    auto d = mod::yay0::decode(p);
                    if (d.empty() && !p.empty()) std::abort();
                }
            });
            std::printf("decode            %9llu bytes  %7.2f MB/s  (%.4f s, MB/s of decoded output)\n",
                        static_cast<unsigned long long>(input_total), bench::mb_per_s(input_total, dsec), dsec);
        }
    }
    return 0;
}
