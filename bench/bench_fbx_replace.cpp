// import -> replace -> write for each corpus FBX, against the sample character PAK's skater01
// body mesh, with Assimp's own load time next to ours.
//
// Each iteration, with a fresh Assimp::Importer constructed outside the timed spans:
//   assimp = Importer::ReadFile with our configuration and flags (scene::read_with_assimp);
//   ours   = everything after ReadFile returns up to the written file: reading and parsing the
//            target PAK file (the sample character PAK, written to a temporary folder first),
//            converting the aiScene (scene::convert_assimp_scene: skeleton, influences, units,
//            tangents), replace_from_scene (retarget, weight processing, merge, weld,
//            validation, preprocessor, quartet and PAK rewrite, read-back of the new stream)
//            and the atomic write of the output PAK.
// Each figure is the best of its own spans over the iterations, as wall and as process CPU
// time (the machine is shared, CPU time is the steadier one). Target: ours under a quarter
// of Assimp's.
//
// `bench_fbx_replace --profile FILE N` runs only "ours" N times on one corpus file (Assimp
// reads it once, untimed), for valgrind --tool=callgrind.
#include "timing.hpp"

#include "libmod/core/file.hpp"
#include "libmod/sample/shred.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/shred/import.hpp"

#include <assimp/Importer.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Clock {
    double wall, cpu;
    static Clock now() {
        timespec cpu{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
        return {std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(),
                double(cpu.tv_sec) + double(cpu.tv_nsec) * 1e-9};
    }
};

struct Best {
    double wall = 1e30, cpu = 1e30;
    void add(const Clock& from, const Clock& to) {
        wall = std::min(wall, to.wall - from.wall);
        cpu = std::min(cpu, to.cpu - from.cpu);
    }
};

struct Target {
    fs::path pak;
    std::string quartet;
    mod::shred::SceneReplaceOptions options;
    fs::path out;
};

// Our part: from the Assimp scene to the written PAK. Returns the new stream's vertex count.
std::size_t ours(const aiScene& ai, const fs::path& source, const Target& t) {
    mod::shred::Pak pak = mod::shred::read_pak(mod::read_file(t.pak), t.pak.string());
    mod::scene::Scene scene = mod::scene::convert_assimp_scene(ai, source.string());
    mod::shred::SceneReplaceReport report;
    mod::Bytes bytes = mod::shred::replace_from_scene(pak, t.quartet, 1, std::move(scene), t.options, &report);
    mod::write_file_atomic(t.out, bytes);
    return report.counts.new_vertices;
}

// Source bone i -> target bone i + 1 (the sample skeleton has more bones than either file).
mod::scene::BoneMap bone_map_for(const fs::path& source, const mod::shred::Skeleton& target) {
    mod::scene::BoneMap map;
    std::size_t next = 1;
    for (const auto& b : mod::scene::import_file(source).skeleton.bones)
        map.pairs.emplace_back(b.name, target.bones.at(next++).name);
    return map;
}

}  // namespace

int main(int argc, char** argv) {
    const mod::Bytes pak_bytes = mod::sample::shred_character_pak();
    const auto skeleton =
        mod::shred::read_pak_quartet(mod::shred::read_pak(pak_bytes, "char_sample.pak"), "skater01").skeleton;
    fs::path out_dir = fs::temp_directory_path() / "modkit-bench-fbx";
    fs::create_directories(out_dir);
    Target target{out_dir / "char_sample.pak", "skater01", {}, out_dir / "out.pak"};
    mod::write_file_atomic(target.pak, pak_bytes);

    if (argc == 4 && std::string(argv[1]) == "--profile") {
        fs::path path = bench::shared_dir() / "corpus" / "fbx" / argv[2];
        target.options.bone_map = bone_map_for(path, skeleton);
        Assimp::Importer importer;
        const aiScene& ai = mod::scene::read_with_assimp(importer, path);
        for (int i = 0, n = std::atoi(argv[3]); i < n; ++i) ours(ai, path, target);
        fs::remove_all(out_dir);
        return 0;
    }

    const int repeats = 25;
    std::printf("%-28s %8s | %9s %9s %6s | %9s %9s %6s\n", "file", "vertices", "assimp", "ours", "ratio",
                "assimp", "ours", "ratio");
    std::printf("%-28s %8s | %26s | %26s\n", "", "", "CPU ms (best)", "wall ms (best)");
    for (const char* name : {"huesitos.fbx", "animation_with_skeleton.fbx"}) {
        fs::path path = bench::shared_dir() / "corpus" / "fbx" / name;
        target.options.bone_map = bone_map_for(path, skeleton);
        Best assimp, mine;
        std::size_t vertices = 0;
        for (int i = 0; i < repeats; ++i) {
            Assimp::Importer importer;
            Clock t0 = Clock::now();
            const aiScene& ai = mod::scene::read_with_assimp(importer, path);
            Clock t1 = Clock::now();
            vertices = ours(ai, path, target);
            Clock t2 = Clock::now();
            assimp.add(t0, t1);
            mine.add(t1, t2);
        }
        std::printf("%-28s %8zu | %9.2f %9.2f %5.1f%% | %9.2f %9.2f %5.1f%%\n", name, vertices, assimp.cpu * 1e3,
                    mine.cpu * 1e3, 100.0 * mine.cpu / assimp.cpu, assimp.wall * 1e3, mine.wall * 1e3,
                    100.0 * mine.wall / assimp.wall);
    }
    fs::remove_all(out_dir);
    return 0;
}
