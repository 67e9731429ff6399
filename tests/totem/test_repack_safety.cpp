// `totem repack DATA NAMES DIR OUT [--names-out N]` (issue 22): every file of the extraction
// folder is an input, and the name table never lands on the archive (two outputs of one
// command are never the same file).
#include "test_support.hpp"

#include "libmod/core/file.hpp"

namespace fs = std::filesystem;
using modtest::run_cli;

BOOST_AUTO_TEST_SUITE(totem_repack_safety)

BOOST_AUTO_TEST_CASE(outputs_never_land_on_inputs_or_on_each_other) {
    modtest::TempDir dir;
    auto r = run_cli({"sample", dir.path().string(), "--game", "totem", "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const fs::path dgc = dir / "totem/SAMPLE.DGC", ngc = dir / "totem/SAMPLE.NGC", x = dir / "x";
    r = run_cli({"totem", "extract", dgc.string(), ngc.string(), x.string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const mod::Bytes index = mod::read_file(x / "index.json");

    // OUT is the extraction's index (directly and through a symlinked folder).
    fs::create_directory_symlink(x, dir / "alias");
    for (const fs::path& out : {x / "index.json", dir / "alias" / "index.json"}) {
        r = run_cli({"totem", "repack", dgc.string(), ngc.string(), x.string(), out.string()});
        BOOST_TEST(r.exit_code == 3, out.string() + ": " + r.err);
        BOOST_TEST(r.err.find("of the input folder") != std::string::npos, r.err);
    }
    BOOST_TEST(mod::read_file(x / "index.json") == index);

    // --names-out equal to OUT (also through the symlinked folder before either exists).
    const fs::path out = dir / "OUT.DGC";
    for (const fs::path& names : {out, dir / "alias" / ".." / "OUT.DGC"}) {
        r = run_cli({"totem", "repack", dgc.string(), ngc.string(), x.string(), out.string(), "--names-out", names.string()});
        BOOST_TEST(r.exit_code == 3, names.string() + ": " + r.err);
        BOOST_TEST(r.err.find("two outputs of one command are the same file") != std::string::npos, r.err);
        BOOST_TEST(!fs::exists(out));
    }
    fs::create_directory(dir / "o");
    fs::create_directory_symlink(dir / "o", dir / "o-alias");
    r = run_cli({"totem", "repack", dgc.string(), ngc.string(), x.string(), (dir / "o" / "A").string(), "--names-out",
                 (dir / "o-alias" / "A").string()});
    BOOST_TEST(r.exit_code == 3, r.err);
    BOOST_TEST(!fs::exists(dir / "o" / "A"));
    // Distinct outputs work, and the unchanged repack is the input.
    r = run_cli({"totem", "repack", dgc.string(), ngc.string(), x.string(), out.string(), "--names-out",
                 (dir / "OUT.NGC").string()});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(mod::read_file(out) == mod::read_file(dgc));
}

BOOST_AUTO_TEST_SUITE_END()
