// Stadium models: reading every sample model (layout walk + display lists + vertex cache),
// decoding every texture of every model to RGBA, a palette edit applied through the repacker,
// and exporting one model to glTF (binary) with its textures.
#include "timing.hpp"

#include "libmod/sample/stadium.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <cstdio>
#include <filesystem>

int main() {
    using namespace mod::stadium;
    const StadiumRom rom = load_rom_bytes(mod::sample::stadium_rom(), "sample");
    const Archive archive = read_archive(rom);
    std::vector<Model> models;
    const double read = bench::best_seconds(5, [&] {
        models.clear();
        for (std::size_t i = 0; i < archive.entries.size(); ++i) models.push_back(read_archive_model(archive, i));
    });
    std::size_t textures = 0, triangles = 0;
    for (const auto& m : models) {
        textures += m.textures.size();
        triangles += m.triangles.size();
    }
    std::printf("read %zu models (decompress + walk, %zu triangles): %.4f s\n", models.size(), triangles, read);

    std::uint64_t texels = 0;
    const double decode = bench::best_seconds(5, [&] {
        texels = 0;
        for (const auto& m : models)
            for (std::size_t t = 0; t < m.textures.size(); ++t) {
                if (m.textures[t].format && mod::n64::is_ci(*m.textures[t].format) && !palette_for_texture(m, t)) continue;
                texels += decode_texture_rgba(m, t).size() / 4;
            }
    });
    std::printf("decode every texture (%zu textures, %ju texels): %.5f s (%.1f Mtexel/s)\n", textures,
                std::uintmax_t(texels), decode, decode > 0 ? double(texels) / 1e6 / decode : 0.0);

    const double edit = bench::best_seconds(3, [&] {
        FragmentImage image(models[0].fragment);
        shift_palette_hsv(models[0], image, 0, {90, 1, 1});
        (void)apply_model_edit(rom, archive, 0, image.build());
    });
    std::printf("palette hsv on model 0 + repack into a complete ROM: %.4f s\n", edit);

    const auto dir = std::filesystem::temp_directory_path() / "bench_stadium_model";
    std::filesystem::create_directories(dir);
    const double gltf = bench::best_seconds(5, [&] { export_model(models[0], dir / "model.glb"); });
    std::printf("export model 0 to glb + textures: %.4f s\n", gltf);
    std::filesystem::remove_all(dir);
    return 0;
}
