// Issue 30 item 3: edits that a later edit of the same file overrides are said, with both ids,
// on stderr (apply's warnings), in report.json ("shadowed_by") and on the report page. The
// reproducer of ../shared/reference/ux-review-t3.md D3: a palette recolour, then a fork
// texture.replace of a texture that palette drew, left the recolour drawn by nothing, silently.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/png.hpp"
#include "libmod/sample/stadium.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <rapidjson/document.h>

#include <fstream>

namespace fs = std::filesystem;
namespace st = mod::stadium;

namespace {


void write_png(const fs::path& p, std::uint32_t w, std::uint32_t h) {
    mod::image::RgbaImage img;
    img.width = w, img.height = h;
    for (std::uint32_t i = 0; i < w * h; ++i)  // 12 colours, opaque
        img.pixels.insert(img.pixels.end(), {std::uint8_t(40 * (i % 4)), std::uint8_t(70 * (i % 3)), std::uint8_t(200 - 9 * (i % 12)), 255});
    const auto bytes = mod::image::write_png(img);
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::string read_text(const fs::path& p) {
    const auto b = mod::read_file(p);
    return {b.begin(), b.end()};
}

// A model, a CI texture and the palette its materials draw it with, in the sample ROM.
struct Drawn {
    std::size_t model = 0, texture = 0, palette = 0;
    std::uint32_t width = 0, height = 0;
};

Drawn drawn_ci_texture() {
    const auto archive = st::read_archive(st::load_rom_bytes(mod::sample::stadium_rom()));
    for (std::size_t i = 0; i < archive.entries.size(); ++i) {
        st::Model m;
        try {
            m = st::read_archive_model(archive, i);
        } catch (const mod::Error&) {
            continue;
        }
        for (const auto& mt : m.materials)
            if (mt.texture >= 0 && mt.palette >= 0)
                return {i, std::size_t(mt.texture), std::size_t(mt.palette), m.textures[std::size_t(mt.texture)].descriptor.width,
                        m.textures[std::size_t(mt.texture)].descriptor.height};
    }
    BOOST_FAIL("the sample has no CI texture drawn with a palette");
    return {};
}

struct Stadium {
    modtest::TempDir dir;
    Drawn d = drawn_ci_texture();
    Stadium() {
        auto r = modtest::run_cli({"sample", (dir / "base").string(), "--game", "stadium", "--quiet"});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        write_png(dir / "assets/new.png", d.width, d.height);
    }
    std::string hsv() const {
        return R"({"id": "recolour", "op": "palette.hsv", "model": )" + std::to_string(d.model) + R"(, "palette": )" +
               std::to_string(d.palette) + R"(, "hue": 120})";
    }
    std::string fork() const {
        return R"({"id": "new-skin", "op": "texture.replace", "model": )" + std::to_string(d.model) + R"(, "texture": )" +
               std::to_string(d.texture) + R"(, "png": "assets/new.png", "mode": "fork"})";
    }
    modtest::CliResult apply(const std::string& edits) {
        modtest::write_text_file(dir / "mod.json", R"({"modkit": 1, "name": "t", "game": "pokemon-stadium",
 "inputs": {"rom": {"path": "base/stadium/pokemon_stadium_sample.z64"}},
 "outputs": {"rom": "out/mod.z64", "report": "out/report"},
 "edits": [)" + edits + "]}");
        return modtest::run_cli({"apply", (dir / "mod.json").string()});
    }
};

rapidjson::Document report(const fs::path& dir) {
    rapidjson::Document doc;
    doc.Parse(read_text(dir / "out/report/report.json").c_str());
    BOOST_REQUIRE(!doc.HasParseError());
    return doc;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(manifest_shadows)

BOOST_AUTO_TEST_CASE(a_fork_after_a_recolour_of_its_palette_is_said_with_both_ids_and_the_fix) {
    Stadium s;
    const auto r = s.apply(s.hsv() + ", " + s.fork());
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string want = "palette " + std::to_string(s.d.palette) + " of model " + std::to_string(s.d.model) +
                             " no longer colours texture " + std::to_string(s.d.texture) + ": edit \"new-skin\"";
    BOOST_TEST(r.err.find("recolour: " + want) != std::string::npos, r.err);
    BOOST_TEST(r.err.find("put this edit after \"new-skin\" with \"palette\": ") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("new-skin: it overrides part of edit \"recolour\"") != std::string::npos, r.err);
    const auto doc = report(s.dir.path());
    const auto& edits = doc["edits"];
    BOOST_REQUIRE(edits[0].HasMember("shadowed_by"));
    BOOST_TEST(std::string(edits[0]["shadowed_by"][0]["edit"].GetString()) == "new-skin");
    BOOST_TEST(!edits[1].HasMember("shadowed_by"));
    const std::string page = read_text(s.dir / "out/report/report.html");
    BOOST_TEST(page.find("overridden by edit new-skin:") != std::string::npos);
    BOOST_TEST(page.find("badge-shadowed\">overridden<") != std::string::npos);

    // Is the palette still drawn by anything? The message says so exactly when it is not.
    const auto archive = st::read_archive(st::load_rom_bytes(mod::read_file(s.dir / "out/mod.z64")));
    const auto m = st::read_archive_model(archive, s.d.model);
    bool drawn = false;
    for (const auto& mt : m.materials) drawn |= mt.palette == long(s.d.palette);
    BOOST_TEST((r.err.find("is drawn by nothing now") != std::string::npos) == !drawn, r.err);
}

BOOST_AUTO_TEST_CASE(the_same_edits_the_other_way_round_shadow_nothing) {
    Stadium s;
    const auto r = s.apply(s.fork() + ", " + s.hsv());
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("no longer colours") == std::string::npos, r.err);
    BOOST_TEST(r.err.find("overrides") == std::string::npos, r.err);
    const auto doc = report(s.dir.path());
    for (const auto& e : doc["edits"].GetArray()) BOOST_TEST(!e.HasMember("shadowed_by"));
    BOOST_TEST(read_text(s.dir / "out/report/report.html").find("overridden by edit") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_dry_run_says_it_too) {
    Stadium s;
    modtest::write_text_file(s.dir / "mod.json", "");
    s.apply(s.hsv() + ", " + s.fork());  // writes mod.json
    const auto r = modtest::run_cli({"apply", (s.dir / "mod.json").string(), "--dry-run"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("no longer colours texture") != std::string::npos, r.err);
}

// TotemTech: palette.set of a BITMAP, then a texture.replace of it that re-quantises the palette.
BOOST_AUTO_TEST_CASE(a_totem_replace_that_rewrites_set_slots_is_said_and_reindex_is_not) {
    modtest::TempDir dir;
    auto r = modtest::run_cli({"sample", (dir / "base").string(), "--game", "totem", "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    write_png(dir / "assets/cloth.png", 13, 7);  // CLOTH is C4 13x7 (sample/totem_textures.cpp)
    const std::string cloth = "DB:>SAMPLE>TEXTURES>CLOTH.TBITMAP";
    auto run = [&](const std::string& mode) {
        modtest::write_text_file(dir / "mod.json", R"({"modkit": 1, "name": "t", "game": "totemtech",
 "inputs": {"data": {"path": "base/totem/SAMPLE.DGC", "names": "names"}, "names": {"path": "base/totem/SAMPLE.NGC"}},
 "outputs": {"data": "out/SAMPLE.DGC", "report": "out/report"},
 "edits": [{"id": "gold", "op": "palette.set", "bitmap": ")" + cloth + R"(", "colours": {"1": "FFD700", "2": "FF0000"}},
           {"id": "cloth", "op": "texture.replace", "bitmap": ")" + cloth + R"(", "png": "assets/cloth.png", "mode": ")" + mode + R"("}]})");
        return modtest::run_cli({"apply", (dir / "mod.json").string()});
    };
    r = run("quantise");
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("gold: palette slot(s) ") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("were rewritten by edit \"cloth\"") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("\"mode\": \"reindex\"") != std::string::npos, r.err);
    const auto doc = report(dir.path());
    BOOST_REQUIRE(doc["edits"][0].HasMember("shadowed_by"));
    BOOST_TEST(std::string(doc["edits"][0]["shadowed_by"][0]["edit"].GetString()) == "cloth");
    BOOST_TEST(doc["edits"][1]["result"]["palette_slots_rewritten"].Size() > 0u);

    // reindex keeps the palette: the set colours stay, nothing is shadowed.
    r = run("reindex");
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("were rewritten") == std::string::npos, r.err);
    BOOST_TEST(report(dir.path())["edits"][1]["result"]["palette_slots_rewritten"].Size() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
