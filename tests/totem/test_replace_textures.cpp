// mesh.replace with the source's own textures (issue 29 item 2): a foreign model's base-colour
// image becomes a new BITMAP and MATERIAL, named in the name table, visible in a re-export.
#include "test_support.hpp"

#include "libmod/image/png.hpp"
#include "libmod/sample/totem.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/bitmap.hpp"
#include "libmod/totem/material.hpp"
#include "libmod/totem/mesh.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/verify.hpp"

#include <array>
#include <cstdlib>
#include <set>

using namespace mod::totem;
using namespace modtest;
namespace sample = mod::sample;

namespace {

struct TexOpened {
    mod::Bytes data;
    Archive archive;
    mod::ByteReader payload(std::size_t i) const {
        return payload_reader(mod::ByteReader(data, archive.endian, "dgc", "dgc"), archive, i);
    }
};

TexOpened tex_open_dgc(const fs::path& p) {
    TexOpened o;
    o.data = read(p);
    o.archive = decode_archive(mod::ByteReader(o.data, mod::Endian::big, p.string(), "dgc"));
    return o;
}

NameTable tex_open_names(const fs::path& p) {
    const auto n = read(p);
    return NameTable::parse(mod::ByteReader(n, mod::Endian::big, p.string(), "names"));
}

// A w x h picture with colours that differ from texel to texel (rows top to bottom, as glTF).
mod::scene::MaterialTexture tex_picture(std::uint32_t w, std::uint32_t h) {
    mod::scene::MaterialTexture t;
    t.name = "fox_diffuse";
    t.width = w;
    t.height = h;
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x)
            for (std::uint8_t c : {std::uint8_t(x * 255 / (w - 1)), std::uint8_t(y * 255 / (h - 1)), std::uint8_t((x * 37 + y * 91) % 256),
                                   std::uint8_t(255)})
                t.rgba.push_back(c);
    return t;
}

// A foreign fox: one quad strip "fox1" with material "fox_material" wearing `texture`, weighted
// on the sample's two hero bones; names that match no record.
mod::scene::Scene tex_fox(const mod::scene::MaterialTexture& texture) {
    mod::scene::Scene sc;
    sc.source = "fox";
    for (const char* b : {"HERO_PELVIS", "HERO_SPINE"}) {
        mod::scene::Bone bone;
        bone.name = b;
        sc.skeleton.bones.push_back(bone);
    }
    mod::scene::derive_bone_matrices(sc.skeleton);
    sc.materials = {"fox_material"};
    mod::scene::MaterialInfo info;
    info.texture = texture;
    sc.material_info = {info};
    mod::scene::Mesh m;
    m.name = "fox1";
    for (int y = 0; y <= 2; ++y)
        for (int x = 0; x <= 1; ++x) {
            m.positions.push_back({float(x) * 0.5f, float(y) * 0.75f, 0.1f});
            m.normals.push_back({0, 0, 1});
            m.tangents.push_back({1, 0, 0, 1});
            m.uv0.push_back({float(x), float(y) / 2});
            m.uv1.push_back(m.uv0.back());
            std::vector<mod::scene::Influence> inf = {{std::uint32_t(y == 2), 1.0f}};
            m.influences.push_back(std::span<const mod::scene::Influence>(inf));
        }
    for (std::uint32_t y = 0; y < 2; ++y) {
        const std::uint32_t a = 2 * y, b = a + 1, c = a + 2, d = a + 3;
        m.triangles.push_back({a, b, d});
        m.triangles.push_back({a, d, c});
    }
    sc.meshes.push_back(m);
    return sc;
}

// Whether `got` is one of the 32 levels RGB5A3's opaque branch stores (v << 3 | v >> 2) and
// no level is nearer to `want` (by search: either of two equally near levels is right).
bool tex_nearest_5bit(std::uint8_t want, std::uint8_t got) {
    bool is_level = false;
    int best = 255;
    for (int v = 0; v < 32; ++v) {
        const int e = (v << 3) | (v >> 2);
        is_level = is_level || e == got;
        best = std::min(best, std::abs(e - want));
    }
    return is_level && std::abs(int(got) - int(want)) == best;
}

// The nearest RGB555 level (the lower of two equally near): what the stored texels hold.
std::uint8_t tex_nearest(std::uint8_t want) {
    for (int d = 0; d < 256; ++d)
        for (int c : {int(want) - d, int(want) + d})
            if (c >= 0 && c < 256 && tex_nearest_5bit(want, std::uint8_t(c))) return std::uint8_t(c);
    return want;
}

struct TexSample {
    TempDir dir;
    fs::path dgc, ngc;
    TexSample() {
        sample::write_totem_sample(dir.path());
        dgc = dir / "SAMPLE.DGC";
        ngc = dir / "SAMPLE.NGC";
    }
};

const std::string tex_skin_mat = "DB:>SAMPLE>MATERIALS>SKIN.TMAT";
const std::string tex_new_bitmap = "DB:>SAMPLE>TEXTURES>FOX_MATERIAL.TBITMAP";
const std::string tex_new_material = "DB:>SAMPLE>MATERIALS>FOX_MATERIAL.TMAT";

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_replace_textures)

// The fox's image goes into a new BITMAP in the format of the one SKIN.TMAT wears (RGB5A3), a
// new MATERIAL copies SKIN.TMAT with that texture, the body MESH draws with it, the name table
// beside the output lists both names, and a re-export shows the fox's image.
BOOST_AUTO_TEST_CASE(a_foreign_texture_becomes_a_new_bitmap_and_material) {
    TexSample s;
    const auto tex = tex_picture(16, 8);
    const fs::path src = s.dir / "fox.glb", out = s.dir / "OUT.DGC", out_names = s.dir / "OUT.NGC";
    mod::scene::export_file(tex_fox(tex), src);
    write_text_file(s.dir / "materials.txt", "fox_material = " + tex_skin_mat + "\n");
    auto r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), sample::totem_skin_chum_name, src.string(),
                      out.string(), "--material-map", (s.dir / "materials.txt").string(), "--json"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"format\": \"RGB5A3\"") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("\"unchanged\": false") != std::string::npos, r.out);

    const TexOpened before = tex_open_dgc(s.dgc), after = tex_open_dgc(out);
    BOOST_TEST(after.archive.records.size() == before.archive.records.size() + 2);
    const NameTable names = tex_open_names(out_names);
    BOOST_TEST(names.find(name_id(tex_new_bitmap)).has_value());
    BOOST_TEST(names.find(name_id(tex_new_material)).has_value());
    BOOST_TEST(names.entries().size() == tex_open_names(s.ngc).entries().size() + 2);

    const auto bmp = find_record(after.archive, name_id(tex_new_bitmap));
    const auto mat = find_record(after.archive, name_id(tex_new_material));
    BOOST_TEST_REQUIRE(bmp.has_value());
    BOOST_TEST_REQUIRE(mat.has_value());
    BOOST_TEST(after.archive.records[*bmp].type_id == name_id("BITMAP"));
    BOOST_TEST(after.archive.records[*mat].type_id == name_id("MATERIAL"));
    const Material m = decode_material(after.payload(*mat));
    const Material old = decode_material(before.payload(*find_record(before.archive, name_id(tex_skin_mat))));
    BOOST_TEST(m.texture == name_id(tex_new_bitmap));
    BOOST_TEST(m.colour[0].value() == 1.0f);           // the source's factor (glTF default white)
    BOOST_TEST((m.uv_transform == old.uv_transform));  // everything else copied from SKIN.TMAT
    BOOST_TEST(m.flags_a == old.flags_a);

    // The stored texels: the fox's image flipped (GX rows from v = 0), each channel the nearest
    // RGB555 level (the opaque branch of RGB5A3), found here by search over the 32 levels.
    const Bitmap b = decode_bitmap(after.payload(*bmp), BitmapLayout::gamecube);
    BOOST_TEST(b.format == bitmap_rgb5a3);
    const auto img = decode_pixels(b, mod::Endian::big);
    BOOST_TEST_REQUIRE(img.width == 16u);
    BOOST_TEST_REQUIRE(img.height == 8u);
    std::size_t wrong = 0;
    for (std::uint32_t y = 0; y < 8; ++y)
        for (std::uint32_t x = 0; x < 16; ++x)
            for (int c = 0; c < 4; ++c) {
                const std::uint8_t want = tex.rgba[(std::size_t(7 - y) * 16 + x) * 4 + c];
                const std::uint8_t got = img.pixels[(std::size_t(y) * 16 + x) * 4 + c];
                wrong += c == 3 ? got != 255 : !tex_nearest_5bit(want, got);
            }
    BOOST_TEST(wrong == 0u);

    // The body MESH now lists the new MATERIAL.
    const Mesh body = decode_mesh(after.payload(*find_record(after.archive, name_id(sample::totem_body_mesh_name))));
    BOOST_TEST((std::find(body.materials.begin(), body.materials.end(), name_id(tex_new_material)) != body.materials.end()));

    // Re-exported, the material shows the fox's image within RGB555's error (4 per channel).
    const fs::path back = s.dir / "back.glb";
    r = run_cli({"totem", "export", out.string(), out_names.string(), sample::totem_skin_chum_name, back.string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    mod::scene::ImportOptions io;
    io.read_textures = true;
    const auto sc = mod::scene::import_file(back, io);
    bool found = false;
    for (std::size_t i = 0; i < sc.materials.size(); ++i) {
        if (sc.materials[i] != tex_new_material) continue;
        found = true;
        BOOST_TEST_REQUIRE(sc.material_info.at(i).texture.has_value());
        const auto& t = *sc.material_info[i].texture;
        BOOST_TEST_REQUIRE(t.rgba.size() == tex.rgba.size());
        int worst = 0;
        for (std::size_t k = 0; k < t.rgba.size(); ++k) worst = std::max(worst, std::abs(int(t.rgba[k]) - int(tex.rgba[k])));
        BOOST_TEST(worst <= 4);
    }
    BOOST_TEST(found);

    // `totem preview` draws it textured: texels of the fox's picture appear (its first row
    // runs from black to red with blue (x * 37) % 256 and green 255: no sample texture has it).
    const fs::path png = s.dir / "preview.png";
    r = run_cli({"totem", "preview", out.string(), out_names.string(), sample::totem_skin_chum_name, png.string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const auto shown = mod::image::read_png(read(png));
    std::set<std::array<std::uint8_t, 3>> source_colours, drawn;
    for (std::size_t k = 0; k < tex.rgba.size(); k += 4)
        source_colours.insert({tex_nearest(tex.rgba[k]), tex_nearest(tex.rgba[k + 1]), tex_nearest(tex.rgba[k + 2])});
    for (std::size_t k = 0; k < shown.pixels.size(); k += 4)
        if (source_colours.count({shown.pixels[k], shown.pixels[k + 1], shown.pixels[k + 2]}))
            drawn.insert({shown.pixels[k], shown.pixels[k + 1], shown.pixels[k + 2]});
    BOOST_TEST(drawn.size() >= 8u, drawn.size() << " of the picture's colours drawn");

    // The same fox again onto the result: its image is what the new MATERIAL wears: no new record.
    const fs::path again = s.dir / "AGAIN.DGC";
    write_text_file(s.dir / "again.txt", "fox_material = " + tex_new_material + "\n");
    r = run_cli({"totem", "replace", out.string(), out_names.string(), sample::totem_skin_chum_name, src.string(),
                 again.string(), "--material-map", (s.dir / "again.txt").string(), "--json"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(tex_open_dgc(again).archive.records.size() == after.archive.records.size());
    BOOST_TEST(r.out.find("\"names_added\": []") != std::string::npos, r.out);
}

// --keep-textures keeps every MATERIAL (no record, no name table written); an image over the
// GameCube's 1024 texels is refused with the fix, nothing written; the manifest needs the name
// table's output, and writes the names there.
BOOST_AUTO_TEST_CASE(keep_textures_refusals_and_the_manifest) {
    TexSample s;
    const fs::path src = s.dir / "fox.glb", out = s.dir / "OUT.DGC";
    mod::scene::export_file(tex_fox(tex_picture(16, 8)), src);
    auto r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), sample::totem_skin_chum_name, src.string(),
                      out.string(), "--keep-textures"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(tex_open_dgc(out).archive.records.size() == tex_open_dgc(s.dgc).archive.records.size());
    BOOST_TEST(!fs::exists(s.dir / "OUT.NGC"));

    const fs::path big = s.dir / "big.glb", out2 = s.dir / "BIG.DGC";
    mod::scene::export_file(tex_fox(tex_picture(1100, 2)), big);
    r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), sample::totem_skin_chum_name, big.string(), out2.string()});
    BOOST_TEST(r.exit_code == 3, r.exit_code << " " << r.err);
    BOOST_TEST(r.err.find("1024") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("fox_material") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("--keep-textures") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(out2));
    BOOST_TEST(!fs::exists(s.dir / "BIG.NGC"));

    // Manifest: the name table is an input; without an output for it the apply fails, nothing written.
    fs::create_directories(s.dir / "base");
    fs::copy_file(s.dgc, s.dir / "base/SAMPLE.DGC");
    fs::copy_file(s.ngc, s.dir / "base/SAMPLE.NGC");
    const auto manifest = [&](const std::string& outputs) {
        return R"({"modkit": 1, "name": "fox", "game": "totemtech",
 "inputs": {"data": {"path": "base/SAMPLE.DGC", "names": "names"}, "names": {"path": "base/SAMPLE.NGC"}},
 "outputs": {)" + outputs + R"(},
 "edits": [{"op": "mesh.replace", "character": ")" + std::string(sample::totem_skin_chum_name) +
               R"(", "source": "fox.glb", "materials": {"fox_material": ")" + tex_skin_mat + R"("}}]})";
    };
    write_text_file(s.dir / "a.json", manifest(R"("data": "out-a/SAMPLE.DGC")"));
    r = run_cli({"apply", (s.dir / "a.json").string(), "--quiet"});
    BOOST_TEST(r.exit_code != 0);
    BOOST_TEST(r.err.find("names") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(s.dir / "out-a/SAMPLE.DGC"));

    write_text_file(s.dir / "b.json", manifest(R"("data": "out-b/SAMPLE.DGC", "names": "out-b/SAMPLE.NGC")"));
    r = run_cli({"apply", (s.dir / "b.json").string(), "--quiet"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const NameTable names = tex_open_names(s.dir / "out-b/SAMPLE.NGC");
    BOOST_TEST(names.find(name_id(tex_new_bitmap)).has_value());
    BOOST_TEST(names.find(name_id(tex_new_material)).has_value());
    BOOST_TEST(find_record(tex_open_dgc(s.dir / "out-b/SAMPLE.DGC").archive, name_id(tex_new_bitmap)).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
