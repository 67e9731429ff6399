// The manifest operation mesh.replace (totemtech): the same operation as `totem replace`.
#include "test_support.hpp"

#include <fstream>
#include <set>

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

// The sample games in dir/base, the hero exported to dir/hero.glb and replaced from it by the
// CLI into dir/CLI.DGC (what a manifest must reproduce).
struct HeroFolder {
    TempDir dir;
    const std::string node = "DB:>SAMPLE>CHARACTERS>HERO>HERO.TNODE";
    HeroFolder() {
        auto r = run_cli({"sample", (dir / "base").string(), "--quiet"});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        const std::string dgc = (dir / "base/totem/SAMPLE.DGC").string(), ngc = (dir / "base/totem/SAMPLE.NGC").string();
        r = run_cli({"totem", "export", dgc, ngc, "DB:>SAMPLE>CHARACTERS>HERO>HERO.TSKIN", (dir / "hero.glb").string()});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        r = run_cli({"totem", "replace", dgc, ngc, node, (dir / "hero.glb").string(), (dir / "CLI.DGC").string()});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_replace_manifest)

BOOST_AUTO_TEST_CASE(manifest_and_cli_give_the_same_archive) {
    const HeroFolder h;
    const TempDir& dir = h.dir;
    const std::string& node = h.node;
    CliResult r;

    write_text(dir / "mod.json", manifest(R"({"id": "hero", "op": "mesh.replace", "character": ")" + node +
                                          R"(", "source": "hero.glb"})"));
    r = run_cli({"apply", (dir / "mod.json").string(), "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err + r.out);
    BOOST_TEST((read(dir / "out/SAMPLE.DGC") == read(dir / "CLI.DGC")));
    const auto report = read(dir / "out/report/report.json");
    const std::string text(report.begin(), report.end());
    BOOST_TEST(text.find("\"subsections_rewritten\"") != std::string::npos);
    // The report page draws it in TotemTech's terms (issue 29: it drew "mesh 0 of quartet"),
    // before and after, with vertex counts known.
    const auto page = read(dir / "out/report/report.html");
    // The bundled 3D viewer's script is not the page's words: search the page without it.
    const std::string html = modtest::without_viewer_scripts(std::string(page.begin(), page.end()));
    std::string escaped = node;  // the page escapes '>'
    for (std::size_t at = 0; (at = escaped.find('>', at)) != std::string::npos; at += 4) escaped.replace(at, 1, "&gt;");
    BOOST_TEST(html.find("character " + escaped + " (SKIN ") != std::string::npos);
    BOOST_TEST(html.find("of quartet") == std::string::npos);
    BOOST_TEST(html.find("RIDE") == std::string::npos);
    BOOST_TEST(html.find("unknown</td>") == std::string::npos);

    // Without "character" a totemtech mesh.replace is refused by the checks, naming the field.
    write_text(dir / "bad.json", manifest(R"({"op": "mesh.replace", "quartet": "skater01", "mesh": 0, "source": "hero.glb"})"));
    r = run_cli({"manifest", "check", (dir / "bad.json").string()});
    BOOST_TEST(r.exit_code != 0);
    BOOST_TEST((r.err + r.out).find("character") != std::string::npos, r.err + r.out);
}

// "meshes" and "materials" (issue 29): a source named like nothing, placed by the maps, gives the
// archive the original names give; the report lists the pairings; a map naming a record that is
// no MESH of the character is refused at its field; the size rule refuses --scale 100 (exit 3).
BOOST_AUTO_TEST_CASE(mesh_and_material_maps_and_the_size_rule) {
    const HeroFolder h;
    const TempDir& dir = h.dir;
    const std::string& node = h.node;
    CliResult r;
    // The glb's text names: rename every mesh and material in its JSON chunk (same length keeps
    // the chunk sizes): "DB:>SAMPLE>" becomes "FX:>SAMPLE>".
    mod::Bytes glb = read(dir / "hero.glb");
    std::string text(glb.begin(), glb.end());
    std::string meshes = "{", materials = "{";
    std::set<std::string> seen;
    for (std::size_t at = 0; (at = text.find("\"name\":\"DB:>SAMPLE>", at)) != std::string::npos;) {
        const std::size_t start = at + 8, end = text.find('"', start);
        const std::string name = text.substr(start, end - start);
        text[start] = 'F';
        text[start + 1] = 'X';
        at = end;
        if (!seen.insert(name).second) continue;
        const std::string foreign = "FX" + name.substr(2);
        if (name.find(".TMESH") != std::string::npos && name.find('/') != std::string::npos)
            meshes += std::string(meshes.size() > 1 ? ", " : "") + "\"" + foreign + "\": \"" + name.substr(0, name.find('/')) + "\"";
        else if (name.find(".TMAT") != std::string::npos && name.find('/') == std::string::npos)
            materials += std::string(materials.size() > 1 ? ", " : "") + "\"" + foreign + "\": \"" + name + "\"";
    }
    meshes += "}";
    materials += "}";
    BOOST_TEST_MESSAGE("meshes " << meshes << " materials " << materials);
    mod::Bytes fox(text.begin(), text.end());
    {
        std::ofstream f(dir / "fox.glb", std::ios::binary);
        f.write(reinterpret_cast<const char*>(fox.data()), std::streamsize(fox.size()));
    }
    write_text(dir / "mod.json", manifest(R"({"id": "fox", "op": "mesh.replace", "character": ")" + node +
                                          R"(", "source": "fox.glb", "meshes": )" + meshes + R"(, "materials": )" + materials + "}"));
    r = run_cli({"apply", (dir / "mod.json").string(), "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err + r.out);
    BOOST_TEST((read(dir / "out/SAMPLE.DGC") == read(dir / "CLI.DGC")));
    const auto report = read(dir / "out/report/report.json");
    const std::string rtext(report.begin(), report.end());
    BOOST_TEST(rtext.find("\"pairings\"") != std::string::npos);
    BOOST_TEST(rtext.find("(mesh map)") != std::string::npos);
    BOOST_TEST(rtext.find("(material map, MESH ") != std::string::npos);
    // A map target that is no MESH of the character: refused at "meshes" (exit 1).
    write_text(dir / "bad.json", manifest(R"({"id": "fox", "op": "mesh.replace", "character": ")" + node +
                                          R"(", "source": "fox.glb", "meshes": {"x": "DB:>NOPE.TMESH"}})"));
    fs::remove_all(dir / "out");
    r = run_cli({"apply", (dir / "bad.json").string(), "--quiet"});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(r.err.find("meshes") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("DB:>NOPE.TMESH") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(dir / "out/SAMPLE.DGC"));
    // The size rule: 100x refused (exit 3) at "source"; allowed with "allow_scale_change".
    write_text(dir / "big.json", manifest(R"({"id": "big", "op": "mesh.replace", "character": ")" + node +
                                          R"(", "source": "hero.glb", "scale": 100})"));
    r = run_cli({"apply", (dir / "big.json").string(), "--quiet"});
    BOOST_TEST(r.exit_code == 3, r.err);
    BOOST_TEST(r.err.find("100 times larger") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(dir / "out/SAMPLE.DGC"));
    write_text(dir / "big.json", manifest(R"({"id": "big", "op": "mesh.replace", "character": ")" + node +
                                          R"(", "source": "hero.glb", "scale": 100, "allow_scale_change": true})"));
    r = run_cli({"apply", (dir / "big.json").string(), "--quiet"});
    BOOST_TEST(r.exit_code == 0, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
