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

BOOST_AUTO_TEST_SUITE_END()
