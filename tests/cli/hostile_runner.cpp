#include "hostile_runner.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/core/file.hpp"

#include "test_support.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace hostile {

namespace {

void put32(mod::Bytes& b, std::size_t at, std::uint32_t v, mod::Endian e) {
    for (int i = 0; i < 4; ++i) {
        const int shift = e == mod::Endian::big ? 24 - 8 * i : 8 * i;
        b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> shift);
    }
}

std::string hex(std::uint64_t v) {
    char s[24];
    std::snprintf(s, sizeof s, "0x%llX", static_cast<unsigned long long>(v));
    return s;
}

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

}  // namespace

Variant::Variant(std::string l, mod::Bytes whole)
    : label(std::move(l)), base(std::make_shared<const mod::Bytes>(std::move(whole))), size(base->size()) {}

mod::Bytes Variant::bytes() const {
    mod::Bytes b(base->begin(), base->begin() + static_cast<std::ptrdiff_t>(size));
    for (const auto& [at, v] : edits)
        if (at < b.size()) b[at] = v;
    return b;
}

std::vector<Variant> variants(std::shared_ptr<const mod::Bytes> file, const VariantOptions& o) {
    std::vector<Variant> out;
    const mod::Bytes& f = *file;
    const std::size_t n = f.size();
    if (n < o.every_length_below) {
        for (std::size_t len = 0; len < n; ++len) out.emplace_back(std::string("trunc ").append(std::to_string(len)), file, len);
    } else {
        for (std::size_t k = 0; k < o.truncations; ++k) {
            // The first bytes densely (headers), then spread over the file.
            const std::size_t len = k < o.truncations / 3 ? k * 7 : (n * k) / o.truncations;
            out.emplace_back(std::string("trunc ").append(std::to_string(len)), file, len);
        }
    }
    modtest::Rng rng(o.seed);
    const std::uint8_t patterns[] = {0xFF, 0x80, 0x01};
    for (std::size_t k = 0; k < o.flips && n; ++k) {
        const std::size_t at = k % 2 ? rng.next() % n : rng.next() % std::min<std::size_t>(n, 4096);
        Variant v(std::string("flip ").append(hex(at)).append("^").append(hex(patterns[k % 3])), file, n);
        v.edits.push_back({at, static_cast<std::uint8_t>(f[at] ^ patterns[k % 3])});
        out.push_back(std::move(v));
    }
    std::vector<std::size_t> words;
    for (std::size_t at = 0; at + 4 <= std::min(n, o.header_bytes); at += 4) words.push_back(at);
    for (std::size_t at : o.extra_words)
        if (at + 4 <= n) words.push_back(at);
    for (std::size_t at : words) {
        for (std::uint64_t v : {std::uint64_t(0xFFFFFFFF), std::uint64_t(0x7FFFFFFF), std::uint64_t(at),
                                std::uint64_t(n + 0x100)}) {
            mod::Bytes w(4);
            put32(w, 0, static_cast<std::uint32_t>(v), o.endian);
            if (std::equal(w.begin(), w.end(), f.begin() + static_cast<std::ptrdiff_t>(at))) continue;
            Variant var(std::string("word ").append(hex(at)).append("=").append(hex(v)), file, n);
            for (std::size_t i = 0; i < 4; ++i) var.edits.push_back({at + i, w[i]});
            out.push_back(std::move(var));
        }
    }
    return out;
}

std::vector<Outcome> run_all(const std::string& program, const std::vector<Case>& cases, const fs::path& scratch,
                             unsigned workers) {
    std::vector<Outcome> outcomes(cases.size());
    std::atomic<std::size_t> next{0};
    auto work = [&](unsigned w) {
        const fs::path dir = scratch / std::string("w").append(std::to_string(w));
        fs::create_directories(dir);
        for (std::size_t i; (i = next.fetch_add(1)) < cases.size();) {
            const Case& c = cases[i];
            Outcome& r = outcomes[i];
            r.label = c.label;
            const fs::path in = dir / c.input_name;
            const fs::path out = dir / "out";
            fs::remove_all(out);
            fs::create_directories(out);
            const mod::Bytes input = c.input.bytes();
            mod::write_file_atomic(in, input);
            for (const auto& [name, bytes] : c.others) mod::write_file_atomic(dir / name, bytes);
            std::vector<std::string> args = {program};
            for (const auto& a : c.args) {
                if (a == "IN") args.push_back(in.string());
                else if (a.rfind("OUT/", 0) == 0) args.push_back((out / a.substr(4)).string());
                else if (a.rfind("DIR/", 0) == 0) args.push_back((dir / a.substr(4)).string());
                else args.push_back(a);
            }
            std::vector<char*> argv;
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            const std::string err_path = (dir / "stderr").string();
            const pid_t pid = ::fork();
            if (pid == 0) {
                const int devnull = ::open("/dev/null", O_RDWR);
                const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
                if (devnull < 0 || err < 0) ::_exit(127);
                ::dup2(devnull, 0);
                ::dup2(devnull, 1);
                ::dup2(err, 2);
                const rlimit cpu{120, 120};
                ::setrlimit(RLIMIT_CPU, &cpu);
#if !defined(__SANITIZE_ADDRESS__)
                // The memory bound: address space (soft limit, so that the contained importer
                // may still set its own lower one). Under ASan the shadow mappings need more.
                if (c.memory_bound) {
                    const rlimit as{static_cast<rlim_t>(c.memory_bound), RLIM_INFINITY};
                    ::setrlimit(RLIMIT_AS, &as);
                }
#endif
                ::execv(argv[0], argv.data());
                ::_exit(127);
            }
            int status = 0;
            rusage ru{};
            ::wait4(pid, &status, 0, &ru);
            r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
            r.peak_rss = static_cast<std::uint64_t>(ru.ru_maxrss) * 1024;
            r.err = slurp(err_path);
            r.inputs_unchanged = mod::read_file(in) == input;
            for (const auto& [name, bytes] : c.others)
                r.inputs_unchanged = r.inputs_unchanged && mod::read_file(dir / name) == bytes;
            for (const auto& e : fs::recursive_directory_iterator(out))
                if (!e.is_directory()) r.left.push_back(fs::relative(e.path(), out).string());
        }
    };
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < workers; ++w) pool.emplace_back(work, w);
    for (auto& t : pool) t.join();
    return outcomes;
}

}  // namespace hostile
