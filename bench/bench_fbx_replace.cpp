// import -> replace -> write for each corpus FBX, against the sample character PAK's skater01
// body mesh. Prints Assimp's own load time next to our processing time (conversion after
// Assimp, retarget, weight processing, weld, validation, preprocessor, quartet and PAK rewrite,
// read-back validation, atomic write). Target: ours under a quarter of Assimp's.
#include "timing.hpp"

#include "libmod/core/file.hpp"
#include "libmod/sample/shred.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/shred/import.hpp"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <cstdio>

namespace {

// The same Assimp configuration and flags as mod::scene::import_file.
void assimp_load(const std::filesystem::path& path) {
    Assimp::Importer importer;
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_ANIMATIONS, false);
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_CAMERAS, false);
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_LIGHTS, false);
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    const aiScene* s = importer.ReadFile(path.string(), aiProcess_Triangulate | aiProcess_ValidateDataStructure |
                                                            aiProcess_SortByPType | aiProcess_GenSmoothNormals);
    if (!s) std::fprintf(stderr, "assimp: %s\n", importer.GetErrorString());
}

}  // namespace

int main() {
    namespace fs = std::filesystem;
    mod::shred::Pak pak = mod::shred::read_pak(mod::sample::shred_character_pak(), "char_sample.pak");
    auto model = mod::shred::read_pak_quartet(pak, "skater01");
    fs::path out_dir = fs::temp_directory_path() / "modkit-bench-fbx";
    fs::create_directories(out_dir);
    const int repeats = 15;
    std::printf("%-28s %8s %10s %10s %10s %8s\n", "file", "vertices", "assimp ms", "ours ms", "import ms", "ratio");
    for (const char* name : {"huesitos.fbx", "animation_with_skeleton.fbx"}) {
        fs::path path = bench::shared_dir() / "corpus" / "fbx" / name;
        mod::scene::Scene source = mod::scene::import_file(path);
        mod::shred::SceneReplaceOptions options;
        std::size_t next = 1;
        for (const auto& b : source.skeleton.bones)
            options.bone_map.pairs.emplace_back(b.name, model.skeleton.bones.at(next++).name);

        double assimp = bench::best_seconds(repeats, [&] { assimp_load(path); });
        double import = bench::best_seconds(repeats, [&] { mod::scene::import_file(path); });
        std::size_t vertices = 0;
        double replace = bench::best_seconds(repeats, [&] {
            mod::shred::SceneReplaceReport report;
            mod::Bytes bytes = mod::shred::replace_from_scene(pak, "skater01", 1, source, options, &report);
            mod::write_file_atomic(out_dir / "out.pak", bytes);
            vertices = report.counts.new_vertices;
        });
        double ours = std::max(0.0, import - assimp) + replace;
        std::printf("%-28s %8zu %10.2f %10.2f %10.2f %7.1f%%\n", name, vertices, assimp * 1e3, ours * 1e3,
                    import * 1e3, 100.0 * ours / assimp);
    }
    fs::remove_all(out_dir);
    return 0;
}
