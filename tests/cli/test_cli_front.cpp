// The two executables (doc/architecture.md, "Two executables"): the lean `modkit` runs the
// codec commands itself, without the scene libraries, and hands every other command line to
// modkit-scene next to it; the user sees one modkit.
#include "libmod/core/file.hpp"

#include "test_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <utility>
#include <vector>
#include <sys/wait.h>

namespace fs = std::filesystem;
using modtest::run_cli;

namespace {

std::string text_of(const fs::path& p) {
    const auto bytes = modtest::read(p);
    return std::string(bytes.begin(), bytes.end());
}

fs::path front() {
    const char* exe = std::getenv("MODKIT_CLI");
    return exe ? fs::path(exe) : fs::path(MODKIT_BINARY_DIR) / "modkit";
}

// Runs `program args…` with stdout and stderr in files; returns the exit code.
int run(const fs::path& program, const std::string& args, const modtest::TempDir& dir, std::string* err = nullptr) {
    std::string cmd = "'" + program.string() + "' " + args + " >'" + (dir / "stdout").string() + "' 2>'" +
                      (dir / "stderr").string() + "' </dev/null";
    int status = std::system(cmd.c_str());
    if (err) *err = text_of(dir / "stderr");
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_front)

BOOST_AUTO_TEST_CASE(the_front_links_no_scene_library) {
    // DT_NEEDED names live in the executable's string table: none of the libraries the codec
    // commands do not use may be named there (they are what made a process cost 24 ms).
    const std::string text = text_of(front());
    for (const char* lib : {"libassimp.so", "libdraco.so", "libminizip", "libzip.so"}) BOOST_TEST(text.find(lib) == std::string::npos, lib);
#if !defined(__SANITIZE_ADDRESS__)
    // Outside sanitizer builds the C++ runtime and Boost.Program_options are linked in too.
    for (const char* lib : {"libboost_program_options.so", "libstdc++.so"}) BOOST_TEST(text.find(lib) == std::string::npos, lib);
#endif
    BOOST_TEST(fs::exists(front().parent_path() / "modkit-scene"));
}

BOOST_AUTO_TEST_CASE(codec_commands_run_without_the_helper) {
    // A copy of the front alone in a folder: the codec commands work, the others say what is missing.
    modtest::TempDir dir;
    fs::copy_file(front(), dir / "modkit");
    mod::write_file_atomic(dir / "abc.bin", std::string_view("abc"));
    BOOST_TEST(run(dir / "modkit", "yay0 compress '" + (dir / "abc.bin").string() + "' '" + (dir / "abc.yay0").string() + "'", dir) == 0);
    // By hand: header (size 3, link and chunk tables at 0x14), one mask word 0xE0000000 (three
    // literals), no links, the three bytes.
    const std::string expected("Yay0\0\0\0\3\0\0\0\x14\0\0\0\x14\xE0\0\0\0abc", 23);
    BOOST_TEST(text_of(dir / "abc.yay0") == expected);
    BOOST_TEST(run(dir / "modkit", "stadium list --help", dir) == 0);
    BOOST_TEST(run(dir / "modkit", "--version", dir) == 0);
    std::string err;
    BOOST_TEST(run(dir / "modkit", "shred --help", dir, &err) == 70);
    BOOST_TEST(err.find("modkit-scene") != std::string::npos, err);
    BOOST_TEST(std::count(err.begin(), err.end(), '\n') == 1, err);
}

BOOST_AUTO_TEST_CASE(help_lists_every_group_and_every_subcommand) {
    auto r = run_cli({"--help"});
    BOOST_TEST(r.exit_code == 0);
    for (const char* group : {"yay0", "szp", "rom", "patch", "texture", "stadium", "shred", "totem", "apply", "sample", "demo"})
        BOOST_TEST(r.out.find("\n  " + std::string(group) + " ") != std::string::npos, group);
    // stadium is split between the two executables; its help lists both halves.
    r = run_cli({"stadium", "--help"});
    BOOST_TEST(r.exit_code == 0);
    for (const char* sub : {"  list ", "  extract ", "  repack ", "  verify "})
        BOOST_TEST(r.out.find(sub) != std::string::npos, sub);
    r = run_cli({"help", "stadium", "list"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find("modkit stadium list ROM") != std::string::npos, r.out);
    BOOST_TEST(run_cli({}).exit_code == 1);
    BOOST_TEST(run_cli({"no-such-group"}).exit_code == 1);
}

BOOST_AUTO_TEST_CASE(scene_commands_go_through_the_front_with_the_same_arguments) {
    modtest::TempDir dir;
    auto r = run_cli({"sample", (dir / "game").string()});
    BOOST_TEST(r.exit_code == 0, r.err);
    const auto rom = (dir / "game" / "stadium" / "pokemon_stadium_sample.z64").string();
    BOOST_REQUIRE(fs::exists(rom));
    // list (front) and verify (modkit-scene) on the same ROM; a usage error of a handed-over
    // command keeps its exit code and one-line message.
    r = run_cli({"stadium", "list", rom, "--json"});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"count\": 14,") != std::string::npos);
    r = run_cli({"stadium", "verify", rom});
    BOOST_TEST(r.exit_code == 0, r.err);
    r = run_cli({"stadium", "extract", rom});
    BOOST_TEST(r.exit_code == 1);
    BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
}

// Stadium `apply` runs in the front (issue 31: no helper to start); what only modkit-scene
// carries is handed over before anything is written. With the front alone in a folder: a
// palette edit applies, giving the bytes the full program gives; a report page, a mesh import, a
// mod pack, --watch and a manifest with problems each end in the one-line "cannot run
// modkit-scene" (exit 70), and no output folder appears.
BOOST_AUTO_TEST_CASE(stadium_apply_runs_in_the_front_and_hands_over_the_rest) {
    modtest::TempDir dir;
    fs::copy_file(front(), dir / "modkit");
    auto r = run_cli({"sample", (dir / "game").string(), "--game", "stadium"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    fs::copy_file(dir / "game" / "stadium" / "pokemon_stadium_sample.z64", dir / "base.z64");
    auto manifest = [&](const std::string& name, const std::string& edit, const std::string& outputs) {
        mod::write_file_atomic(dir / name, R"({"modkit": 1, "name": "front", "game": "pokemon-stadium",
 "inputs": {"rom": {"path": "base.z64"}}, "outputs": )" + outputs + R"(, "edits": [)" + edit + "]}");
    };
    const std::string palette = R"({"op": "palette.set", "model": 1, "palette": 0, "colours": {"1": "FFD700"}})";
    manifest("lean.json", palette, R"({"rom": "lean/out.z64", "patches": ["bps"]})");
    std::string err;
    BOOST_TEST(run(dir / "modkit", "apply -q '" + (dir / "lean.json").string() + "'", dir, &err) == 0, err);
    r = run_cli({"apply", "-q", (dir / "lean.json").string(), "--out", (dir / "full").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST((modtest::read(dir / "lean" / "out.z64") == modtest::read(dir / "full" / "lean" / "out.z64")));
    BOOST_TEST((modtest::read(dir / "lean" / "out.z64.bps") == modtest::read(dir / "full" / "lean" / "out.z64.bps")));

    manifest("report.json", palette, R"({"rom": "report/out.z64", "report": "report/page"})");
    manifest("mesh.json", R"({"op": "mesh.replace", "model": 1, "source": "none.gltf"})", R"({"rom": "mesh/out.z64"})");
    manifest("problem.json", R"({"op": "palette.set", "model": 1, "palette": 0, "colours": {"1": "not a colour"}})",
             R"({"rom": "problem/out.z64"})");
    mod::write_file_atomic(dir / "none.gltf", std::string_view("{}"));  // never read: the front hands it over
    mod::write_file_atomic(dir / "pack.zip", std::string("PK\x03\x04") + " not really a zip");
    for (const auto& [args, folder] : std::vector<std::pair<std::string, std::string>>{
             {"apply '" + (dir / "report.json").string() + "'", "report"},
             {"apply '" + (dir / "mesh.json").string() + "'", "mesh"},
             {"apply '" + (dir / "problem.json").string() + "'", "problem"},
             {"apply '" + (dir / "pack.zip").string() + "'", "pack"},
             {"apply --watch --watch-builds 1 '" + (dir / "lean.json").string() + "' --out '" + (dir / "watch").string() + "'", "watch"}}) {
        BOOST_TEST_CONTEXT(args) {
            BOOST_TEST(run(dir / "modkit", args, dir, &err) == 70);
            BOOST_TEST(err.find("cannot run") != std::string::npos, err);
            BOOST_TEST(std::count(err.begin(), err.end(), '\n') == 1, err);
            BOOST_TEST(!fs::exists(dir / folder));
        }
    }
    // Through the real front (modkit-scene beside it) the report is made.
    r = run_cli({"apply", "-q", (dir / "report.json").string()});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(fs::exists(dir / "report" / "page" / "report.html"));
}

BOOST_AUTO_TEST_SUITE_END()
