// Export through Assimp's glTF 2.0 and ASCII FBX writers (contract: export.hpp).
#include "libmod/scene/export.hpp"

#include "libmod/core/error.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"
#include "libmod/scene/validate.hpp"
#include "libmod/scene/vec3.hpp"
#include "libmod/scene/weights.hpp"
#include "scene/assimp_util.hpp"
#include "scene/gltf_writer.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string_view>

namespace mod::scene {
namespace {

namespace fs = std::filesystem;

aiString ai_string(const std::string& s) { return aiString(s); }

aiNode* new_node(const std::string& name, const Mat4& transform) {
    auto* node = new aiNode(name);
    node->mTransformation = to_ai(transform);
    return node;
}

void attach_children(aiNode* parent, std::vector<aiNode*> children) {
    if (children.empty()) return;
    parent->mNumChildren = static_cast<unsigned>(children.size());
    parent->mChildren = new aiNode*[children.size()];
    for (std::size_t i = 0; i < children.size(); ++i) {
        children[i]->mParent = parent;
        parent->mChildren[i] = children[i];
    }
}

// The mesh's processed weights (computed on the fly when the caller has not processed them).
std::vector<SkinWeights> skin_of(const Mesh& mesh) {
    if (!mesh.skin.empty() || mesh.influences.empty()) return mesh.skin;
    Mesh copy;
    copy.name = mesh.name;
    copy.positions = mesh.positions;
    copy.influences = mesh.influences;
    WeightOptions options;
    options.allow_unweighted = true;
    process_weights(copy, options);
    return copy.skin;
}

aiMesh* build_mesh(const Mesh& mesh, const Skeleton& skeleton) {
    auto ai = std::make_unique<aiMesh>();
    std::size_t n = mesh.vertex_count();
    ai->mName = ai_string(mesh.name);
    ai->mMaterialIndex = mesh.material;
    ai->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    ai->mNumVertices = static_cast<unsigned>(n);
    ai->mVertices = new aiVector3D[n];
    ai->mNormals = new aiVector3D[n];
    ai->mTangents = new aiVector3D[n];
    ai->mBitangents = new aiVector3D[n];
    for (int c = 0; c < 2; ++c) {
        ai->mTextureCoords[c] = new aiVector3D[n];
        ai->mNumUVComponents[c] = 2;
    }
    for (std::size_t v = 0; v < n; ++v) {
        const auto& p = mesh.positions[v];
        const auto& nm = mesh.normals[v];
        const auto& t = mesh.tangents[v];
        ai->mVertices[v] = aiVector3D(p[0], p[1], p[2]);
        ai->mNormals[v] = aiVector3D(nm[0], nm[1], nm[2]);
        ai->mTangents[v] = aiVector3D(t[0], t[1], t[2]);
        Vec3 b = cross(nm, {t[0], t[1], t[2]});
        ai->mBitangents[v] = aiVector3D(b[0] * t[3], b[1] * t[3], b[2] * t[3]);
        ai->mTextureCoords[0][v] = aiVector3D(mesh.uv0[v][0], mesh.uv0[v][1], 0);
        ai->mTextureCoords[1][v] = aiVector3D(mesh.uv1[v][0], mesh.uv1[v][1], 0);
    }
    if (!mesh.colours.empty()) {
        ai->mColors[0] = new aiColor4D[n];
        for (std::size_t v = 0; v < n; ++v)
            ai->mColors[0][v] = aiColor4D(mesh.colours[v][0], mesh.colours[v][1], mesh.colours[v][2], mesh.colours[v][3]);
    }
    ai->mNumFaces = static_cast<unsigned>(mesh.triangles.size());
    ai->mFaces = new aiFace[mesh.triangles.size()];
    for (std::size_t f = 0; f < mesh.triangles.size(); ++f) {
        ai->mFaces[f].mNumIndices = 3;
        ai->mFaces[f].mIndices = new unsigned[3]{mesh.triangles[f][0], mesh.triangles[f][1], mesh.triangles[f][2]};
    }
    auto skin = skin_of(mesh);
    if (!skeleton.bones.empty() && !skin.empty()) {
        std::vector<std::vector<aiVertexWeight>> per_bone(skeleton.bones.size());
        for (std::size_t v = 0; v < n; ++v)
            for (std::size_t k = 0; k < skin[v].count; ++k)
                per_bone[skin[v].bones[k]].push_back(
                    aiVertexWeight(static_cast<unsigned>(v), static_cast<float>(skin[v].weights[k]) / 255.0f));
        // Every joint of the skeleton is a bone of the mesh (even without weights), so the
        // whole skeleton survives the round trip.
        ai->mNumBones = static_cast<unsigned>(skeleton.bones.size());
        ai->mBones = new aiBone*[skeleton.bones.size()];
        for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
            auto* bone = new aiBone();
            bone->mName = ai_string(skeleton.bones[b].name);
            bone->mOffsetMatrix = to_ai(skeleton.bones[b].inverse_bind);
            bone->mNumWeights = static_cast<unsigned>(per_bone[b].size());
            if (!per_bone[b].empty()) {
                bone->mWeights = new aiVertexWeight[per_bone[b].size()];
                std::copy(per_bone[b].begin(), per_bone[b].end(), bone->mWeights);
            }
            ai->mBones[b] = bone;
        }
    }
    return ai.release();
}

std::unique_ptr<aiScene> build_scene(const Scene& scene) {
    auto ai = std::make_unique<aiScene>();
    ai->mRootNode = new aiNode("RootNode");
    std::size_t material_count = std::max<std::size_t>(1, scene.materials.size());
    ai->mNumMaterials = static_cast<unsigned>(material_count);
    ai->mMaterials = new aiMaterial*[material_count];
    for (std::size_t m = 0; m < material_count; ++m) {
        ai->mMaterials[m] = new aiMaterial();
        aiString name = ai_string(m < scene.materials.size() ? scene.materials[m] : "default");
        ai->mMaterials[m]->AddProperty(&name, AI_MATKEY_NAME);
    }
    ai->mNumMeshes = static_cast<unsigned>(scene.meshes.size());
    ai->mMeshes = new aiMesh*[scene.meshes.size()];
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) ai->mMeshes[m] = build_mesh(scene.meshes[m], scene.skeleton);

    const auto& bones = scene.skeleton.bones;
    std::vector<aiNode*> bone_nodes;
    std::vector<std::vector<aiNode*>> children(bones.size());
    std::vector<aiNode*> top;
    for (const auto& b : bones) bone_nodes.push_back(new_node(b.name, b.local));
    for (std::size_t b = 0; b < bones.size(); ++b) {
        if (bones[b].parent < 0) top.push_back(bone_nodes[b]);
        else children[bones[b].parent].push_back(bone_nodes[b]);
    }
    for (std::size_t b = 0; b < bones.size(); ++b) attach_children(bone_nodes[b], children[b]);
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
        aiNode* node = new_node(scene.meshes[m].name.empty() ? "mesh" + std::to_string(m) : scene.meshes[m].name,
                                identity_matrix);
        node->mNumMeshes = 1;
        node->mMeshes = new unsigned[1]{static_cast<unsigned>(m)};
        top.push_back(node);
    }
    attach_children(ai->mRootNode, top);
    return ai;
}

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The optional records the writers trust: colours one per vertex, material_info within the
// materials, texture pixels matching their size.
void check_extras(const Scene& scene, const fs::path& path) {
    for (const auto& mesh : scene.meshes)
        if (!mesh.colours.empty() && mesh.colours.size() != mesh.vertex_count())
            throw Error(ErrorKind::format,
                        "mesh '" + mesh.name + "' has " + std::to_string(mesh.colours.size()) + " vertex colours for " +
                            std::to_string(mesh.vertex_count()) + " vertices",
                        path.string());
    if (scene.material_info.size() > scene.materials.size())
        throw Error(ErrorKind::format,
                    std::to_string(scene.material_info.size()) + " material records for " +
                        std::to_string(scene.materials.size()) + " materials",
                    path.string());
    for (std::size_t i = 0; i < scene.material_info.size(); ++i) {
        const auto& tex = scene.material_info[i].texture;
        if (tex && (tex->width == 0 || tex->height == 0 ||
                    tex->rgba.size() != 4 * std::uint64_t(tex->width) * tex->height))
            throw Error(ErrorKind::format,
                        "material '" + scene.materials[i] + "': texture " + std::to_string(tex->width) + "x" +
                            std::to_string(tex->height) + " with " + std::to_string(tex->rgba.size()) + " pixel bytes",
                        path.string());
    }
}

}  // namespace

ExportFormat export_format_for(const fs::path& path) {
    std::string ext = lower(path.extension().string());
    if (ext == ".glb") return ExportFormat::glb;
    if (ext == ".gltf") return ExportFormat::gltf;
    if (ext == ".fbx") return ExportFormat::fbx;
    throw Error(ErrorKind::usage, "cannot export to '" + ext + "': use .glb, .gltf or .fbx", path.string());
}

namespace {

// Assimp's FBX writer stamps the wall-clock time into FBXHeaderExtension.CreationTimeStamp;
// our output must not depend on when it was made. The stamp's fields are set to the fixed date
// below (the fields kept, in Assimp's layout); a file without the block is left as it is.
Bytes with_fixed_creation_time(Bytes fbx) {
    static constexpr std::string_view block = "CreationTimeStamp:  {\n";
    static constexpr std::string_view fixed = "\t\tVersion: 1000\n\t\tYear: 2000\n\t\tMonth: 1\n\t\tDay: 1\n"
                                              "\t\tHour: 0\n\t\tMinute: 0\n\t\tSecond: 0\n\t\tMillisecond: 0\n";
    const std::string_view text(reinterpret_cast<const char*>(fbx.data()), std::min<std::size_t>(fbx.size(), 4096));
    const std::size_t at = text.find(block);
    if (at == std::string_view::npos) return fbx;
    const std::size_t fields = at + block.size();
    const std::size_t end = text.find('}', fields);
    if (end == std::string_view::npos) return fbx;
    const std::size_t line = text.rfind('\n', end);  // the closing brace's own line stays
    if (line == std::string_view::npos || line < fields) return fbx;
    Bytes out(fbx.begin(), fbx.begin() + static_cast<std::ptrdiff_t>(fields));
    out.insert(out.end(), fixed.begin(), fixed.end());
    out.insert(out.end(), fbx.begin() + static_cast<std::ptrdiff_t>(line + 1), fbx.end());
    return out;
}

// Assimp's FBX writer declares UnitScaleFactor 1 (centimetres) whatever the numbers are; ours
// are metres, as glTF's (and what the importer's default --units metres expects, issue 29), so
// GlobalSettings' UnitScaleFactor and OriginalUnitScaleFactor are set to 100 (cm per unit).
// Blender and Assimp then read the file at its true size. A file without them is left as it is.
Bytes with_metre_units(Bytes fbx) {
    const std::size_t window = std::min<std::size_t>(fbx.size(), 64 * 1024);
    for (std::string_view key : {std::string_view("\"UnitScaleFactor\""), std::string_view("\"OriginalUnitScaleFactor\"")}) {
        const std::string_view text(reinterpret_cast<const char*>(fbx.data()), window);
        const std::size_t at = text.find(key);
        if (at == std::string_view::npos) continue;
        const std::size_t eol = text.find('\n', at);
        const std::size_t comma = text.rfind(',', eol);
        if (eol == std::string_view::npos || comma == std::string_view::npos || comma < at) continue;
        static constexpr std::string_view hundred = "100";
        Bytes out(fbx.begin(), fbx.begin() + static_cast<std::ptrdiff_t>(comma + 1));
        out.insert(out.end(), hundred.begin(), hundred.end());
        const std::size_t value_end = text.find_last_not_of("\r", eol - 1) + 1;
        out.insert(out.end(), fbx.begin() + static_cast<std::ptrdiff_t>(value_end), fbx.end());
        fbx = std::move(out);
    }
    return fbx;
}

// Assimp 5.2.5's ASCII FBX writer has no escape for a '"' inside a quoted name: it refuses the
// whole scene with an empty message. Named here first, with the structure that holds it.
void check_fbx_names(const Scene& scene, const fs::path& path) {
    auto check = [&](const std::string& name, const std::string& where, const char* what) {
        if (name.find('"') == std::string::npos) return;
        throw Error(ErrorKind::format,
                    std::string(what) + " '" + name + "' holds a '\"', which ASCII FBX cannot store; rename it "
                    "or export to .glb / .gltf",
                    path.string(), no_offset, where);
    };
    for (std::size_t b = 0; b < scene.skeleton.bones.size(); ++b)
        check(scene.skeleton.bones[b].name, index_path("skeleton.bones", b) + ".name", "bone");
    for (std::size_t m = 0; m < scene.meshes.size(); ++m)
        check(scene.meshes[m].name, index_path("meshes", m) + ".name", "mesh");
    for (std::size_t m = 0; m < scene.materials.size(); ++m)
        check(scene.materials[m], index_path("materials", m), "material");
}

// The checks every format shares; `path` names the output in errors.
void check_exportable(const Scene& scene, const fs::path& path) {
    if (scene.meshes.empty()) throw Error(ErrorKind::format, "nothing to export: the scene has no mesh", path.string());
    MeshCheckOptions check;
    check.bone_count = scene.skeleton.bones.size();
    check.allow_nan_normals = true;
    for (const auto& mesh : scene.meshes) check_mesh(mesh, "mesh '" + mesh.name + "'", check);
    check_extras(scene, path);
    {
        // Parents in range and acyclic, so every bone node hangs under the root.
        Skeleton probe = scene.skeleton;
        try {
            derive_bone_matrices(probe);
        } catch (Error& e) {
            e.set_file_if_empty(path.string());
            throw;
        }
    }
}

// glTF's own limit, and the weights each mesh is written with.
std::vector<std::vector<SkinWeights>> gltf_skins(const Scene& scene, const fs::path& path) {
    // JOINTS_0 holds 16-bit indices (glTF allows no wider type): a larger skeleton would
    // have its joints wrap silently.
    if (scene.skeleton.bones.size() > 65536)
        throw Error(ErrorKind::limit,
                    "glTF joint indices are 16-bit: a skeleton of " + std::to_string(scene.skeleton.bones.size()) +
                        " bones exceeds 65,536 (export to .fbx)",
                    path.string(), no_offset, "skeleton.bones");
    std::vector<std::vector<SkinWeights>> skins;
    for (const auto& mesh : scene.meshes) skins.push_back(skin_of(mesh));
    return skins;
}

}  // namespace

Bytes export_glb(const Scene& scene, const std::string& name) {
    check_exportable(scene, name);
    return pack_glb(write_gltf(scene, gltf_skins(scene, name), {}));
}

void export_file(const Scene& scene, const fs::path& path, std::span<const fs::path> inputs) {
    ExportFormat format = export_format_for(path);
    ensure_distinct_output(path, inputs);
    check_exportable(scene, path);
    if (format != ExportFormat::fbx) {
        // Our own writer: Assimp's glTF exporter drops tangents and joins vertices ignoring weights.
        if (format == ExportFormat::glb) {
            write_file_atomic(path, export_glb(scene, path.string()), inputs);
        } else {
            const auto skins = gltf_skins(scene, path);
            fs::path bin = path;
            bin.replace_extension(".bin");
            ensure_distinct_output(bin, inputs);
            GltfOutput out = write_gltf(scene, skins, bin.filename().string());
            write_file_atomic(bin, out.bin, inputs);
            write_file_atomic(path, std::string_view(out.json), inputs);
        }
        return;
    }
    check_fbx_names(scene, path);
    auto ai = build_scene(scene);
    ScratchFolder scratch("modkit-export-");  // Assimp writes here before the atomic copy
    fs::path temp = scratch.path() / path.filename();
    Assimp::Exporter exporter;
    if (exporter.Export(ai.get(), "fbxa", temp.string()) != AI_SUCCESS) {
        const std::string reason = exporter.GetErrorString();
        throw Error(ErrorKind::format,
                    "Assimp cannot export the scene: " + (reason.empty() ? std::string("(Assimp gives no reason)") : reason),
                    path.string());
    }
    write_file_atomic(path, with_metre_units(with_fixed_creation_time(read_file(temp))), inputs);
}

}  // namespace mod::scene
