// Stadium mesh replacement end to end (issue 28): a 5,000-triangle skinned source (a tube along
// model 1's bone chain, two influences per vertex, a 128×128 PNG texture) written as glb, then
// import (contained, as the CLI does) + replace + repack + CRC + write, timed against `stadium
// texture replace` on the same ROM (PNG read + replace_texture + repack + write). Goal (issue
// 28): under 2 s on 2 cores and no slower than 3× the texture replacement. Run by hand.
#include "timing.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/png.hpp"
#include "libmod/sample/stadium.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/mesh_replace.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"
#include "libmod/stadium/texture_edit.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace fs = std::filesystem;
using namespace mod::stadium;
namespace sc = mod::scene;

namespace {

// A tube of `rings` × `segments` quads around the chain of bone rest positions.
sc::Scene tube(const Model& m, unsigned rings, unsigned segments) {
    const sc::Skeleton sk = target_skeleton(m);
    sc::Scene s;
    s.skeleton = sk;
    sc::Mesh mesh;
    mesh.name = "tube";
    const std::size_t nb = sk.bones.size();
    auto origin = [&](std::size_t b) { return sc::Vec3{sk.bones[b].bind[3], sk.bones[b].bind[7], sk.bones[b].bind[11]}; };
    for (unsigned r = 0; r <= rings; ++r) {
        const double t = double(r) / rings * double(nb - 1);
        const std::size_t b0 = std::min<std::size_t>(std::size_t(t), nb - 1), b1 = std::min(b0 + 1, nb - 1);
        const double f = t - double(b0);
        const sc::Vec3 a = origin(b0), c = origin(b1);
        const sc::Vec3 centre{float(a[0] + (c[0] - a[0]) * f), float(a[1] + (c[1] - a[1]) * f), float(a[2] + (c[2] - a[2]) * f)};
        for (unsigned k = 0; k < segments; ++k) {
            const double ang = 2 * 3.14159265358979 * k / segments;
            mesh.positions.push_back({float(centre[0] + 6 * std::cos(ang)), centre[1], float(centre[2] + 6 * std::sin(ang))});
            mesh.normals.push_back({float(std::cos(ang)), 0, float(std::sin(ang))});
            mesh.uv0.push_back({float(k) / segments, float(r) / rings});
            mesh.uv1.push_back(mesh.uv0.back());
            mesh.tangents.push_back({float(-std::sin(ang)), 0, float(std::cos(ang)), 1});
            if (b0 == b1) mesh.influences.push_back({{std::uint32_t(b0), 1.0f}});
            else mesh.influences.push_back({{std::uint32_t(b0), float(1 - f)}, {std::uint32_t(b1), float(f)}});
        }
    }
    for (unsigned r = 0; r < rings; ++r)
        for (unsigned k = 0; k < segments; ++k) {
            const std::uint32_t a = r * segments + k, b = r * segments + (k + 1) % segments;
            mesh.triangles.push_back({a, b, a + segments});
            mesh.triangles.push_back({b, b + segments, a + segments});
        }
    s.meshes.push_back(std::move(mesh));
    s.materials.push_back("skin");
    sc::MaterialInfo info;
    sc::MaterialTexture tex;
    tex.name = "skin.png";
    tex.width = tex.height = 128;
    for (unsigned y = 0; y < 128; ++y)
        for (unsigned x = 0; x < 128; ++x) {
            tex.rgba.push_back(std::uint8_t(x * 2));
            tex.rgba.push_back(std::uint8_t(y * 2));
            tex.rgba.push_back(std::uint8_t(((x / 16 + y / 16) & 1) ? 220 : 40));
            tex.rgba.push_back(255);
        }
    info.texture = tex;
    s.material_info.push_back(info);
    return s;
}

}  // namespace

int main() {
    const fs::path dir = fs::temp_directory_path() / "bench_stadium_mesh";
    fs::create_directories(dir);
    const fs::path rom_path = dir / "sample.z64", glb = dir / "tube.glb", png = dir / "tex.png";
    mod::write_file_atomic(rom_path, mod::sample::stadium_rom());
    const StadiumRom rom0 = load_rom(rom_path);
    const Model m = read_archive_model(read_archive(rom0), 1);
    const sc::Scene source = tube(m, 50, 50);  // 5,000 triangles
    sc::export_file(source, glb);
    std::size_t tris = 0;
    for (const auto& x : source.meshes) tris += x.triangles.size();

    MeshPlan plan;
    const double mesh = bench::best_seconds(3, [&] {
        const StadiumRom rom = load_rom(rom_path);
        const Archive archive = read_archive(rom);
        sc::ImportOptions io;
        io.read_textures = true;
        MeshReplaceOptions o;
        o.allow_scale_change = true;
        RomMeshReplace r = replace_mesh_in_rom(rom, archive, 1, sc::import_file(glb, io), o);
        mod::write_file_atomic(dir / "mesh.z64", r.rom);
        plan = r.plan;
    });

    // The texture replacement the CLI runs: texture 1 of model 1 from a PNG of its size.
    mod::image::RgbaImage img;
    img.width = m.textures.at(1).descriptor.width;
    img.height = m.textures.at(1).descriptor.height;
    img.pixels.assign(std::size_t(img.width) * img.height * 4, 200);
    mod::write_file_atomic(png, mod::image::write_png(img));
    const double texture = bench::best_seconds(3, [&] {
        const StadiumRom rom = load_rom(rom_path);
        const Archive archive = read_archive(rom);
        const Model model = read_archive_model(archive, 1);
        FragmentImage image(model.fragment);
        TextureReplaceOptions o;
        o.mode = CiMode::automatic;
        replace_texture(model, image, 1, mod::image::read_png(mod::read_file(png), png.string()), o);
        mod::write_file_atomic(dir / "tex.z64", apply_model_edit(rom, archive, 1, image.build()));
    });

    std::printf("mesh replace, %zu-triangle skinned source (glb import + replace + repack + write): %.3f s\n", tris, mesh);
    std::printf("  %zu triangles drawn, %zu G_VTX loads, %.3f vertices loaded per triangle, %zu seam triangles, "
                "%zu reassigned; fragment 0x%X, entry 0x%X\n",
                plan.triangles, plan.vtx_loads, plan.loaded_per_triangle(), plan.seams_blended,
                plan.reassigned_three_bones + plan.reassigned_not_adjacent, plan.new_fragment, plan.new_entry);
    std::printf("texture replace (PNG + replace + repack + write): %.3f s\n", texture);
    std::printf("ratio mesh / texture: %.2f (goal: <= 3; mesh goal: < 2 s)\n", texture > 0 ? mesh / texture : 0.0);
    fs::remove_all(dir);
    return 0;
}
