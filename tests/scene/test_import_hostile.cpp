// convert_assimp_scene on hand-built aiScenes of every hostile shape a damaged file (or a
// faulty Assimp importer) could hand over: each is a clean mod::Error (format, naming the
// source) or a scene the rest of the pipeline handles, never a crash.
#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/scene/import.hpp"
#include "libmod/scene/validate.hpp"
#include "libmod/scene/weights.hpp"
#include "libmod/scene/weld.hpp"

#include <assimp/scene.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>

using namespace mod::scene;

namespace {

// A valid skinned scene: Root -> {Armature -> Hip -> Knee, Body (mesh 0)}; mesh 0 is a quad of
// two triangles, vertices 0-1 on Hip, 2-3 on Knee (vertex 1 shared 0.5 / 0.5).
struct Quad {
    std::unique_ptr<aiScene> scene = std::make_unique<aiScene>();
    aiNode* root;
    aiNode* armature;
    aiNode* hip;
    aiNode* knee;
    aiNode* body;
    aiMesh* mesh;

    static aiBone* bone(const char* name, std::initializer_list<aiVertexWeight> weights) {
        auto* b = new aiBone();
        b->mName = aiString(name);
        b->mNumWeights = unsigned(weights.size());
        b->mWeights = new aiVertexWeight[weights.size()];
        std::copy(weights.begin(), weights.end(), b->mWeights);
        return b;
    }

    Quad() {
        root = scene->mRootNode = new aiNode("Root");
        armature = new aiNode("Armature");
        hip = new aiNode("Hip");
        knee = new aiNode("Knee");
        body = new aiNode("Body");
        scenetest::add_child(root, armature);
        scenetest::add_child(armature, hip);
        scenetest::add_child(hip, knee);
        scenetest::add_child(root, body);
        body->mNumMeshes = 1;
        body->mMeshes = new unsigned[1]{0};
        scene->mNumMaterials = 1;
        scene->mMaterials = new aiMaterial*[1]{new aiMaterial()};
        mesh = new aiMesh();
        mesh->mName = aiString("Quad");
        mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
        mesh->mNumVertices = 4;
        mesh->mVertices = new aiVector3D[4]{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
        mesh->mNormals = new aiVector3D[4]{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
        mesh->mTextureCoords[0] = new aiVector3D[4]{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
        mesh->mNumUVComponents[0] = 2;
        mesh->mNumFaces = 2;
        mesh->mFaces = new aiFace[2];
        for (unsigned f = 0; f < 2; ++f) {
            mesh->mFaces[f].mNumIndices = 3;
            mesh->mFaces[f].mIndices = f == 0 ? new unsigned[3]{0, 1, 2} : new unsigned[3]{0, 2, 3};
        }
        mesh->mNumBones = 2;
        mesh->mBones = new aiBone*[2]{bone("Hip", {{0, 1.0f}, {1, 0.5f}}), bone("Knee", {{1, 0.5f}, {2, 1.0f}, {3, 1.0f}})};
        scene->mNumMeshes = 1;
        scene->mMeshes = new aiMesh*[1]{mesh};
    }
};

Scene convert(const Quad& q) { return convert_assimp_scene(*q.scene, "hostile.fbx"); }

// Converting must fail with a format error naming the source and saying `what`.
void expect_format_error(const Quad& q, const std::string& what) {
    auto e = modtest::catch_error([&] { convert(q); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == mod::ErrorKind::format));
    BOOST_TEST(e->file() == "hostile.fbx");
    BOOST_TEST(std::string(e->what()).find(what) != std::string::npos, e->what());
}

// Applies `damage`, runs `check`, then `repair` so the scene frees what it owns exactly once.
void with_damage(const std::function<void()>& damage, const std::function<void()>& check,
                 const std::function<void()>& repair) {
    damage();
    try {
        check();
    } catch (...) {
        repair();
        throw;
    }
    repair();
}

// The rest of the pipeline on a converted scene: ends in a result or a mod::Error.
void downstream(Scene s) {
    for (const auto& m : s.meshes) {
        MeshCheckOptions check;
        check.bone_count = s.skeleton.bones.size();
        check.allow_nan_normals = true;
        try {
            check_mesh(m, "hostile", check);
        } catch (const mod::Error&) {
        }
        (void)weld(m, {1e-5f});
    }
    try {
        process_weights(s);
    } catch (const mod::Error&) {
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_import_hostile)

BOOST_AUTO_TEST_CASE(the_valid_quad_converts) {
    Quad q;
    Scene s = convert(q);
    BOOST_TEST_REQUIRE(s.meshes.size() == 1u);
    BOOST_TEST(s.meshes[0].vertex_count() == 4u);
    BOOST_TEST(s.meshes[0].triangles.size() == 2u);
    BOOST_TEST(s.skeleton.bones.size() == 2u);  // Hip (the bones' common ancestor), Knee
    BOOST_TEST(s.meshes[0].influences[1].size() == 2u);
    process_weights(s);
    BOOST_TEST(s.meshes[0].skin[1].weights[0] + s.meshes[0].skin[1].weights[1] == 255);
}

BOOST_AUTO_TEST_CASE(null_pointers_are_format_errors) {
    Quad q;
    aiNode* saved_root = q.scene->mRootNode;
    with_damage([&] { q.scene->mRootNode = nullptr; }, [&] { expect_format_error(q, "no root node"); },
                [&] { q.scene->mRootNode = saved_root; });
    aiMesh* saved_mesh = q.mesh;
    with_damage([&] { q.scene->mMeshes[0] = nullptr; }, [&] { expect_format_error(q, "mesh 0 is null"); },
                [&] { q.scene->mMeshes[0] = saved_mesh; });
    aiMesh** saved_meshes = q.scene->mMeshes;
    with_damage([&] { q.scene->mMeshes = nullptr; }, [&] { expect_format_error(q, "without an array"); },
                [&] { q.scene->mMeshes = saved_meshes; });
    aiVector3D* saved_vertices = q.mesh->mVertices;
    with_damage([&] { q.mesh->mVertices = nullptr; }, [&] { expect_format_error(q, "without positions"); },
                [&] { q.mesh->mVertices = saved_vertices; });
    aiFace* saved_faces = q.mesh->mFaces;
    with_damage([&] { q.mesh->mFaces = nullptr; }, [&] { expect_format_error(q, "without a face array"); },
                [&] { q.mesh->mFaces = saved_faces; });
    unsigned* saved_indices = q.mesh->mFaces[1].mIndices;
    with_damage([&] { q.mesh->mFaces[1].mIndices = nullptr; }, [&] { expect_format_error(q, "face 1 has no index"); },
                [&] { q.mesh->mFaces[1].mIndices = saved_indices; });
    aiBone* saved_bone = q.mesh->mBones[1];
    with_damage([&] { q.mesh->mBones[1] = nullptr; }, [&] { expect_format_error(q, "bone 1 is null"); },
                [&] { q.mesh->mBones[1] = saved_bone; });
    aiVertexWeight* saved_weights = q.mesh->mBones[0]->mWeights;
    with_damage([&] { q.mesh->mBones[0]->mWeights = nullptr; },
                [&] { expect_format_error(q, "weights without a weight array"); },
                [&] { q.mesh->mBones[0]->mWeights = saved_weights; });
    aiNode** saved_children = q.hip->mChildren;
    aiNode* null_child[1] = {nullptr};
    with_damage([&] { q.hip->mChildren = null_child; }, [&] { expect_format_error(q, "null node"); },
                [&] { q.hip->mChildren = saved_children; });
    // A null material list: the mesh's material does not exist.
    aiMaterial** saved_materials = q.scene->mMaterials;
    with_damage([&] { q.scene->mMaterials = nullptr; }, [&] { expect_format_error(q, "material 0 of 0"); },
                [&] { q.scene->mMaterials = saved_materials; });
    BOOST_TEST(convert(q).meshes.size() == 1u);  // repaired
}

BOOST_AUTO_TEST_CASE(broken_node_trees_are_format_errors) {
    Quad q;
    // A cycle: Knee's child is the armature above it.
    with_damage([&] { scenetest::add_child(q.knee, q.armature); }, [&] { expect_format_error(q, "appears twice"); },
                [&] {
                    delete[] q.knee->mChildren;
                    q.knee->mChildren = nullptr;
                    q.knee->mNumChildren = 0;
                    q.armature->mParent = q.root;
                });
    // A shared subtree: Body is also a child of Hip.
    with_damage([&] { scenetest::add_child(q.hip, q.body); }, [&] { expect_format_error(q, "appears twice"); },
                [&] {
                    q.hip->mChildren[1] = nullptr;
                    q.hip->mNumChildren = 1;
                    q.body->mParent = q.root;
                });
    // A node naming a mesh the scene does not have.
    with_damage([&] { q.body->mMeshes[0] = 7; }, [&] { expect_format_error(q, "names mesh 7 of 1"); },
                [&] { q.body->mMeshes[0] = 0; });
    unsigned* saved = q.body->mMeshes;
    with_damage([&] { q.body->mMeshes = nullptr; }, [&] { expect_format_error(q, "lists meshes without an array"); },
                [&] { q.body->mMeshes = saved; });
    // A bone whose name no node carries.
    with_damage([&] { q.mesh->mBones[1]->mName = aiString("Ankle"); },
                [&] { expect_format_error(q, "has no node in the scene tree"); },
                [&] { q.mesh->mBones[1]->mName = aiString("Knee"); });
    BOOST_TEST(convert(q).skeleton.bones.size() == 2u);
}

BOOST_AUTO_TEST_CASE(out_of_range_indices_are_format_errors) {
    Quad q;
    with_damage([&] { q.mesh->mBones[1]->mWeights[2].mVertexId = 4; },
                [&] { expect_format_error(q, "weights vertex 4 of mesh 'Quad', which has 4"); },
                [&] { q.mesh->mBones[1]->mWeights[2].mVertexId = 2; });
    with_damage([&] { q.mesh->mBones[0]->mWeights[0].mVertexId = 0xFFFFFFFFu; },
                [&] { expect_format_error(q, "weights vertex 4294967295"); },
                [&] { q.mesh->mBones[0]->mWeights[0].mVertexId = 0; });
    with_damage([&] { q.mesh->mFaces[0].mIndices[2] = 9; }, [&] { expect_format_error(q, "names vertex 9 of 4"); },
                [&] { q.mesh->mFaces[0].mIndices[2] = 2; });
    with_damage([&] { q.mesh->mMaterialIndex = 3; }, [&] { expect_format_error(q, "names material 3 of 1"); },
                [&] { q.mesh->mMaterialIndex = 0; });
}

BOOST_AUTO_TEST_CASE(non_finite_values) {
    Quad q;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    // Positions: refused at conversion, before or after the node transform.
    with_damage([&] { q.mesh->mVertices[2].y = nan; }, [&] { expect_format_error(q, "vertex 2 has a non-finite position"); },
                [&] { q.mesh->mVertices[2].y = 1; });
    // A non-finite input under a conversion (scale and axis swap, whose zero coefficients meet
    // the infinity) is reported as the file's own value, not as the conversion's doing.
    for (float bad : {nan, inf, -inf}) {
        ImportOptions swapped;
        swapped.axes = parse_axis_map("zup-to-yup");
        swapped.scale = 2;
        const float saved = q.mesh->mVertices[2].x;
        q.mesh->mVertices[2].x = bad;
        auto e = modtest::catch_error([&] { convert_assimp_scene(*q.scene, "hostile.fbx", swapped); });
        q.mesh->mVertices[2].x = saved;
        BOOST_TEST_REQUIRE(e.has_value());
        const std::string what = e->what();
        BOOST_TEST(what.find("vertex 2 has a non-finite position") != std::string::npos, what);
        BOOST_TEST(what.find("after the node transform") == std::string::npos, what);
    }
    // A finite position that the unit/axis conversion takes out of float range.
    {
        ImportOptions huge;
        huge.scale = 1e6f;
        q.mesh->mVertices[2].x = 1e35f;
        auto e = modtest::catch_error([&] { convert_assimp_scene(*q.scene, "hostile.fbx", huge); });
        q.mesh->mVertices[2].x = 1;
        BOOST_TEST_REQUIRE(e.has_value());
        BOOST_TEST((e->kind() == mod::ErrorKind::format));
        BOOST_TEST(std::string(e->what()).find("non-finite position after the node transform") != std::string::npos,
                   e->what());
    }
    // A node transform that is not finite makes the bind matrices singular.
    with_damage([&] { q.body->mTransformation.a4 = inf; }, [&] { expect_format_error(q, "not invertible"); },
                [&] { q.body->mTransformation.a4 = 0; });
    // An offset matrix that cannot be inverted.
    with_damage([&] { q.mesh->mBones[0]->mOffsetMatrix.a1 = nan; }, [&] { expect_format_error(q, "not invertible"); },
                [&] { q.mesh->mBones[0]->mOffsetMatrix.a1 = 1; });
    // Weights are kept as stored; our weight processing refuses NaN, infinite and negative
    // ones naming the vertex.
    for (float bad : {nan, inf, -0.25f}) {
        with_damage(
            [&] { q.mesh->mBones[1]->mWeights[0].mWeight = bad; },
            [&] {
                Scene s = convert(q);
                auto e = modtest::catch_error([&] { process_weights(s); });
                BOOST_TEST_REQUIRE(e.has_value());
                BOOST_TEST((e->kind() == mod::ErrorKind::format));
                BOOST_TEST(std::string(e->what()).find("mesh 'Quad' vertex 1") != std::string::npos, e->what());
            },
            [&] { q.mesh->mBones[1]->mWeights[0].mWeight = 0.5f; });
    }
    // NaN normals pass through (stock SHRED data has them): conversion, weld and checks cope.
    with_damage([&] { q.mesh->mNormals[3] = aiVector3D(nan, nan, nan); },
                [&] {
                    Scene s = convert(q);
                    BOOST_TEST(std::isnan(s.meshes[0].normals[3][0]));
                    BOOST_TEST(weld(s.meshes[0], {1e-5f}).mesh.vertex_count() == 4u);
                    downstream(s);
                },
                [&] { q.mesh->mNormals[3] = aiVector3D(0, 0, 1); });
}

BOOST_AUTO_TEST_CASE(degenerate_but_valid_shapes) {
    Quad q;
    // Zero faces: the mesh is skipped, and with it the only mesh, so the file is refused.
    with_damage([&] { q.mesh->mNumFaces = 0; }, [&] { expect_format_error(q, "no triangle mesh"); },
                [&] { q.mesh->mNumFaces = 2; });
    // Only non-triangle faces: the same.
    with_damage([&] { q.mesh->mFaces[0].mNumIndices = q.mesh->mFaces[1].mNumIndices = 2; },
                [&] { expect_format_error(q, "no triangle mesh"); },
                [&] { q.mesh->mFaces[0].mNumIndices = q.mesh->mFaces[1].mNumIndices = 3; });
    // A bone with no weights and a mesh without bones at all.
    with_damage([&] { q.mesh->mBones[0]->mNumWeights = 0; },
                [&] {
                    Scene s = convert(q);
                    BOOST_TEST(s.meshes[0].influences[0].empty());
                    auto e = modtest::catch_error([&] { process_weights(s); });
                    BOOST_TEST_REQUIRE(e.has_value());
                    BOOST_TEST(std::string(e->what()).find("vertex 0 has no positive bone weight") != std::string::npos);
                    downstream(s);
                },
                [&] { q.mesh->mBones[0]->mNumWeights = 2; });
    with_damage([&] { q.mesh->mNumBones = 0; },
                [&] {
                    Scene s = convert(q);
                    BOOST_TEST(s.skeleton.bones.empty());
                    BOOST_TEST(s.meshes[0].influences.empty());
                    downstream(s);
                },
                [&] { q.mesh->mNumBones = 2; });
    // Zero weights, repeated bones and no UVs.
    with_damage(
                [&] {
                    q.mesh->mBones[1]->mWeights[1].mWeight = 0;
                    q.mesh->mBones[1]->mName = aiString("Hip");
                },
                [&] {
                    Scene s = convert(q);
                    BOOST_TEST(s.meshes[0].influences[1].size() == 2u);  // both entries on Hip, kept as stored
                    WeightOptions lenient;
                    lenient.allow_unweighted = true;
                    process_weights(s, lenient);
                    BOOST_TEST(s.meshes[0].skin[1].count == 1);  // merged by bone
                    BOOST_TEST(s.meshes[0].skin[1].weights[0] == 255);
                    BOOST_TEST(s.meshes[0].skin[2].count == 0);  // its only weight is zero
                },
                [&] {
                    q.mesh->mBones[1]->mWeights[1].mWeight = 1.0f;
                    q.mesh->mBones[1]->mName = aiString("Knee");
                });
    aiVector3D* saved_uv = q.mesh->mTextureCoords[0];
    with_damage([&] { q.mesh->mTextureCoords[0] = nullptr; },
                [&] {
                    Scene s = convert(q);
                    BOOST_TEST((s.meshes[0].uv0[2] == Vec2{0, 0}));
                    for (const auto& t : s.meshes[0].tangents) BOOST_TEST(std::isfinite(t[0]));
                },
                [&] { q.mesh->mTextureCoords[0] = saved_uv; });
}

BOOST_AUTO_TEST_CASE(metadata_of_the_wrong_type_or_without_data_is_ignored) {
    Quad q;
    q.scene->mMetaData = aiMetadata::Alloc(3);
    q.scene->mMetaData->Set(0, "UnitScaleFactor", aiString("2.54"));  // a string, not a number
    q.scene->mMetaData->Set(1, "UpAxis", std::int32_t(2));
    q.scene->mMetaData->Set(2, "UpAxisSign", std::int32_t(-1));
    Scene s = convert(q);
    BOOST_TEST(!s.file_unit_metres.has_value());
    BOOST_TEST_REQUIRE(s.file_up_axis.has_value());
    BOOST_TEST(s.file_up_axis->first == 2);
    BOOST_TEST(s.file_up_axis->second == -1);
    void* saved = q.scene->mMetaData->mValues[1].mData;
    with_damage([&] { q.scene->mMetaData->mValues[1].mData = nullptr; },
                [&] { BOOST_TEST(!convert(q).file_up_axis.has_value()); },
                [&] { q.scene->mMetaData->mValues[1].mData = saved; });
}

BOOST_AUTO_TEST_SUITE_END()
