// The manifest operation mesh.replace (totemtech): the same operation as `totem replace`.
#include "test_support.hpp"

#include <fstream>

using namespace modtest;

namespace {

void write_text(const fs::path& p, const std::string& s) {
    std::ofstream f(p, std::ios::binary);
    f << s;
}

std::string manifest(const std::string& edit) {
    return std::string(R"({"modkit": 1, "name": "t", "game": "totemtech",
 "inputs": {"data": {"path": "base/totem/SAMPLE.DGC", "names": "names"}, "names": {"path": "base/totem/SAMPLE.NGC"}},
 "outputs": {"data": "out/SAMPLE.DGC", "report": "out/report"},
 "edits": [)") + edit + "]}";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_replace_manifest)

BOOST_AUTO_TEST_CASE(manifest_and_cli_give_the_same_archive) {
    TempDir dir;
    auto r = run_cli({"sample", (dir / "base").string(), "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string dgc = (dir / "base/totem/SAMPLE.DGC").string(), ngc = (dir / "base/totem/SAMPLE.NGC").string();
    const std::string node = "DB:>SAMPLE>CHARACTERS>HERO>HERO.TNODE";
    r = run_cli({"totem", "export", dgc, ngc, "DB:>SAMPLE>CHARACTERS>HERO>HERO.TSKIN", (dir / "hero.glb").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    r = run_cli({"totem", "replace", dgc, ngc, node, (dir / "hero.glb").string(), (dir / "CLI.DGC").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);

    write_text(dir / "mod.json", manifest(R"({"id": "hero", "op": "mesh.replace", "character": ")" + node +
                                          R"(", "source": "hero.glb"})"));
    r = run_cli({"apply", (dir / "mod.json").string(), "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err + r.out);
    BOOST_TEST((read(dir / "out/SAMPLE.DGC") == read(dir / "CLI.DGC")));
    const auto report = read(dir / "out/report/report.json");
    const std::string text(report.begin(), report.end());
    BOOST_TEST(text.find("\"subsections_rewritten\"") != std::string::npos);

    // Without "character" a totemtech mesh.replace is refused by the checks, naming the field.
    write_text(dir / "bad.json", manifest(R"({"op": "mesh.replace", "quartet": "skater01", "mesh": 0, "source": "hero.glb"})"));
    r = run_cli({"manifest", "check", (dir / "bad.json").string()});
    BOOST_TEST(r.exit_code != 0);
    BOOST_TEST((r.err + r.out).find("character") != std::string::npos, r.err + r.out);
}

BOOST_AUTO_TEST_SUITE_END()
