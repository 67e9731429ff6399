// Export of the optional scene records: material textures (embedded PNG images, samplers with
// wrap modes, textures), alpha modes, unlit materials and vertex colours (COLOR_0).
#include "glb_test_reader.hpp"
#include "test_support.hpp"

#include "libmod/image/png.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"

#include <cmath>

using namespace mod::scene;

namespace {

constexpr unsigned gl_repeat = 10497, gl_mirrored_repeat = 33648, gl_clamp_to_edge = 33071;

// A quad mesh on bone 0 using material `material`.
Mesh quad(std::uint32_t material, float x) {
    Mesh m;
    m.name = "quad" + std::to_string(material);
    m.material = material;
    m.positions = {{x, 0, 0}, {x + 1, 0, 0}, {x + 1, 1, 0}, {x, 1, 0}};
    m.normals.assign(4, {0, 0, 1});
    m.tangents.assign(4, {1, 0, 0, 1});
    m.uv0 = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    m.uv1 = m.uv0;
    for (int v = 0; v < 4; ++v) m.influences.push_back({{0, 1.0f}});
    m.triangles = {{0, 1, 2}, {0, 2, 3}};
    return m;
}

MaterialTexture texture(std::uint32_t w, std::uint32_t h, std::uint8_t seed, TextureWrap s, TextureWrap t) {
    MaterialTexture tex;
    tex.name = "img" + std::to_string(seed);
    tex.width = w;
    tex.height = h;
    for (std::uint32_t i = 0; i < w * h; ++i)
        tex.rgba.insert(tex.rgba.end(), {std::uint8_t(i * 40 + seed), std::uint8_t(seed * 3), std::uint8_t(255 - i),
                                         std::uint8_t(i % 3 == 0 ? 0 : 255)});
    tex.wrap_s = s;
    tex.wrap_t = t;
    return tex;
}

// Four materials: 0 and 1 share image and sampler, 2 has another image and sampler (with a
// wrap note, alpha mask, unlit), 3 has no record. Mesh 0 has vertex colours.
Scene textured_scene() {
    Scene s;
    Bone b;
    b.name = "root";
    s.skeleton.bones.push_back(b);
    for (std::uint32_t m = 0; m < 4; ++m) {
        s.meshes.push_back(quad(m, float(m) * 2));
        s.materials.push_back("m" + std::to_string(m));
    }
    s.meshes[0].colours = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 0.5f}, {0.25f, 0.5f, 0.75f, 1}};
    MaterialInfo a;
    a.texture = texture(4, 2, 1, TextureWrap::mirrored_repeat, TextureWrap::clamp_to_edge);
    s.material_info.push_back(a);
    s.material_info.push_back(a);
    MaterialInfo c;
    c.texture = texture(2, 2, 9, TextureWrap::repeat, TextureWrap::mirrored_repeat);
    c.texture->wrap_note = "mirrors then clamps";
    c.alpha = AlphaMode::mask;
    c.alpha_cutoff = 0.25f;
    c.unlit = true;
    c.base_colour = {0.5f, 1, 1, 1};
    s.material_info.push_back(c);
    return s;
}

std::size_t texture_of_material(const glbtest::Gltf& g, std::size_t material) {
    const auto& m = g.json["materials"][static_cast<rapidjson::SizeType>(material)];
    BOOST_TEST_REQUIRE(m.HasMember("pbrMetallicRoughness"));
    return m["pbrMetallicRoughness"]["baseColorTexture"]["index"].GetUint64();
}

// Every material with a texture record reaches, through textures[] and images[], a PNG with
// its exact pixels, and through samplers[] its wrap modes.
void check_textures(const glbtest::Gltf& g, const Scene& s) {
    const auto& textures = g.json["textures"];
    const auto& samplers = g.json["samplers"];
    BOOST_TEST(g.json["images"].Size() == 2u);  // materials 0 and 1 share one
    BOOST_TEST(samplers.Size() == 2u);
    BOOST_TEST(textures.Size() == 2u);
    auto gl = [](TextureWrap w) {
        return w == TextureWrap::repeat ? gl_repeat : w == TextureWrap::mirrored_repeat ? gl_mirrored_repeat : gl_clamp_to_edge;
    };
    for (std::size_t m = 0; m < s.material_info.size(); ++m) {
        const auto& want = *s.material_info[m].texture;
        const std::size_t t = texture_of_material(g, m);
        BOOST_TEST_REQUIRE(t < textures.Size());
        const std::size_t image = textures[static_cast<rapidjson::SizeType>(t)]["source"].GetUint64();
        const std::size_t sampler = textures[static_cast<rapidjson::SizeType>(t)]["sampler"].GetUint64();
        BOOST_TEST_REQUIRE(sampler < samplers.Size());
        BOOST_TEST(samplers[static_cast<rapidjson::SizeType>(sampler)]["wrapS"].GetUint() == gl(want.wrap_s));
        BOOST_TEST(samplers[static_cast<rapidjson::SizeType>(sampler)]["wrapT"].GetUint() == gl(want.wrap_t));
        const auto png = mod::image::read_png(g.image_png(image));
        BOOST_TEST(png.width == want.width);
        BOOST_TEST(png.height == want.height);
        BOOST_TEST((png.pixels == want.rgba));
    }
    BOOST_TEST(texture_of_material(g, 0) == texture_of_material(g, 1));
    BOOST_TEST(texture_of_material(g, 0) != texture_of_material(g, 2));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_export_materials)

BOOST_AUTO_TEST_CASE(glb_embeds_images_samplers_textures_and_material_records) {
    modtest::TempDir dir;
    const Scene s = textured_scene();
    export_file(s, dir / "t.glb");
    const auto g = glbtest::read_glb(modtest::read(dir / "t.glb"));
    check_textures(g, s);
    const auto& mats = g.json["materials"];
    BOOST_TEST_REQUIRE(mats.Size() == 4u);
    // Material 3 has no record: a name only, as before the records existed.
    BOOST_TEST(std::string(mats[3]["name"].GetString()) == "m3");
    BOOST_TEST(!mats[3].HasMember("pbrMetallicRoughness"));
    BOOST_TEST(!mats[0].HasMember("alphaMode"));
    BOOST_TEST(!mats[0].HasMember("extras"));
    BOOST_TEST(std::string(mats[2]["alphaMode"].GetString()) == "MASK");
    BOOST_TEST(mats[2]["alphaCutoff"].GetDouble() == 0.25);
    BOOST_TEST(mats[2]["pbrMetallicRoughness"]["baseColorFactor"][0].GetDouble() == 0.5);
    BOOST_TEST(mats[2]["extensions"].HasMember("KHR_materials_unlit"));
    BOOST_TEST(std::string(mats[2]["extras"]["wrap_note"].GetString()) == "mirrors then clamps");
    BOOST_TEST(std::string(g.json["extensionsUsed"][0].GetString()) == "KHR_materials_unlit");
}

BOOST_AUTO_TEST_CASE(vertex_colours_are_written_as_color_0) {
    modtest::TempDir dir;
    const Scene s = textured_scene();
    export_file(s, dir / "c.glb");
    const auto g = glbtest::read_glb(modtest::read(dir / "c.glb"));
    const auto& meshes = g.json["meshes"];
    const auto& attrs0 = meshes[0]["primitives"][0]["attributes"];
    BOOST_TEST_REQUIRE(attrs0.HasMember("COLOR_0"));
    const std::size_t acc = attrs0["COLOR_0"].GetUint64();
    BOOST_TEST(std::string(g.json["accessors"][static_cast<rapidjson::SizeType>(acc)]["type"].GetString()) == "VEC4");
    const auto values = g.floats(acc);
    BOOST_TEST_REQUIRE(values.size() == 16u);
    for (std::size_t v = 0; v < 4; ++v)
        for (int k = 0; k < 4; ++k) BOOST_TEST(values[v * 4 + k] == s.meshes[0].colours[v][k]);
    BOOST_TEST(!meshes[1]["primitives"][0]["attributes"].HasMember("COLOR_0"));
}

BOOST_AUTO_TEST_CASE(gltf_keeps_the_images_in_the_bin) {
    modtest::TempDir dir;
    const Scene s = textured_scene();
    export_file(s, dir / "t.gltf");
    const auto g = glbtest::read_gltf(modtest::read(dir / "t.gltf"), modtest::read(dir / "t.bin"));
    BOOST_TEST(std::string(g.json["buffers"][0]["uri"].GetString()) == "t.bin");
    check_textures(g, s);
}

BOOST_AUTO_TEST_CASE(textured_glb_still_imports_with_the_same_geometry) {
    modtest::TempDir dir;
    const Scene s = textured_scene();
    export_file(s, dir / "t.glb");
    const Scene back = import_file(dir / "t.glb");
    std::size_t vertices = 0, triangles = 0;
    for (const auto& m : back.meshes) {
        vertices += m.vertex_count();
        triangles += m.triangles.size();
    }
    BOOST_TEST(vertices == 16u);
    BOOST_TEST(triangles == 8u);
    // Deterministic bytes.
    export_file(s, dir / "u.glb");
    BOOST_TEST((modtest::read(dir / "t.glb") == modtest::read(dir / "u.glb")));
}

BOOST_AUTO_TEST_CASE(scene_without_records_writes_no_texture_tables) {
    modtest::TempDir dir;
    Scene s = textured_scene();
    s.material_info.clear();
    s.meshes[0].colours.clear();
    export_file(s, dir / "p.glb");
    const auto g = glbtest::read_glb(modtest::read(dir / "p.glb"));
    BOOST_TEST(!g.json.HasMember("images"));
    BOOST_TEST(!g.json.HasMember("samplers"));
    BOOST_TEST(!g.json.HasMember("textures"));
    BOOST_TEST(!g.json.HasMember("extensionsUsed"));
    for (const auto& m : g.json["materials"].GetArray()) BOOST_TEST(!m.HasMember("pbrMetallicRoughness"));
    BOOST_TEST(!g.json["meshes"][0]["primitives"][0]["attributes"].HasMember("COLOR_0"));
}

BOOST_AUTO_TEST_CASE(inconsistent_records_are_format_errors) {
    modtest::TempDir dir;
    auto kind_of = [&](const Scene& s) {
        auto e = modtest::catch_error([&] { export_file(s, dir / "x.glb"); });
        return e ? e->kind() : mod::ErrorKind::usage;
    };
    Scene colours = textured_scene();
    colours.meshes[0].colours.pop_back();
    BOOST_TEST((kind_of(colours) == mod::ErrorKind::format));
    Scene pixels = textured_scene();
    pixels.material_info[2].texture->rgba.pop_back();
    BOOST_TEST((kind_of(pixels) == mod::ErrorKind::format));
    Scene empty = textured_scene();
    empty.material_info[0].texture->width = 0;
    empty.material_info[0].texture->rgba.clear();
    BOOST_TEST((kind_of(empty) == mod::ErrorKind::format));
    Scene extra = textured_scene();
    extra.material_info.resize(5);
    BOOST_TEST((kind_of(extra) == mod::ErrorKind::format));
    BOOST_TEST(!std::filesystem::exists(dir / "x.glb"));
}

BOOST_AUTO_TEST_CASE(fbx_carries_vertex_colours) {
    modtest::TempDir dir;
    const Scene s = textured_scene();
    export_file(s, dir / "c.fbx");
    const std::string text = [&] {
        const auto b = modtest::read(dir / "c.fbx");
        return std::string(b.begin(), b.end());
    }();
    BOOST_TEST(text.find("LayerElementColor") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
