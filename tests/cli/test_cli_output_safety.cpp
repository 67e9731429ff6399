// The CLI's output rules (issue 22), through a codec command: an output that exists and is not
// a regular file is refused and named, an existing output keeps its permissions, and temporary
// files left by a killed run are swept from the output folder with a warning.
#include "libmod/core/file.hpp"

#include "test_support.hpp"

#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using modtest::run_cli;

BOOST_AUTO_TEST_SUITE(cli_output_safety)

BOOST_AUTO_TEST_CASE(symlinks_and_fifos_are_refused_and_left_alone) {
    modtest::TempDir dir;
    const auto in = modtest::corpus("yay0/ld_font.sprite");
    mod::write_file_atomic(dir / "target", mod::Bytes{1, 2, 3});
    fs::create_symlink(dir / "target", dir / "link");
    BOOST_REQUIRE(::mkfifo((dir / "fifo").c_str(), 0644) == 0);
    for (const auto& [out, kind] : {std::pair{dir / "link", "a symbolic link"}, std::pair{dir / "fifo", "a FIFO (named pipe)"}}) {
        auto r = run_cli({"yay0", "compress", in.string(), out.string()});
        BOOST_TEST(r.exit_code == 4, r.err);
        BOOST_TEST(r.err == "modkit: " + out.string() + ": the output exists and is " + kind +
                                "; only regular files are replaced\n");
    }
    BOOST_TEST(fs::is_symlink(dir / "link"));
    BOOST_TEST(fs::is_fifo(dir / "fifo"));
    BOOST_TEST(mod::read_file(dir / "target") == (mod::Bytes{1, 2, 3}));
}

BOOST_AUTO_TEST_CASE(a_replaced_output_keeps_its_permissions) {
    modtest::TempDir dir;
    const auto in = modtest::corpus("yay0/ld_font.sprite");
    mod::write_file_atomic(dir / "out", mod::Bytes{1});
    fs::permissions(dir / "out", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                                     fs::perms::group_write);  // 0660
    auto r = run_cli({"yay0", "compress", in.string(), (dir / "out").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(mod::read_file(dir / "out").size() > 1u);
    BOOST_TEST(static_cast<unsigned>(fs::status(dir / "out").permissions() & fs::perms::mask) == 0660u);
}

BOOST_AUTO_TEST_CASE(a_killed_runs_temporary_file_is_swept_with_a_warning) {
    modtest::TempDir dir;
    pid_t gone = ::fork();
    if (gone == 0) ::_exit(0);
    int status = 0;
    ::waitpid(gone, &status, 0);
    const fs::path stale = dir / (".out.tmp." + std::to_string(gone) + ".0");
    std::ofstream(stale) << "half a file";
    auto r = run_cli({"yay0", "compress", modtest::corpus("yay0/ld_font.sprite").string(), (dir / "out").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(!fs::exists(stale));
    BOOST_TEST(r.err == "modkit: warning: removed " + stale.string() + ", a temporary file left by an interrupted run\n");
}

BOOST_AUTO_TEST_SUITE_END()
