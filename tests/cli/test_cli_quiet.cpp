// Issue 30 item 5: `apply -q` prints nothing on success (it printed the whole plan), for a
// dry run too; problems are still reported on stderr with their exit code.
#include "test_support.hpp"

#include "libmod/core/file.hpp"

namespace fs = std::filesystem;
using modtest::run_cli;

BOOST_AUTO_TEST_SUITE(cli_quiet)

BOOST_AUTO_TEST_CASE(apply_quiet_prints_nothing_on_success) {
    modtest::TempDir dir;
    auto r = run_cli({"sample", (dir / "game").string(), "--game", "stadium", "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string manifest = (dir / "mod.json").string();
    r = run_cli({"manifest", "new", "pokemon-stadium", (dir / "game/stadium/pokemon_stadium_sample.z64").string(), manifest});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    r = run_cli({"apply", manifest, "--dry-run", "-q"});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.empty(), r.out);
    r = run_cli({"apply", manifest, "-q"});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.empty(), r.out);
    BOOST_TEST(fs::exists(dir / "out/pokemon_stadium_sample.z64"));
    // Without -q the plan and what was written are printed.
    r = run_cli({"apply", manifest});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("applied 0 edit(s)") != std::string::npos, r.out);
    // A broken manifest still says why, -q or not.
    mod::write_file_atomic(dir / "bad.json", std::string_view("{\"modkit\": 1}"));
    r = run_cli({"apply", (dir / "bad.json").string(), "-q"});
    BOOST_TEST(r.exit_code != 0);
    BOOST_TEST(!(r.err + r.out).empty());
}

BOOST_AUTO_TEST_SUITE_END()
