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
//
// `bench_fbx_replace --stages FILE N` times the steps of "ours" one by one (CPU ms, best of N,
// each iteration after a fresh untimed Assimp read as in the main table, so that the heap is
// in the same state), calling the public functions in the order replace_from_scene does, with
// the minor page faults of each step (mean).
//
// `bench_fbx_replace --dump DIR FILE...` writes, for each source file, its converted scene
// (three import option sets) and the replaced PAK (two meshes, five replace option sets) to
// DIR, so that a speed change can be checked byte for byte against the previous build
// (`cmp -r` of two dumps).
#include "timing.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/validate.hpp"
#include "libmod/scene/weld.hpp"
#include "libmod/sample/shred.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/shred/import.hpp"

#include <assimp/Importer.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

struct Clock {
    double wall, cpu;
    long faults;  // minor page faults so far
    static Clock now() {
        timespec cpu{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        return {std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(),
                double(cpu.tv_sec) + double(cpu.tv_nsec) * 1e-9, usage.ru_minflt};
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

// The --stages mode described at the top of the file.
void stages(const fs::path& source, const Target& t, int repeats) {
    using namespace mod;
    const char* names[] = {"read_file + read_pak",     "read_pak_quartet",      "convert_assimp_scene",
                           "retarget",                 "process_weights",       "free raw influences",   "weld",
                           "check_mesh + f16 UVs",     "to_skinned_mesh",       "replace_mesh_in_pak",
                           "write_file_atomic"};
    constexpr std::size_t count = std::size(names);
    std::array<double, count> best;
    std::array<long, count> faults{};
    best.fill(1e30);
    for (int i = 0; i < repeats; ++i) {
        Assimp::Importer importer;
        const aiScene& ai = scene::read_with_assimp(importer, source);
        std::array<Clock, count + 1> at;
        std::size_t k = 0;
        at[k++] = Clock::now();
        shred::Pak pak = shred::read_pak(read_file(t.pak), t.pak.string());
        at[k++] = Clock::now();
        const shred::QuartetEntries entries = *shred::find_quartet(pak, t.quartet);
        shred::QuartetModel model = shred::read_pak_quartet(pak, t.quartet);
        at[k++] = Clock::now();
        scene::Scene scene = scene::convert_assimp_scene(ai, source.string());
        at[k++] = Clock::now();
        scene::Skeleton names_only;
        for (const auto& b : model.skeleton.bones) names_only.bones.push_back({b.name});
        scene::retarget(scene, names_only, t.options.bone_map);
        at[k++] = Clock::now();
        scene::process_weights(scene);
        at[k++] = Clock::now();
        scene::Mesh mesh = std::move(scene.meshes.front());
        mesh.influences.clear();
        at[k++] = Clock::now();
        mesh = scene::weld(std::move(mesh), {t.options.weld_tolerance}).mesh;
        at[k++] = Clock::now();
        scene::MeshCheckOptions check;
        check.bone_count = model.skeleton.bones.size();
        check.allow_nan_normals = true;
        scene::check_mesh(mesh, "mesh", check);
        scene::check_uv_f16_range(mesh, "mesh");
        at[k++] = Clock::now();
        shred::SkinnedMesh skinned = shred::to_skinned_mesh(mesh);
        at[k++] = Clock::now();
        Bytes bytes = shred::replace_mesh_in_pak(pak, entries, std::move(model), 1, skinned).pak;
        at[k++] = Clock::now();
        write_file_atomic(t.out, bytes);
        at[k++] = Clock::now();
        for (std::size_t s = 0; s < count; ++s) {
            best[s] = std::min(best[s], at[s + 1].cpu - at[s].cpu);
            faults[s] += at[s + 1].faults - at[s].faults;
        }
    }
    std::printf("%s (CPU ms, best of %d; minor page faults, mean)\n", source.filename().string().c_str(), repeats);
    double total = 0;
    long total_faults = 0;
    for (std::size_t s = 0; s < count; ++s) {
        std::printf("  %-34s %7.3f %6ld\n", names[s], best[s] * 1e3, faults[s] / repeats);
        total += best[s];
        total_faults += faults[s];
    }
    std::printf("  %-34s %7.3f %6ld\n", "sum", total * 1e3, total_faults / repeats);
}

// The converted scene as raw words: every attribute, influence list and bone, in order.
mod::Bytes scene_bytes(const mod::scene::Scene& s) {
    mod::Bytes out;
    auto word = [&](std::uint32_t w) {
        for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::uint8_t>(w >> (8 * k)));
    };
    auto f = [&](float v) { word(std::bit_cast<std::uint32_t>(v)); };
    auto text = [&](const std::string& t) {
        word(static_cast<std::uint32_t>(t.size()));
        out.insert(out.end(), t.begin(), t.end());
    };
    word(static_cast<std::uint32_t>(s.skeleton.bones.size()));
    for (const auto& b : s.skeleton.bones) {
        text(b.name);
        word(static_cast<std::uint32_t>(b.parent));
        for (float v : b.bind) f(v);
        for (float v : b.inverse_bind) f(v);
        for (float v : b.local) f(v);
    }
    for (const auto& w : s.warnings) text(w);
    for (const auto& m : s.meshes) {
        text(m.name);
        word(m.material);
        word(static_cast<std::uint32_t>(m.vertex_count()));
        for (const auto& p : m.positions) for (float v : p) f(v);
        for (const auto& p : m.normals) for (float v : p) f(v);
        for (const auto& p : m.tangents) for (float v : p) f(v);
        for (const auto& p : m.uv0) for (float v : p) f(v);
        for (const auto& p : m.uv1) for (float v : p) f(v);
        for (const auto& list : m.influences) {
            word(static_cast<std::uint32_t>(list.size()));
            for (const auto& i : list) word(i.bone), f(i.weight);
        }
        for (const auto& t : m.triangles) for (auto i : t) word(i);
    }
    return out;
}

// The dump described at the top of the file.
void dump(const fs::path& dir, const fs::path& source, const Target& base, const mod::shred::Skeleton& skeleton) {
    using namespace mod;
    fs::create_directories(dir);
    const std::string stem = source.filename().string();
    scene::ImportOptions metres;
    metres.units = scene::Units::metres;
    metres.axes = scene::parse_axis_map("zup-to-yup");
    scene::ImportOptions zero_uv;
    zero_uv.second_uv = scene::SecondUv::zero;
    const std::pair<const char*, scene::ImportOptions> imports[] = {{"file", {}}, {"metres", metres}, {"zero_uv", zero_uv}};
    for (const auto& [name, options] : imports)
        write_file_atomic(dir / (stem + ".scene." + name), scene_bytes(scene::import_file(source, options)));

    shred::Pak pak = shred::read_pak(read_file(base.pak), base.pak.string());
    scene::Scene scene = scene::import_file(source);
    bool names_match = std::all_of(scene.skeleton.bones.begin(), scene.skeleton.bones.end(), [&](const auto& b) {
        return std::any_of(skeleton.bones.begin(), skeleton.bones.end(), [&](const auto& t) { return t.name == b.name; });
    });
    shred::SceneReplaceOptions common;
    if (!names_match) common.bone_map = bone_map_for(source, skeleton);
    std::vector<std::pair<std::string, shred::SceneReplaceOptions>> sets(5, {"", common});
    sets[0].first = "default";
    sets[1].first = "weld0";
    sets[1].second.weld_tolerance = 0;
    sets[2].first = "noweld";
    sets[2].second.weld = false;
    sets[3].first = "weld1e-3";
    sets[3].second.weld_tolerance = 1e-3f;
    sets[4].first = "source0";
    sets[4].second.source_mesh = 0;
    for (std::size_t mesh : {1, 3})
        for (const auto& [name, options] : sets) {
            std::string out = stem + ".mesh" + std::to_string(mesh) + "." + name;
            try {
                shred::SceneReplaceReport report;
                Bytes bytes = shred::replace_from_scene(pak, base.quartet, mesh, scene, options, &report);
                write_file_atomic(dir / (out + ".pak"), bytes);
                std::string counts = std::to_string(report.source_vertices) + " " +
                                     std::to_string(report.welded_vertices) + " " +
                                     std::to_string(report.counts.new_vertices) + " " +
                                     std::to_string(report.new_vertices_by_influence[4]);
                const auto& w = report.weights;
                for (auto c : w.histogram) counts += " " + std::to_string(c);
                for (auto c : w.source_histogram) counts += " " + std::to_string(c);
                counts += " " + std::to_string(w.trimmed_vertices) + " " + std::to_string(w.renormalised_vertices) +
                          " " + std::to_string(w.dropped_by_rounding) + " " +
                          std::to_string(report.retarget.merged_influences) + " " +
                          std::to_string(report.counts.meta_size_change) + " " +
                          std::to_string(report.counts.mmp_size_change) + "\n";
                write_file_atomic(dir / (out + ".report"), counts);
            } catch (const Error& e) {
                write_file_atomic(dir / (out + ".error"), std::string(e.what()));
            }
        }
}

int run(int argc, char** argv) {
    const mod::Bytes pak_bytes = mod::sample::shred_character_pak();
    const auto skeleton =
        mod::shred::read_pak_quartet(mod::shred::read_pak(pak_bytes, "char_sample.pak"), "skater01").skeleton;
    // One folder per process: two runs at once (A/B comparisons) must not remove each other's files.
    fs::path out_dir = fs::temp_directory_path() / ("modkit-bench-fbx-" + std::to_string(::getpid()));
    fs::create_directories(out_dir);
    struct RemoveOnExit {  // also when a step throws
        fs::path dir;
        ~RemoveOnExit() {
            std::error_code ignored;
            fs::remove_all(dir, ignored);
        }
    } remove_on_exit{out_dir};
    Target target{out_dir / "char_sample.pak", "skater01", {}, out_dir / "out.pak"};
    mod::write_file_atomic(target.pak, pak_bytes);

    if (argc >= 4 && std::string(argv[1]) == "--dump") {
        for (int i = 3; i < argc; ++i) dump(argv[2], argv[i], target, skeleton);
        return 0;
    }
    if (argc == 4 && std::string(argv[1]) == "--stages") {
        fs::path path = bench::shared_dir() / "corpus" / "fbx" / argv[2];
        target.options.bone_map = bone_map_for(path, skeleton);
        stages(path, target, std::atoi(argv[3]));
        return 0;
    }
    if (argc == 4 && std::string(argv[1]) == "--profile") {
        fs::path path = bench::shared_dir() / "corpus" / "fbx" / argv[2];
        target.options.bone_map = bone_map_for(path, skeleton);
        Assimp::Importer importer;
        const aiScene& ai = mod::scene::read_with_assimp(importer, path);
        for (int i = 0, n = std::atoi(argv[3]); i < n; ++i) ours(ai, path, target);
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
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {  // caught here so that the stack unwinds and the temporary folder goes
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
