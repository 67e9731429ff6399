// Import of generated FBX/glTF fixtures and of the two real FBX files of the shared corpus.
#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/scene/import.hpp"
#include "libmod/scene/validate.hpp"
#include "libmod/scene/weights.hpp"

#include <cmath>
#include <map>

using namespace mod::scene;
using scenetest::FixtureSpec;

namespace {

float sum_of(const std::vector<Influence>& list) {
    float s = 0;
    for (const auto& i : list) s += i.weight;
    return s;
}

// Every imported vertex matches a fixture vertex (by baked position) and carries the same
// influences, by bone name, as the fixture wrote.
void check_against_fixture(const Scene& scene, const scenetest::Fixture& f, float position_scale) {
    BOOST_TEST_REQUIRE(scene.meshes.size() == 1u);
    const Mesh& m = scene.meshes[0];
    BOOST_TEST_REQUIRE(m.influences.size() == m.vertex_count());
    for (std::size_t v = 0; v < m.vertex_count(); ++v) {
        Vec3 p = m.positions[v];
        for (auto& c : p) c /= position_scale;
        auto [fv, d] = scenetest::nearest_vertex(f, p);
        BOOST_TEST_REQUIRE(d < 1e-3f);
        std::map<std::string, float> expected(f.vertices[fv].influences.begin(), f.vertices[fv].influences.end());
        std::map<std::string, float> got;
        for (const auto& inf : m.influences[v]) got[scene.skeleton.bones[inf.bone].name] += inf.weight;
        BOOST_TEST_REQUIRE(got.size() == expected.size());
        for (const auto& [name, w] : expected) {
            BOOST_TEST_REQUIRE(got.count(name) == 1u);
            BOOST_TEST(std::abs(got[name] - w) < 1e-5f);
        }
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_import)

BOOST_AUTO_TEST_CASE(fbxa_fixture_keeps_more_than_four_unnormalised_influences_by_name) {
    modtest::TempDir dir;
    FixtureSpec spec;
    auto f = scenetest::make_fixture(spec);
    scenetest::write_fixture(f, spec, dir / "six.fbx");
    Scene s = import_file(dir / "six.fbx");
    BOOST_TEST(s.format == "fbx");
    BOOST_TEST_REQUIRE(s.file_unit_metres.has_value());
    BOOST_TEST(*s.file_unit_metres == 0.01);
    check_against_fixture(s, f, 1.0f);
    // Influence counts 1..6 all present, and sums are not 1 (nothing normalised them).
    std::map<std::size_t, std::size_t> counts;
    bool unnormalised = false;
    for (const auto& list : s.meshes[0].influences) {
        ++counts[list.size()];
        if (std::abs(sum_of(list) - 1.0f) > 1e-3f) unnormalised = true;
    }
    BOOST_TEST(counts.size() == 6u);
    BOOST_TEST(counts.rbegin()->first == 6u);
    BOOST_TEST(unnormalised);
    // Every joint is in the skeleton, the idle leaf too, and parents come first.
    for (const auto& name : f.bone_names) BOOST_TEST(s.skeleton.find(name).has_value(), name);
    for (std::size_t b = 0; b < s.skeleton.bones.size(); ++b) BOOST_TEST(s.skeleton.bones[b].parent < int(b));
    check_mesh(s.meshes[0], "fixture", {s.skeleton.bones.size(), false});
}

BOOST_AUTO_TEST_SUITE_END()
