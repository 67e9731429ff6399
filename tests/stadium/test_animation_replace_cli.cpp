// `modkit stadium animation replace` and the manifest's animation.replace on the sample ROM:
// exit codes, one-line errors, all-or-none output, and the same bytes from both front ends.
#include "anim_glb_support.hpp"
#include "stadium_test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/stadium/animation_replace.hpp"
#include "libmod/stadium/palette_edit.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>

using namespace mod::stadium;
using mod::Bytes;
namespace fs = std::filesystem;

namespace {

// The first model entry of the sample ROM with a skeletal animation, and a glb of animation 0's
// own poses.
struct Subject {
    std::size_t entry = 0;
    Bytes glb;
    std::vector<std::string> bones;
};

Subject subject() {
    const stadiumtest::SampleRom r;
    for (std::size_t e = 0; e < r.archive.entries.size(); ++e) {
        if (!decode_entry(r.archive, e).is_fragment) continue;
        const Model m = read_archive_model(r.archive, e);
        const auto anims = read_animations(m);
        if (anims.skeletal.empty()) continue;
        return {e, animtest::make_glb(animtest::bone_names(m), {animtest::anim_of(m, anims.skeletal[0], "animation0")}),
                animtest::bone_names(m)};
    }
    BOOST_FAIL("the sample ROM has no skeletal animation");
    return {};
}

void write(const fs::path& p, const Bytes& b) { mod::write_file_atomic(p, b); }

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

BOOST_AUTO_TEST_SUITE(animation_replace_cli)

BOOST_AUTO_TEST_CASE(cli_and_manifest_write_the_same_rom) {
    const Subject s = subject();
    modtest::TempDir dir;
    write(dir / "a.glb", s.glb);
    const std::string rom = stadiumtest::sample_rom().string(), e = std::to_string(s.entry);
    auto r = modtest::run_cli({"stadium", "animation", "replace", rom, e, "0", (dir / "a.glb").string(), (dir / "out.z64").string(), "--json"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"max_error\"") != std::string::npos);
    BOOST_TEST(r.out.find("\"rotation_degrees\":") != std::string::npos, r.out);
    const Bytes cli_rom = modtest::read(dir / "out.z64");
    // The library call gives the same bytes.
    const stadiumtest::SampleRom sr;
    const auto lib = replace_animation_in_rom(sr.rom, sr.archive, s.entry, 0, s.glb, "a.glb");
    BOOST_TEST((lib.rom == cli_rom));
    // The manifest operation too.
    fs::copy_file(rom, dir / "base.z64");
    const std::string manifest = R"({"modkit": 1, "name": "anim", "game": "pokemon-stadium",
      "inputs": {"rom": {"path": "base.z64"}},
      "outputs": {"rom": "m.z64"},
      "edits": [{"id": "a", "op": "animation.replace", "model": )" + e + R"(, "index": 0, "source": "a.glb"}]})";
    { std::ofstream(dir / "mod.json") << manifest; }
    r = modtest::run_cli({"apply", (dir / "mod.json").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err + r.out);
    BOOST_TEST((modtest::read(dir / "m.z64") == cli_rom));
}

BOOST_AUTO_TEST_CASE(refusals_exit_codes_and_nothing_written) {
    const Subject s = subject();
    modtest::TempDir dir;
    const std::string rom = stadiumtest::sample_rom().string(), e = std::to_string(s.entry);
    const fs::path out = dir / "out.z64";
    auto run = [&](const std::vector<std::string>& extra) {
        std::vector<std::string> args{"stadium", "animation", "replace"};
        args.insert(args.end(), extra.begin(), extra.end());
        return modtest::run_cli(args);
    };
    // Unknown joint: exit 2, one line naming it.
    animtest::Anim bad{"animation0", {{"Armature", "translation", {0}, {1, 2, 3}}}, ""};
    std::vector<std::string> nodes = s.bones;
    nodes.push_back("Armature");
    write(dir / "bad.glb", animtest::make_glb(nodes, {bad}));
    auto r = run({rom, e, "0", (dir / "bad.glb").string(), out.string()});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(lines(r.err) == 1u, r.err);
    BOOST_TEST(r.err.find("\"Armature\"") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(out));
    // A translation beyond 16 bits: exit 3.
    animtest::Anim far{"animation0", {{s.bones[0], "translation", {0, 1}, {0, 0, 0, 0, 50000, 0}}}, ""};
    write(dir / "far.glb", animtest::make_glb(s.bones, {far}));
    r = run({rom, e, "0", (dir / "far.glb").string(), out.string()});
    BOOST_TEST(r.exit_code == 3);
    BOOST_TEST(lines(r.err) == 1u, r.err);
    BOOST_TEST(r.err.find("16-bit range") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(out));
    // Usage: a missing argument, an unknown --animation: exit 1.
    r = run({rom, e, "0"});
    BOOST_TEST(r.exit_code == 1);
    write(dir / "a.glb", s.glb);
    r = run({rom, e, "0", (dir / "a.glb").string(), out.string(), "--animation", "nope"});
    BOOST_TEST(r.exit_code == 1);
    BOOST_TEST(lines(r.err) == 1u, r.err);
    // A missing source: exit 4.
    r = run({rom, e, "0", (dir / "missing.glb").string(), out.string()});
    BOOST_TEST(r.exit_code == 4);
    BOOST_TEST(!fs::exists(out));
}

BOOST_AUTO_TEST_SUITE_END()
