// Blender's glTF exporter writes no tangents by default, so an unedited round trip through
// Blender used to come back with generated tangents whose signs differ from the game's on
// about half the vertices (issue 16). A source without tangents that matches the target vertex
// for vertex (position and first UV bits) now keeps the target's tangents. The Blender file is
// stood in for by modkit's own export with its TANGENT attribute removed (Debian 12's Blender
// cannot import glTF, see doc/formats/scene-import.md).
#include "shred_util.hpp"
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/shred/import.hpp"

#include <regex>

using namespace mod;

namespace {

// The GLB with `"TANGENT":N,` blanked out of its JSON chunk (same length: spaces).
void strip_tangents(const std::filesystem::path& path) {
    Bytes glb = modtest::read(path);
    std::string text(glb.begin(), glb.end());
    const std::regex tangent("\"TANGENT\":[0-9]+,");
    std::smatch m;
    std::string::const_iterator from = text.cbegin();
    std::size_t removed = 0;
    while (std::regex_search(from, text.cend(), m, tangent)) {
        const std::size_t at = std::size_t(m[0].first - text.cbegin());
        std::fill(glb.begin() + std::ptrdiff_t(at), glb.begin() + std::ptrdiff_t(at + m[0].length()), ' ');
        from = m[0].second;
        ++removed;
    }
    BOOST_TEST_REQUIRE(removed > 0u);
    write_file_atomic(path, glb);
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_source_without_tangents_matching_the_target_keeps_its_tangents) {
    modtest::TempDir dir;
    auto path = shredtest::sample_dir() / "char_sample.pak";
    const shred::Pak pak = shred::read_pak(modtest::read(path), path.string());
    std::size_t meshes = 0;
    for (const char* quartet : {"skater01", "skater02"}) {
        auto model = shred::read_pak_quartet(pak, quartet);
        for (std::size_t m = 0; m < model.meshes.size(); ++m) {
            const auto glb = dir / (std::string(quartet) + "_" + std::to_string(m) + ".glb");
            scene::export_file(shred::quartet_to_scene(model, m), glb);
            strip_tangents(glb);
            scene::Scene back = scene::import_file(glb);
            BOOST_TEST_REQUIRE(back.meshes.size() == 1u);
            BOOST_TEST_REQUIRE(back.meshes[0].tangents_generated);
            shred::SceneReplaceReport report;
            const Bytes out = shred::replace_from_scene(pak, quartet, m, back, {}, &report);
            BOOST_TEST(report.kept_target_tangents, quartet << " mesh " << m);
            BOOST_TEST_REQUIRE((out == pak.raw), quartet << " mesh " << m);
            ++meshes;
        }
    }
    BOOST_TEST(meshes == 6u);
}

BOOST_AUTO_TEST_CASE(a_source_with_moved_vertices_gets_generated_tangents) {
    modtest::TempDir dir;
    auto path = shredtest::sample_dir() / "char_sample.pak";
    const shred::Pak pak = shred::read_pak(modtest::read(path), path.string());
    auto model = shred::read_pak_quartet(pak, "skater01");
    scene::Scene s = shred::quartet_to_scene(model, 1);
    s.meshes[0].positions[0][0] += 0.5f;  // an edit: the vertex no longer matches
    const auto glb = dir / "moved.glb";
    scene::export_file(s, glb);
    strip_tangents(glb);
    shred::SceneReplaceReport report;
    shred::replace_from_scene(pak, "skater01", 1, scene::import_file(glb), {}, &report);
    BOOST_TEST(!report.kept_target_tangents);
}
