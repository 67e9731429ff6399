// modkit totem textures | texture replace | palette | material, and textures in totem export,
// on the sample archives.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/rapidjson.hpp"
#include "libmod/image/png.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/bitmap.hpp"
#include "libmod/totem/material.hpp"
#include "libmod/totem/verify.hpp"

namespace fs = std::filesystem;
using namespace mod::totem;
using modtest::run_cli;

namespace {

struct Sample {
    modtest::TempDir dir;
    fs::path dgc, ngc, dps, nps;
    Sample() {
        auto r = run_cli({"sample", dir.path().string(), "--game", "totem", "--quiet"});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        dgc = dir / "totem/SAMPLE.DGC", ngc = dir / "totem/SAMPLE.NGC";
        dps = dir / "totem/SAMPLE.DPS", nps = dir / "totem/SAMPLE.NPS";
    }
};

rapidjson::Document json_file(const fs::path& p) {
    const auto b = mod::read_file(p);
    rapidjson::Document d;
    d.Parse(reinterpret_cast<const char*>(b.data()), b.size());
    BOOST_REQUIRE(!d.HasParseError());
    return d;
}

const char* const hero_skin = "DB:>SAMPLE>CHARACTERS>HERO>HERO.TSKIN";

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_cli_textures)

BOOST_AUTO_TEST_CASE(textures_writes_every_bitmap_and_the_index) {
    Sample s;
    auto r = run_cli({"totem", "textures", s.dgc.string(), s.ngc.string(), (s.dir / "tex").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    auto d = json_file(s.dir / "tex/index.json");
    BOOST_TEST(std::string(d["format"].GetString()) == "modkit-totem-textures");
    BOOST_REQUIRE_EQUAL(d["bitmaps"].Size(), 11u);
    BOOST_TEST(d["materials"].Size() == 3u);  // SKIN, CLOTH and the issue-33 SIGN (totem-sample.md)
    BOOST_TEST(d["material_anims"].Size() == 1u);
    BOOST_TEST(d["material_objs"].Size() == 1u);
    // Each PNG is the record's decoded image.
    const auto bytes = mod::read_file(s.dgc);
    const mod::ByteReader dgc(bytes, mod::Endian::big, "SAMPLE", "dgc");
    const Archive a = decode_archive(dgc);
    for (const auto& b : d["bitmaps"].GetArray()) {
        BOOST_REQUIRE(b["file"].IsString());
        const auto png = mod::image::read_png(mod::read_file(s.dir / "tex" / b["file"].GetString()));
        const Bitmap bm = decode_bitmap(payload_reader(dgc, a, b["index"].GetUint64()), BitmapLayout::gamecube);
        BOOST_TEST((png == decode_pixels(bm, mod::Endian::big)));
    }
    // The anim's tracks: texture keys by name, frames as stored.
    const auto& tracks = d["material_anims"][0]["tracks"];
    BOOST_TEST(std::string(tracks["texture"]["keys"][1]["bitmap"].GetString()) == "DB:>SAMPLE>TEXTURES>CRATE.TBITMAP");
    BOOST_TEST(tracks["colour"]["keys"][1]["frame"].GetUint() == 90u);
    // A SKIN leads to its meshes' materials' bitmaps only.
    r = run_cli({"totem", "textures", s.dgc.string(), s.ngc.string(), hero_skin, (s.dir / "hero").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    d = json_file(s.dir / "hero/index.json");
    BOOST_TEST(d["bitmaps"].Size() == 2u);
    BOOST_TEST(d["materials"].Size() == 2u);
    // PS2: the swizzled record is listed with its reason and warned about.
    r = run_cli({"totem", "textures", s.dps.string(), s.nps.string(), (s.dir / "ps2").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("swizzled") != std::string::npos, r.err);
    d = json_file(s.dir / "ps2/index.json");
    BOOST_TEST(std::string(d["hypothesis"].GetString()).find("totem-ps2-bitmap/1") == 0u);
    std::size_t unwritten = 0;
    for (const auto& b : d["bitmaps"].GetArray()) unwritten += b["file"].IsNull();
    BOOST_TEST(unwritten == 1u);
}

BOOST_AUTO_TEST_CASE(replacing_each_bitmap_with_its_own_png_gives_the_archive_back) {
    Sample s;
    auto r = run_cli({"totem", "textures", s.dgc.string(), s.ngc.string(), (s.dir / "tex").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto d = json_file(s.dir / "tex/index.json");
    const auto original = mod::read_file(s.dgc);
    std::size_t checked = 0;
    for (const auto& b : d["bitmaps"].GetArray()) {
        const std::string name = b["name"].GetString();
        const fs::path out = s.dir / ("re" + std::to_string(checked) + ".DGC");
        r = run_cli({"totem", "texture", "replace", s.dgc.string(), s.ngc.string(), name,
                     (s.dir / "tex" / b["file"].GetString()).string(), out.string()});
        if (b["format_code"].GetUint() == 13) {
            BOOST_TEST(r.exit_code == 1);
            BOOST_TEST(r.err.find("format 13") != std::string::npos, r.err);
            continue;
        }
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, name + ": " + r.err);
        BOOST_TEST((mod::read_file(out) == original), name);
        ++checked;
    }
    BOOST_TEST(checked == 10u);
}

BOOST_AUTO_TEST_CASE(palette_and_material_commands) {
    Sample s;
    const fs::path out = s.dir / "gold.DGC";
    auto r = run_cli({"totem", "palette", "set", s.dgc.string(), s.ngc.string(), "DB:>SAMPLE>TEXTURES>CLOTH.TBITMAP", out.string(),
                      "--set", "1=FFD700", "--lock", "0", "--json"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"after\": \"0xFF40\"") != std::string::npos, r.out);
    r = run_cli({"totem", "palette", "set", s.dgc.string(), s.ngc.string(), "DB:>SAMPLE>TEXTURES>CLOTH.TBITMAP", out.string(),
                 "--set", "0=FFD700", "--lock", "0"});
    BOOST_TEST(r.exit_code == 3);  // conflict: slot 0 is locked
    r = run_cli({"totem", "palette", "set", s.dgc.string(), s.ngc.string(), "DB:>SAMPLE>TEXTURES>RGBA8.TBITMAP", out.string(),
                 "--set", "0=FFD700"});
    BOOST_TEST(r.exit_code == 1);
    BOOST_TEST(r.err.find("has no palette") != std::string::npos, r.err);
    const fs::path tinted = s.dir / "tint.DGC";
    r = run_cli({"totem", "material", "colour", s.dgc.string(), s.ngc.string(), "DB:>SAMPLE>MATERIALS>SKIN.TMAT", tinted.string(),
                 "--colour", "FF000080"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto bytes = mod::read_file(tinted);
    const mod::ByteReader dgc(bytes, mod::Endian::big);
    const Archive a = decode_archive(dgc);
    const Material m = decode_material(payload_reader(dgc, a, *find_record(a, name_id("DB:>SAMPLE>MATERIALS>SKIN.TMAT"))));
    BOOST_TEST(m.colour[3].value() == 128.0f / 255.0f);
    BOOST_TEST(m.colour[1].value() == 0.0f);
}

BOOST_AUTO_TEST_CASE(export_embeds_the_textures) {
    Sample s;
    const fs::path glb = s.dir / "hero.glb";
    auto r = run_cli({"totem", "export", s.dgc.string(), s.ngc.string(), hero_skin, glb.string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto b = mod::read_file(glb);
    const std::uint32_t json_len = b[12] | b[13] << 8 | b[14] << 16 | std::uint32_t(b[15]) << 24;
    rapidjson::Document d;
    d.Parse(reinterpret_cast<const char*>(b.data() + 20), json_len);
    BOOST_REQUIRE(!d.HasParseError());
    BOOST_REQUIRE(d.HasMember("images"));
    BOOST_TEST(d["images"].Size() == 2u);  // HERO_DIFFUSE and CLOTH
    std::size_t textured = 0;
    for (const auto& m : d["materials"].GetArray())
        textured += m["pbrMetallicRoughness"].HasMember("baseColorTexture");
    BOOST_TEST(textured == 2u);
    // SKIN.TMAT's colour (1, 0.85, 0.7, 1) is the base colour factor.
    bool found = false;
    for (const auto& m : d["materials"].GetArray())
        if (std::string(m["name"].GetString()).find("SKIN.TMAT") != std::string::npos) {
            found = true;
            BOOST_TEST(m["pbrMetallicRoughness"]["baseColorFactor"][1].GetDouble() == 0.85f);
            BOOST_TEST(std::string(m["alphaMode"].GetString()) == "MASK");  // HERO_DIFFUSE alpha level 1
        }
    BOOST_TEST(found);
}

BOOST_AUTO_TEST_SUITE_END()
