// Export through Assimp (glb, gltf, ASCII fbx) and the round trip back through import_file.
#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/scene/weights.hpp"
#include "libmod/scene/weld.hpp"

#include <cmath>
#include <cstring>

using namespace mod::scene;

namespace {

template <class A>
bool same_bits(const A& a, const A& b) {
    return std::memcmp(a.data(), b.data(), sizeof(typename A::value_type) * a.size()) == 0;
}

// A processed scene from an fbxa fixture with awkward data: unnormalised, > 4 influences.
Scene processed_fixture(const modtest::TempDir& dir) {
    scenetest::FixtureSpec spec;
    spec.second_uv = true;
    auto f = scenetest::make_fixture(spec);
    scenetest::write_fixture(f, spec, dir / "src.fbx");
    Scene s = import_file(dir / "src.fbx");
    process_weights(s);
    s.meshes[0] = weld(s.meshes[0]).mesh;
    return s;
}

// Vertices identical in order and bits (positions, normals, tangents, UVs) and in weights.
void require_same_vertices(const Scene& a, const Scene& b) {
    BOOST_TEST_REQUIRE(a.meshes.size() == b.meshes.size());
    for (std::size_t m = 0; m < a.meshes.size(); ++m) {
        const Mesh& x = a.meshes[m];
        const Mesh& y = b.meshes[m];
        BOOST_TEST_REQUIRE(x.vertex_count() == y.vertex_count());
        BOOST_TEST_REQUIRE(x.triangles == y.triangles);
        for (std::size_t v = 0; v < x.vertex_count(); ++v) {
            BOOST_TEST_REQUIRE(same_bits(x.positions[v], y.positions[v]), "position " << v);
            // glTF flips V (v -> 1 - v on write and on read): exact for half-float values,
            // within one unit of 2^-24 otherwise.
            for (int i = 0; i < 2; ++i) {
                BOOST_TEST_REQUIRE(std::abs(x.uv0[v][i] - y.uv0[v][i]) <= 6e-8f, "uv0 " << v);
                BOOST_TEST_REQUIRE(std::abs(x.uv1[v][i] - y.uv1[v][i]) <= 6e-8f, "uv1 " << v);
            }
            BOOST_TEST_REQUIRE(same_bits(x.normals[v], y.normals[v]), "normal " << v);
            BOOST_TEST_REQUIRE(same_bits(x.tangents[v], y.tangents[v]), "tangent " << v);
            // Same bones by name, same bytes.
            const auto& sx = x.skin[v];
            const auto& sy = y.skin[v];
            BOOST_TEST_REQUIRE(sx.count == sy.count);
            for (int k = 0; k < sx.count; ++k) {
                BOOST_TEST(a.skeleton.bones[sx.bones[k]].name == b.skeleton.bones[sy.bones[k]].name);
                BOOST_TEST(sx.weights[k] == sy.weights[k]);
            }
        }
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_export)

BOOST_AUTO_TEST_CASE(glb_round_trip_keeps_vertices_order_and_quantised_weights) {
    modtest::TempDir dir;
    Scene s = processed_fixture(dir);
    export_file(s, dir / "out.glb");
    Scene back = import_file(dir / "out.glb");
    process_weights(back);
    require_same_vertices(s, back);
    for (const auto& b : s.skeleton.bones) BOOST_TEST(back.skeleton.find(b.name).has_value(), b.name);
}

BOOST_AUTO_TEST_SUITE_END()
