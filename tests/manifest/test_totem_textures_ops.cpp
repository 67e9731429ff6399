// TotemTech palette.set, palette.hsv, texture.replace and material.colour in manifests: values
// written are the ones worked out by hand from doc/formats/totem-bitmap.md / totem-material.md,
// every other record keeps its bytes, and the two games' operations of one name stay apart.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/png.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/bitmap.hpp"
#include "libmod/totem/material.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/verify.hpp"

#include <fstream>

namespace fs = std::filesystem;
using namespace mod::totem;

namespace {

void write_text(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

struct Games {
    modtest::TempDir dir;
    Games() {
        auto r = modtest::run_cli({"sample", (dir / "base").string(), "--game", "totem", "--quiet"});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    }
    modtest::CliResult apply(const std::string& edits, const std::string& game = "totemtech") {
        write_text(dir / "mod.json", R"({"modkit": 1, "name": "t", "game": ")" + game + R"(",
 "inputs": {"data": {"path": "base/totem/SAMPLE.DGC", "names": "names"}, "names": {"path": "base/totem/SAMPLE.NGC"}},
 "outputs": {"data": "out/SAMPLE.DGC", "report": "out/report"},
 "edits": [)" + edits + "]}");
        return modtest::run_cli({"apply", (dir / "mod.json").string(), "-q"});
    }
};

struct Decoded {
    mod::Bytes bytes;
    Archive archive;
    explicit Decoded(const fs::path& p) : bytes(mod::read_file(p)), archive(decode_archive(mod::ByteReader(bytes, mod::Endian::big))) {}
    std::size_t find(const char* name) const { return *find_record(archive, name_id(name)); }
    const mod::Bytes& payload(const char* name) const { return archive.records[find(name)].payload; }
};

// Every record other than `name` has the same bytes in both archives.
void others_unchanged(const Decoded& a, const Decoded& b, const char* name) {
    BOOST_REQUIRE_EQUAL(a.archive.records.size(), b.archive.records.size());
    for (const auto& r : a.archive.records) {
        if (r.name_id == name_id(name)) continue;
        auto j = find_record(b.archive, r.name_id);
        BOOST_REQUIRE(j.has_value());
        BOOST_TEST(b.archive.records[*j].payload == r.payload);
    }
}

const char* const cloth = "DB:>SAMPLE>TEXTURES>CLOTH.TBITMAP";
const char* const crate = "DB:>SAMPLE>TEXTURES>CRATE.TBITMAP";
const char* const hero = "DB:>SAMPLE>TEXTURES>HERO_DIFFUSE.TBITMAP";
const char* const skin_mat = "DB:>SAMPLE>MATERIALS>SKIN.TMAT";

}  // namespace

BOOST_AUTO_TEST_SUITE(manifest_totem_textures)

BOOST_AUTO_TEST_CASE(palette_set_writes_rgb5a3_entries_and_nothing_else) {
    Games g;
    const auto r = g.apply(std::string(R"({"op": "palette.set", "bitmap": ")") + cloth +
                           R"(", "colours": {"1": "FFD700", "2": "00FF0080"}, "lock": "0"})");
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const Decoded before(g.dir / "base/totem/SAMPLE.DGC"), after(g.dir / "out/SAMPLE.DGC");
    const Bitmap b = decode_bitmap(mod::ByteReader(after.payload(cloth), mod::Endian::big), BitmapLayout::gamecube);
    // FFD700: 1 11111 11010 00000 (215*31/255 = 26.1 -> 26) = 0xFF40.
    BOOST_TEST(b.palette[2] == 0xFF);
    BOOST_TEST(b.palette[3] == 0x40);
    // 00FF0080: alpha 128*7/255 = 3.5 -> (128*7+127)/255 = 4: 0 100 0000 1111 0000 = 0x40F0.
    BOOST_TEST(b.palette[4] == 0x40);
    BOOST_TEST(b.palette[5] == 0xF0);
    const Bitmap old = decode_bitmap(mod::ByteReader(before.payload(cloth), mod::Endian::big), BitmapLayout::gamecube);
    BOOST_TEST(mod::Bytes(b.palette.begin() + 6, b.palette.end()) == mod::Bytes(old.palette.begin() + 6, old.palette.end()));
    BOOST_TEST(b.pixels == old.pixels);
    others_unchanged(before, after, cloth);
    const auto report = mod::read_file(g.dir / "out/report/report.json");
    BOOST_TEST(std::string(report.begin(), report.end()).find("\"after\": \"0xFF40\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(palette_hsv_material_colour_and_texture_replace) {
    Games g;
    mod::image::RgbaImage img;
    img.width = 9, img.height = 5;
    for (int i = 0; i < 45; ++i) img.pixels.insert(img.pixels.end(), {255, 0, 0, 255});
    mod::write_file_atomic(g.dir / "red.png", mod::image::write_png(img));
    const auto r = g.apply(std::string(R"({"op": "palette.hsv", "bitmap": ")") + crate + R"(", "hue": 120, "lock": "0"},
 {"op": "material.colour", "material": ")" + skin_mat + R"(", "colour": "FF8000"},
 {"op": "texture.replace", "bitmap": ")" + hero + R"(", "png": "red.png"})");
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const Decoded before(g.dir / "base/totem/SAMPLE.DGC"), after(g.dir / "out/SAMPLE.DGC");
    const Material m = decode_material(mod::ByteReader(after.payload(skin_mat), mod::Endian::big));
    BOOST_TEST(m.colour[0].value() == 1.0f);
    BOOST_TEST(m.colour[1].value() == 128.0f / 255.0f);
    BOOST_TEST(m.colour[2].value() == 0.0f);
    BOOST_TEST(m.colour[3].value() == 1.0f);
    const mod::Bytes& old_mat = before.payload(skin_mat);
    BOOST_TEST(mod::Bytes(after.payload(skin_mat).begin() + 16, after.payload(skin_mat).end()) == mod::Bytes(old_mat.begin() + 16, old_mat.end()));
    // The hero's RGB5A3 image is now 9x5 red: 1 11111 00000 00000 per texel.
    const Bitmap h = decode_bitmap(mod::ByteReader(after.payload(hero), mod::Endian::big), BitmapLayout::gamecube);
    BOOST_TEST(h.width == 9u);
    BOOST_TEST(h.height == 5u);
    BOOST_TEST(h.pixels.size() == 12u * 8u * 2u);
    BOOST_TEST(h.pixels[0] == 0xFC);
    BOOST_TEST(h.pixels[1] == 0x00);
    // The crate's slot 0 is locked; another slot changed hue.
    const Bitmap c0 = decode_bitmap(mod::ByteReader(before.payload(crate), mod::Endian::big), BitmapLayout::gamecube);
    const Bitmap c1 = decode_bitmap(mod::ByteReader(after.payload(crate), mod::Endian::big), BitmapLayout::gamecube);
    BOOST_TEST(c1.palette[0] == c0.palette[0]);
    BOOST_TEST(c1.palette[1] == c0.palette[1]);
    BOOST_TEST(c1.palette != c0.palette);
    BOOST_TEST(c1.pixels == c0.pixels);
}

BOOST_AUTO_TEST_CASE(format_13_is_refused_and_the_games_stay_apart) {
    Games g;
    mod::image::RgbaImage img;
    img.width = 1, img.height = 1, img.pixels = {1, 2, 3, 255};
    mod::write_file_atomic(g.dir / "x.png", mod::image::write_png(img));
    auto r = g.apply(R"({"op": "texture.replace", "bitmap": "DB:>SAMPLE>TEXTURES>RGB888.TBITMAP", "png": "x.png"})");
    BOOST_TEST(r.exit_code != 0);
    BOOST_TEST(r.err.find("format 13") != std::string::npos, r.err);
    // A totemtech palette.set without "bitmap", and a "bitmap" in a Stadium manifest.
    r = g.apply(R"({"op": "palette.set", "colours": {"1": "FFFFFF"}})");
    BOOST_TEST(r.exit_code != 0);
    BOOST_TEST(r.err.find("names its record with \"bitmap\"") != std::string::npos, r.err);
    r = g.apply(std::string(R"({"op": "palette.set", "bitmap": ")") + cloth + R"(", "colours": {"1": "FFFFFF"}})", "pokemon-stadium");
    BOOST_TEST(r.exit_code != 0);
    BOOST_TEST(r.err.find("\"bitmap\" belongs to the totemtech") != std::string::npos, r.err);
    // material.colour is totemtech only.
    r = g.apply(R"({"op": "material.colour", "material": "x", "colour": "FFFFFF"})", "thps-shred");
    BOOST_TEST(r.exit_code != 0);
    BOOST_TEST(r.err.find("is a totemtech operation") != std::string::npos, r.err);
    // A slot outside a C4 palette.
    r = g.apply(std::string(R"({"op": "palette.set", "bitmap": ")") + cloth + R"(", "colours": {"16": "FFFFFF"}})");
    BOOST_TEST(r.exit_code != 0);
    BOOST_TEST(r.err.find("there is no slot 16") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
