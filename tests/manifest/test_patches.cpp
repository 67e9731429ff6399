// patches/: every ready-made mod validates, and its sample equivalent applies on the sample.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/manifest/apply.hpp"
#include "libmod/sample/examples.hpp"

using modtest::TempDir;
namespace fs = std::filesystem;
using namespace mod::manifest;

BOOST_AUTO_TEST_SUITE(manifest_patches)

BOOST_AUTO_TEST_CASE(every_ready_made_mod_validates_and_its_sample_twin_applies) {
    std::size_t count = 0;
    for (const auto& e : fs::directory_iterator(fs::path(MODKIT_SOURCE_DIR) / "patches")) {
        if (!e.is_directory()) continue;
        ++count;
        BOOST_TEST_INFO(e.path().string());
        BOOST_REQUIRE(fs::exists(e.path() / "mod.json"));
        BOOST_REQUIRE(fs::exists(e.path() / "sample.json"));
        const Manifest real = load_manifest(e.path() / "mod.json");
        BOOST_TEST((real.inputs.front().sha1 || real.inputs.front().md5 || real.inputs.front().crc32));

        TempDir tmp;
        fs::copy_file(e.path() / "sample.json", tmp / "sample.json");
        mod::sample::write_example_inputs(tmp.path());
        ApplyOptions o;
        o.quiet = true;
        const ApplyResult r = apply_manifests({load_manifest(tmp / "sample.json")}, o);
        BOOST_TEST(r.plan.edits.size() == real.edits.size());
        for (std::size_t i = 0; i < real.edits.size(); ++i) BOOST_TEST(r.plan.edits[i].op == real.edits[i].op);
        BOOST_TEST(std::any_of(r.written.begin(), r.written.end(), [](const WrittenFile& w) { return w.role == "patch"; }));
    }
    BOOST_TEST(count >= 1u);
}

// Issue 33 (review §4): "palette 0 is the body" has no source, so a palette edit's plan lists
// every palette of the entry with what it colours and where to see it.
BOOST_AUTO_TEST_CASE(blue_pikachu_dry_run_lists_every_palette) {
    TempDir tmp;
    fs::copy_file(fs::path(MODKIT_SOURCE_DIR) / "patches/stadium-blue-pikachu/sample.json", tmp / "sample.json");
    mod::sample::write_example_inputs(tmp.path());
    ApplyOptions o;
    o.quiet = true;
    o.dry_run = true;
    const ApplyResult r = apply_manifests({load_manifest(tmp / "sample.json")}, o);
    BOOST_TEST_REQUIRE(r.plan.edits.size() == 1u);
    const auto& notes = r.plan.edits[0].notes;
    // Sample model 1 (odd) has one 16-colour palette: the hypothesis line, one line per
    // palette, the pictures line.
    BOOST_TEST_REQUIRE(notes.size() == 3u);
    BOOST_TEST(notes[0].find("hypothesis stadium-palette-parts/1") != std::string::npos, notes[0]);
    BOOST_TEST(notes[0].find("1 palette(s)") != std::string::npos, notes[0]);
    BOOST_TEST(notes[1].rfind("palette 0 (16 colours): materials ", 0) == 0u, notes[1]);
    BOOST_TEST(notes[1].find("texels, most of them") != std::string::npos, notes[1]);
    BOOST_TEST(notes[2].find("stadium export") != std::string::npos, notes[2]);
    BOOST_TEST(notes[2].find("palNN.png") != std::string::npos, notes[2]);
    BOOST_TEST(r.written.empty());
    // The shipped mod's README and description say it is a hypothesis and how to settle it.
    const std::string readme = [] {
        const auto b = mod::read_file(fs::path(MODKIT_SOURCE_DIR) / "patches/README.md");
        return std::string(b.begin(), b.end());
    }();
    BOOST_TEST(readme.find("stadium-palette-parts/1") != std::string::npos);
    BOOST_TEST(readme.find("--dry-run") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
