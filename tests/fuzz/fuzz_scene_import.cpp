// Fuzz target: scene import. The bytes go through scene::import_memory with the default
// containment (ImportOptions::contained: Assimp and our conversion run in a forked child under
// time and memory limits, the scene comes back through the wire format, scene_wire.hpp), then
// the scene goes through weight processing, welding, validation, retargeting and a full SHRED
// replacement into the sample character PAK. Our code must end in a result or a mod::Error on
// every scene: never a crash, a hang or another exception.
//
// Assimp 5.2.5 itself crashes, hangs and leaks on some mutated files (doc/formats/
// scene-import.md, "Fuzzing"). The containment turns those into one "importer failed on this
// file" error and keeps Assimp's leaks in the child (which ends with _exit, so LeakSanitizer
// never scans it). Such an input is then replayed once more in a child of our own that tells,
// through a pipe, when Assimp has returned (the same flags, scene::read_with_assimp): a child
// that dies or hangs before that is counted as an Assimp failure and tolerated; one that dies
// or hangs after it (in our conversion) fails the run (abort).
// MODKIT_FUZZ_IN_PROCESS=1 runs inputs in-process (for libFuzzer campaigns that want coverage
// of Assimp and the conversion, which a child's counters would hide; Assimp's crashes then stop
// the campaign, and its leaks are suppressed with tests/fuzz/lsan_assimp.supp, which names only
// Assimp's library), and MODKIT_FUZZ_ASSIMP_FAILURES=DIR keeps the inputs Assimp failed on
// (assimp-<n>.bin) for triage.
#include "libmod/core/error.hpp"
#include "libmod/sample/shred.hpp"
#include "libmod/scene/bone_map.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/scene/validate.hpp"
#include "libmod/scene/weights.hpp"
#include "libmod/scene/weld.hpp"
#include "libmod/shred/import.hpp"

#include <assimp/Importer.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr char assimp_returned = 'A';
constexpr char finished = 'D';
constexpr unsigned child_seconds = 20;  // far above any input of the seed corpus

// The replacement target: the sample character PAK and its skater01 skeleton, forged once
// (before any fork, so children share it).
struct Target {
    mod::Bytes bytes = mod::sample::shred_character_pak();
    mod::shred::Pak pak = mod::shred::read_pak(bytes, "char_sample.pak");
    mod::shred::Skeleton skeleton = mod::shred::read_pak_quartet(pak, "skater01").skeleton;
};
const Target& target() {
    static const Target t;
    return t;
}

// Every step after the import, each allowed to refuse the scene with mod::Error.
void process(mod::scene::Scene s) {
    using namespace mod;
    for (const auto& m : s.meshes) {
        scene::MeshCheckOptions check;
        check.bone_count = s.skeleton.bones.size();
        check.allow_nan_normals = true;
        try {
            scene::check_mesh(m, "fuzz", check);
            scene::check_uv_f16_range(m, "fuzz");
        } catch (const Error&) {
        }
        (void)scene::bounding_box(m);
        for (float tolerance : {0.0f, 1e-5f}) {
            auto welded = scene::weld(m, {tolerance});
            if (welded.remap.size() != m.vertex_count() || welded.mesh.vertex_count() > m.vertex_count()) std::abort();
        }
    }
    scene::Scene weighted = s;
    try {
        scene::WeightOptions options;
        options.allow_unweighted = true;
        scene::process_weights(weighted, options);
        for (const auto& m : weighted.meshes)
            for (const auto& w : m.skin) {
                unsigned sum = 0;
                for (std::size_t k = 0; k < w.count; ++k) sum += w.weights[k];
                if (w.count > 4 || (w.count > 0 && sum != 255)) std::abort();
            }
    } catch (const Error&) {
    }
    if (s.skeleton.bones.empty()) return;
    // The whole replacement, source bone i -> sample bone 1 + i % (bones - 1) (several source
    // bones may share a target: their weights merge).
    const auto& bones = target().skeleton.bones;
    shred::SceneReplaceOptions options;
    for (std::size_t i = 0; i < s.skeleton.bones.size(); ++i)
        options.bone_map.pairs.emplace_back(s.skeleton.bones[i].name, bones[1 + i % (bones.size() - 1)].name);
    try {
        shred::replace_from_scene(target().pak, "skater01", 1, std::move(s), options);
    } catch (const Error&) {
    }
}

// One input; `report` (a pipe, or -1 in-process) hears when Assimp has returned.
void run(const std::uint8_t* data, std::size_t size, int report) {
    Assimp::Importer importer;
    const aiScene* ai = nullptr;
    try {
        ai = &mod::scene::read_with_assimp(importer, mod::ByteView(data, size), "fuzz");
    } catch (const mod::Error&) {
    }
    if (report >= 0 && write(report, &assimp_returned, 1) != 1) std::_Exit(4);
    if (ai) {
        try {
            process(mod::scene::convert_assimp_scene(*ai, "fuzz"));
        } catch (const mod::Error&) {
        }
    }
    if (report >= 0 && write(report, &finished, 1) != 1) std::_Exit(4);
}

struct Tally {
    std::size_t inputs = 0, assimp_failures = 0;
    ~Tally() {
        if (assimp_failures)
            std::fprintf(stderr, "fuzz_scene_import: %zu of %zu inputs crashed or hung inside Assimp (tolerated)\n",
                         assimp_failures, inputs);
    }
};
Tally tally;

void keep_assimp_failure(const std::uint8_t* data, std::size_t size) {
    const char* dir = std::getenv("MODKIT_FUZZ_ASSIMP_FAILURES");
    if (!dir || !*dir) return;
    std::string path = std::string(dir) + "/assimp-" + std::to_string(tally.assimp_failures) + ".bin";
    if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
        std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
}

void run_in_child(const std::uint8_t* data, std::size_t size) {
    int fds[2];
    if (pipe(fds) != 0) std::abort();
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid < 0) std::abort();
    if (pid == 0) {
        close(fds[0]);
        alarm(child_seconds);
        rlimit memory{rlim_t(4) << 30, rlim_t(4) << 30};
        setrlimit(RLIMIT_AS, &memory);
        run(data, size, fds[1]);
        std::_Exit(0);
    }
    close(fds[1]);
    char got[2] = {0, 0};
    std::size_t n = 0;
    for (ssize_t r; n < 2 && (r = read(fds[0], got + n, 2 - n)) != 0;)
        if (r > 0) n += static_cast<std::size_t>(r);
        else if (errno != EINTR) break;
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) std::abort();
    ++tally.inputs;
    bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0 && n == 2 && got[1] == finished;
    if (clean) return;
    if (n == 0) {  // died or hung before Assimp returned: Assimp's failure
        ++tally.assimp_failures;
        keep_assimp_failure(data, size);
        return;
    }
    std::fprintf(stderr, "fuzz_scene_import: our code %s after Assimp returned (input of %zu bytes)\n",
                 WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "exited abnormally", size);
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool in_process = [] {
        const char* v = std::getenv("MODKIT_FUZZ_IN_PROCESS");
        return v && *v && std::strcmp(v, "0") != 0;
    }();
    target();
    if (in_process) {
        run(data, size, -1);
        return 0;
    }
    mod::scene::ImportOptions options;
    options.contained_timeout_ms = child_seconds * 1000;
    std::optional<mod::scene::Scene> s;
    try {
        s = mod::scene::import_memory(mod::ByteView(data, size), "fuzz", options);
    } catch (const mod::Error& e) {
        // A crash, hang or limit in the child: whose? (aborts when it was ours)
        if (e.message().find("importer failed on this file") != std::string::npos) run_in_child(data, size);
        return 0;
    }
    try {
        process(std::move(*s));
    } catch (const mod::Error&) {
    }
    return 0;
}
