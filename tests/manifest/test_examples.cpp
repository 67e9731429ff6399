// Every folder of examples/ runs through the CLI on a fresh copy of the sample games and does
// what its expected.txt says (exit code and, for failures, the exact messages); successful
// ones are also checked against values worked out by hand from the formats.
#include "test_support.hpp"

#include "libmod/codec/bps.hpp"
#include "libmod/codec/vcdiff.hpp"
#include "libmod/codec/zstd_patch.hpp"
#include "libmod/core/file.hpp"
#include "libmod/manifest/manifest.hpp"
#include "libmod/sample/examples.hpp"
#include "libmod/shred/import.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"


using modtest::TempDir;
namespace fs = std::filesystem;

namespace {

fs::path examples_dir() { return fs::path(MODKIT_SOURCE_DIR) / "examples"; }

using Expected = mod::sample::ExampleExpectation;
Expected read_expected(const fs::path& file) { return mod::sample::read_example_expectation(file); }

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
    return s;
}

// Copies the example, writes its inputs and runs `modkit apply`; returns the work folder.
modtest::CliResult run_example(const std::string& name, const fs::path& work) {
    fs::copy(examples_dir() / name, work, fs::copy_options::recursive);
    mod::sample::write_example_inputs(work);
    const Expected exp = read_expected(work / "expected.txt");
    std::vector<std::string> args{"apply"};
    for (const auto& m : exp.manifests) args.push_back((work / m).string());
    args.push_back("-q");
    auto r = modtest::run_cli(args);
    r.err = replace_all(r.err, work.string() + "/", "");
    return r;
}

void check_patches(const fs::path& out, const fs::path& original, const std::string& output_name) {
    const mod::Bytes source = mod::read_file(original), target = mod::read_file(out / output_name);
    if (fs::exists(out / (output_name + ".bps")))
        BOOST_TEST((mod::bps::apply(mod::read_file(out / (output_name + ".bps")), source) == target));
    if (fs::exists(out / (output_name + ".zpatch")))
        BOOST_TEST((mod::zpatch::apply(mod::read_file(out / (output_name + ".zpatch")), source) == target));
    const fs::path vcdiff = out / (output_name + ".vcdiff");
    if (fs::exists(vcdiff)) {
        BOOST_TEST((mod::vcdiff::apply(mod::read_file(vcdiff), source) == target));
        // The program players use, where it is installed (bash build.sh test installs it).
        if (fs::exists("/usr/bin/xdelta3")) {
            const fs::path decoded = out / (output_name + ".by-xdelta3");
            const std::string cmd = "/usr/bin/xdelta3 -d -f -s '" + original.string() + "' '" + vcdiff.string() + "' '" +
                                    decoded.string() + "' 2>&1";
            BOOST_TEST(std::system(cmd.c_str()) == 0, cmd);
            BOOST_TEST((mod::read_file(decoded) == target));
            fs::remove(decoded);
        }
    }
    BOOST_TEST(fs::exists(out / (output_name + ".bps")) + fs::exists(out / (output_name + ".zpatch")) + fs::exists(vcdiff) >= 1);
}

void check_report(const fs::path& report) {
    const mod::Bytes b = mod::read_file(report);
    const auto problems = mod::manifest::check_report(std::string(b.begin(), b.end()));
    BOOST_TEST_INFO((problems.empty() ? std::string() : problems.front()));
    BOOST_TEST(problems.empty());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(manifest_examples)

BOOST_AUTO_TEST_CASE(every_example_does_what_its_expected_file_says) {
    std::size_t count = 0;
    for (const auto& e : fs::directory_iterator(examples_dir())) {
        if (!fs::exists(e.path() / "expected.txt")) continue;
        ++count;
        const std::string name = e.path().filename().string();
        TempDir tmp;
        const fs::path work = tmp / name;
        const auto r = run_example(name, work);
        const Expected exp = read_expected(e.path() / "expected.txt");
        BOOST_TEST_INFO(name + ": " + r.err);
        BOOST_TEST(r.exit_code == exp.exit);
        if (exp.has_stderr) {
            BOOST_TEST_INFO(name);
            BOOST_TEST(r.err == exp.stderr_text);
        }
        if (exp.exit != 0) {
            BOOST_TEST_INFO(name);
            BOOST_TEST(!fs::exists(work / "out"));
        } else {
            for (const auto& f : fs::recursive_directory_iterator(work / "out"))
                if (f.path().filename() == "report.json") check_report(f.path());
        }
    }
    BOOST_TEST(count >= 6u);
}

BOOST_AUTO_TEST_CASE(the_stadium_recolour_sets_the_hand_rounded_colour_and_its_patch_applies) {
    TempDir tmp;
    const fs::path work = tmp / "stadium-recolour";
    const auto r = run_example("stadium-recolour", work);
    BOOST_REQUIRE_EQUAL(r.exit_code, 0);
    const mod::Bytes out = mod::read_file(work / "out/stadium-recolour.z64");
    const auto m = mod::stadium::read_archive_model(mod::stadium::read_archive(mod::stadium::load_rom_bytes(out)), 1);
    // FFD700 in RGBA5551: R 255 -> 31, G 215 * 31 / 255 = 26.1 -> 26, B 0, alpha bit 1:
    // 31 << 11 | 26 << 6 | 0 << 1 | 1 = 0xFE81.
    BOOST_TEST(m.palettes[0].entries[1] == 0xFE81);
    // Slot 0 was locked and nothing else set it.
    const auto before = mod::stadium::read_archive_model(
        mod::stadium::read_archive(mod::stadium::load_rom(work / "base/stadium/pokemon_stadium_sample.z64")), 1);
    BOOST_TEST(m.palettes[0].entries[0] == before.palettes[0].entries[0]);
    BOOST_TEST(m.palettes[0].entries[2] != before.palettes[0].entries[2]);
    check_patches(work / "out", work / "base/stadium/pokemon_stadium_sample.z64", "stadium-recolour.z64");
}

// examples/stadium-mesh: model 1's own mesh under other bone names, mapped back by bones.txt:
// the same triangles at the same s16 positions (each with the bone drawing it), every animation
// kept, and the patch applies.
BOOST_AUTO_TEST_CASE(the_stadium_mesh_replacement_maps_the_bones_and_keeps_the_triangles) {
    TempDir tmp;
    const fs::path work = tmp / "stadium-mesh";
    const auto r = run_example("stadium-mesh", work);
    BOOST_REQUIRE_EQUAL(r.exit_code, 0);
    using namespace mod::stadium;
    const auto before = read_archive_model(read_archive(load_rom(work / "base/stadium/pokemon_stadium_sample.z64")), 1);
    const auto after = read_archive_model(read_archive(load_rom(work / "out/stadium-mesh.z64")), 1);
    auto corners = [](const Model& m) {
        std::vector<std::array<int, 4>> c;
        for (const auto& t : m.triangles)
            for (const auto& k : t.corners) {
                const auto& p = m.vertices[k.vertex].position;
                c.push_back({m.draws[k.dl].bone, p[0], p[1], p[2]});
            }
        std::sort(c.begin(), c.end());
        return c;
    };
    BOOST_TEST(after.triangles.size() == before.triangles.size());
    BOOST_TEST((corners(after) == corners(before)));
    BOOST_TEST(read_animations(after).skeletal.size() == read_animations(before).skeletal.size());
    BOOST_TEST(after.bones.size() == before.bones.size());
    check_patches(work / "out", work / "base/stadium/pokemon_stadium_sample.z64", "stadium-mesh.z64");
}

BOOST_AUTO_TEST_CASE(the_shred_replacement_maps_the_renamed_bones_and_keeps_the_mesh) {
    TempDir tmp;
    const fs::path work = tmp / "shred-replace-fbx";
    const auto r = run_example("shred-replace-fbx", work);
    BOOST_REQUIRE_EQUAL(r.exit_code, 0);
    const mod::Bytes out = mod::read_file(work / "out/char_sample.pak");
    const auto pak = mod::shred::read_pak(out, "out.pak");
    const auto q = mod::shred::read_pak_quartet(pak, "skater01");
    const auto orig = mod::shred::read_pak_quartet(
        mod::shred::read_pak(mod::read_file(work / "base/shred/char_sample.pak"), "in.pak"), "skater01");
    BOOST_REQUIRE_EQUAL(q.meshes.size(), orig.meshes.size());
    // The FBX holds mesh 1 itself (608 triangles), re-imported through the bone map.
    BOOST_TEST(q.meshes[1].triangles.size() == orig.meshes[1].triangles.size());
    const mod::Bytes report = mod::read_file(work / "out/report/report.json");
    const std::string text(report.begin(), report.end());
    BOOST_TEST(text.find("\"mapped_explicitly\": 2") != std::string::npos);
    check_patches(work / "out", work / "base/shred/char_sample.pak", "char_sample.pak");
}

BOOST_AUTO_TEST_CASE(the_totem_reweight_matches_every_position) {
    TempDir tmp;
    const fs::path work = tmp / "totem-reweight";
    const auto r = run_example("totem-reweight", work);
    BOOST_REQUIRE_EQUAL(r.exit_code, 0);
    const mod::Bytes report = mod::read_file(work / "out/report/report.json");
    const std::string text(report.begin(), report.end());
    BOOST_TEST(text.find("\"unmatched\": []") != std::string::npos);
    BOOST_TEST((mod::read_file(work / "out/SAMPLE.DGC") != mod::read_file(work / "base/totem/SAMPLE.DGC")));
    check_patches(work / "out", work / "base/totem/SAMPLE.DGC", "SAMPLE.DGC");
}

BOOST_AUTO_TEST_CASE(a_starter_manifest_lists_what_can_be_edited_and_validates) {
    TempDir tmp;
    mod::sample::write_example_inputs(tmp.path());
    const auto r = modtest::run_cli({"manifest", "new", "pokemon-stadium",
                                     (tmp / "base/stadium/pokemon_stadium_sample.z64").string(), (tmp / "mod.json").string()});
    BOOST_REQUIRE_EQUAL(r.exit_code, 0);
    const mod::Bytes b = mod::read_file(tmp / "mod.json");
    const std::string text(b.begin(), b.end());
    BOOST_TEST(text.find("\"_catalogue\"") != std::string::npos);
    BOOST_TEST(text.find("16 rgba5551 colours") != std::string::npos);
    BOOST_TEST(modtest::run_cli({"manifest", "check", (tmp / "mod.json").string()}).exit_code == 0);
    // An input outside the manifest's folder cannot be named by it.
    const auto bad = modtest::run_cli({"manifest", "new", "pokemon-stadium",
                                       (tmp / "base/stadium/pokemon_stadium_sample.z64").string(),
                                       (tmp / "sub/mod.json").string()});
    BOOST_TEST(bad.exit_code == 1);
    BOOST_TEST(bad.err.find("outside the manifest's folder") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
