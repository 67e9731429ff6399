// Export for viewing: the scene built from a model (bones in bind pose, one mesh per material,
// per-vertex bone assignment) and the texture folder.
#include "stadium_test_support.hpp"

#include "../scene/glb_test_reader.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/colour.hpp"
#include "libmod/image/png.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <set>

using namespace mod::stadium;

namespace {

constexpr unsigned gl_repeat = 10497, gl_mirrored_repeat = 33648, gl_clamp_to_edge = 33071;

// An unlit model (no G_GEOMETRYMODE: vertices carry colours) with one RGBA16 texture 24 × 8
// whose render tile mirrors and clamps along s (mask 4: mirrors every 16 texels, clamps at 24)
// and mirrors along t (mask 3 = the height: exact).
mod::Bytes unlit_model() {
    ModelBuilder m(3);
    mod::Bytes texels(24 * 8 * 2);
    for (std::size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<std::uint8_t>(i * 13 + (i % 2));
    const auto tex = m.add_texture(TexFormat::rgba, TexSize::b16, 24, 8, texels);
    const auto mat = m.add_material_dl(tex, mod::n64::tx_mirror | mod::n64::tx_clamp, mod::n64::tx_mirror);
    std::vector<Vertex> v(4);
    for (std::size_t i = 0; i < v.size(); ++i) {
        v[i].x = static_cast<std::int16_t>(i & 1 ? 30 : 0);
        v[i].y = static_cast<std::int16_t>(i & 2 ? 30 : 0);
        v[i].s = static_cast<std::int16_t>(i & 1 ? 24 * 32 : 0);
        v[i].t = static_cast<std::int16_t>(i & 2 ? 8 * 32 : 0);
        v[i].color = {static_cast<std::uint8_t>(40 * i), static_cast<std::uint8_t>(255 - 50 * i), 128,
                      static_cast<std::uint8_t>(i == 3 ? 128 : 255)};
    }
    const auto first = m.add_vertices(v);
    DisplayList dl;
    dl.vtx(first, 4, 0).tri2(0, 1, 3, 0, 3, 2).end();
    const auto g = m.add_display_list(std::move(dl));
    m.layout().model_header().open().bone(0, 0, 0, {}, {}).open().material(1, -1, mat, tex, -1, 0xFFFFFFFF).draw(1, g)
        .close().close().end();
    return m.build();
}

std::string image_name(const glbtest::Gltf& g, std::size_t material) {
    const auto& m = g.json["materials"][static_cast<rapidjson::SizeType>(material)];
    const std::size_t t = m["pbrMetallicRoughness"]["baseColorTexture"]["index"].GetUint64();
    const std::size_t image = g.json["textures"][static_cast<rapidjson::SizeType>(t)]["source"].GetUint64();
    return g.json["images"][static_cast<rapidjson::SizeType>(image)]["name"].GetString();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_export)

BOOST_AUTO_TEST_CASE(scene_has_the_bind_pose_and_bone_assignment) {
    const Model m = read_model(stadiumtest::small_model());
    const mod::scene::Scene s = model_scene(m);
    BOOST_REQUIRE_EQUAL(s.skeleton.bones.size(), 2u);
    BOOST_TEST(s.skeleton.bones[1].parent == 0);
    // Bone 1 sits 40 units up its parent (translation in the bind matrix's last column).
    BOOST_TEST(s.skeleton.bones[1].bind[7] == 40.0f);
    BOOST_REQUIRE_EQUAL(s.meshes.size(), 2u);  // one per material
    std::size_t tris = 0;
    for (const auto& mesh : s.meshes) {
        tris += mesh.triangles.size();
        BOOST_TEST(mesh.positions.size() == mesh.influences.size());
        for (const auto& inf : mesh.influences) {
            BOOST_REQUIRE_EQUAL(inf.size(), 1u);
            BOOST_TEST(inf[0].weight == 1.0f);
        }
    }
    BOOST_TEST(tris == m.triangles.size());
    // Bone 1's triangle (0, 1, 8): slots 0, 1 from bone 0, slot 8 from bone 1 (rotated 90° about z
    // and raised by 40: vertex 8 = (24, 40) in bone space becomes (-40, 64)).
    const auto& mesh1 = s.meshes[1];
    bool found = false;
    for (std::size_t v = 0; v < mesh1.positions.size(); ++v)
        if (mesh1.influences[v][0].bone == 1 && std::abs(mesh1.positions[v][0] + 40.0f) < 1e-3f &&
            std::abs(mesh1.positions[v][1] - 64.0f) < 1e-3f)
            found = true;
    BOOST_TEST(found);
}

BOOST_AUTO_TEST_CASE(glb_and_texture_folder_are_written) {
    const Model m = read_model(stadiumtest::small_model());
    modtest::TempDir dir;
    export_model(m, dir / "m.glb");
    BOOST_TEST(std::filesystem::file_size(dir / "m.glb") > 0u);
    const auto back = mod::scene::import_file(dir / "m.glb");
    BOOST_TEST(back.skeleton.bones.size() == 2u);
    std::size_t tris = 0;
    for (const auto& mesh : back.meshes) tris += mesh.triangles.size();
    BOOST_TEST(tris == m.triangles.size());
    const auto tex = export_textures(m, dir / "tex");
    BOOST_TEST(tex.textures.size() == 2u);
    BOOST_TEST(tex.palettes.size() == 1u);
    BOOST_TEST(tex.warnings.empty());
    const auto png = mod::image::read_png(mod::read_file(dir / "tex" / "tex000.png"));
    BOOST_TEST(png.pixels == decode_texture_rgba(m, 0));
    const auto ci = mod::image::read_png_paletted(mod::read_file(dir / "tex" / "tex000_ci.png"));
    BOOST_REQUIRE(ci);
    BOOST_TEST(ci->palette.size() == 16u);
    BOOST_TEST(std::filesystem::exists(dir / "tex" / "textures.json"));
    BOOST_TEST(tex.textures[0].wrap_s == "repeat");
}

BOOST_AUTO_TEST_CASE(glb_embeds_the_textures_stadium_textures_writes) {
    // Sample model 2: four bones drawing CI4 (16-colour palette), RGBA16, CI8 (256-colour
    // palette) and CI4 again: four materials, three distinct images.
    modtest::TempDir dir;
    const auto rom = stadiumtest::sample_rom().string();
    auto r = modtest::run_cli({"stadium", "export", rom, "2", (dir / "m.glb").string(), "--json"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"embedded_textures\": 4") != std::string::npos, r.out);
    r = modtest::run_cli({"stadium", "textures", rom, "2", (dir / "pngs").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);

    const auto g = glbtest::read_glb(mod::read_file(dir / "m.glb"));
    const auto& materials = g.json["materials"];
    const auto& textures = g.json["textures"];
    const auto& samplers = g.json["samplers"];
    BOOST_TEST_REQUIRE(g.json["images"].Size() == 3u);
    BOOST_TEST_REQUIRE(materials.Size() == 4u);
    std::set<std::string> seen;
    for (rapidjson::SizeType m = 0; m < materials.Size(); ++m) {
        const std::size_t t = materials[m]["pbrMetallicRoughness"]["baseColorTexture"]["index"].GetUint64();
        BOOST_TEST_REQUIRE(t < textures.Size());
        const std::size_t sampler = textures[static_cast<rapidjson::SizeType>(t)]["sampler"].GetUint64();
        const std::size_t image = textures[static_cast<rapidjson::SizeType>(t)]["source"].GetUint64();
        BOOST_TEST_REQUIRE(sampler < samplers.Size());
        // The forge's material DLs wrap every 2^log2(size) texels: a plain, exact REPEAT, except
        // the RGBA16 texture's (texture 1, stadium_cases.cpp): mirror on S, clamp on T, which
        // glTF spells MIRRORED_REPEAT (33648) and CLAMP_TO_EDGE (33071).
        const bool mirror_clamp = std::string(materials[m]["name"].GetString()).find("_tex001") != std::string::npos;
        BOOST_TEST(samplers[static_cast<rapidjson::SizeType>(sampler)]["wrapS"].GetUint() == (mirror_clamp ? gl_mirrored_repeat : gl_repeat));
        BOOST_TEST(samplers[static_cast<rapidjson::SizeType>(sampler)]["wrapT"].GetUint() == (mirror_clamp ? gl_clamp_to_edge : gl_repeat));
        BOOST_TEST(!materials[m].HasMember("extras"));
        // Material names say which texture: mat<i>_tex<NNN>[_pal<NNN>]; the image is that texture.
        const std::string name = materials[m]["name"].GetString();
        const std::string tex = name.substr(name.find("_tex") + 1, 6);
        BOOST_TEST(image_name(g, m) == tex);
        const auto embedded = mod::image::read_png(g.image_png(image));
        const auto written = mod::image::read_png(mod::read_file(dir / "pngs" / (tex + ".png")));
        BOOST_TEST(embedded.width == written.width);
        BOOST_TEST(embedded.height == written.height);
        BOOST_TEST((embedded.pixels == written.pixels), tex);
        seen.insert(tex);
    }
    BOOST_TEST(seen.size() == 3u);
    // Lit model: no vertex colours, not unlit.
    for (const auto& mesh : g.json["meshes"].GetArray())
        BOOST_TEST(!mesh["primitives"][0]["attributes"].HasMember("COLOR_0"));
    BOOST_TEST(!g.json.HasMember("extensionsUsed"));
}

BOOST_AUTO_TEST_CASE(gltf_export_keeps_the_images_in_the_bin) {
    modtest::TempDir dir;
    const Model m = read_archive_model(read_archive(load_rom(stadiumtest::sample_rom())), 1);
    const ModelExport e = export_model(m, dir / "m.gltf");
    BOOST_TEST(e.embedded_textures == 3u);  // three bones' materials: CI4, RGBA16, CI4
    BOOST_TEST(e.warnings.empty());
    const auto g = glbtest::read_gltf(mod::read_file(dir / "m.gltf"), mod::read_file(dir / "m.bin"));
    BOOST_TEST_REQUIRE(g.json["images"].Size() == 2u);
    for (rapidjson::SizeType i = 0; i < 2; ++i) {
        const std::string name = g.json["images"][i]["name"].GetString();
        const auto png = mod::image::read_png(g.image_png(i));
        BOOST_TEST((png.pixels == decode_texture_rgba(m, std::stoul(name.substr(3)))), name);
    }
}

BOOST_AUTO_TEST_CASE(unlit_vertex_colours_and_wrap_notes_reach_the_glb) {
    modtest::TempDir dir;
    const Model m = read_model(unlit_model());
    const mod::scene::Scene s = model_scene(m);
    BOOST_TEST_REQUIRE(s.meshes.size() == 1u);
    const auto& mesh = s.meshes[0];
    BOOST_TEST_REQUIRE(mesh.colours.size() == mesh.vertex_count());
    BOOST_TEST_REQUIRE(mesh.vertex_count() == 4u);
    for (std::size_t v = 0; v < 4; ++v) {
        // Vertex i's position tells which model vertex it is (x = 30 for odd, y = 30 for 2, 3).
        const std::size_t i = (mesh.positions[v][0] > 1 ? 1 : 0) + (mesh.positions[v][1] > 1 ? 2 : 0);
        const auto& c = m.vertices[i].colour;
        BOOST_TEST(mesh.colours[v][0] == float(mod::image::srgb8_to_linear(c[0])));
        BOOST_TEST(mesh.colours[v][1] == float(mod::image::srgb8_to_linear(c[1])));
        BOOST_TEST(mesh.colours[v][2] == float(mod::image::srgb8_to_linear(c[2])));
        BOOST_TEST(mesh.colours[v][3] == float(c[3]) / 255.0f);
    }
    BOOST_TEST_REQUIRE(s.material_info.size() == 1u);
    const auto& info = s.material_info[0];
    BOOST_TEST(info.unlit);
    BOOST_TEST((info.alpha == mod::scene::AlphaMode::blend));  // one vertex alpha is 128
    BOOST_TEST_REQUIRE(info.texture.has_value());
    BOOST_TEST((info.texture->wrap_s == mod::scene::TextureWrap::mirrored_repeat));
    BOOST_TEST((info.texture->wrap_t == mod::scene::TextureWrap::mirrored_repeat));
    BOOST_TEST(info.texture->wrap_note.find("s: mirrors every 16 texels, then clamps at texel 24") == 0u,
               info.texture->wrap_note);
    BOOST_TEST(info.texture->wrap_note.find("t:") == std::string::npos);

    const ModelExport e = export_model(m, dir / "u.glb");
    BOOST_TEST_REQUIRE(e.wrap_notes.size() == 1u);
    const auto g = glbtest::read_glb(mod::read_file(dir / "u.glb"));
    const auto& attrs = g.json["meshes"][0]["primitives"][0]["attributes"];
    BOOST_TEST_REQUIRE(attrs.HasMember("COLOR_0"));
    const auto colours = g.floats(attrs["COLOR_0"].GetUint64());
    BOOST_TEST_REQUIRE(colours.size() == 16u);
    for (std::size_t v = 0; v < 4; ++v)
        for (int k = 0; k < 4; ++k) BOOST_TEST(colours[v * 4 + k] == mesh.colours[v][k]);
    const auto& mat = g.json["materials"][0];
    BOOST_TEST(mat["extensions"].HasMember("KHR_materials_unlit"));
    BOOST_TEST(std::string(mat["alphaMode"].GetString()) == "BLEND");
    BOOST_TEST(std::string(mat["extras"]["wrap_note"].GetString()) == info.texture->wrap_note);
    const auto& sampler = g.json["samplers"][0];
    BOOST_TEST(sampler["wrapS"].GetUint() == gl_mirrored_repeat);
    BOOST_TEST(sampler["wrapT"].GetUint() == gl_mirrored_repeat);
    // textures.json carries the note too.
    BOOST_TEST(e.texture_dir == dir / "u_textures");
    const auto json = mod::read_file(dir / "u_textures" / "textures.json");
    BOOST_TEST(std::string(json.begin(), json.end()).find("\"wrap_note\": \"s: mirrors every 16") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(gltf_wrap_maps_every_rdp_axis_mode) {
    using mod::scene::TextureWrap;
    auto axis = [](std::uint8_t cm, std::uint8_t mask) {
        mod::n64::TileAxis a;
        a.cm = cm;
        a.mask = mask;
        return a;
    };
    std::string note;
    // Wrap every 2^mask = size texels: exact.
    BOOST_TEST((gltf_wrap(axis(0, 5), 32, 32, note) == TextureWrap::repeat));
    BOOST_TEST(note.empty());
    BOOST_TEST((gltf_wrap(axis(1, 5), 32, 32, note) == TextureWrap::mirrored_repeat));
    BOOST_TEST(note.empty());
    // Clamp reached before the first wrap: exact clamp, mirror bit or not.
    BOOST_TEST((gltf_wrap(axis(2, 5), 32, 32, note) == TextureWrap::clamp_to_edge));
    BOOST_TEST(note.empty());
    BOOST_TEST((gltf_wrap(axis(3, 5), 32, 32, note) == TextureWrap::clamp_to_edge));
    BOOST_TEST(note.empty());
    // mask 0: no wrapping, clamp to the tile.
    BOOST_TEST((gltf_wrap(axis(1, 0), 32, 32, note) == TextureWrap::clamp_to_edge));
    BOOST_TEST(note.empty());
    BOOST_TEST((gltf_wrap(axis(0, 0), 16, 32, note) == TextureWrap::clamp_to_edge));
    BOOST_TEST(note.find("clamps at texel 16 of 32") == 0u, note);
    // Mirror (or wrap) then clamp: not expressible.
    BOOST_TEST((gltf_wrap(axis(3, 4), 32, 32, note) == TextureWrap::mirrored_repeat));
    BOOST_TEST(note.find("mirror-then-clamp") != std::string::npos, note);
    BOOST_TEST((gltf_wrap(axis(2, 4), 32, 32, note) == TextureWrap::repeat));
    BOOST_TEST(note.find("wrap-then-clamp") != std::string::npos, note);
    // A wrap period other than the image size.
    BOOST_TEST((gltf_wrap(axis(0, 4), 32, 32, note) == TextureWrap::repeat));
    BOOST_TEST(note.find("repeats every 16 texels of a 32-texel image") == 0u, note);
}

BOOST_AUTO_TEST_CASE(undecodable_texture_is_left_out_with_a_warning) {
    // A CI texture drawn with no palette (material palette -1 and no other material).
    ModelBuilder b(4);
    const auto tex = b.add_texture(TexFormat::ci, TexSize::b8, 8, 8, mod::Bytes(64, 1));
    const auto mat = b.add_material_dl(tex);
    std::vector<Vertex> v(3);
    v[1].x = 10;
    v[2].y = 10;
    const auto first = b.add_vertices(v);
    DisplayList dl;
    dl.vtx(first, 3, 0).tri1(0, 1, 2).end();
    const auto g = b.add_display_list(std::move(dl));
    b.layout().model_header().open().bone(0, 0, 0, {}, {}).open().material(1, -1, mat, tex, -1, 0xFFFFFFFF).draw(1, g)
        .close().close().end();
    const Model m = read_model(b.build());
    const auto s = model_scene(m);
    BOOST_TEST_REQUIRE(s.material_info.size() == 1u);
    BOOST_TEST(!s.material_info[0].texture.has_value());
    BOOST_TEST_REQUIRE(s.warnings.size() == 1u);
    BOOST_TEST(s.warnings[0].find("not embedded") != std::string::npos);
    modtest::TempDir dir;
    const ModelExport e = export_model(m, dir / "w.glb");
    BOOST_TEST(e.embedded_textures == 0u);
    BOOST_TEST(e.warnings.size() == 2u);  // the PNG folder's and the scene's
}

BOOST_AUTO_TEST_SUITE_END()
