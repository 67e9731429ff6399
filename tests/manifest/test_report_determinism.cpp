// Issue 34 (9): the same manifests and base files give the same report.json and report.html,
// byte for byte, like every other output: no timings in them (`apply --timings` prints those on
// stderr). Runs the stadium-recolour example (palettes, a texture from a PNG, model pictures)
// twice in one folder and the totem-reweight one (SKIN pictures) twice.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/sample/examples.hpp"

#include <string>

namespace fs = std::filesystem;
using modtest::TempDir;

namespace {

struct Pages {
    mod::Bytes json, html;
};

Pages apply_once(const fs::path& work, const std::string& manifest, bool timings) {
    std::vector<std::string> args{"apply", (work / manifest).string(), "-q"};
    if (timings) args.push_back("--timings");
    const auto r = modtest::run_cli(args);
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    if (timings) {
        BOOST_TEST(r.err.find("modkit: timing: load ") != std::string::npos, r.err);
        BOOST_TEST(r.err.find("modkit: timing: edits ") != std::string::npos, r.err);
    } else {
        BOOST_TEST(r.err.find("timing") == std::string::npos, r.err);
    }
    return {mod::read_file(work / "out/report/report.json"), mod::read_file(work / "out/report/report.html")};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_determinism)

BOOST_AUTO_TEST_CASE(same_inputs_give_the_same_report_bytes) {
    for (const std::string example : {"stadium-recolour", "totem-reweight"}) {
        BOOST_TEST_CONTEXT(example) {
            TempDir tmp;
            const fs::path work = tmp / example;
            fs::copy(fs::path(MODKIT_SOURCE_DIR) / "examples" / example, work, fs::copy_options::recursive);
            mod::sample::write_example_inputs(work);
            const Pages first = apply_once(work, "mod.json", false);
            const Pages second = apply_once(work, "mod.json", true);  // outputs exist now; timings asked for
            BOOST_TEST((first.json == second.json));
            BOOST_TEST((first.html == second.html));
            const std::string json(first.json.begin(), first.json.end());
            BOOST_TEST(json.find("timings_ms") == std::string::npos);
            BOOST_TEST(json.find("\"ms\"") == std::string::npos);
            const std::string html = modtest::without_viewer_scripts(std::string(first.html.begin(), first.html.end()));
            BOOST_TEST(html.find(" ms") == std::string::npos);
            BOOST_TEST(html.find("<img") != std::string::npos);  // pictures were made, and are the same
            // The page rebuilt by `modkit report` from the report is the same page again.
            const auto r = modtest::run_cli({"report", (work / "out/report/report.json").string(),
                                             (tmp / "again.html").string(), "--base", tmp.path().string()});
            BOOST_TEST(r.exit_code == 0, r.err);
            BOOST_TEST((mod::read_file(tmp / "again.html") == first.html));
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
