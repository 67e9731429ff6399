// glTF that real clients accept (issue 16, "Exports that real clients read"), checked on the
// file itself (tests/cli/test_gltf_validator.cpp runs the Khronos validator on every sample
// export): no NaN in NORMAL (a substitute unit normal, the original bits in the primitive's
// extras, put back by modkit's importer), one common root for the skin's joints (a synthetic
// root node above several root bones, removed again on import), inverse bind matrices whose
// last row is exactly 0 0 0 1.
#include "glb_test_reader.hpp"
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"

#include <bit>
#include <cmath>
#include <cstring>

using namespace mod::scene;

namespace {

Mat4 translation(float x, float y, float z) {
    Mat4 m = identity_matrix;
    m[3] = x, m[7] = y, m[11] = z;
    return m;
}

Mat4 rotation_z(double angle, float tx) {
    Mat4 m = identity_matrix;
    m[0] = float(std::cos(angle)), m[1] = float(-std::sin(angle));
    m[4] = float(std::sin(angle)), m[5] = float(std::cos(angle));
    m[3] = tx;
    return m;
}

// Two root bones (with a rotated child whose inverse carries rounding noise), one mesh whose
// vertex 1 has a NaN normal (as SHRED stock data does) and vertex 2 an infinite one.
Scene two_root_scene() {
    Scene s;
    s.skeleton.bones.resize(3);
    s.skeleton.bones[0].name = "left";
    s.skeleton.bones[0].bind = translation(-1, 0, 0);
    s.skeleton.bones[1].name = "right";
    s.skeleton.bones[1].bind = translation(1, 0, 0);
    s.skeleton.bones[2].name = "right_child";
    s.skeleton.bones[2].parent = 1;
    s.skeleton.bones[2].bind = rotation_z(0.7, 1.3f);
    derive_bone_matrices(s.skeleton);
    Mesh m;
    m.name = "body";
    m.positions = {{-1, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    m.normals = {{0, 0, 1},
                 {std::bit_cast<float>(0x7FC00123u), std::bit_cast<float>(0xFFC00000u), std::bit_cast<float>(0x7FC00001u)},
                 {INFINITY, 0, 0}};
    m.tangents = {{1, 0, 0, 1}, {1, 0, 0, -1}, {0, 1, 0, -1}};
    m.uv0.assign(3, Vec2{0.5f, 0.5f});
    m.uv1 = m.uv0;
    m.triangles = {{0, 1, 2}};
    m.skin = {SkinWeights{1, {0, 0, 0, 0}, {255, 0, 0, 0}}, SkinWeights{1, {1, 0, 0, 0}, {255, 0, 0, 0}},
              SkinWeights{2, {2, 0, 0, 0}, {128, 127, 0, 0}}};
    m.skin[2].bones[1] = 1;
    s.meshes.push_back(m);
    s.materials = {"m"};
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gltf_validity)

BOOST_AUTO_TEST_CASE(non_finite_normals_are_substituted_and_come_back_bit_exact) {
    modtest::TempDir dir;
    const Scene s = two_root_scene();
    export_file(s, dir / "x.glb");
    const auto g = glbtest::read_glb(modtest::read(dir / "x.glb"));
    const auto& prim = g.json["meshes"][0]["primitives"][0];
    const auto normals = g.floats(prim["attributes"]["NORMAL"].GetUint64());
    const auto tangents = g.floats(prim["attributes"]["TANGENT"].GetUint64());
    BOOST_TEST_REQUIRE(normals.size() == 9u);
    for (std::size_t v = 0; v < 3; ++v) {
        const double len = std::sqrt(double(normals[v * 3]) * normals[v * 3] + double(normals[v * 3 + 1]) * normals[v * 3 + 1] +
                                     double(normals[v * 3 + 2]) * normals[v * 3 + 2]);
        BOOST_TEST(std::abs(len - 1.0) < 1e-6, "vertex " << v << " normal length " << len);
        // perpendicular to the tangent, so a reader deriving the bitangent keeps the sign
        const double dot = double(normals[v * 3]) * tangents[v * 4] + double(normals[v * 3 + 1]) * tangents[v * 4 + 1] +
                           double(normals[v * 3 + 2]) * tangents[v * 4 + 2];
        BOOST_TEST(std::abs(dot) < 1e-6);
    }
    BOOST_TEST_REQUIRE(prim.HasMember("extras"));
    const auto& bits = prim["extras"]["modkit_nonfinite_normals"];
    BOOST_TEST_REQUIRE(bits.Size() == 8u);
    BOOST_TEST(bits[0].GetUint() == 1u);
    BOOST_TEST(bits[1].GetUint() == 0x7FC00123u);
    BOOST_TEST(bits[2].GetUint() == 0xFFC00000u);
    BOOST_TEST(bits[4].GetUint() == 2u);

    for (const char* name : {"x.glb", "y.gltf"}) {
        if (std::string(name) == "y.gltf") export_file(s, dir / name);
        const Scene back = import_file(dir / name);
        BOOST_TEST_REQUIRE(back.meshes.size() == 1u);
        for (std::size_t v = 0; v < 3; ++v) {
            BOOST_TEST(std::memcmp(back.meshes[0].normals[v].data(), s.meshes[0].normals[v].data(), 12) == 0,
                       name << " normal " << v);
            BOOST_TEST(back.meshes[0].tangents[v][3] == s.meshes[0].tangents[v][3], name << " tangent sign " << v);
        }
    }
}

BOOST_AUTO_TEST_CASE(several_root_bones_get_one_synthetic_root_which_import_removes) {
    modtest::TempDir dir;
    const Scene s = two_root_scene();
    export_file(s, dir / "x.glb");
    const auto g = glbtest::read_glb(modtest::read(dir / "x.glb"));
    const auto& nodes = g.json["nodes"];
    const auto& skin = g.json["skins"][0];
    BOOST_TEST_REQUIRE(skin.HasMember("skeleton"));
    const auto root = skin["skeleton"].GetUint();
    BOOST_TEST(std::string(nodes[root]["name"].GetString()) == "modkit_skeleton_root");
    BOOST_TEST(nodes[root]["children"].Size() == 2u);
    BOOST_TEST(!nodes[root].HasMember("matrix"));
    for (const auto& j : skin["joints"].GetArray()) BOOST_TEST(j.GetUint() != root);

    // inverse bind matrices: affine, last row exactly 0 0 0 1 (column-major: 3, 7, 11, 15)
    const auto ibm = g.floats(skin["inverseBindMatrices"].GetUint64());
    BOOST_TEST_REQUIRE(ibm.size() == 48u);
    for (std::size_t b = 0; b < 3; ++b) {
        BOOST_TEST(ibm[b * 16 + 3] == 0.0f);
        BOOST_TEST(ibm[b * 16 + 7] == 0.0f);
        BOOST_TEST(ibm[b * 16 + 11] == 0.0f);
        BOOST_TEST(ibm[b * 16 + 15] == 1.0f);
    }

    const Scene back = import_file(dir / "x.glb");
    BOOST_TEST_REQUIRE(back.skeleton.bones.size() == 3u);
    for (std::size_t b = 0; b < 3; ++b) {
        const Bone& x = back.skeleton.bones[b];
        BOOST_TEST(x.name == s.skeleton.bones[b].name);
        BOOST_TEST(x.parent == s.skeleton.bones[b].parent);
        for (int i = 0; i < 16; ++i) BOOST_TEST(std::abs(x.bind[i] - s.skeleton.bones[b].bind[i]) < 1e-6f);
    }
    // weights still name the same bones
    BOOST_TEST_REQUIRE(back.meshes[0].influences.size() == 3u);
    BOOST_TEST(back.skeleton.bones[back.meshes[0].influences[1][0].bone].name == "right");
}

BOOST_AUTO_TEST_CASE(the_inverse_of_an_affine_matrix_has_an_exact_last_row) {
    for (int k = 1; k < 200; ++k) {
        const Mat4 inv = inverse(rotation_z(0.05 * k, 0.37f * float(k)));
        BOOST_TEST_REQUIRE(inv[12] == 0.0f);
        BOOST_TEST_REQUIRE(inv[13] == 0.0f);
        BOOST_TEST_REQUIRE(inv[14] == 0.0f);
        BOOST_TEST_REQUIRE(inv[15] == 1.0f);
    }
}

BOOST_AUTO_TEST_SUITE_END()
