// Where imported skinned meshes are placed (issue 16): at the skin's pose, sum of weight *
// global(bone) * offset * vertex, not at the mesh node's transform. Fixtures: hand-written glTF
// JSON, an FBX written with Assimp's "fbxa" exporter (and the same file with its armature posed
// away from the clusters, as Blender's x100 / -90 degree armature files are), and a COLLADA file
// written with Assimp's exporter and declared Z-up. Every expected position is computed here
// by hand from the fixture's numbers.
#include "fixtures.hpp"
#include "placement_fixtures.hpp"
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/import.hpp"

#include <cmath>

using namespace mod::scene;

namespace {

// The file's own numbers (Units::file), as the fixtures describe them.
ImportOptions file_units() {
    ImportOptions o;
    o.units = Units::file;
    return o;
}

void require_positions(const Mesh& mesh, const std::vector<Vec3>& expected, float tolerance) {
    BOOST_TEST_REQUIRE(mesh.vertex_count() == expected.size());
    for (std::size_t v = 0; v < expected.size(); ++v)
        for (int i = 0; i < 3; ++i)
            BOOST_TEST(std::abs(mesh.positions[v][i] - expected[v][i]) <= tolerance,
                       "vertex " << v << " axis " << i << ": " << mesh.positions[v][i] << " expected "
                                 << expected[v][i]);
}

// The vertex whose position is nearest to p (FBX and COLLADA may reorder corners).
const Vec3& nearest(const Mesh& mesh, const Vec3& p) {
    std::size_t best = 0;
    double best_d = INFINITY;
    for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
        double d = 0;
        for (int i = 0; i < 3; ++i) d += (mesh.positions[v][i] - p[i]) * double(mesh.positions[v][i] - p[i]);
        if (d < best_d) {
            best_d = d;
            best = v;
        }
    }
    return mesh.positions[best];
}

void require_position_set(const Mesh& mesh, const std::vector<Vec3>& expected, float tolerance) {
    BOOST_TEST_REQUIRE(mesh.vertex_count() == expected.size());
    for (const Vec3& e : expected) {
        const Vec3& got = nearest(mesh, e);
        for (int i = 0; i < 3; ++i)
            BOOST_TEST(std::abs(got[i] - e[i]) <= tolerance,
                       "expected (" << e[0] << ", " << e[1] << ", " << e[2] << "), nearest (" << got[0] << ", "
                                    << got[1] << ", " << got[2] << ")");
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_import_placement)

BOOST_AUTO_TEST_CASE(gltf_skinned_mesh_node_transform_is_ignored) {
    // Mesh node: translation (10, 0, 0), scale 3 (the spec says: ignored). Joints: Root at
    // (0, 1, 0) with an identity inverse bind matrix, Tip at (0, 2, 0) with inverse bind
    // T(0, -1, 0): both skin matrices are T(0, 1, 0), so every vertex moves by +1 in y.
    // Today's importer put them at 3p + (10, 0, 0).
    modtest::TempDir dir;
    placementtest::GltfTriangle t;
    t.mesh_node = R"("translation": [10, 0, 0], "scale": [3, 3, 3])";
    t.inverse_bind = {placementtest::translation_column_major(0, 0, 0), placementtest::translation_column_major(0, -1, 0)};
    const auto path = dir / "moved.gltf";
    mod::write_file_atomic(path, placementtest::gltf_triangle(t));
    Scene scene = import_file(path);
    BOOST_TEST_REQUIRE(scene.meshes.size() == 1u);
    require_positions(scene.meshes[0], {{1, 1, 0}, {0, 3, 0}, {1, 3, 0}}, 1e-6f);
    // The bones are bound where the skin says: Root at T(0, 1, 0), Tip at T(0, 2, 0).
    auto root = scene.skeleton.find("Root"), tip = scene.skeleton.find("Tip");
    BOOST_TEST_REQUIRE((root && tip));
    BOOST_TEST(scene.skeleton.bones[*root].bind[7] == 1.0f);
    BOOST_TEST(scene.skeleton.bones[*tip].bind[7] == 2.0f);
    BOOST_TEST_REQUIRE(scene.warnings.size() == 1u);
    BOOST_TEST(scene.warnings[0].find("placed where its skin puts it") != std::string::npos, scene.warnings[0]);
}

BOOST_AUTO_TEST_CASE(gltf_posed_joint_is_taken_at_the_bind_pose_the_skin_agrees_on) {
    // The same file with Tip scaled x2 (posed: its skin matrix is now T(0, 2, 0) S2 T(0, -1, 0))
    // and v2 weighted by Root alone: Root carries weight 2, Tip 1, so the bind pose is Root's
    // T(0, 1, 0) and v1 (Tip's) is placed at rest, (0, 3, 0), not posed at (0, 4, 0); Tip is
    // named as posed.
    modtest::TempDir dir;
    placementtest::GltfTriangle t;
    t.mesh_node = R"("translation": [10, 0, 0], "scale": [3, 3, 3])";
    t.tip_node = R"("translation": [0, 1, 0], "scale": [2, 2, 2])";
    t.weights = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    t.inverse_bind = {placementtest::translation_column_major(0, 0, 0), placementtest::translation_column_major(0, -1, 0)};
    const auto path = dir / "posed.gltf";
    mod::write_file_atomic(path, placementtest::gltf_triangle(t));
    Scene scene = import_file(path);
    BOOST_TEST_REQUIRE(scene.meshes.size() == 1u);
    require_positions(scene.meshes[0], {{1, 1, 0}, {0, 3, 0}, {1, 3, 0}}, 1e-6f);
    BOOST_TEST_REQUIRE(scene.warnings.size() == 2u);
    BOOST_TEST(scene.warnings[1].find("'Tip'") != std::string::npos, scene.warnings[1]);
    auto tip = scene.skeleton.find("Tip");
    BOOST_TEST_REQUIRE(tip.has_value());
    BOOST_TEST(scene.skeleton.bones[*tip].bind[7] == 2.0f);
    BOOST_TEST(scene.skeleton.bones[*tip].bind[0] == 1.0f);  // the bind pose, not the x2 pose
}

BOOST_AUTO_TEST_CASE(gltf_skin_at_rest_keeps_the_exact_bits_whatever_the_mesh_node_says) {
    // Joints at rest (inverse bind = inverse of the joint's global): the skin puts every vertex
    // where the file stores it, bit for bit, although the mesh node is moved and rotated.
    modtest::TempDir dir;
    placementtest::GltfTriangle t;
    t.mesh_node = R"("translation": [10, 0, 0], "rotation": [0, 0, 0.70710678, 0.70710678])";
    t.inverse_bind = {placementtest::translation_column_major(0, -1, 0),
                      placementtest::translation_column_major(0, -2, 0)};
    t.positions = {{0.1f, 0.2f, 0.3f}, {0.7f, 2.1f, -0.3f}, {1.3f, 1.9f, 0.01f}};
    const auto path = dir / "rest.gltf";
    mod::write_file_atomic(path, placementtest::gltf_triangle(t));
    Scene scene = import_file(path);
    BOOST_TEST_REQUIRE(scene.meshes.size() == 1u);
    const Mesh& m = scene.meshes[0];
    BOOST_TEST_REQUIRE(m.vertex_count() == 3u);
    for (std::size_t v = 0; v < 3; ++v)
        for (int i = 0; i < 3; ++i) BOOST_TEST(m.positions[v][i] == t.positions[v][i]);
}

BOOST_AUTO_TEST_CASE(fbx_mesh_node_scaled_and_rotated_and_an_armature_posed_away_from_its_clusters) {
    // Mesh node M: x2, 90 degrees about Z, +5 in x: (x, y, z) -> (5 - 2y, 2x, 2z). The clusters
    // bind the bones at rest, so the skin places v at M v, as the node does.
    modtest::TempDir dir;
    const auto path = dir / "scaled.fbx";
    placementtest::write_two_bone_triangle(path, "fbxa");
    {
        // In the file's numbers (Assimp's writer declares centimetres; the default would convert).
        Scene scene = import_file(path, file_units());
        BOOST_TEST_REQUIRE(scene.meshes.size() == 1u);
        require_position_set(scene.meshes[0], {{5, 2, 0}, {1, 0, 0}, {1, 2, 0}}, 1e-4f);
        // The default honours the declared unit: the same triangle at 0.01 of those numbers.
        Scene metres = import_file(path);
        BOOST_TEST_REQUIRE(metres.meshes.size() == 1u);
        require_position_set(metres.meshes[0], {{0.05f, 0.02f, 0}, {0.01f, 0, 0}, {0.01f, 0.02f, 0}}, 1e-6f);
    }
    // The same file with the armature's node scaled x100 and turned -90 degrees about X (what
    // Blender's armature object carries) while the clusters still hold the unscaled bind: the
    // skin puts the mesh at A M v with A (x, y, z) -> 100 (x, z, -y). Today's importer left it
    // at M v: 100 times too small and lying on its side.
    const mod::Bytes bytes = mod::read_file(path);
    std::string text(bytes.begin(), bytes.end());
    const std::string armature = "\"Model::Armature\", \"Null\" {";
    auto at = text.find(armature);
    BOOST_TEST_REQUIRE(at != std::string::npos);
    auto props = text.find("Properties70:  {", at);
    BOOST_TEST_REQUIRE(props != std::string::npos);
    text.insert(props + std::string("Properties70:  {").size(),
                "\n\t\t\tP: \"Lcl Rotation\", \"Lcl Rotation\", \"\", \"A\", -90, 0, 0"
                "\n\t\t\tP: \"Lcl Scaling\", \"Lcl Scaling\", \"\", \"A\", 100, 100, 100");
    const auto posed = dir / "posed.fbx";
    mod::write_file_atomic(posed, text);
    Scene scene = import_file(posed, file_units());
    BOOST_TEST_REQUIRE(scene.meshes.size() == 1u);
    require_position_set(scene.meshes[0], {{500, 0, -200}, {100, 0, 0}, {100, 0, -200}}, 1e-2f);
}

BOOST_AUTO_TEST_CASE(collada_z_up_skinned_mesh_ignores_its_node_and_turns_y_up) {
    // The same scene through Assimp's COLLADA exporter: the skin binds the mesh at the identity
    // (its inverse bind matrices are the bones' inverses), and COLLADA, like glTF, ignores the
    // transform of the node that instantiates a skin controller. Declared Z_UP, Assimp turns
    // the root (x, y, z) -> (x, z, -y): v0 (1, 0, 0), v1 (0, 2, 0) -> (0, 0, -2), v2 (1, 2, 0) ->
    // (1, 0, -2). Today's importer applied the node: R M v.
    modtest::TempDir dir;
    const auto path = dir / "scene.dae";
    placementtest::write_two_bone_triangle(path, "collada");
    const mod::Bytes bytes = mod::read_file(path);
    std::string text(bytes.begin(), bytes.end());
    auto at = text.find("<up_axis>Y_UP</up_axis>");
    BOOST_TEST_REQUIRE(at != std::string::npos);
    text.replace(at, std::string("<up_axis>Y_UP</up_axis>").size(), "<up_axis>Z_UP</up_axis>");
    const auto zup = dir / "zup.dae";
    mod::write_file_atomic(zup, text);
    Scene scene = import_file(zup);
    BOOST_TEST_REQUIRE(scene.meshes.size() == 1u);
    require_position_set(scene.meshes[0], {{1, 0, 0}, {0, 0, -2}, {1, 0, -2}}, 1e-5f);
}

BOOST_AUTO_TEST_SUITE_END()
