// The report page (report.html): written by apply beside every report.json, rebuilt identically
// by `modkit report`, self-contained (no script, no link, no external URL, every picture a
// data: URI), with the hand-computed colours of the palette edits, escaped text, and every
// section still there (with a note) when the files it names are gone.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/png.hpp"
#include "libmod/manifest/report_page.hpp"
#include "libmod/sample/examples.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>
#include <set>

using modtest::TempDir;
namespace fs = std::filesystem;

namespace {

fs::path examples_dir() { return fs::path(MODKIT_SOURCE_DIR) / "examples"; }

std::string text_of(const fs::path& p) {
    const mod::Bytes b = mod::read_file(p);
    return std::string(b.begin(), b.end());
}

// Copies the example, writes its inputs and runs `modkit apply` on its manifests.
modtest::CliResult run_example(const std::string& name, const fs::path& work) {
    fs::copy(examples_dir() / name, work, fs::copy_options::recursive);
    mod::sample::write_example_inputs(work);
    const auto exp = mod::sample::read_example_expectation(work / "expected.txt");
    std::vector<std::string> args{"apply"};
    for (const auto& m : exp.manifests) args.push_back((work / m).string());
    args.push_back("-q");
    return modtest::run_cli(args);
}

// The value of attribute `name` of every tag `tag` ("img", "a", ...).
std::vector<std::string> attributes(const std::string& html, const std::string& tag, const std::string& name) {
    std::vector<std::string> out;
    for (std::size_t at = html.find("<" + tag); at != std::string::npos; at = html.find("<" + tag, at + 1)) {
        const std::size_t end = html.find('>', at);
        const std::string t = html.substr(at, end - at);
        const std::size_t a = t.find(" " + name + "=\"");
        if (a == std::string::npos) continue;
        const std::size_t from = a + name.size() + 3;
        out.push_back(t.substr(from, t.find('"', from) - from));
    }
    return out;
}

std::size_t count(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
}

// The self-containment rules, checked on the text.
void check_self_contained(const std::string& page, const std::string& name) {
    // The 3D view's scripts are the page's only ones (two: model-viewer and its controller).
    std::size_t scripts = 0;
    const std::string html = modtest::without_viewer_scripts(page, &scripts);
    BOOST_TEST_INFO(name);
    BOOST_TEST((scripts == 0 || scripts == 2));
    BOOST_TEST_INFO(name);
    BOOST_TEST((scripts == 2) == (html.find("<model-viewer") != std::string::npos));
    BOOST_TEST_INFO(name);
    BOOST_TEST(html.rfind("<!DOCTYPE html>", 0) == 0);
    BOOST_TEST_INFO(name);
    BOOST_TEST(html.find("<script") == std::string::npos);
    BOOST_TEST_INFO(name);
    BOOST_TEST(html.find("<link") == std::string::npos);
    BOOST_TEST_INFO(name);
    BOOST_TEST(html.find("@import") == std::string::npos);
    BOOST_TEST_INFO(name);
    BOOST_TEST(html.find("url(") == std::string::npos);
    // A URL (http://, https://, any scheme://, file:) may only appear as text between tags,
    // never inside one (base64 has no ':', so data URIs cannot hide one).
    for (const std::string scheme : {"://", "file:"}) {
        for (std::size_t at = html.find(scheme); at != std::string::npos; at = html.find(scheme, at + 1)) {
            const std::size_t open = html.rfind('<', at), close = html.rfind('>', at);
            BOOST_TEST_INFO(name + ": " + html.substr(at > 40 ? at - 40 : 0, 80));
            BOOST_TEST((open == std::string::npos || (close != std::string::npos && close > open)));
        }
    }
    const auto srcs = attributes(html, "img", "src");
    BOOST_TEST_INFO(name);
    BOOST_TEST(srcs.size() == count(html, "<img"));
    for (const auto& s : srcs) {
        BOOST_TEST_INFO(name);
        BOOST_TEST(s.rfind("data:image/png;base64,", 0) == 0);
    }
    for (const auto& h : attributes(html, "a", "href")) {
        BOOST_TEST_INFO(name + ": href " + h);
        BOOST_TEST(h.rfind("#", 0) == 0);
    }
}

// The after swatch of `slot` in the palette block of edit `edit` ("edit-1").
std::string after_swatch_style(const std::string& html, const std::string& edit, unsigned slot) {
    const std::size_t section = html.find("id=\"" + edit + "\"");
    if (section == std::string::npos) return {};
    const std::size_t cell = html.find("data-slot=\"" + std::to_string(slot) + "\"", section);
    if (cell == std::string::npos) return {};
    const std::size_t sw = html.find("class=\"sw after\" style=\"", cell);
    if (sw == std::string::npos) return {};
    const std::size_t from = sw + 24;
    return html.substr(from, html.find('"', from) - from);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_page)

BOOST_AUTO_TEST_CASE(every_example_that_applies_writes_a_self_contained_page_that_modkit_report_rebuilds) {
    std::size_t pages = 0;
    for (const auto& e : fs::directory_iterator(examples_dir())) {
        if (!fs::exists(e.path() / "expected.txt")) continue;
        const std::string name = e.path().filename().string();
        TempDir tmp;
        const fs::path work = tmp / name;
        const auto r = run_example(name, work);
        const auto exp = mod::sample::read_example_expectation(e.path() / "expected.txt");
        if (exp.exit != 0) continue;
        BOOST_TEST_INFO(name + ": " + r.err);
        BOOST_TEST(r.exit_code == 0);
        if (r.exit_code != 0) continue;
        std::size_t here = 0;
        for (const auto& f : fs::recursive_directory_iterator(work / "out")) {
            if (f.path().filename() != "report.json") continue;
            ++here;
            const fs::path page = f.path().parent_path() / "report.html";
            BOOST_TEST_INFO(name);
            BOOST_REQUIRE(fs::exists(page));
            const std::string html = text_of(page);
            check_self_contained(html, name);
            BOOST_TEST_INFO(name);
            BOOST_TEST(html.find("Written files") != std::string::npos);
            // No section failed to draw, and the files it needed were all found.
            BOOST_TEST_INFO(name);
            BOOST_TEST(html.find("could not be made") == std::string::npos);
            BOOST_TEST_INFO(name);
            BOOST_TEST(html.find("cannot read") == std::string::npos);
            // Rebuilt from the files on disk: the same page.
            const fs::path again = tmp / "again.html";
            const auto rr = modtest::run_cli({"report", f.path().string(), again.string(), "--base", work.string()});
            BOOST_TEST_INFO(name + ": " + rr.err);
            BOOST_REQUIRE_EQUAL(rr.exit_code, 0);
            BOOST_TEST_INFO(name);
            BOOST_TEST((text_of(again) == html));
            // And without --base, from wherever the test runs: the folder is found (issue 30 item 5:
            // run from another folder it used to drop every picture).
            const fs::path guessed = tmp / "guessed.html";
            const auto rg = modtest::run_cli({"report", f.path().string(), guessed.string()});
            BOOST_TEST_INFO(name + ": " + rg.err);
            BOOST_REQUIRE_EQUAL(rg.exit_code, 0);
            BOOST_TEST_INFO(name + ": " + rg.err);
            BOOST_TEST(rg.err.find("not found") == std::string::npos);
            BOOST_TEST_INFO(name);
            BOOST_TEST((text_of(guessed) == html));
            ++pages;
        }
        BOOST_TEST_INFO(name);
        BOOST_TEST(here >= 1u);
    }
    BOOST_TEST(pages >= 4u);  // stadium-recolour, shred-replace-fbx, totem-reweight, three-games (x3)
}

BOOST_AUTO_TEST_CASE(the_recolour_page_shows_the_hand_rounded_colours_and_every_part) {
    TempDir tmp;
    const fs::path work = tmp / "stadium-recolour";
    BOOST_REQUIRE_EQUAL(run_example("stadium-recolour", work).exit_code, 0);
    const std::string html = text_of(work / "out/report/report.html");
    // Edit "outline" (edit-1) sets slot 1 to FFD700: RGBA5551 R 31, G 215 * 31 / 255 = 26.1 -> 26,
    // B 0, alpha 1 = 0xFE81; shown by 5-bit expansion v << 3 | v >> 2: R 248 | 7 = 255,
    // G 208 | 6 = 214, B 0.
    BOOST_TEST(after_swatch_style(html, "edit-1", 1) == "background:rgb(255,214,0)");
    BOOST_TEST(html.find("0xFE81") != std::string::npos);
    BOOST_TEST(html.find("rgb(255,214,0) #FFD600") != std::string::npos);
    // The slot is marked changed in that edit; slots 0 and 1 are marked locked in edit "body".
    const std::size_t outline = html.find("id=\"edit-1\"");
    BOOST_TEST(html.find("class=\"slot changed\" data-slot=\"1\"", outline) < html.find("id=\"edit-2\""));
    const std::size_t body = html.find("id=\"edit-0\"");
    BOOST_TEST(html.find("class=\"slot locked\" data-slot=\"0\"", body) < outline);
    BOOST_TEST(html.find("class=\"slot locked\" data-slot=\"1\"", body) < outline);
    // A locked slot keeps its colour: before and after swatches alike.
    const std::size_t slot0 = html.find("data-slot=\"0\"", body);
    const std::size_t b0 = html.find("class=\"sw before\" style=\"", slot0), a0 = html.find("class=\"sw after\" style=\"", slot0);
    BOOST_TEST(html.substr(b0 + 25, 30) == html.substr(a0 + 24, 30));
    // The rounding warning is in the highlighted box at the top, before the first edit.
    const std::size_t box = html.find("class=\"warnings\"");
    BOOST_TEST(box < body);
    BOOST_TEST(html.find("1 colour(s) rounded to RGBA5551", box) < body);
    // The texture: before, after, the PNG and the heat map, at 8x (16 x 16 texels -> 128 px);
    // the heat map's mean over the 256 opaque texels agrees with the report's own figure.
    BOOST_TEST(html.find("alt=\"before (8×)\"") != std::string::npos);
    BOOST_TEST(html.find("alt=\"after (8×)\"") != std::string::npos);
    BOOST_TEST(html.find("alt=\"asked for: assets/cheeks.png\"") != std::string::npos);
    BOOST_TEST(html.find("&Delta;E against the PNG: mean 0.75, max 1.30 (256 opaque texels)") != std::string::npos);
    BOOST_TEST(html.find("reported against the PNG: mean &Delta;E 0.75, max 1.30") != std::string::npos);
    // Models 1 and 2 drawn once each (front and side, before and after); later edits of model 1 link there.
    BOOST_TEST(count(html, "alt=\"before (front, side)\"") == 2u);
    BOOST_TEST(count(html, "alt=\"after (front, side)\"") == 2u);
    BOOST_TEST(count(html, "href=\"#edit-0-model\"") == 2u);
    // The outputs with their sizes and hashes.
    const std::string report = text_of(work / "out/report/report.json");
    const std::size_t sha = report.find("\"sha1\"", report.find("\"outputs\""));
    BOOST_TEST(html.find(report.substr(report.find('"', sha + 7) + 1, 40)) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_shred_page_shows_counts_boxes_and_the_influence_histogram) {
    TempDir tmp;
    const fs::path work = tmp / "shred-replace-fbx";
    BOOST_REQUIRE_EQUAL(run_example("shred-replace-fbx", work).exit_code, 0);
    const std::string html = text_of(work / "out/report/report.html");
    BOOST_TEST(html.find("mesh 1 of quartet skater01") != std::string::npos);
    BOOST_TEST(html.find("<th>batches</th>") != std::string::npos);
    BOOST_TEST(html.find("source after the 4-influence limit") != std::string::npos);
    BOOST_TEST(html.find("largest extent after / before: 1.000×") != std::string::npos);
    BOOST_TEST(count(html, "alt=\"before (front, side)\"") == 1u);
    BOOST_TEST(count(html, "alt=\"after (front, side)\"") == 1u);
    // And the skinning at a glance: coloured by each vertex's largest weight.
    BOOST_TEST(count(html, "alt=\"before weights (front, side)\"") == 1u);
    BOOST_TEST(count(html, "alt=\"after weights (front, side)\"") == 1u);
    // A size bar under the pictures (issue 29 item 6): a round length (1, 2 or 5 × 10^k model
    // units) as wide as the pictures' scale makes it, at most 40 % of a 192-pixel view and more
    // than 40 % / 2.5 (the next round length would not fit).
    static const std::regex bar("<span class=\"size-bar\" style=\"width:(\\d+)px\" data-units=\"([0-9.e+-]+)\" "
                                "data-px-per-unit=\"([0-9.]+)\"></span> ([0-9.e+-]+) model units?");
    std::size_t bars = 0;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), bar); it != std::sregex_iterator(); ++it, ++bars) {
        const double px = std::stod((*it)[1]), units = std::stod((*it)[2]), ppu = std::stod((*it)[3]);
        BOOST_TEST((*it)[2] == (*it)[4]);
        BOOST_TEST(std::abs(px - units * ppu) <= 0.5 + 1e-6 * units * ppu);
        BOOST_TEST(units * ppu <= 0.4 * 192 + 1e-9);
        BOOST_TEST(units * ppu * 2.5 > 0.4 * 192);
        const double mantissa = units / std::pow(10.0, std::floor(std::log10(units) + 1e-9));
        BOOST_TEST((std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9));
    }
    BOOST_TEST(bars >= 1u);
    BOOST_TEST(count(html, "<p class=\"size-bars\">") == 1u);  // one model drawn, one line of bars
}

// Issue 29 item 6: the largest-weight pictures have a legend: each colour once, the bone or
// group it stands for, and on how many vertices it is the largest weight. On the reweight example
// every vertex of the hero's export (168, as `totem export` counts them) is in one row before
// and in one row after.
BOOST_AUTO_TEST_CASE(the_weight_pictures_have_a_legend_that_counts_every_vertex_once) {
    TempDir tmp;
    const fs::path work = tmp / "totem-reweight";
    BOOST_REQUIRE_EQUAL(run_example("totem-reweight", work).exit_code, 0);
    const std::string html = text_of(work / "out/report/report.html");
    const std::size_t at = html.find("<table class=\"bone-legend\">");
    BOOST_REQUIRE(at != std::string::npos);
    const std::string table = html.substr(at, html.find("</table>", at) - at);
    static const std::regex row("<td><span class=\"legend\" style=\"background:(#[0-9A-F]{6})\"></span> #[0-9A-F]{6}</td><td>([^<]*)</td>"
                                "<td class=\"num\">(\\d+)</td><td class=\"num\">(\\d+)</td>");
    std::set<std::string> colours, bones;
    std::size_t before = 0, after = 0, rows = 0;
    for (auto it = std::sregex_iterator(table.begin(), table.end(), row); it != std::sregex_iterator(); ++it) {
        ++rows;
        colours.insert((*it)[1]);
        bones.insert((*it)[2]);
        before += std::stoul((*it)[3]);
        after += std::stoul((*it)[4]);
    }
    BOOST_TEST(rows == 5u);  // the hero's five groups
    BOOST_TEST(colours.size() == rows);
    BOOST_TEST(bones.size() == rows);
    BOOST_TEST(colours.count("#E6194B") == 1u);  // the first legend colour goes to the largest group
    // Groups are named from the name table (SAMPLE.NGC), as `totem export` names them.
    BOOST_TEST(bones.count("HERO_PELVIS") == 1u);
    BOOST_TEST(bones.count("HERO_HEAD") == 1u);
    BOOST_TEST(before == 168u);
    BOOST_TEST(after == 168u);
}

BOOST_AUTO_TEST_CASE(text_from_files_is_escaped_and_missing_files_become_notes) {
    const std::string report = R"({"modkit_report": 1,
      "manifests": [{"file": "m<1>.json", "name": "<script>alert(1)</script>", "game": "pokemon-stadium"}],
      "inputs": [{"path": "gone/base&.z64", "kind": "rom", "size": 1, "sha1": "0000000000000000000000000000000000000000",
                  "crc32": "00000000", "notes": ["a \"note\" <b>"]}],
      "edits": [{"manifest": "m<1>.json", "id": "x\"><img src=x>", "op": "palette.set", "line": 1, "column": 1,
                 "input": "rom", "summary": "s <i>", "touches": [{"file": "gone/base&.z64", "region": "r", "begin": 0,
                 "end": null, "exclusive": true, "what": "w"}], "limits": [],
                 "result": {"model": 1, "palettes": [{"palette": 0, "format": "rgba5551", "before": ["0x0001", "0xFFFF"],
                   "changes": [{"slot": 1, "before": "0xFFFF", "after": "0xF801", "requested": "FF0000FF",
                                "result": "FF0000FF", "rounded": false, "rounding_delta_e": 0}],
                   "locked": [0], "textures": []}]},
                 "warnings": ["w <u>"], "ms": 1}],
      "outputs": [], "warnings": ["x: w <u>"], "timings_ms": {}})";
    TempDir tmp;
    mod::manifest::ReportPageOptions o;
    o.base_dir = tmp.path();
    const std::string html = mod::manifest::report_page(report, o);
    check_self_contained(html, "hostile report");
    BOOST_TEST(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
    BOOST_TEST(html.find("x&quot;&gt;&lt;img src=x&gt;") != std::string::npos);
    BOOST_TEST(count(html, "<img") == 0u);  // no picture: the files are missing
    BOOST_TEST(html.find("cannot read gone/base&amp;.z64") != std::string::npos);
    // The palette is drawn from the report alone: 0xF801 -> rgb(255,0,0); 0x0001 -> rgb(0,0,0).
    BOOST_TEST(after_swatch_style(html, "edit-0", 1) == "background:rgb(255,0,0)");
    BOOST_TEST(html.find("class=\"slot locked\" data-slot=\"0\"") != std::string::npos);
    // Not a report: a format error.
    BOOST_CHECK_THROW(mod::manifest::report_page("{\"x\": 1}"), mod::Error);
    BOOST_CHECK_THROW(mod::manifest::report_page("not json"), mod::Error);
}

BOOST_AUTO_TEST_CASE(a_file_changed_since_the_report_is_not_drawn_from) {
    TempDir tmp;
    const fs::path work = tmp / "stadium-recolour";
    BOOST_REQUIRE_EQUAL(run_example("stadium-recolour", work).exit_code, 0);
    mod::Bytes rom = mod::read_file(work / "out/stadium-recolour.z64");
    rom[0x2000] ^= 1;
    mod::write_file_atomic(work / "out/stadium-recolour.z64", rom);
    const fs::path page = tmp / "page.html";
    const auto r = modtest::run_cli({"report", (work / "out/report/report.json").string(), page.string(), "--base", work.string()});
    BOOST_REQUIRE_EQUAL(r.exit_code, 0);
    const std::string html = text_of(page);
    BOOST_TEST(html.find("its SHA-1 differs") != std::string::npos);
    BOOST_TEST(count(html, "alt=\"after (front, side)\"") == 0u);
    BOOST_TEST(count(html, "alt=\"before (front, side)\"") == 2u);
    // The page never overwrites a file it reads.
    const auto clash = modtest::run_cli({"report", (work / "out/report/report.json").string(),
                                         (work / "base/stadium/pokemon_stadium_sample.z64").string()});
    BOOST_TEST(clash.exit_code == 3);
}

// Issue 34 (4): a crafted report.json cannot embed files from outside the base folder: the
// PNG of a texture edit ("../", absolute, through a symbolic link) is not read; one inside is.
BOOST_AUTO_TEST_CASE(a_crafted_report_embeds_no_file_from_outside_the_base_folder) {
    TempDir tmp;
    const fs::path base = tmp / "base";
    fs::create_directories(base / "mod");
    mod::image::RgbaImage picture;
    picture.width = picture.height = 2;
    picture.pixels.assign(16, 0x80);
    const mod::Bytes png = mod::image::write_png(picture);
    mod::write_file_atomic(tmp / "secret.png", png);
    mod::write_file_atomic(base / "mod" / "inside.png", png);
    fs::create_directory_symlink(tmp.path(), base / "mod" / "link");
    auto report_naming = [](const std::string& manifest, const std::string& png_path) {
        return R"({"modkit_report": 1, "manifests": [], "inputs": [],
          "edits": [{"manifest": ")" + manifest + R"(", "id": "t", "op": "texture.replace", "line": 1, "column": 1,
                     "input": "rom", "summary": "s", "touches": [], "limits": [], "warnings": [],
                     "result": {"model": 0, "textures": [{"texture": 0, "png": ")" + png_path + R"("}]}}],
          "outputs": [], "warnings": []})";
    };
    mod::manifest::ReportPageOptions o;
    o.base_dir = base;
    const std::string abs = (tmp / "secret.png").string();
    for (const auto& [manifest, path] : std::vector<std::pair<std::string, std::string>>{
             {"mod/m.json", "../../secret.png"}, {"mod/m.json", abs}, {"../m.json", "secret.png"},
             {"mod/m.json", "link/secret.png"}, {abs + "/../m.json", "secret.png"}}) {
        BOOST_TEST_INFO(manifest + " + " + path);
        const std::string html = mod::manifest::report_page(report_naming(manifest, path), o);
        BOOST_TEST(count(html, "<img") == 0u);
        BOOST_TEST((html.find("the base folder") != std::string::npos));
    }
    // Inside the base folder it is shown.
    const std::string html = mod::manifest::report_page(report_naming("mod/m.json", "inside.png"), o);
    BOOST_TEST(count(html, "<img") == 1u);
    BOOST_TEST(html.find("asked for: inside.png") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
