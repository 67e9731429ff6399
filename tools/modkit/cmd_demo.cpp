// modkit demo DIR: the main job on built-in sample data, end to end, with every check printed.
// It drives the same subcommands a user types (in-process, through the command registry), so
// the demo exercises exactly what the CLI offers, and adds byte-for-byte checks between steps.
#include "cli.hpp"

#include "libmod/codec/szp.hpp"
#include "libmod/codec/yay0.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"
#include "libmod/sample/examples.hpp"
#include "libmod/sample/payload.hpp"

#include <algorithm>
#include <fstream>
#include <cstdlib>

#include <chrono>
#include <cstdio>

namespace modkit {
namespace {

namespace fs = std::filesystem;

struct Checks {
    int passed = 0, failed = 0;
    void expect(bool ok, const std::string& what) {
        std::printf("  [%s] %s\n", ok ? "ok" : "FAILED", what.c_str());
        ok ? ++passed : ++failed;
    }
};

// Runs `modkit ARGS…` in-process and returns its exit code (errors are printed, not thrown).
int run_code(const std::vector<std::string>& args) {
    std::string line = "modkit";
    for (const auto& a : args) line += " " + a;
    std::printf("$ %s\n", line.c_str());
    std::fflush(stdout);
    int code = 0;
    try {
        code = run_group(groups().at(args.at(0)), std::vector<std::string>(args.begin() + 1, args.end()));
    } catch (const mod::Error& e) {
        std::printf("  error: %s\n", e.what());
        code = mod::exit_code(e.kind());
    }
    std::fflush(stdout);
    std::fflush(stderr);
    return code;
}

// Runs `modkit ARGS…` in-process; a failure is reported as a failed check, not thrown.
bool run(Checks& checks, const std::vector<std::string>& args) {
    const int code = run_code(args);
    checks.expect(code == 0, "exit code " + std::to_string(code));
    return code == 0;
}

// Compared a block at a time (ROMs of 32 MiB: no image-sized buffers).
bool same_file(const fs::path& a, const fs::path& b) {
    std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
    if (!fa || !fb) return false;
    std::vector<char> ba(1 << 20), bb(1 << 20);
    for (;;) {
        fa.read(ba.data(), std::streamsize(ba.size()));
        fb.read(bb.data(), std::streamsize(bb.size()));
        const auto na = fa.gcount(), nb = fb.gcount();
        if (na != nb || !std::equal(ba.begin(), ba.begin() + na, bb.begin())) return false;
        if (na == 0 || (!fa && !fb)) return !fa.bad() && !fb.bad();
    }
}

void section(const char* title) { std::printf("\n== %s\n", title); }

void demo_codecs(const fs::path& dir, Checks& checks) {
    section("Yay0 and PERS-SZP on a synthetic 256 KiB model-like payload");
    auto payload = mod::sample::synthetic_payload(256 * 1024, 1);
    mod::write_file_atomic(dir / "payload.bin", payload);
    for (auto mode : {mod::yay0::Mode::nintendo, mod::yay0::Mode::best}) {
        auto t0 = std::chrono::steady_clock::now();
        auto packed = mod::yay0::encode(payload, mode);
        auto t1 = std::chrono::steady_clock::now();
        std::printf("  yay0 %-8s %zu -> %zu bytes (%.1f%%) in %.1f ms\n", mod::yay0::to_string(mode),
                    payload.size(), packed.size(), 100.0 * double(packed.size()) / double(payload.size()),
                    std::chrono::duration<double, std::milli>(t1 - t0).count());
        checks.expect(mod::yay0::decode(packed) == payload,
                      std::string("yay0 ") + mod::yay0::to_string(mode) + " round trip is byte-identical");
    }
    auto szp = mod::szp::pack(payload);
    auto unpacked = mod::szp::unpack(mod::ByteReader(szp, mod::Endian::big, "payload.szp"));
    checks.expect(unpacked.data == payload, "PERS-SZP pack/unpack round trip is byte-identical");
    bool reused = false;
    auto again = mod::szp::repack(szp, unpacked.data, mod::yay0::Mode::best, &reused);
    checks.expect(reused && again == szp, "an unchanged PERS-SZP entry is written back from its original bytes");
}

void demo_stadium(const fs::path& dir, const fs::path& samples, Checks& checks) {
    section("Pokémon Stadium: the synthetic ROM");
    const std::string rom = (samples / "stadium" / "pokemon_stadium_sample.z64").string();
    run(checks, {"rom", "info", rom});
    run(checks, {"stadium", "list", rom});
    run(checks, {"stadium", "verify", rom});
    const fs::path extracted = dir / "stadium-extract", repacked = dir / "stadium-repacked.z64";
    if (run(checks, {"stadium", "extract", rom, extracted.string(), "-q"}) &&
        run(checks, {"stadium", "repack", rom, extracted.string(), repacked.string(), "-q"}))
        checks.expect(same_file(rom, repacked), "extract -> repack of an unedited archive gives the identical ROM");

    section("Pokémon Stadium: recolour model 1, check, and make a distributable patch");
    const fs::path recoloured = dir / "stadium-recoloured.z64";
    run(checks, {"stadium", "show", rom, "1"});
    if (run(checks, {"stadium", "palette", "hsv", rom, "1", recoloured.string(), "--palette", "0", "--hue", "120",
                     "--lock", "0"})) {
        checks.expect(!same_file(rom, recoloured), "the recoloured ROM differs from the original");
        run(checks, {"stadium", "verify", recoloured.string()});
        run(checks, {"rom", "info", recoloured.string()});
        const fs::path bps = dir / "recolour.bps", applied = dir / "stadium-patched.z64";
        if (run(checks, {"patch", "create", rom, recoloured.string(), bps.string(), "-q"}) &&
            run(checks, {"patch", "apply", bps.string(), rom, applied.string(), "-q"})) {
            checks.expect(same_file(applied, recoloured), "the BPS patch applied to the original gives the recoloured ROM");
            std::printf("  patch size: %ju bytes\n", std::uintmax_t(fs::file_size(bps)));
        }
    }
    run(checks, {"stadium", "export", rom, "1", (dir / "stadium-model1.glb").string()});
}

void demo_shred(const fs::path& dir, const fs::path& samples, Checks& checks) {
    section("Tony Hawk: SHRED: skinned meshes in the synthetic PAKs");
    const std::string pak = (samples / "shred" / "char_sample.pak").string();
    run(checks, {"shred", "show", pak});
    run(checks, {"shred", "scan", (samples / "shred" / "layer_sample.pak").string()});
    run(checks, {"shred", "conformance", pak});
    const fs::path extracted = dir / "shred-extract", repacked = dir / "shred-repacked.pak";
    if (run(checks, {"shred", "pak", "extract", pak, extracted.string(), "-q"}) &&
        run(checks, {"shred", "pak", "repack", pak, extracted.string(), repacked.string(), "-q"}))
        checks.expect(same_file(pak, repacked), "PAK extract -> repack gives the identical file");
}

void demo_totem(const fs::path& dir, const fs::path& samples, Checks& checks) {
    section("TotemTech: GameCube and PS2 archives with SKIN and MESH records");
    for (const char* platform : {"DGC", "DPS"}) {
        const std::string data = (samples / "totem" / (std::string("SAMPLE.") + platform)).string();
        const std::string names = (samples / "totem" / (std::string("SAMPLE.N") + (platform + 1))).string();
        run(checks, {"totem", "verify", data, names});
        const fs::path extracted = dir / (std::string("totem-extract-") + platform);
        const fs::path repacked = dir / (std::string("totem-repacked.") + platform);
        if (run(checks, {"totem", "extract", data, names, extracted.string(), "-q"}) &&
            run(checks, {"totem", "repack", data, names, extracted.string(), repacked.string(), "-q"}))
            checks.expect(same_file(data, repacked), std::string(platform) + " extract -> repack gives the identical archive");
    }
}

// The examples folder of the source tree (examples/*/expected.txt says what each must do).
fs::path examples_source(const po::variables_map& vm) {
    if (vm.count("examples")) return vm["examples"].as<std::string>();
    if (const char* e = std::getenv("MODKIT_EXAMPLES")) return e;
    return fs::path(MODKIT_SOURCE_DIR) / "examples";
}

// Each example on a fresh copy of the sample games: apply, check the exit code, then check
// what it wrote: every patch applied to its original gives the output, and the outputs pass
// the game's own verification.
void demo_examples(const fs::path& dir, const fs::path& source, Checks& checks) {
    section(("Edit manifests: every example in " + source.string()).c_str());
    std::vector<fs::path> examples;
    if (fs::is_directory(source))
        for (const auto& e : fs::directory_iterator(source))
            if (fs::exists(e.path() / "expected.txt")) examples.push_back(e.path());
    std::sort(examples.begin(), examples.end());
    checks.expect(!examples.empty(), "found the examples");
    for (const auto& ex : examples) {
        const fs::path work = dir / "examples" / ex.filename();
        std::error_code ec;
        fs::remove_all(work, ec);
        fs::create_directories(work);
        for (const auto& f : fs::directory_iterator(ex)) fs::copy(f.path(), work / f.path().filename(), fs::copy_options::recursive);
        mod::sample::write_example_inputs(work);
        const auto exp = mod::sample::read_example_expectation(work / "expected.txt");
        std::vector<std::string> args{"apply"};
        for (const auto& m : exp.manifests) args.push_back((work / m).string());
        args.push_back("-q");
        const int code = run_code(args);
        checks.expect(code == exp.exit, ex.filename().string() + ": exit code " + std::to_string(code) + " (expected " +
                                            std::to_string(exp.exit) + ")");
        if (exp.exit != 0) {
            checks.expect(!fs::exists(work / "out"), ex.filename().string() + ": nothing was written");
            continue;
        }
        // Patches applied to the originals give the outputs.
        for (const auto& f : fs::recursive_directory_iterator(work / "out")) {
            const auto ext = f.path().extension();
            if (ext != ".bps" && ext != ".zpatch") continue;
            const fs::path output = f.path().parent_path() / f.path().stem();
            fs::path original;
            for (const auto& b : fs::recursive_directory_iterator(work / "base"))
                if (b.path().filename() == output.filename() ||
                    (output.extension() == ".z64" && b.path().extension() == ".z64"))
                    original = b.path();
            const fs::path again = work / ("patched-" + output.filename().string());
            if (!original.empty() && run(checks, {"patch", "apply", f.path().string(), original.string(), again.string(), "-q"}))
                checks.expect(same_file(again, output), ex.filename().string() + ": " + f.path().filename().string() +
                                                            " applied to the original gives " + output.filename().string());
        }
        for (const auto& f : fs::directory_iterator(work / "out")) {
            const auto ext = f.path().extension();
            if (ext == ".z64") run(checks, {"stadium", "verify", f.path().string()});
            else if (ext == ".pak") run(checks, {"shred", "conformance", f.path().string()});
            else if (ext == ".DGC") run(checks, {"totem", "verify", f.path().string(), (work / "base/totem/SAMPLE.NGC").string()});
        }
    }
}

int run_demo(const po::variables_map& vm, const Global&) {
    fs::path dir = vm.count("dir") ? fs::path(vm["dir"].as<std::string>()) : fs::path("modkit-demo");
    mod::create_folder(dir);
    Checks checks;
    demo_codecs(dir, checks);
    section("Writing the synthetic sample games");
    const fs::path samples = dir / "sample";
    if (run(checks, {"sample", samples.string()})) {
        demo_stadium(dir, samples, checks);
        demo_shred(dir, samples, checks);
        demo_totem(dir, samples, checks);
    }
    demo_examples(dir, examples_source(vm), checks);
    std::printf("\n%d checks passed, %d failed; files in %s\n", checks.passed, checks.failed, dir.c_str());
    return checks.failed ? 2 : 0;
}

const Registrar demo_group({"demo", "run the end-to-end demo on built-in sample data", {
    {"demo", "[DIR]", "generate sample data in DIR (default modkit-demo) and round-trip it through every codec",
     [](auto& o, auto& p) {
         o.add_options()("dir", po::value<std::string>(), "output folder")(
             "examples", po::value<std::string>(), "the examples folder (default: the source tree's, or $MODKIT_EXAMPLES)");
         p.add("dir", 1);
     },
     run_demo},
}, true});

}  // namespace
}  // namespace modkit
