// The foreign model of the sample (models.hpp): a tube on three bones with its own texture.
#include "libmod/sample/models.hpp"

#include "libmod/core/folder.hpp"
#include "libmod/scene/export.hpp"

#include <cmath>

namespace mod::sample {

namespace {

constexpr int fox_sides = 8, fox_rings = 6;
constexpr float fox_height = 1.2f;

// Orange fur with a white belly stripe and dark bands: a picture whose orientation shows.
scene::MaterialTexture fox_texture() {
    scene::MaterialTexture t;
    t.name = "fox_fur.png";
    t.width = 32;
    t.height = 32;
    for (std::uint32_t y = 0; y < 32; ++y)
        for (std::uint32_t x = 0; x < 32; ++x) {
            const bool belly = x >= 12 && x < 20, band = y % 8 == 0;
            const std::uint8_t r = band ? 90 : belly ? 245 : 230, g = band ? 40 : belly ? 240 : std::uint8_t(110 + y * 2),
                               b = band ? 20 : belly ? 235 : 30;
            for (std::uint8_t c : {r, g, b, std::uint8_t(255)}) t.rgba.push_back(c);
        }
    return t;
}

}  // namespace

scene::Scene foreign_fox() {
    scene::Scene sc;
    sc.source = "fox.glb";
    const float bone_y[3] = {0.0f, 0.5f, 1.0f};
    for (int i = 0; i < 3; ++i) {
        scene::Bone b;
        b.name = fox_bone_names[i];
        b.parent = i - 1;
        b.bind = scene::identity_matrix;
        b.bind[7] = bone_y[i];  // row-major, column vectors: translation y
        sc.skeleton.bones.push_back(b);
    }
    scene::derive_bone_matrices(sc.skeleton);
    sc.materials = {fox_material_name};
    scene::MaterialInfo info;
    info.texture = fox_texture();
    sc.material_info = {info};

    scene::Mesh m;
    m.name = fox_mesh_name;
    m.material = 0;
    const float pi = 3.14159265358979f;
    for (int ring = 0; ring <= fox_rings; ++ring) {
        const float t = float(ring) / fox_rings, y = t * fox_height;
        const float radius = 0.18f + 0.08f * std::sin(t * pi);  // a belly, narrower at feet and head
        for (int side = 0; side <= fox_sides; ++side) {          // the seam repeats the first column
            const float a = 2 * pi * float(side) / fox_sides;
            m.positions.push_back({radius * std::cos(a), y, radius * std::sin(a)});
            m.normals.push_back({std::cos(a), 0.0f, std::sin(a)});
            m.tangents.push_back({-std::sin(a), 0.0f, std::cos(a), 1.0f});
            m.uv0.push_back({float(side) / fox_sides, t});
            m.uv1.push_back(m.uv0.back());
            // Weights: hips below 0.5, chest between, head above 1.0, blended linearly.
            std::vector<scene::Influence> inf;
            if (y <= 0.5f) inf = {{0, 1 - y / 0.5f}, {1, y / 0.5f}};
            else if (y <= 1.0f) inf = {{1, 1 - (y - 0.5f) / 0.5f}, {2, (y - 0.5f) / 0.5f}};
            else inf = {{2, 1.0f}};
            std::erase_if(inf, [](const scene::Influence& i) { return i.weight <= 0; });
            m.influences.push_back(std::span<const scene::Influence>(inf));
        }
    }
    const std::uint32_t row = fox_sides + 1;
    for (std::uint32_t ring = 0; ring < fox_rings; ++ring)
        for (std::uint32_t side = 0; side < fox_sides; ++side) {
            const std::uint32_t a = ring * row + side, b = a + 1, c = a + row, d = c + 1;
            m.triangles.push_back({a, c, d});
            m.triangles.push_back({a, d, b});
        }
    sc.meshes.push_back(std::move(m));
    return sc;
}

std::vector<std::filesystem::path> write_foreign_models(const std::filesystem::path& dir) {
    create_folder(dir);
    const auto path = dir / "fox.glb";
    scene::export_file(foreign_fox(), path);
    return {path};
}

}  // namespace mod::sample
