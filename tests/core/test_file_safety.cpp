// Output safety (issue 22): outputs that are not regular files are refused, an existing
// output keeps its permissions, input folders count every file inside, two outputs of one
// command are never the same file, temporary files die with SIGINT/SIGTERM and stale ones
// of a killed run are swept.
#include "libmod/core/file.hpp"

#include "test_support.hpp"

#include <algorithm>
#include <csignal>
#include <fstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mod;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> names_in(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

void plain_file(const fs::path& path) { std::ofstream(path) << "x"; }

// A PID that ran and is gone (reaped), for stale temporary files.
pid_t dead_pid() {
    pid_t pid = ::fork();
    if (pid == 0) ::_exit(0);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return pid;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(file_safety)

BOOST_AUTO_TEST_CASE(outputs_that_are_not_regular_files_are_refused_and_named) {
    modtest::TempDir dir;
    write_file_atomic(dir / "target.bin", Bytes{1, 2, 3});
    fs::create_symlink(dir / "target.bin", dir / "link.bin");
    fs::create_symlink(dir / "nowhere.bin", dir / "dangling.bin");
    BOOST_REQUIRE(::mkfifo((dir / "fifo").c_str(), 0644) == 0);
    fs::create_directory(dir / "folder");
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string sock_path = (dir / "sock").string();
    const bool have_socket = sock_path.size() < sizeof addr.sun_path;
    if (have_socket) {
        std::strcpy(addr.sun_path, sock_path.c_str());
        BOOST_REQUIRE(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    }
    struct Case {
        fs::path path;
        std::string kind;
    };
    std::vector<Case> cases = {{dir / "link.bin", "a symbolic link"},
                               {dir / "dangling.bin", "a symbolic link"},
                               {dir / "fifo", "a FIFO (named pipe)"},
                               {dir / "folder", "a folder"},
                               {"/dev/null", "a character device"}};
    if (have_socket) cases.push_back({dir / "sock", "a socket"});
    for (const auto& c : cases) {
        auto e = modtest::catch_error([&] { write_file_atomic(c.path, Bytes{9}); });
        BOOST_REQUIRE(e);
        BOOST_TEST(e->kind() == ErrorKind::io);
        BOOST_TEST(e->file() == c.path.string());
        BOOST_TEST(e->message() == "the output exists and is " + c.kind + "; only regular files are replaced");
    }
    ::close(sock);
    // Nothing was replaced: the link still links, the target is untouched, no temporary left.
    BOOST_TEST(fs::is_symlink(dir / "link.bin"));
    BOOST_TEST(fs::is_symlink(dir / "dangling.bin"));
    BOOST_TEST(fs::is_fifo(dir / "fifo"));
    BOOST_TEST(read_file(dir / "target.bin") == (Bytes{1, 2, 3}));
    for (const auto& name : names_in(dir.path())) BOOST_TEST(name.find("tmp.") == std::string::npos, name);
}

BOOST_AUTO_TEST_CASE(an_existing_output_keeps_its_permission_bits) {
    modtest::TempDir dir;
    const fs::path out = dir / "out.bin";
    write_file_atomic(out, Bytes{1});
    fs::permissions(out, fs::perms::owner_read | fs::perms::owner_write | fs::perms::owner_exec |
                             fs::perms::group_read);  // 0740
    write_file_atomic(out, Bytes{2});
    BOOST_TEST(read_file(out) == Bytes{2});
    BOOST_TEST(static_cast<unsigned>(fs::status(out).permissions() & fs::perms::mask) == 0740u);
    fs::permissions(out, fs::perms::owner_read);  // 0400: read-only is kept too
    write_file_atomic(out, Bytes{3});
    BOOST_TEST(read_file(out) == Bytes{3});
    BOOST_TEST(static_cast<unsigned>(fs::status(out).permissions() & fs::perms::mask) == 0400u);
}

BOOST_AUTO_TEST_CASE(every_file_inside_an_input_folder_is_an_input) {
    modtest::TempDir dir;
    fs::create_directories(dir / "extract" / "entries");
    write_file_atomic(dir / "extract" / "index.json", std::string_view("{}"));
    write_file_atomic(dir / "extract" / "entries" / "000.bin", Bytes{5});
    fs::create_directory_symlink(dir / "extract", dir / "alias");
    const fs::path inputs[] = {dir / "rom.bin", dir / "extract"};
    for (const fs::path& out : {dir / "extract" / "index.json", dir / "alias" / "entries" / "000.bin"}) {
        auto e = modtest::catch_error([&] { write_file_atomic(out, Bytes{0xEE}, inputs); });
        BOOST_REQUIRE(e);
        BOOST_TEST(e->kind() == ErrorKind::conflict);
        BOOST_TEST(e->file() == out.string());
        BOOST_TEST(e->message().find("of the input folder " + (dir / "extract").string()) != std::string::npos,
                   e->message());
    }
    BOOST_TEST(read_file(dir / "extract" / "index.json").size() == 2u);
    BOOST_TEST(read_file(dir / "extract" / "entries" / "000.bin") == Bytes{5});
    // A new file in the folder overwrites nothing.
    write_file_atomic(dir / "extract" / "new.bin", Bytes{1}, inputs);
    BOOST_TEST(read_file(dir / "extract" / "new.bin") == Bytes{1});
}

BOOST_AUTO_TEST_CASE(two_outputs_of_one_command_are_never_the_same_file) {
    modtest::TempDir dir;
    fs::create_directory(dir / "real");
    fs::create_directory_symlink(dir / "real", dir / "alias");
    // Neither exists yet: same folder (through a symlink) and same name.
    const fs::path same[] = {dir / "real" / "a.bin", dir / "alias" / "a.bin"};
    auto e = modtest::catch_error([&] { ensure_distinct_outputs(same); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == ErrorKind::conflict);
    BOOST_TEST(e->message() == "two outputs of one command are the same file: " + same[0].string() + " and " +
                                   same[1].string());
    // Existing: a hard link is the same file.
    write_file_atomic(dir / "real" / "b.bin", Bytes{1});
    fs::create_hard_link(dir / "real" / "b.bin", dir / "c.bin");
    const fs::path linked[] = {dir / "c.bin", dir / "real" / "b.bin"};
    BOOST_TEST(modtest::catch_error([&] { ensure_distinct_outputs(linked); })->kind() == ErrorKind::conflict);
    const fs::path distinct[] = {dir / "real" / "a.bin", dir / "alias" / "b2.bin", dir / "c2.bin"};
    ensure_distinct_outputs(distinct);
}

BOOST_AUTO_TEST_CASE(the_temporary_file_dies_with_sigterm_and_sigint) {
    for (int sig : {SIGTERM, SIGINT}) {
        modtest::TempDir dir;
        const fs::path out = dir / "out.bin";
        pid_t pid = ::fork();
        BOOST_REQUIRE(pid >= 0);
        if (pid == 0) {
            // The child behaves as the CLI does: default dispositions, a write in progress.
            ::signal(sig, SIG_DFL);
            try {
                PendingOutput pending(out);
                pending.write(Bytes(1 << 16, 0xAB));
                if (!fs::exists(pending.temporary())) ::_exit(10);
                ::raise(sig);
            } catch (...) {
                ::_exit(11);
            }
            ::_exit(12);  // the signal did not end the process
        }
        int status = 0;
        BOOST_REQUIRE(::waitpid(pid, &status, 0) == pid);
        BOOST_TEST(WIFSIGNALED(status), "exit status " << status);  // the signal was raised again
        if (WIFSIGNALED(status)) BOOST_TEST(WTERMSIG(status) == sig);
        BOOST_TEST(names_in(dir.path()).empty(), "left behind: " << (names_in(dir.path()).empty() ? "" : names_in(dir.path())[0]));
    }
}

// finish() closes the temporary file (no descriptor held while staged), keeps the mode of the
// output it replaces, refuses further writes, and the temporary is still removed when the
// pending output is dropped; commit() after finish() renames.
BOOST_AUTO_TEST_CASE(finish_closes_early_and_commit_or_drop_still_work) {
    modtest::TempDir dir;
    const fs::path out = dir / "out.bin";
    write_file_atomic(out, Bytes{9});
    fs::permissions(out, fs::perms(0640));
    {
        PendingOutput dropped(out);
        dropped.write(Bytes{1, 2});
        dropped.finish();
        BOOST_TEST(fs::exists(dropped.temporary()));
        BOOST_CHECK_THROW(dropped.write(Bytes{3}), Error);
        BOOST_CHECK_THROW(dropped.finish(), Error);
    }
    BOOST_TEST(names_in(dir.path()) == std::vector<std::string>{"out.bin"});
    BOOST_TEST(read_file(out) == (Bytes{9}));
    PendingOutput kept(out);
    kept.write(Bytes{1, 2});
    kept.finish();
    kept.commit();
    BOOST_TEST(read_file(out) == (Bytes{1, 2}));
    BOOST_TEST(unsigned(fs::status(out).permissions() & fs::perms::all) == 0640u);
    BOOST_CHECK_THROW(kept.commit(), Error);
}

BOOST_AUTO_TEST_CASE(an_ignored_signal_stays_ignored) {
    modtest::TempDir dir;
    pid_t pid = ::fork();
    BOOST_REQUIRE(pid >= 0);
    if (pid == 0) {
        ::signal(SIGHUP, SIG_IGN);  // as under nohup
        try {
            PendingOutput pending(dir / "out.bin");
            ::raise(SIGHUP);
            pending.write(Bytes{1});
            pending.commit();
        } catch (...) {
            ::_exit(11);
        }
        ::_exit(0);
    }
    int status = 0;
    BOOST_REQUIRE(::waitpid(pid, &status, 0) == pid);
    BOOST_TEST(WIFEXITED(status));
    BOOST_TEST(WEXITSTATUS(status) == 0);
    BOOST_TEST(names_in(dir.path()) == std::vector<std::string>{"out.bin"});
}

BOOST_AUTO_TEST_CASE(stale_temporaries_of_dead_processes_are_swept_and_reported) {
    modtest::TempDir dir;
    const std::string dead = std::to_string(dead_pid());
    const std::string alive = std::to_string(::getpid());
    const std::string stale = ".rom.z64.tmp." + dead + ".3";
    const std::vector<std::string> kept = {
        ".rom.z64.tmp." + alive + ".0",  // ours, maybe being written
        ".rom.z64.tmp." + dead + ".x",   // not our pattern
        ".rom.z64.tmp." + dead,          // not our pattern
        "rom.z64.tmp." + dead + ".0",    // not hidden
        ".tmp." + dead + ".0",           // no NAME
        "keep.bin",
    };
    // Made without write_file_atomic: its first write into a folder is the one that sweeps.
    plain_file(dir / stale);
    for (const auto& k : kept) plain_file(dir / k);
    fs::create_symlink(dir / "keep.bin", dir / (".link.tmp." + dead + ".1"));  // only regular files go
    fs::create_directory(dir / "sub");
    const fs::path other = dir / "sub" / (".x.tmp." + dead + ".0");
    plain_file(other);
    std::vector<fs::path> told;
    set_stale_temporary_notifier([&](const fs::path& p) { told.push_back(p); });
    write_file_atomic(dir / "out.bin", Bytes{2});
    plain_file(dir / (".late.tmp." + dead + ".0"));
    write_file_atomic(dir / "out2.bin", Bytes{2});  // once per folder and process
    set_stale_temporary_notifier({});
    // (A first write may also replay dead processes' journals elsewhere: only this folder counts.)
    std::erase_if(told, [&](const fs::path& p) { return p.parent_path() != dir.path(); });
    BOOST_TEST(told == std::vector<fs::path>{dir / stale});
    BOOST_TEST(!fs::exists(dir / stale));
    for (const auto& k : kept) BOOST_TEST(fs::exists(dir / k), k);
    BOOST_TEST(fs::is_symlink(dir / (".link.tmp." + dead + ".1")));
    BOOST_TEST(fs::exists(other), "another folder is not swept");
    // The library function itself.
    BOOST_TEST(sweep_stale_temporaries(dir.path()) == std::vector<fs::path>{dir / (".late.tmp." + dead + ".0")});
    BOOST_TEST(sweep_stale_temporaries(dir / "sub") == std::vector<fs::path>{other});
    BOOST_TEST(sweep_stale_temporaries(dir / "missing").empty());
}

// Issue 34 (10): a temporary file is NAME.modkit-tmp.PID.N (visible, findable); one a SIGKILL
// left is removed by a later process wherever it writes (the dead process's journal lists it)
// and by clean_stale_temporaries (`modkit clean`), which also finds it by name below a folder.
BOOST_AUTO_TEST_CASE(temporaries_left_by_a_killed_process_are_found_from_anywhere) {
    modtest::TempDir dir;
    const fs::path journal = dir / "pending", a = dir / "a", b = dir / "b";
    fs::create_directories(a);
    fs::create_directories(b / "deep");
    {
        PendingOutput out(a / "x.bin");
        BOOST_TEST(out.temporary().filename().string() ==
                   "x.bin.modkit-tmp." + std::to_string(::getpid()) + "." +
                       out.temporary().filename().string().substr(out.temporary().filename().string().rfind('.') + 1));
    }
    const char* old = std::getenv("MODKIT_PENDING_DIR");
    const std::string saved = old ? old : "";
    ::setenv("MODKIT_PENDING_DIR", journal.c_str(), 1);
    // A child writes 1 MiB into a/ and is killed before it commits.
    const pid_t child = ::fork();
    BOOST_REQUIRE(child >= 0);
    if (child == 0) {
        PendingOutput out(a / "big.bin");
        out.write(Bytes(1u << 20, 7));
        ::raise(SIGKILL);
        ::_exit(1);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    BOOST_TEST((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
    fs::path left;  // big.bin.modkit-tmp.CHILD.N (N counts on from this process's, forked)
    for (const auto& e : fs::directory_iterator(a))
        if (e.path().filename().string().rfind("big.bin.modkit-tmp." + std::to_string(child) + ".", 0) == 0) left = e.path();
    BOOST_TEST(fs::is_regular_file(left));
    BOOST_TEST(fs::is_regular_file(journal / std::to_string(child)));
    // Old-style and new-style leftovers below b/, and one of a running process (ours): kept.
    const std::string dead = std::to_string(dead_pid());
    plain_file(b / "deep" / ("r.z64.modkit-tmp." + dead + ".2"));
    plain_file(b / ("." + std::string("r.z64.tmp.") + dead + ".0"));
    plain_file(b / ("r.z64.modkit-tmp." + std::to_string(::getpid()) + ".9"));
    const fs::path folders[] = {b};
    auto removed = clean_stale_temporaries(folders);
    std::sort(removed.begin(), removed.end());
    std::vector<fs::path> expected = {left.lexically_normal(), b / ("." + std::string("r.z64.tmp.") + dead + ".0"),
                                      b / "deep" / ("r.z64.modkit-tmp." + dead + ".2")};
    std::sort(expected.begin(), expected.end());
    BOOST_TEST(removed == expected, "removed " << removed.size());
    BOOST_TEST(!fs::exists(left));
    BOOST_TEST(!fs::exists(journal / std::to_string(child)));
    BOOST_TEST(fs::exists(b / ("r.z64.modkit-tmp." + std::to_string(::getpid()) + ".9")));
    if (old) ::setenv("MODKIT_PENDING_DIR", saved.c_str(), 1);
    else ::unsetenv("MODKIT_PENDING_DIR");
}

BOOST_AUTO_TEST_SUITE_END()
