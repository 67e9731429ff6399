// Fixtures of placement_fixtures.hpp.
#include "placement_fixtures.hpp"

#include "fixtures.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/scene.h>

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <memory>
#include <sstream>

namespace placementtest {
namespace {

std::string base64(const std::vector<std::uint8_t>& data) {
    static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < data.size(); i += 3) {
        const unsigned v = unsigned(data[i]) << 16 | unsigned(data[i + 1]) << 8 | data[i + 2];
        for (int k = 3; k >= 0; --k) out += digits[(v >> (6 * k)) & 63];
    }
    if (i + 1 == data.size()) {
        const unsigned v = unsigned(data[i]) << 16;
        out += digits[(v >> 18) & 63];
        out += digits[(v >> 12) & 63];
        out += "==";
    } else if (i + 2 == data.size()) {
        const unsigned v = unsigned(data[i]) << 16 | unsigned(data[i + 1]) << 8;
        out += digits[(v >> 18) & 63];
        out += digits[(v >> 12) & 63];
        out += digits[(v >> 6) & 63];
        out += '=';
    }
    return out;
}

template <class T>
void append(std::vector<std::uint8_t>& out, const T& value) {
    std::uint8_t raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    out.insert(out.end(), raw, raw + sizeof(T));
}

void pad4(std::vector<std::uint8_t>& out) {
    while (out.size() % 4) out.push_back(0);
}

}  // namespace

std::array<float, 16> translation_column_major(float x, float y, float z) {
    return {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1};
}

std::string gltf_triangle(const GltfTriangle& t) {
    const std::size_t n = t.positions.size();
    std::vector<std::uint8_t> buffer;
    const std::size_t positions = buffer.size();
    for (const auto& p : t.positions)
        for (float c : p) append(buffer, c);
    const std::size_t normals = buffer.size();
    for (std::size_t v = 0; v < n; ++v) {
        append(buffer, 0.0f);
        append(buffer, 0.0f);
        append(buffer, 1.0f);
    }
    const std::size_t joints = buffer.size();
    for (const auto& j : t.joints)
        for (auto c : j) buffer.push_back(c);
    pad4(buffer);
    const std::size_t weights = buffer.size();
    for (const auto& w : t.weights)
        for (float c : w) append(buffer, c);
    const std::size_t indices = buffer.size();
    for (const auto& tri : t.triangles)
        for (auto i : tri) append(buffer, i);
    const std::size_t index_bytes = buffer.size() - indices;
    pad4(buffer);
    const std::size_t ibm = buffer.size();
    for (const auto& m : t.inverse_bind)
        for (float c : m) append(buffer, c);

    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (const auto& p : t.positions)
        for (int i = 0; i < 3; ++i) {
            lo[i] = std::min(lo[i], p[i]);
            hi[i] = std::max(hi[i], p[i]);
        }
    std::ostringstream j;
    j.precision(9);
    j << R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],)"
      << R"("nodes": [{"name": "Body", "mesh": 0, "skin": 0)" << (t.mesh_node.empty() ? "" : ", ") << t.mesh_node
      << R"(}, {"name": "Root", "translation": [0, 1, 0], "children": [2]}, {"name": "Tip")"
      << (t.tip_node.empty() ? "" : ", ") << t.tip_node << "}],"
      << R"("skins": [{"joints": [1, 2], "inverseBindMatrices": 5}],)"
      << R"("meshes": [{"name": "Body", "primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "JOINTS_0": 2, "WEIGHTS_0": 3}, "indices": 4}]}],)"
      << R"("buffers": [{"byteLength": )" << buffer.size() << R"(, "uri": "data:application/octet-stream;base64,)"
      << base64(buffer) << R"("}],)"
      << R"("bufferViews": [)"
      << R"({"buffer": 0, "byteOffset": )" << positions << R"(, "byteLength": )" << n * 12 << "},"
      << R"({"buffer": 0, "byteOffset": )" << normals << R"(, "byteLength": )" << n * 12 << "},"
      << R"({"buffer": 0, "byteOffset": )" << joints << R"(, "byteLength": )" << n * 4 << "},"
      << R"({"buffer": 0, "byteOffset": )" << weights << R"(, "byteLength": )" << n * 16 << "},"
      << R"({"buffer": 0, "byteOffset": )" << indices << R"(, "byteLength": )" << index_bytes << "},"
      << R"({"buffer": 0, "byteOffset": )" << ibm << R"(, "byteLength": 128}],)"
      << R"("accessors": [)"
      << R"({"bufferView": 0, "componentType": 5126, "count": )" << n << R"(, "type": "VEC3", "min": [)" << lo[0]
      << ", " << lo[1] << ", " << lo[2] << "], \"max\": [" << hi[0] << ", " << hi[1] << ", " << hi[2] << "]},"
      << R"({"bufferView": 1, "componentType": 5126, "count": )" << n << R"(, "type": "VEC3"},)"
      << R"({"bufferView": 2, "componentType": 5121, "count": )" << n << R"(, "type": "VEC4"},)"
      << R"({"bufferView": 3, "componentType": 5126, "count": )" << n << R"(, "type": "VEC4"},)"
      << R"({"bufferView": 4, "componentType": 5123, "count": )" << t.triangles.size() * 3 << R"(, "type": "SCALAR"},)"
      << R"({"bufferView": 5, "componentType": 5126, "count": 2, "type": "MAT4"}]})";
    return j.str();
}

void write_two_bone_triangle(const std::filesystem::path& path, const std::string& format) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("RootNode");
    scene->mNumMaterials = 1;
    scene->mMaterials = new aiMaterial*[1]{new aiMaterial()};
    aiString material_name("Skin");
    scene->mMaterials[0]->AddProperty(&material_name, AI_MATKEY_NAME);
    auto* armature = new aiNode("Armature");
    scenetest::add_child(scene->mRootNode, armature);
    auto* bone0 = new aiNode("Bone0");
    bone0->mTransformation = aiMatrix4x4(1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1);
    scenetest::add_child(armature, bone0);
    auto* bone1 = new aiNode("Bone1");
    bone1->mTransformation = aiMatrix4x4(1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1);
    scenetest::add_child(bone0, bone1);
    auto* body = new aiNode("Body");
    body->mTransformation = aiMatrix4x4(0, -2, 0, 5, 2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1);
    body->mNumMeshes = 1;
    body->mMeshes = new unsigned[1]{0};
    scenetest::add_child(scene->mRootNode, body);

    auto* mesh = new aiMesh();
    mesh->mName = aiString("Body");
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = 3;
    mesh->mVertices = new aiVector3D[3]{{1, 0, 0}, {0, 2, 0}, {1, 2, 0}};
    mesh->mNormals = new aiVector3D[3]{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    mesh->mNumFaces = 1;
    mesh->mFaces = new aiFace[1];
    mesh->mFaces[0].mNumIndices = 3;
    mesh->mFaces[0].mIndices = new unsigned[3]{0, 1, 2};
    mesh->mNumBones = 2;
    mesh->mBones = new aiBone*[2];
    for (unsigned b = 0; b < 2; ++b) {
        auto* bone = new aiBone();
        bone->mName = aiString(b == 0 ? "Bone0" : "Bone1");
        // inverse(bone global): bone b's global is T(0, b + 1, 0).
        bone->mOffsetMatrix = aiMatrix4x4(1, 0, 0, 0, 0, 1, 0, -float(b + 1), 0, 0, 1, 0, 0, 0, 0, 1);
        bone->mNumWeights = 2;
        bone->mWeights = new aiVertexWeight[2]{aiVertexWeight(b, 1.0f), aiVertexWeight(2, 0.5f)};
        mesh->mBones[b] = bone;
    }
    scene->mNumMeshes = 1;
    scene->mMeshes = new aiMesh*[1]{mesh};
    Assimp::Exporter exporter;
    BOOST_TEST_REQUIRE(exporter.Export(scene.get(), format.c_str(), path.string()) == AI_SUCCESS,
                       exporter.GetErrorString());
}

}  // namespace placementtest
