// Issue 30 item 1: a shared mod folder holds no base game. The base is found outside it: a
// path anywhere (absolute, '..', a symbolic link), `apply --input NAME=PATH`, or by its hashes in
// folders named with `apply --bases DIR` / MODKIT_BASES. A wrong file is still refused by hash.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"

#include <cstdlib>

namespace fs = std::filesystem;
using modtest::run_cli;

namespace {

struct Shared {
    modtest::TempDir tmp;
    fs::path mod = tmp / "mod", bases = tmp / "my-games", rom;
    std::string md5;
    Shared() {
        auto r = run_cli({"sample", (tmp / "s").string(), "--game", "stadium", "--quiet"});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        fs::create_directories(bases / "n64");
        rom = bases / "n64/My Stadium (USA).z64";
        fs::copy_file(tmp / "s/stadium/pokemon_stadium_sample.z64", rom);
        fs::create_directories(mod);
        md5 = mod::to_hex(mod::md5(mod::read_file(rom)));
        // A decoy of another content in the bases folder, sorted first.
        mod::write_file_atomic(bases / "n64/A decoy.z64", std::string_view("not a rom"));
    }
    // The mod names its base by a path that is not there and by its md5.
    void write(const std::string& path, const std::string& md5_text) const {
        mod::write_file_atomic(mod / "mod.json",
                               R"({"modkit": 1, "name": "shared", "game": "pokemon-stadium",
 "inputs": {"rom": {"path": ")" + path + R"(", "md5": ")" + md5_text + R"("}},
 "outputs": {"rom": "out/mod.z64"},
 "edits": [{"op": "palette.hsv", "model": 1, "palette": 0, "hue": 200}]})");
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(manifest_bases)

BOOST_AUTO_TEST_CASE(found_by_hash_in_a_bases_folder) {
    Shared s;
    s.write("base/stadium.z64", s.md5);
    const std::string manifest = (s.mod / "mod.json").string();
    // Without a bases folder: the missing file, exit 4 (io).
    auto r = run_cli({"apply", manifest, "-q"});
    BOOST_TEST(r.exit_code == 4, r.err);
    BOOST_TEST(r.err.find("cannot read base/stadium.z64") != std::string::npos, r.err);
    // With one: found, noted in the plan, applied.
    r = run_cli({"apply", manifest, "--bases", s.bases.string(), "--dry-run"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("My Stadium (USA).z64 (found in the bases folders)") != std::string::npos, r.out);
    r = run_cli({"apply", manifest, "--bases", s.bases.string(), "-q"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(fs::exists(s.mod / "out/mod.z64"));
    // The same result as the base in the mod folder gives.
    fs::create_directories(s.mod / "base");
    fs::copy_file(s.rom, s.mod / "base/stadium.z64");
    const mod::Bytes found = mod::read_file(s.mod / "out/mod.z64");
    fs::remove_all(s.mod / "out");
    r = run_cli({"apply", manifest, "-q"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST((mod::read_file(s.mod / "out/mod.z64") == found));
    // No file with the hashes: one line naming how many were looked at and --input.
    fs::remove_all(s.mod / "base");
    fs::remove_all(s.mod / "out");
    s.write("base/stadium.z64", std::string(32, '0'));
    r = run_cli({"apply", manifest, "--bases", s.bases.string(), "-q"});
    BOOST_TEST(r.exit_code == 4, r.err);
    BOOST_TEST(r.err.find("none of the 2 file(s) in " + s.bases.string() + " has its hashes") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("--input rom=PATH") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(s.mod / "out"));
    // A bases folder that does not exist: usage.
    r = run_cli({"apply", manifest, "--bases", (s.tmp / "nope").string()});
    BOOST_TEST(r.exit_code == 1, r.err);
}

BOOST_AUTO_TEST_CASE(input_option_and_paths_outside_the_folder) {
    Shared s;
    s.write("base/stadium.z64", s.md5);
    const std::string manifest = (s.mod / "mod.json").string();
    auto r = run_cli({"apply", manifest, "--input", "rom=" + s.rom.string(), "--dry-run"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("(--input rom=") != std::string::npos, r.out);
    // A name the manifest does not declare, a malformed value: usage, nothing written.
    r = run_cli({"apply", manifest, "--input", "roms=" + s.rom.string()});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(r.err.find("no manifest declares an input \"roms\" (declared: rom)") != std::string::npos, r.err);
    r = run_cli({"apply", manifest, "--input", s.rom.string()});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(!fs::exists(s.mod / "out"));
    // manifest check takes --input too, and checks the name the same way.
    r = run_cli({"manifest", "check", manifest, "--input", "rom=" + s.rom.string()});
    BOOST_TEST(r.exit_code == 0, r.err);
    r = run_cli({"manifest", "check", manifest, "--input", "roms=" + s.rom.string()});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(r.err.find("no manifest declares an input \"roms\" (declared: rom)") != std::string::npos, r.err);
    // The wrong file through --input: refused by its hash, naming both.
    r = run_cli({"apply", manifest, "--input", "rom=" + (s.bases / "n64/A decoy.z64").string(), "-q"});
    BOOST_TEST(r.exit_code != 0);
    BOOST_TEST(r.err.find("is not") != std::string::npos, r.err);
    // Absolute, '..' and symbolic-link input paths in the manifest itself are read.
    s.write(s.rom.string(), s.md5);
    r = run_cli({"apply", manifest, "--dry-run", "-q"});
    BOOST_TEST(r.exit_code == 0, r.err);
    s.write("../my-games/n64/My Stadium (USA).z64", s.md5);
    r = run_cli({"apply", manifest, "--dry-run", "-q"});
    BOOST_TEST(r.exit_code == 0, r.err);
    fs::create_symlink(s.rom, s.mod / "linked.z64");
    s.write("linked.z64", s.md5);
    r = run_cli({"apply", manifest, "-q"});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(fs::exists(s.mod / "out/mod.z64"));
    // Outputs still may not leave the folder.
    mod::write_file_atomic(s.mod / "bad.json", R"({"modkit": 1, "name": "x", "game": "pokemon-stadium",
 "inputs": {"rom": {"path": "linked.z64"}}, "outputs": {"rom": "../escaped.z64"},
 "edits": [{"op": "palette.hsv", "model": 1, "palette": 0, "hue": 200}]})");
    r = run_cli({"apply", (s.mod / "bad.json").string(), "-q"});
    BOOST_TEST(r.exit_code != 0);
    BOOST_TEST(!fs::exists(s.tmp / "escaped.z64"));
}

BOOST_AUTO_TEST_SUITE_END()
