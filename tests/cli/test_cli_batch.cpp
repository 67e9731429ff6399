// Many inputs in one codec command (issue 20): `yay0 compress|decompress` and `szp pack|unpack`
// with IN... --out-dir DIR or --list FILE, spread over --threads. The bytes are those of the
// one-file form (and of the Nintendo parse in the corpus) whatever the thread count; a failing
// input is named and nothing is written.
#include "libmod/core/file.hpp"

#include "test_support.hpp"

#include <sys/resource.h>

namespace fs = std::filesystem;
using modtest::run_cli;

namespace {

std::vector<fs::path> corpus_files() {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(modtest::corpus("yay0")))
        if (e.is_regular_file()) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> args_with(std::vector<std::string> head, const std::vector<fs::path>& files,
                                   std::vector<std::string> tail) {
    for (const auto& f : files) head.push_back(f.string());
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
}

std::size_t files_in(const fs::path& dir) {
    if (!fs::exists(dir)) return 0;
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_batch)

BOOST_AUTO_TEST_CASE(yay0_batch_equals_one_by_one_for_every_thread_count) {
    modtest::TempDir dir;
    const auto files = corpus_files();
    BOOST_REQUIRE_EQUAL(files.size(), 18u);
    for (const char* j : {"1", "2", "5"}) {
        const auto out = dir / (std::string("j") + j);
        auto r = run_cli(args_with({"yay0", "compress"}, files, {"--out-dir", out.string(), "-j", j}));
        BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
        BOOST_TEST(std::count(r.out.begin(), r.out.end(), '\n') == 18);
        for (const auto& f : files)
            // The Nintendo parse in the corpus is what the one-file form writes (test_cli_codec).
            BOOST_TEST(modtest::read(out / (f.filename().string() + ".yay0")) ==
                           modtest::read(modtest::corpus("yay0/nintendo-parse/" + f.filename().string() + ".yay0")),
                       f.filename().string() << " -j " << j);
    }
    // One file in the one-file form, for the record, is the same bytes as the batch's.
    auto r = run_cli({"yay0", "compress", files[0].string(), (dir / "one.yay0").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(modtest::read(dir / "one.yay0") == modtest::read(dir / "j2" / (files[0].filename().string() + ".yay0")));
    // Back: NAME.yay0 -> NAME, the original bytes, from a list file this time.
    std::string list;
    for (const auto& f : files) list += (dir / "j2" / (f.filename().string() + ".yay0")).string() + "\n";
    mod::write_file_atomic(dir / "list.txt", std::string_view(list));
    r = run_cli({"yay0", "decompress", "--list", (dir / "list.txt").string(), "--out-dir", (dir / "plain").string(), "-j", "2"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    for (const auto& f : files) BOOST_TEST(modtest::read(dir / "plain" / f.filename()) == modtest::read(f));
}

BOOST_AUTO_TEST_CASE(szp_batch_round_trip_and_names) {
    modtest::TempDir dir;
    const auto files = corpus_files();
    const std::vector<fs::path> some(files.begin(), files.begin() + 4);
    auto r = run_cli(args_with({"szp", "pack"}, some, {"--out-dir", (dir / "p1").string(), "-j", "1", "--json"}));
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"operation\": \"pack\"") != std::string::npos, r.out);
    r = run_cli(args_with({"szp", "pack"}, some, {"--out-dir", (dir / "p2").string(), "-j", "3"}));
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    for (const auto& f : some) {
        const auto name = f.filename().string() + ".szp";
        BOOST_TEST(modtest::read(dir / "p1" / name) == modtest::read(dir / "p2" / name));
        r = run_cli({"szp", "pack", f.string(), (dir / name).string()});
        BOOST_TEST(modtest::read(dir / name) == modtest::read(dir / "p1" / name));
    }
    // Unpack: NAME.szp -> NAME; a name without .szp gets .bin.
    fs::copy_file(dir / "p1" / (some[0].filename().string() + ".szp"), dir / "blob");
    std::vector<fs::path> packed{dir / "blob"};
    for (const auto& f : some) packed.push_back(dir / "p1" / (f.filename().string() + ".szp"));
    r = run_cli(args_with({"szp", "unpack"}, packed, {"--out-dir", (dir / "u").string(), "-j", "2"}));
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(modtest::read(dir / "u" / "blob.bin") == modtest::read(some[0]));
    for (const auto& f : some) BOOST_TEST(modtest::read(dir / "u" / f.filename()) == modtest::read(f));
}

BOOST_AUTO_TEST_CASE(a_failing_input_is_named_and_nothing_is_written) {
    modtest::TempDir dir;
    const auto files = corpus_files();
    mod::write_file_atomic(dir / "bad.yay0", std::string_view("Yay0\0\0\x01\0\0\0\0\x10\0\0\0\x10", 16));
    std::vector<fs::path> inputs;
    for (std::size_t i = 0; i < 6; ++i) inputs.push_back(modtest::corpus("yay0/nintendo-parse/" + files[i].filename().string() + ".yay0"));
    inputs.insert(inputs.begin() + 3, dir / "bad.yay0");
    for (const char* j : {"1", "2"}) {
        auto r = run_cli(args_with({"yay0", "decompress"}, inputs, {"--out-dir", (dir / "out").string(), "-j", j}));
        BOOST_TEST(r.exit_code == 2, r.err);
        BOOST_TEST(r.err.find("bad.yay0") != std::string::npos, r.err);
        BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
        BOOST_TEST(files_in(dir / "out") == 0u);
    }
    // A missing input: an I/O error naming it, nothing written.
    auto r = run_cli({"yay0", "compress", files[0].string(), (dir / "missing.bin").string(), files[1].string(),
                      "--out-dir", (dir / "out2").string()});
    BOOST_TEST(r.exit_code == 4, r.err);
    BOOST_TEST(r.err.find("missing.bin") != std::string::npos, r.err);
    BOOST_TEST(files_in(dir / "out2") == 0u);
}

// A batch stages every output before renaming any; each staged file must not keep a file
// descriptor, or a build script's thousand inputs hit the descriptor limit (1024 by default)
// and nothing is written. 300 inputs under a limit of 64 descriptors.
BOOST_AUTO_TEST_CASE(more_inputs_than_file_descriptors) {
    modtest::TempDir dir;
    std::vector<fs::path> inputs;
    for (int i = 0; i < 300; ++i) {
        inputs.push_back(dir / "in" / ("f" + std::to_string(i) + ".bin"));
        fs::create_directories(inputs.back().parent_path());
        mod::write_file_atomic(inputs.back(), std::string_view("abcabcabc") );
    }
    struct rlimit old {};
    BOOST_REQUIRE(::getrlimit(RLIMIT_NOFILE, &old) == 0);
    struct rlimit low = old;
    low.rlim_cur = 64;
    BOOST_REQUIRE(::setrlimit(RLIMIT_NOFILE, &low) == 0);
    auto r = run_cli(args_with({"yay0", "compress"}, inputs, {"--out-dir", (dir / "out").string(), "-j", "2"}));
    ::setrlimit(RLIMIT_NOFILE, &old);
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(files_in(dir / "out") == 300u);
    BOOST_TEST(mod::read_file(dir / "out" / "f299.bin.yay0") == mod::read_file(dir / "out" / "f0.bin.yay0"));
}

// A failing batch whose output folder did not exist leaves no folder behind either.
BOOST_AUTO_TEST_CASE(a_failing_batch_leaves_no_new_folder) {
    modtest::TempDir dir;
    const auto files = corpus_files();
    auto r = run_cli({"yay0", "compress", files[0].string(), (dir / "missing.bin").string(), "--out-dir",
                      (dir / "new" / "deeper").string(), "-j", "2"});
    BOOST_TEST(r.exit_code == 4, r.err);
    BOOST_TEST(!fs::exists(dir / "new" / "deeper"));
    BOOST_TEST(!fs::exists(dir / "new"));  // the parent it made too
}

BOOST_AUTO_TEST_CASE(usage_and_name_clashes_are_refused_before_any_work) {
    modtest::TempDir dir;
    const auto files = corpus_files();
    // Three paths without --out-dir: the one-file form takes exactly IN OUT.
    auto r = run_cli({"yay0", "compress", files[0].string(), files[1].string(), (dir / "x").string()});
    BOOST_TEST(r.exit_code == 1);
    BOOST_TEST(r.err.find("--out-dir") != std::string::npos, r.err);
    r = run_cli({"yay0", "compress", "--list", (dir / "none.txt").string()});
    BOOST_TEST(r.exit_code == 1);
    // Two inputs named alike would write one output twice.
    fs::create_directories(dir / "a");
    fs::copy_file(files[0], dir / "a" / files[0].filename());
    r = run_cli({"yay0", "compress", files[0].string(), (dir / "a" / files[0].filename()).string(), "--out-dir",
                 (dir / "o").string()});
    BOOST_TEST(r.exit_code == 3, r.err);
    BOOST_TEST(files_in(dir / "o") == 0u);
    // The output folder holding an input of the same output name: an output never replaces an input.
    fs::copy_file(files[0], dir / "a" / (files[0].filename().string() + ".yay0"));
    r = run_cli({"yay0", "compress", (dir / "a" / (files[0].filename().string() + ".yay0")).string(),
                 (dir / "a" / files[0].filename()).string(), "--out-dir", (dir / "a").string()});
    BOOST_TEST(r.exit_code == 3, r.err);
    BOOST_TEST(modtest::read(dir / "a" / (files[0].filename().string() + ".yay0")) == modtest::read(files[0]));
}

BOOST_AUTO_TEST_SUITE_END()
