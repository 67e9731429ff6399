// Negative and NaN glTF weights (issue 16): Assimp 5.2.5 drops them before modkit sees them,
// so modkit reads the WEIGHTS_n accessors itself (scene/gltf_reader.hpp) and refuses them
// naming the mesh, the attribute, the accessor and the vertex, as weight processing does for
// FBX. The reading is bounded: accessors and views outside their buffer are format errors.
#include "placement_fixtures.hpp"
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/import.hpp"

#include <cmath>

using namespace mod::scene;

namespace {

placementtest::GltfTriangle triangle() {
    placementtest::GltfTriangle t;
    t.inverse_bind = {placementtest::translation_column_major(0, 0, 0), placementtest::translation_column_major(0, -1, 0)};
    return t;
}

std::optional<mod::Error> import_error(const modtest::TempDir& dir, const std::string& json) {
    mod::write_file_atomic(dir / "t.gltf", json);
    return modtest::catch_error([&] { import_file(dir / "t.gltf"); });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gltf_weights)

BOOST_AUTO_TEST_CASE(a_negative_weight_is_refused_naming_mesh_accessor_and_vertex) {
    modtest::TempDir dir;
    auto t = triangle();
    t.weights[2] = {1.25f, -0.25f, 0, 0};
    const auto e = import_error(dir, placementtest::gltf_triangle(t));
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == mod::ErrorKind::format));
    BOOST_TEST(e->message().find("WEIGHTS_0") != std::string::npos, e->message());
    BOOST_TEST(e->message().find("vertex 2 weight 1 is -0.25") != std::string::npos, e->message());
    BOOST_TEST(e->message().find("accessors[") != std::string::npos, e->message());
    BOOST_TEST(e->message().find("meshes[0]") != std::string::npos, e->message());
    // the same in memory
    const std::string json = placementtest::gltf_triangle(t);
    const auto m = modtest::catch_error([&] {
        import_memory(mod::ByteView(reinterpret_cast<const std::uint8_t*>(json.data()), json.size()), "t.gltf");
    });
    BOOST_TEST_REQUIRE(m.has_value());
    BOOST_TEST(m->message().find("is -0.25") != std::string::npos, m->message());
}

BOOST_AUTO_TEST_CASE(a_nan_weight_is_refused) {
    modtest::TempDir dir;
    auto t = triangle();
    t.weights[1] = {NAN, 1, 0, 0};
    const auto e = import_error(dir, placementtest::gltf_triangle(t));
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->message().find("vertex 1 weight 0 is NaN") != std::string::npos, e->message());
}

BOOST_AUTO_TEST_CASE(good_weights_still_import) {
    modtest::TempDir dir;
    mod::write_file_atomic(dir / "t.gltf", placementtest::gltf_triangle(triangle()));
    const Scene s = import_file(dir / "t.gltf");
    BOOST_TEST(s.meshes.size() == 1u);
}

BOOST_AUTO_TEST_CASE(accessors_outside_their_buffer_are_format_errors_not_reads) {
    modtest::TempDir dir;
    const std::string good = placementtest::gltf_triangle(triangle());
    // Make the WEIGHTS_0 accessor's count and offset hostile, one at a time.
    const std::size_t weights_at = good.find("\"WEIGHTS_0\"");
    BOOST_TEST_REQUIRE(weights_at != std::string::npos);
    for (const std::string& bad : {std::string("\"count\": 4000000000"), std::string("\"count\": 18446744073709551615"),
                                   std::string("\"byteOffset\": 4294967295, \"count\": 3")}) {
        // rewrite every accessor's count: the weights accessor is among them
        std::string json = good;
        for (std::size_t at = json.find("\"count\":"); at != std::string::npos; at = json.find("\"count\":", at + bad.size())) {
            const std::size_t end = json.find_first_of(",}", at);
            json.replace(at, end - at, bad);
        }
        const auto e = import_error(dir, json);
        BOOST_TEST_REQUIRE(e.has_value(), bad);
        BOOST_TEST((e->kind() == mod::ErrorKind::format), bad);
    }
}

BOOST_AUTO_TEST_SUITE_END()
