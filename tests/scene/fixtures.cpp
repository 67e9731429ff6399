// Skinned fixtures written with Assimp's own exporters (see fixtures.hpp).
#include "fixtures.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/scene.h>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <memory>

namespace scenetest {
namespace {

using mod::scene::Mat4;

Mat4 blender_like() {
    // x100 scale, then -90 degrees about X: (x, y, z) -> 100 * (x, z, -y).
    return {100, 0, 0, 0, 0, 0, 100, 0, 0, -100, 0, 0, 0, 0, 0, 1};
}

Mat4 translation(float x, float y, float z) { return {1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z, 0, 0, 0, 1}; }

aiMatrix4x4 to_ai(const Mat4& m) {
    return aiMatrix4x4(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11], m[12], m[13], m[14],
                       m[15]);
}

constexpr float bone_length = 1.0f;

}  // namespace

void add_child(aiNode* parent, aiNode* child) {
    auto** children = new aiNode*[parent->mNumChildren + 1];
    for (unsigned i = 0; i < parent->mNumChildren; ++i) children[i] = parent->mChildren[i];
    children[parent->mNumChildren] = child;
    delete[] parent->mChildren;
    parent->mChildren = children;
    ++parent->mNumChildren;
    child->mParent = parent;
}

Fixture make_fixture(const FixtureSpec& spec) {
    Fixture f;
    f.mesh_transform = spec.blender_transform ? blender_like() : mod::scene::identity_matrix;
    for (int b = 0; b < spec.bones; ++b) f.bone_names.push_back("Bone" + std::to_string(b));
    if (spec.unmapped_bone) f.bone_names.insert(f.bone_names.begin() + 1, "Extra");
    if (spec.idle_bone) f.bone_names.push_back("Idle");
    float height = bone_length * float(spec.bones);
    int k = 0;
    for (int r = 0; r < spec.rings; ++r) {
        float y = height * float(r) / float(spec.rings - 1);
        for (int s = 0; s < spec.segments; ++s, ++k) {
            float a = 6.2831853f * float(s) / float(spec.segments);
            FixtureVertex v;
            v.position = {0.5f * std::cos(a), y, 0.5f * std::sin(a)};
            v.uv0 = {float(s) / float(spec.segments), float(r) / float(spec.rings - 1)};
            v.uv1 = {v.uv0[1], v.uv0[0]};
            // The n nearest bones (by distance of the vertex height to the bone centre), with
            // decreasing raw weights (n - j) * scale / n.
            int n = std::min(1 + k % spec.max_influences, spec.bones);
            std::vector<int> order(spec.bones);
            for (int b = 0; b < spec.bones; ++b) order[b] = b;
            std::stable_sort(order.begin(), order.end(), [&](int p, int q) {
                return std::abs(y - (float(p) + 0.5f) * bone_length) < std::abs(y - (float(q) + 0.5f) * bone_length);
            });
            for (int j = 0; j < n; ++j)
                v.influences.emplace_back("Bone" + std::to_string(order[j]),
                                          float(n - j) * spec.weight_scale / float(n));
            if (spec.unmapped_bone && k % 5 == 0) v.influences.emplace_back("Extra", 0.1f);
            f.vertices.push_back(std::move(v));
        }
    }
    for (int r = 0; r + 1 < spec.rings; ++r)
        for (int s = 0; s < spec.segments; ++s) {
            unsigned a = unsigned(r * spec.segments + s), b = unsigned(r * spec.segments + (s + 1) % spec.segments);
            unsigned c = a + unsigned(spec.segments), d = b + unsigned(spec.segments);
            f.triangles.push_back({a, c, b});
            f.triangles.push_back({b, c, d});
        }
    return f;
}

void write_fixture(const Fixture& f, const FixtureSpec& spec, const std::filesystem::path& path,
                   const std::string& format) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("RootNode");
    scene->mNumMaterials = 1;
    scene->mMaterials = new aiMaterial*[1];
    scene->mMaterials[0] = new aiMaterial();
    aiString material_name("Skin");
    scene->mMaterials[0]->AddProperty(&material_name, AI_MATKEY_NAME);

    // Joint nodes: Armature -> Bone0 -> Bone1 ... (-> Idle), Extra under Bone0.
    Mat4 armature_transform = spec.blender_transform
                                  ? Mat4{100, 0, 0, 0, 0, 0, 100, 0, 0, -100, 0, 0, 0, 0, 0, 1}
                                  : mod::scene::identity_matrix;
    auto* armature = new aiNode("Armature");
    armature->mTransformation = to_ai(armature_transform);
    std::vector<std::pair<std::string, Mat4>> bone_globals;
    aiNode* parent = armature;
    Mat4 parent_global = armature_transform;
    auto mul = [](const Mat4& a, const Mat4& b) {
        Mat4 r{};
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
                for (int k = 0; k < 4; ++k) r[i * 4 + j] += a[i * 4 + k] * b[k * 4 + j];
        return r;
    };
    aiNode* bone0 = nullptr;
    Mat4 bone0_global{};
    for (int b = 0; b < spec.bones; ++b) {
        auto* node = new aiNode("Bone" + std::to_string(b));
        Mat4 local = translation(0, b == 0 ? 0.0f : bone_length, 0);
        node->mTransformation = to_ai(local);
        add_child(parent, node);
        parent_global = mul(parent_global, local);
        bone_globals.emplace_back(node->mName.C_Str(), parent_global);
        if (b == 0) {
            bone0 = node;
            bone0_global = parent_global;
        }
        parent = node;
    }
    if (spec.idle_bone) {
        auto* node = new aiNode("Idle");
        node->mTransformation = to_ai(translation(0, bone_length, 0));
        add_child(parent, node);
    }
    if (spec.unmapped_bone) {
        auto* node = new aiNode("Extra");
        Mat4 local = translation(0.5f, 0, 0);
        node->mTransformation = to_ai(local);
        add_child(bone0, node);
        bone_globals.emplace_back("Extra", mul(bone0_global, local));
    }
    add_child(scene->mRootNode, armature);
    auto* mesh_node = new aiNode("Body");
    mesh_node->mTransformation = to_ai(f.mesh_transform);
    mesh_node->mNumMeshes = 1;
    mesh_node->mMeshes = new unsigned[1]{0};
    add_child(scene->mRootNode, mesh_node);

    auto* mesh = new aiMesh();
    mesh->mName = aiString("Body");
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    std::size_t n = f.vertices.size();
    mesh->mNumVertices = unsigned(n);
    mesh->mVertices = new aiVector3D[n];
    mesh->mNormals = new aiVector3D[n];
    mesh->mTextureCoords[0] = new aiVector3D[n];
    mesh->mNumUVComponents[0] = 2;
    if (spec.second_uv) {
        mesh->mTextureCoords[1] = new aiVector3D[n];
        mesh->mNumUVComponents[1] = 2;
    }
    for (std::size_t v = 0; v < n; ++v) {
        const auto& p = f.vertices[v].position;
        mesh->mVertices[v] = aiVector3D(p[0], p[1], p[2]);
        mesh->mNormals[v] = aiVector3D(p[0] * 2, 0, p[2] * 2);
        mesh->mTextureCoords[0][v] = aiVector3D(f.vertices[v].uv0[0], f.vertices[v].uv0[1], 0);
        if (spec.second_uv) mesh->mTextureCoords[1][v] = aiVector3D(f.vertices[v].uv1[0], f.vertices[v].uv1[1], 0);
    }
    mesh->mNumFaces = unsigned(f.triangles.size());
    mesh->mFaces = new aiFace[f.triangles.size()];
    for (std::size_t t = 0; t < f.triangles.size(); ++t) {
        mesh->mFaces[t].mNumIndices = 3;
        mesh->mFaces[t].mIndices = new unsigned[3]{f.triangles[t][0], f.triangles[t][1], f.triangles[t][2]};
    }
    std::vector<aiBone*> bones;
    for (const auto& [name, global] : bone_globals) {
        std::vector<aiVertexWeight> weights;
        for (std::size_t v = 0; v < n; ++v)
            for (const auto& [b, w] : f.vertices[v].influences)
                if (b == name) weights.emplace_back(unsigned(v), w);
        if (weights.empty()) continue;
        auto* bone = new aiBone();
        bone->mName = aiString(name);
        // offset = inverse(bone global) * mesh global (mesh space -> bone space).
        aiMatrix4x4 offset = to_ai(global);
        offset.Inverse();
        bone->mOffsetMatrix = offset * to_ai(f.mesh_transform);
        bone->mNumWeights = unsigned(weights.size());
        bone->mWeights = new aiVertexWeight[weights.size()];
        std::copy(weights.begin(), weights.end(), bone->mWeights);
        bones.push_back(bone);
    }
    // aiMesh frees mBones only when mNumBones > 0: no array at all for a mesh without bones
    // (new aiBone*[0] leaked, which the sanitizer stage of build.sh test reports).
    mesh->mNumBones = unsigned(bones.size());
    if (!bones.empty()) {
        mesh->mBones = new aiBone*[bones.size()];
        std::copy(bones.begin(), bones.end(), mesh->mBones);
    }
    scene->mNumMeshes = 1;
    scene->mMeshes = new aiMesh*[1]{mesh};

    Assimp::Exporter exporter;
    BOOST_TEST_REQUIRE(exporter.Export(scene.get(), format.c_str(), path.string()) == AI_SUCCESS,
                       exporter.GetErrorString());
}

std::pair<std::size_t, float> nearest_vertex(const Fixture& f, const mod::scene::Vec3& p) {
    std::size_t best = 0;
    float best_d = INFINITY;
    for (std::size_t v = 0; v < f.vertices.size(); ++v) {
        auto q = mod::scene::transform_point(f.mesh_transform, f.vertices[v].position);
        float d = std::sqrt((q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1]) + (q[2] - p[2]) * (q[2] - p[2]));
        if (d < best_d) {
            best_d = d;
            best = v;
        }
    }
    return {best, best_d};
}

}  // namespace scenetest
