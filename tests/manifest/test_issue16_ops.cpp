// Issue 16 in manifests: texture.replace defaults to mode "auto" (the lowest mean dE of the
// modes that fit) and reports the mode used; skin.reweight reads the model with "units",
// "scale" and "axis", and a reweight that matches no position fails (exit 2) naming them.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/png.hpp"

#include <fstream>

namespace fs = std::filesystem;

namespace {

void write_text(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

std::string read_text(const fs::path& p) {
    const mod::Bytes b = mod::read_file(p);
    return std::string(b.begin(), b.end());
}

struct Games {
    modtest::TempDir dir;
    Games() {
        auto r = modtest::run_cli({"sample", (dir / "base").string(), "--quiet"});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    }
};

const char* const hero_skin = "DB:>SAMPLE>CHARACTERS>HERO>HERO.TSKIN";

std::string reweight_manifest(const std::string& extra) {
    return std::string(R"({"modkit": 1, "name": "t", "game": "totemtech",
 "inputs": {"data": {"path": "base/totem/SAMPLE.DGC", "names": "names"}, "names": {"path": "base/totem/SAMPLE.NGC"}},
 "outputs": {"data": "out/SAMPLE.DGC", "report": "out/report"},
 "edits": [{"op": "skin.reweight", "skin": ")") +
           hero_skin + R"(", "model": "hero.glb")" + extra + "}]}";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(manifest_issue16)

BOOST_AUTO_TEST_CASE(texture_replace_defaults_to_auto_and_reports_the_mode_used) {
    Games g;
    mod::image::RgbaImage magenta;
    magenta.width = 64;
    magenta.height = 32;
    for (int i = 0; i < 64 * 32; ++i) magenta.pixels.insert(magenta.pixels.end(), {255, 0, 255, 255});
    mod::write_file_atomic(g.dir / "m.png", mod::image::write_png(magenta));
    write_text(g.dir / "mod.json", R"({"modkit": 1, "name": "t", "game": "pokemon-stadium",
 "inputs": {"rom": {"path": "base/stadium/pokemon_stadium_sample.z64"}},
 "outputs": {"rom": "out/mod.z64", "report": "out/report"},
 "edits": [{"op": "texture.replace", "model": 0, "texture": 0, "png": "m.png"}]})");
    auto r = modtest::run_cli({"apply", (g.dir / "mod.json").string(), "-q"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string report = read_text(g.dir / "out/report/report.json");
    BOOST_TEST(report.find("\"mode\": \"auto\"") != std::string::npos, report);
    BOOST_TEST(report.find("\"mode_used\": \"constrained\"") != std::string::npos, report);
    BOOST_TEST(report.find("\"modes_tried\"") != std::string::npos);
    // An explicit reindex is kept and warned about, naming the mode that does better.
    write_text(g.dir / "re.json", R"({"modkit": 1, "name": "t", "game": "pokemon-stadium",
 "inputs": {"rom": {"path": "base/stadium/pokemon_stadium_sample.z64"}},
 "outputs": {"rom": "out2/mod.z64", "report": "out2/report"},
 "edits": [{"op": "texture.replace", "model": 0, "texture": 0, "png": "m.png", "mode": "reindex"}]})");
    r = modtest::run_cli({"apply", (g.dir / "re.json").string(), "-q"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string report2 = read_text(g.dir / "out2/report/report.json");
    BOOST_TEST(report2.find("\\\"constrained\\\" gives") != std::string::npos, report2);
}

BOOST_AUTO_TEST_CASE(skin_reweight_takes_units_scale_axis_and_fails_when_nothing_matches) {
    Games g;
    auto r = modtest::run_cli({"totem", "export", (g.dir / "base/totem/SAMPLE.DGC").string(),
                               (g.dir / "base/totem/SAMPLE.NGC").string(), hero_skin, (g.dir / "hero.glb").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    write_text(g.dir / "bad.json", reweight_manifest(R"(, "scale": 100)"));
    r = modtest::run_cli({"apply", (g.dir / "bad.json").string(), "-q"});
    BOOST_TEST(r.exit_code == 2, r.err);
    for (const char* word : {"\"tolerance\"", "\"units\"", "\"scale\"", "\"axis\"", "none of the"})
        BOOST_TEST(r.err.find(word) != std::string::npos, word << " in " << r.err);
    BOOST_TEST(!fs::exists(g.dir / "out/SAMPLE.DGC"));
    write_text(g.dir / "ok.json", reweight_manifest(R"(, "scale": 1, "units": "file", "axis": "identity")"));
    r = modtest::run_cli({"apply", (g.dir / "ok.json").string(), "-q"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(fs::exists(g.dir / "out/SAMPLE.DGC"));
    write_text(g.dir / "axis.json", reweight_manifest(R"(, "axis": "x,x,y")"));
    r = modtest::run_cli({"apply", (g.dir / "axis.json").string(), "-q"});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(r.err.find("axis") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
