// Assimp import into the neutral skinned scene (contract: libmod/scene/import.hpp; rationale and
// Assimp 5.2.5 traps: doc/formats/scene-import.md).
#include "libmod/scene/import.hpp"
#include "libmod/scene/vec3.hpp"

#include "libmod/core/error.hpp"
#include "libmod/core/file.hpp"
#include "scene/assimp_util.hpp"
#include "scene/contained.hpp"
#include "scene/gltf_reader.hpp"
#include "scene/tangents.hpp"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>

namespace mod::scene {

// import_materials.cpp
std::vector<MaterialInfo> read_material_info(const aiScene& scene, std::string_view name, std::size_t materials,
                                            std::vector<std::string>& warnings);
namespace {

namespace fs = std::filesystem;

// Never LimitBoneWeights (deletes bones, renormalises only trimmed vertices), never
// JoinIdenticalVertices (ignores weights), never GlobalScale (we convert units explicitly).
constexpr unsigned import_flags = aiProcess_Triangulate | aiProcess_ValidateDataStructure |
                                  aiProcess_SortByPType | aiProcess_GenSmoothNormals;

void configure(Assimp::Importer& importer) {
    // Pivots would otherwise become "<name>_$AssimpFbx$_..." helper nodes between bones.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_ANIMATIONS, false);
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_CAMERAS, false);
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_LIGHTS, false);
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
}

std::string lower_extension(std::string_view name) {
    std::string ext = fs::path(std::string(name)).extension().string();
    if (!ext.empty() && ext[0] == '.') ext.erase(0, 1);
    for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

bool all_finite(const Vec3& v) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

inline Vec3 normalized(const Vec3& v) {
    double l = std::sqrt(double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2]);
    if (!(l > 0) || !std::isfinite(l)) return v;
    return {static_cast<float>(v[0] / l), static_cast<float>(v[1] / l), static_cast<float>(v[2] / l)};
}

// The 3x4 part of a Mat4, widened to double once per mesh. point() and direction() do exactly
// the double operations of transform_point / transform_direction (model.hpp) in the same order,
// so their results are the same bits: rows 0 and 1 run as the two lanes of SSE2 vectors (each
// lane computes its own row's sum, IEEE operation by operation), row 2 as a scalar.
using Double2 = double __attribute__((vector_size(16)));
using Float2 = float __attribute__((vector_size(8)));

struct WideAffine {
    std::array<Double2, 4> rows01;  // column c of rows 0 and 1: {m[c], m[4 + c]}
    std::array<double, 4> row2;

    explicit WideAffine(const Mat4& f) {
        for (int c = 0; c < 4; ++c) {
            rows01[c] = Double2{f[c], f[4 + c]};
            row2[c] = f[8 + c];
        }
    }
    Vec3 point(const Vec3& p) const {
        const Double2 r = rows01[0] * double(p[0]) + rows01[1] * double(p[1]) + rows01[2] * double(p[2]) + rows01[3];
        const Float2 xy = __builtin_convertvector(r, Float2);
        return {xy[0], xy[1], static_cast<float>(row2[0] * p[0] + row2[1] * p[1] + row2[2] * p[2] + row2[3])};
    }
    Vec3 direction(const Vec3& d) const {
        const Double2 r = rows01[0] * double(d[0]) + rows01[1] * double(d[1]) + rows01[2] * double(d[2]);
        const Float2 xy = __builtin_convertvector(r, Float2);
        return {xy[0], xy[1], static_cast<float>(row2[0] * d[0] + row2[1] * d[1] + row2[2] * d[2])};
    }
};

bool same_bits(const aiVector3D& a, const aiVector3D& b) { return std::memcmp(&a, &b, sizeof(aiVector3D)) == 0; }

// Inverse transpose of the 3x3 part (as a Mat4 with zero translation), for normals.
Mat4 normal_matrix(const Mat4& m) {
    Mat4 linear = m;
    linear[3] = linear[7] = linear[11] = 0;
    Mat4 inv = inverse(linear, "mesh transform");
    Mat4 t{};
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) t[r * 4 + c] = inv[c * 4 + r];
    return t;
}

double determinant3(const Mat4& m) {
    return double(m[0]) * (double(m[5]) * m[10] - double(m[6]) * m[9]) -
           double(m[1]) * (double(m[4]) * m[10] - double(m[6]) * m[8]) +
           double(m[2]) * (double(m[4]) * m[9] - double(m[5]) * m[8]);
}

float max_abs_difference(const Mat4& a, const Mat4& b) {
    float d = 0;
    for (int i = 0; i < 16; ++i) d = std::max(d, std::abs(a[i] - b[i]));
    return d;
}

// Two placement matrices that move no vertex by more than float noise: every entry within
// 1e-5 of the larger magnitude (at least 1). Non-finite matrices are never close.
bool close_matrices(const Mat4& a, const Mat4& b) {
    float magnitude = 1;
    for (int i = 0; i < 16; ++i) {
        if (!std::isfinite(a[i]) || !std::isfinite(b[i])) return false;
        magnitude = std::max({magnitude, std::abs(a[i]), std::abs(b[i])});
    }
    return max_abs_difference(a, b) <= 1e-5f * magnitude;
}

// Where a mesh instance's vertices go. A skinned mesh is placed where its skin puts it at its
// bind pose: per bone, global(bone node) * offset maps the mesh's vertices to the scene, and at
// the bind pose every bone gives the same matrix B, so vertex' = sum of weight * B * vertex =
// B * vertex. This is what glTF viewers do (the spec ignores a skinned mesh node's transform),
// what COLLADA readers do with a skin controller's node, and where Blender shows the mesh at
// rest. Bones posed away from the bind pose disagree: B is the matrix the most weight agrees
// on, and the mesh node's own transform wins ties, so a file saved in bind pose with a
// consistent node (every file modkit writes) keeps today's placement and, when the node is the
// identity, the exact bits.
struct Placement {
    Mat4 matrix = identity_matrix;  // B (or the node's global transform for a rigid mesh)
    bool by_skin = false;           // B is not the node's global transform
};

// The node tree, flattened in depth-first pre-order (parents before children).
struct FlatNode {
    const aiNode* node;
    std::int32_t parent;
    Mat4 global;
};

// Refuses what Assimp never produces but a hand-built or damaged scene may hold: a null child,
// a node reached twice (a cycle or a shared subtree) and out-of-range mesh references.
std::vector<FlatNode> flatten(const aiScene& ai) {
    std::vector<FlatNode> out;
    std::unordered_set<const aiNode*> seen;
    std::vector<std::pair<const aiNode*, std::int32_t>> stack{{ai.mRootNode, -1}};
    while (!stack.empty()) {
        auto [node, parent] = stack.back();
        stack.pop_back();
        if (!node) throw Error(ErrorKind::format, "the scene's node tree holds a null node");
        if (!seen.insert(node).second)
            throw Error(ErrorKind::format, std::string("node '") + node->mName.C_Str() +
                                               "' appears twice in the scene's node tree (a cycle or a shared subtree)");
        if (node->mNumMeshes > 0 && !node->mMeshes)
            throw Error(ErrorKind::format, std::string("node '") + node->mName.C_Str() + "' lists meshes without an array");
        for (unsigned k = 0; k < node->mNumMeshes; ++k)
            if (node->mMeshes[k] >= ai.mNumMeshes)
                throw Error(ErrorKind::format, std::string("node '") + node->mName.C_Str() + "' names mesh " +
                                                   std::to_string(node->mMeshes[k]) + " of " +
                                                   std::to_string(ai.mNumMeshes));
        if (node->mNumChildren > 0 && !node->mChildren)
            throw Error(ErrorKind::format, std::string("node '") + node->mName.C_Str() + "' lists children without an array");
        Mat4 local = to_mat4(node->mTransformation);
        Mat4 global = parent < 0 ? local : multiply(out[parent].global, local);
        auto index = static_cast<std::int32_t>(out.size());
        out.push_back({node, parent, global});
        for (unsigned c = node->mNumChildren; c-- > 0;) stack.push_back({node->mChildren[c], index});
    }
    return out;
}

// Every mesh, face and bone array the conversion reads, checked once before it reads them.
void check_meshes(const aiScene& ai) {
    if (ai.mNumMeshes > 0 && !ai.mMeshes) throw Error(ErrorKind::format, "the scene lists meshes without an array");
    for (unsigned m = 0; m < ai.mNumMeshes; ++m) {
        const aiMesh* mesh = ai.mMeshes[m];
        if (!mesh) throw Error(ErrorKind::format, "mesh " + std::to_string(m) + " is null");
        std::string name = "mesh '" + std::string(mesh->mName.C_Str()) + "'";
        auto bad = [&](const std::string& what) { return Error(ErrorKind::format, name + " " + what); };
        if (mesh->mNumVertices > 0 && !mesh->mVertices) throw bad("has vertices without positions");
        if (mesh->mNumFaces > 0 && !mesh->mFaces) throw bad("has faces without a face array");
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            const aiFace& face = mesh->mFaces[f];
            if (face.mNumIndices > 0 && !face.mIndices) throw bad("face " + std::to_string(f) + " has no index array");
            for (unsigned i = 0; i < face.mNumIndices; ++i)
                if (face.mIndices[i] >= mesh->mNumVertices)
                    throw bad("face " + std::to_string(f) + " names vertex " + std::to_string(face.mIndices[i]) + " of " +
                         std::to_string(mesh->mNumVertices));
        }
        if (mesh->mNumBones > 0 && !mesh->mBones) throw bad("has bones without a bone array");
        for (unsigned b = 0; b < mesh->mNumBones; ++b) {
            const aiBone* bone = mesh->mBones[b];
            if (!bone) throw bad("bone " + std::to_string(b) + " is null");
            if (bone->mNumWeights > 0 && !bone->mWeights)
                throw bad("bone '" + std::string(bone->mName.C_Str()) + "' has weights without a weight array");
        }
    }
}

// A metadata value of exactly type T (aiMetadata::Get would dereference a null value).
template <class T>
std::optional<T> metadata_value(const aiMetadata& meta, const char* key, aiMetadataType type) {
    if (!meta.mKeys || !meta.mValues) return std::nullopt;
    for (unsigned i = 0; i < meta.mNumProperties; ++i)
        if (std::strcmp(meta.mKeys[i].C_Str(), key) == 0) {
            if (meta.mValues[i].mType != type || !meta.mValues[i].mData) return std::nullopt;
            T value;
            std::memcpy(&value, meta.mValues[i].mData, sizeof value);
            return value;
        }
    return std::nullopt;
}

class Builder {
public:
    Builder(const aiScene& ai, std::string source, const ImportOptions& options)
        : ai_(ai), options_(options) {
        scene_.source = std::move(source);
        scene_.format = lower_extension(scene_.source);
        if (!ai.mRootNode) fail("the scene has no root node");
        nodes_ = flatten(ai);
        check_meshes(ai);
    }

    Scene build() {
        read_metadata();
        read_materials();
        find_bone_nodes();
        find_placements();
        build_skeleton();
        conversion_ = conversion_matrix();
        convert_skeleton();
        build_meshes();
        if (scene_.meshes.empty()) fail("the file holds no triangle mesh");
        return std::move(scene_);
    }

private:
    [[noreturn]] void fail(const std::string& message) const {
        throw Error(ErrorKind::format, message, scene_.source);
    }

    void read_metadata() {
        const aiMetadata* meta = ai_.mMetaData;
        if (scene_.format == "gltf" || scene_.format == "glb") {
            // glTF 2.0 fixes metres and +Y up.
            scene_.file_unit_metres = 1.0;
            scene_.file_up_axis = std::pair{1, 1};
        } else if (scene_.format == "dae") {
            // Assimp's Collada importer applies <unit> to the root node itself.
            scene_.file_unit_metres = 1.0;
        }
        if (!meta) return;
        // FBX stores UnitScaleFactor (centimetres per unit) as a float in Assimp 5.2.5.
        auto f = metadata_value<float>(*meta, "UnitScaleFactor", AI_FLOAT);
        auto d = metadata_value<double>(*meta, "UnitScaleFactor", AI_DOUBLE);
        if (f && *f > 0 && std::isfinite(*f)) scene_.file_unit_metres = double(*f) / 100.0;
        else if (d && *d > 0 && std::isfinite(*d)) scene_.file_unit_metres = *d / 100.0;
        auto up = metadata_value<std::int32_t>(*meta, "UpAxis", AI_INT32);
        auto up_sign = metadata_value<std::int32_t>(*meta, "UpAxisSign", AI_INT32);
        if (up && up_sign && *up >= 0 && *up <= 2) scene_.file_up_axis = std::pair{int(*up), *up_sign < 0 ? -1 : 1};
    }

    void read_materials() {
        if (!ai_.mMaterials) return;
        for (unsigned i = 0; i < ai_.mNumMaterials; ++i) {
            aiString name;
            if (!ai_.mMaterials[i] || ai_.mMaterials[i]->Get(AI_MATKEY_NAME, name) != AI_SUCCESS) name = aiString("material" + std::to_string(i));
            scene_.materials.emplace_back(name.C_Str());
        }
    }

    // Bone names used by any mesh, each resolved to one node (a node without meshes first).
    void find_bone_nodes() {
        std::unordered_map<std::string, std::int32_t> first_node;
        for (std::size_t i = 0; i < nodes_.size(); ++i) {
            std::string n = nodes_[i].node->mName.C_Str();
            auto it = first_node.find(n);
            if (it == first_node.end() || (nodes_[it->second].node->mNumMeshes > 0 && nodes_[i].node->mNumMeshes == 0))
                first_node[n] = static_cast<std::int32_t>(i);
        }
        is_bone_node_.assign(nodes_.size(), false);
        for (unsigned m = 0; m < ai_.mNumMeshes; ++m) {
            const aiMesh* mesh = ai_.mMeshes[m];
            for (unsigned b = 0; b < mesh->mNumBones; ++b) {
                std::string n = mesh->mBones[b]->mName.C_Str();
                auto it = first_node.find(n);
                if (it == first_node.end())
                    fail("bone '" + n + "' of mesh '" + mesh->mName.C_Str() + "' has no node in the scene tree");
                bone_node_of_name_[n] = it->second;
                is_bone_node_[it->second] = true;
            }
        }
    }

    bool has_bones() const { return !bone_node_of_name_.empty(); }

    // One Placement per mesh instance (node n, its k-th mesh), in node pre-order; the bind
    // matrices and the mesh conversion walk the instances in the same order.
    void find_placements() {
        for (std::size_t n = 0; n < nodes_.size(); ++n) {
            const aiNode* node = nodes_[n].node;
            for (unsigned k = 0; k < node->mNumMeshes; ++k)
                placements_.push_back(placement_of(*ai_.mMeshes[node->mMeshes[k]], node, nodes_[n].global));
        }
    }

    Placement placement_of(const aiMesh& mesh, const aiNode* node, const Mat4& node_global) {
        Placement p;
        p.matrix = node_global;
        if (mesh.mNumBones == 0) return p;
        // A non-finite node transform is refused even where the skin overrides it.
        if (!std::all_of(node_global.begin(), node_global.end(), [](float v) { return std::isfinite(v); }))
            inverse(node_global, std::string("transform of node '") + node->mName.C_Str() + "'");
        // Per bone: its skin matrix and the weight it carries (positive finite weights).
        std::vector<Mat4> skin(mesh.mNumBones);
        std::vector<double> weight(mesh.mNumBones, 0.0);
        for (unsigned b = 0; b < mesh.mNumBones; ++b) {
            const aiBone& bone = *mesh.mBones[b];
            skin[b] = multiply(nodes_[bone_node_of_name_.at(bone.mName.C_Str())].global, to_mat4(bone.mOffsetMatrix));
            for (const aiVertexWeight& w : weights_of(bone))
                if (w.mWeight > 0 && std::isfinite(w.mWeight)) weight[b] += w.mWeight;
        }
        auto agreement = [&](const Mat4& candidate) {
            double sum = 0;
            for (unsigned b = 0; b < mesh.mNumBones; ++b)
                if (close_matrices(skin[b], candidate)) sum += weight[b];
            return sum;
        };
        double best = agreement(node_global);
        std::optional<unsigned> best_bone;
        for (unsigned b = 0; b < mesh.mNumBones; ++b) {
            if (weight[b] <= 0 || close_matrices(skin[b], node_global)) continue;
            const double a = agreement(skin[b]);
            if (a > best) {
                best = a;
                best_bone = b;
            }
        }
        if (!best_bone) return p;
        p.by_skin = true;
        p.matrix = close_matrices(skin[*best_bone], identity_matrix) ? identity_matrix : skin[*best_bone];
        const char* name = mesh.mName.length ? mesh.mName.C_Str() : node->mName.C_Str();
        scene_.warnings.push_back(std::string("mesh '") + name +
                                  "' is placed where its skin puts it (its bones' transforms times their offset "
                                  "matrices), not by the transform of its node, which differs (glTF and COLLADA "
                                  "ignore the node transform of a skinned mesh)");
        return p;
    }

    // Skeleton roots: the lowest common ancestor of the bone nodes, or (when that node also
    // holds or leads to a mesh) the topmost nodes below it that lead to bones without leading
    // to meshes.
    void build_skeleton() {
        if (!has_bones()) return;
        std::vector<bool> leads_to_mesh(nodes_.size(), false), leads_to_bone(nodes_.size(), false);
        for (std::size_t i = nodes_.size(); i-- > 0;) {
            if (nodes_[i].node->mNumMeshes > 0) leads_to_mesh[i] = true;
            if (is_bone_node_[i]) leads_to_bone[i] = true;
            if (nodes_[i].parent >= 0) {
                if (leads_to_mesh[i]) leads_to_mesh[nodes_[i].parent] = true;
                if (leads_to_bone[i]) leads_to_bone[nodes_[i].parent] = true;
            }
        }
        std::int32_t lca = -1;
        for (std::size_t i = 0; i < nodes_.size(); ++i)
            if (is_bone_node_[i]) lca = lca < 0 ? static_cast<std::int32_t>(i) : common_ancestor(lca, static_cast<std::int32_t>(i));
        std::vector<bool> included(nodes_.size(), false);
        std::vector<std::int32_t> stack{lca};
        while (!stack.empty()) {
            std::int32_t n = stack.back();
            stack.pop_back();
            if (is_bone_node_[n] || !leads_to_mesh[n]) {
                include_subtree(n, included);
                continue;
            }
            for (std::size_t i = n + 1; i < nodes_.size(); ++i)
                if (nodes_[i].parent == n && leads_to_bone[i]) stack.push_back(static_cast<std::int32_t>(i));
        }
        std::vector<std::int32_t> bone_of_node(nodes_.size(), -1);
        for (std::size_t i = 0; i < nodes_.size(); ++i) {
            if (!included[i]) continue;
            Bone bone;
            bone.name = nodes_[i].node->mName.C_Str();
            for (std::int32_t p = nodes_[i].parent; p >= 0; p = nodes_[p].parent)
                if (bone_of_node[p] >= 0) {
                    bone.parent = bone_of_node[p];
                    break;
                }
            if (scene_.skeleton.find(bone.name))
                fail("two skeleton nodes are called '" + bone.name + "'; bone names must be unique");
            bone_of_node[i] = static_cast<std::int32_t>(scene_.skeleton.bones.size());
            node_of_bone_.push_back(static_cast<std::int32_t>(i));
            scene_.skeleton.bones.push_back(std::move(bone));
        }
        for (std::size_t b = 0; b < scene_.skeleton.bones.size(); ++b)
            bone_index_[scene_.skeleton.bones[b].name] = static_cast<std::uint32_t>(b);
        bind_from_offsets();
    }

    std::int32_t common_ancestor(std::int32_t a, std::int32_t b) const {
        // Pre-order indices: a parent always has a smaller index than its children.
        while (a != b) {
            if (a > b) a = nodes_[a].parent;
            else b = nodes_[b].parent;
        }
        return a;
    }

    void include_subtree(std::int32_t root, std::vector<bool>& included) const {
        // Nodes carrying meshes are not joints, unless a mesh bone names them.
        std::vector<bool> inside(nodes_.size(), false);
        inside[root] = true;
        for (std::size_t i = root; i < nodes_.size(); ++i) {
            if (i != static_cast<std::size_t>(root)) {
                if (nodes_[i].parent < 0 || !inside[nodes_[i].parent]) continue;
                inside[i] = true;
            }
            if (nodes_[i].node->mNumMeshes == 0 || is_bone_node_[i]) included[i] = true;
        }
    }

    // bind = global(mesh node) * inverse(offset) for bones that skin something; the node pose
    // (relative to the parent's bind) for the others.
    // bind = B * inverse(offset), B the mesh's placement (bone space, offset * vertex, is kept):
    // the node's global transform unless the skin places the mesh elsewhere (Placement).
    void bind_from_offsets() {
        auto& bones = scene_.skeleton.bones;
        std::vector<bool> from_offset(bones.size(), false);
        std::size_t instance = 0;
        for (std::size_t n = 0; n < nodes_.size(); ++n) {
            const aiNode* node = nodes_[n].node;
            for (unsigned k = 0; k < node->mNumMeshes; ++k, ++instance) {
                const aiMesh* mesh = ai_.mMeshes[node->mMeshes[k]];
                const Mat4& placed = placements_[instance].matrix;
                for (unsigned b = 0; b < mesh->mNumBones; ++b) {
                    std::uint32_t index = bone_index(*mesh->mBones[b]);
                    if (from_offset[index]) continue;
                    Mat4 offset = to_mat4(mesh->mBones[b]->mOffsetMatrix);
                    bones[index].bind = multiply(placed, inverse(offset, "offset matrix of bone '" + bones[index].name + "'"));
                    from_offset[index] = true;
                }
            }
        }
        std::size_t disagreements = 0;
        std::string first;
        for (std::size_t b = 0; b < bones.size(); ++b) {
            const Mat4& node_global = nodes_[node_of_bone_[b]].global;
            if (!from_offset[b]) {
                bones[b].bind = bones[b].parent < 0
                                    ? node_global
                                    : multiply(bones[bones[b].parent].bind, to_mat4(nodes_[node_of_bone_[b]].node->mTransformation));
                continue;
            }
            float magnitude = 1;
            for (float v : node_global) magnitude = std::max(magnitude, std::abs(v));
            if (max_abs_difference(bones[b].bind, node_global) > 1e-3f * magnitude) {
                if (disagreements++ == 0) first = bones[b].name;
            }
        }
        if (disagreements)
            scene_.warnings.push_back(std::to_string(disagreements) +
                                      " bone(s) are posed away from where the skin binds them, first '" + first +
                                      "': the mesh and the skeleton are taken at the bind pose (their offset "
                                      "matrices), and that pose of the file is not used");
    }

    Mat4 conversion_matrix() const {
        double s = options_.scale;
        if (options_.units == Units::metres) s *= scene_.file_unit_metres.value_or(1.0);
        if (!(s > 0) || !std::isfinite(s))
            throw Error(ErrorKind::usage, "the scale factor must be positive and finite", scene_.source);
        Mat4 m = options_.axes.matrix();
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) m[r * 4 + c] = static_cast<float>(m[r * 4 + c] * s);
        return m;
    }

    void convert_skeleton() {
        if (conversion_ == identity_matrix) {
            derive_bone_matrices(scene_.skeleton);
            return;
        }
        Mat4 inv = inverse(conversion_, "unit/axis conversion");
        for (auto& b : scene_.skeleton.bones) b.bind = multiply(multiply(conversion_, b.bind), inv);
        derive_bone_matrices(scene_.skeleton);
    }

    void build_meshes() {
        std::size_t instance = 0;
        for (std::size_t n = 0; n < nodes_.size(); ++n) {
            const aiNode* node = nodes_[n].node;
            for (unsigned k = 0; k < node->mNumMeshes; ++k, ++instance) {
                const aiMesh* mesh = ai_.mMeshes[node->mMeshes[k]];
                if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) || !has_triangle(*mesh)) continue;
                if (mesh->mMaterialIndex >= scene_.materials.size())
                    fail(std::string("mesh '") + mesh->mName.C_Str() + "' names material " +
                         std::to_string(mesh->mMaterialIndex) + " of " + std::to_string(scene_.materials.size()));
                if (mesh->mNumBones == 0 && !options_.allow_unskinned)
                    fail(std::string("mesh '") + mesh->mName.C_Str() + "' has no bones, and a skinned mesh is required");
                scene_.meshes.push_back(convert_mesh(*mesh, node, multiply(conversion_, placements_[instance].matrix)));
            }
        }
    }

    static bool has_triangle(const aiMesh& mesh) {
        for (unsigned f = 0; f < mesh.mNumFaces; ++f)
            if (mesh.mFaces[f].mNumIndices == 3) return true;
        return false;
    }

    Mesh convert_mesh(const aiMesh& in, const aiNode* node, const Mat4& transform) {
        Mesh out;
        out.name = in.mName.length ? in.mName.C_Str() : node->mName.C_Str();
        out.material = in.mMaterialIndex;
        const bool identity = transform == identity_matrix;
        // Computed first: a singular transform is reported before any vertex.
        const Mat4 normal_m = identity ? identity_matrix : normal_matrix(transform);
        read_positions(in, transform, identity, out);
        read_normals(in, normal_m, identity, out);
        read_uvs(in, out);
        read_colours(in, out);
        if (in.mTangents && in.mBitangents) read_tangents(in, transform, identity, out);
        read_triangles(in, determinant3(transform) < 0, out);
        if (out.tangents.empty()) {
            out.tangents = generate_tangents(out.positions, out.normals, out.uv0, out.triangles);
            out.tangents_generated = true;
        }
        read_influences(in, out);
        return out;
    }

    // The per-vertex arrays are reserved and appended to, never value-initialised first: the
    // zero fill of a resize was a memset over every array that the loop then overwrote. Each
    // reader stays out of line: inlined into build_meshes, their loops ran short of registers
    // and kept the loop counter and the vector's end on the stack (about 4 % of the conversion).

    [[gnu::noinline]] void read_positions(const aiMesh& in, const Mat4& transform, bool identity, Mesh& out) const {
        const std::size_t n = in.mNumVertices;
        const WideAffine m(transform);
        // Read through a local span: the vector's own pointers, stored on every push_back,
        // would otherwise make the compiler re-read in.mVertices each time.
        const std::span<const aiVector3D> src(in.mVertices, n);
        out.positions.reserve(n);
        for (std::size_t v = 0; v < n; ++v) {
            const Vec3 p = to_vec3(src[v]);
            const Vec3 q = identity ? p : m.point(p);
            // A non-finite input always gives a non-finite output (inf * 0 and inf - inf are
            // NaN, NaN stays NaN), so one test per vertex; the input decides which message.
            if (!all_finite(q)) {
                if (!all_finite(p)) fail_position(out, v, "");
                fail_position(out, v, " after the node transform and unit/axis conversion");
            }
            out.positions.push_back(q);
        }
    }

    // Out of line, so that the message building does not crowd the vertex loop.
    [[noreturn, gnu::noinline, gnu::cold]] void fail_position(const Mesh& out, std::size_t v, const char* when) const {
        fail("mesh '" + out.name + "' vertex " + std::to_string(v) + " has a non-finite position" + when);
    }

    // Normals go through the inverse transpose and are renormalised (non-finite ones are kept
    // as stored). FBX stores one vertex per triangle corner and the corners of a flat face share
    // its normal (3 of 4 corners repeat the previous corner's normal in animation_with_skeleton):
    // a normal with the bits of the previous one takes the previous result, which the same
    // operations on the same bits would give again.
    [[gnu::noinline]] void read_normals(const aiMesh& in, const Mat4& normal_m, bool identity, Mesh& out) const {
        const std::size_t n = in.mNumVertices;
        if (!in.mNormals) {
            out.normals.assign(n, Vec3{0, 0, 0});
            return;
        }
        out.normals.reserve(n);
        if (identity) {
            for (std::size_t v = 0; v < n; ++v) out.normals.push_back(to_vec3(in.mNormals[v]));
            return;
        }
        const WideAffine m(normal_m);
        const std::span<const aiVector3D> src(in.mNormals, n);
        Vec3 result{};  // of src[v - 1]
        for (std::size_t v = 0; v < n; ++v) {
            if (v == 0 || !same_bits(src[v], src[v - 1])) {
                const Vec3 nrm = to_vec3(src[v]);
                result = all_finite(nrm) ? normalized(m.direction(nrm)) : nrm;
            }
            out.normals.push_back(result);
        }
    }

    // Tangents stored in the file; the sign compares the bitangent with cross(normal, tangent).
    void read_tangents(const aiMesh& in, const Mat4& transform, bool identity, Mesh& out) const {
        const std::size_t n = in.mNumVertices;
        const WideAffine m(transform);
        out.tangents.reserve(n);
        for (std::size_t v = 0; v < n; ++v) {
            Vec3 t = to_vec3(in.mTangents[v]), b = to_vec3(in.mBitangents[v]);
            if (!identity) {
                t = normalized(m.direction(t));
                b = m.direction(b);
            }
            float sign = dot(cross(out.normals[v], t), b) < 0 ? -1.0f : 1.0f;
            out.tangents.push_back({t[0], t[1], t[2], sign});
        }
    }

    // Triangle faces only (SortByPType leaves no points or lines in a triangle mesh, but a
    // hand-built scene may mix them); a mirroring transform reverses the winding.
    [[gnu::noinline]] static void read_triangles(const aiMesh& in, bool flip, Mesh& out) {
        const int second = flip ? 2 : 1, third = flip ? 1 : 2;
        out.triangles.reserve(in.mNumFaces);
        for (unsigned f = 0; f < in.mNumFaces; ++f) {
            const aiFace& face = in.mFaces[f];
            if (face.mNumIndices != 3) continue;
            out.triangles.push_back({face.mIndices[0], face.mIndices[second], face.mIndices[third]});
        }
    }

    [[gnu::noinline]] void read_uvs(const aiMesh& in, Mesh& out) const {
        std::size_t n = in.mNumVertices;
        auto channel = [&](unsigned c) {
            std::vector<Vec2> uv;
            uv.reserve(n);
            const std::span<const aiVector3D> src(in.mTextureCoords[c], n);
            for (const aiVector3D& t : src) uv.push_back({t.x, t.y});
            return uv;
        };
        out.uv0 = in.HasTextureCoords(0) ? channel(0) : std::vector<Vec2>(n, Vec2{0, 0});
        if (in.HasTextureCoords(1)) out.uv1 = channel(1);
        else if (options_.second_uv == SecondUv::copy_first) out.uv1 = out.uv0;
        else out.uv1.assign(n, Vec2{0, 0});
    }

    // The first vertex colour set (glTF COLOR_0, FBX/DAE vertex colours) as Assimp gives it:
    // RGBA floats, taken as linear (what glTF stores; hypothesis scene-vertex-colours/1 for FBX
    // and DAE, which declare no colour space). A non-finite channel is a format error naming the
    // vertex; values outside 0..1 are kept (consumers clamp).
    [[gnu::noinline]] void read_colours(const aiMesh& in, Mesh& out) const {
        if (!in.HasVertexColors(0)) return;
        const std::size_t n = in.mNumVertices;
        out.colours.reserve(n);
        for (std::size_t v = 0; v < n; ++v) {
            const aiColor4D& c = in.mColors[0][v];
            if (!std::isfinite(c.r) || !std::isfinite(c.g) || !std::isfinite(c.b) || !std::isfinite(c.a))
                fail("mesh '" + out.name + "' vertex " + std::to_string(v) + " has a non-finite vertex colour");
            out.colours.push_back({c.r, c.g, c.b, c.a});
        }
    }

    std::uint32_t bone_index(const aiBone& bone) const {
        auto it = bone_index_.find(bone.mName.C_Str());
        if (it == bone_index_.end()) fail("bone '" + std::string(bone.mName.C_Str()) + "' is not in the skeleton");
        return it->second;
    }

    [[gnu::noinline]] void read_influences(const aiMesh& in, Mesh& out) const {
        if (!has_bones()) return;
        const std::size_t n = in.mNumVertices;
        // Counted first: all lists live in one array, each at its final size.
        std::vector<std::uint32_t> count(n, 0);
        // The weights as local spans: the counts and entries written below are 32-bit words,
        // which the compiler would otherwise have to assume overwrite the aiBone's fields.
        for (unsigned b = 0; b < in.mNumBones; ++b)
            for (const aiVertexWeight& w : weights_of(*in.mBones[b])) {
                if (w.mVertexId >= n) fail_weight(*in.mBones[b], w.mVertexId, out.name, n);
                ++count[w.mVertexId];
            }
        out.influences = InfluenceLists::with_sizes(count);
        // next[v]: the next free entry of list v (bones in file order within a list).
        const auto next = std::make_unique_for_overwrite<Influence*[]>(n);
        for (std::size_t v = 0; v < n; ++v) next[v] = out.influences[v].data();
        for (unsigned b = 0; b < in.mNumBones; ++b) {
            const std::uint32_t index = bone_index(*in.mBones[b]);
            for (const aiVertexWeight& w : weights_of(*in.mBones[b])) *next[w.mVertexId]++ = {index, w.mWeight};
        }
    }

    static std::span<const aiVertexWeight> weights_of(const aiBone& bone) { return {bone.mWeights, bone.mNumWeights}; }

    [[noreturn, gnu::noinline, gnu::cold]] void fail_weight(const aiBone& bone, std::uint32_t v, const std::string& mesh,
                                                           std::size_t vertices) const {
        fail("bone '" + std::string(bone.mName.C_Str()) + "' weights vertex " + std::to_string(v) + " of mesh '" + mesh +
             "', which has " + std::to_string(vertices));
    }

    const aiScene& ai_;
    const ImportOptions& options_;
    std::vector<FlatNode> nodes_;
    std::vector<Placement> placements_;  // per mesh instance, node pre-order
    Scene scene_;
    std::vector<bool> is_bone_node_;
    std::map<std::string, std::int32_t> bone_node_of_name_;
    std::vector<std::int32_t> node_of_bone_;
    std::unordered_map<std::string, std::uint32_t> bone_index_;
    Mat4 conversion_ = identity_matrix;
};

// What to do about a file Assimp refuses, by format: Assimp 5.2.5 reads FBX 7.x (2011 and
// later) only, and its COLLADA reader refuses some producers' files.
std::string refusal_advice(const std::string& name) {
    const std::string ext = lower_extension(name);
    if (ext == "fbx")
        return "; Assimp reads FBX 7.x only (FBX 2011 and later; FBX 6.1 from older exporters is refused): "
               "re-export it as binary FBX 7.x (Blender: File > Export > FBX, the default) or as glTF 2.0 (.glb)";
    if (ext == "dae")
        return "; re-export it as glTF 2.0 (.glb) or binary FBX 7.x, which modkit reads more reliably than COLLADA";
    return "; re-export it as glTF 2.0 (.glb) or binary FBX 7.x";
}

const aiScene& checked(const aiScene* ai, Assimp::Importer& importer, const std::string& name) {
    if (!ai)
        throw Error(ErrorKind::format,
                    std::string("Assimp cannot read it: ") + importer.GetErrorString() + refusal_advice(name), name);
    return *ai;
}

}  // namespace

const aiScene& read_with_assimp(Assimp::Importer& importer, const fs::path& path, const ImportOptions& options) {
    std::error_code ec;
    auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw Error(ErrorKind::io, "cannot read: no such file", path.string());
    if (!fs::is_regular_file(status)) throw Error(ErrorKind::io, "cannot read: not a regular file", path.string());
    auto size = fs::file_size(path, ec);
    if (ec) throw Error(ErrorKind::io, "cannot read: " + ec.message(), path.string());
    if (size > options.max_input_bytes)
        throw Error(ErrorKind::limit, "file of " + std::to_string(size) + " bytes exceeds the import limit of " +
                                          std::to_string(options.max_input_bytes), path.string());
    configure(importer);
    // ReadFile (not from memory) so that glTF files find their .bin and images beside them.
    return checked(importer.ReadFile(path.string(), import_flags), importer, path.string());
}

const aiScene& read_with_assimp(Assimp::Importer& importer, ByteView data, std::string_view name,
                                const ImportOptions& options) {
    if (data.size() > options.max_input_bytes)
        throw Error(ErrorKind::limit, "data of " + std::to_string(data.size()) + " bytes exceeds the import limit",
                    std::string(name));
    if (data.empty()) throw Error(ErrorKind::format, "empty input", std::string(name));
    configure(importer);
    std::string hint = lower_extension(name);
    return checked(importer.ReadFileFromMemory(data.data(), data.size(), import_flags, hint.c_str()), importer,
                   std::string(name));
}

Scene convert_assimp_scene(const aiScene& scene, std::string_view name, const ImportOptions& options) {
    try {
        Scene s = Builder(scene, std::string(name), options).build();
        if (options.read_textures) s.material_info = read_material_info(scene, name, s.materials.size(), s.warnings);
        return s;
    } catch (Error& e) {
        e.set_file_if_empty(std::string(name));
        throw;
    }
}

// glTF: our own bounded reading first (weights Assimp would drop, modkit's extras), then
// Assimp; the extras are applied to its result (gltf_reader.hpp).
static std::optional<GltfExtras> gltf_precheck(const fs::path& path, const ImportOptions& options) {
    if (!looks_like_gltf({}, path.string())) return std::nullopt;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) > options.max_input_bytes || ec)
        return std::nullopt;  // read_with_assimp reports it
    return check_gltf(read_file(path, options.max_input_bytes), path.string(), path.parent_path().empty() ? fs::path(".") : path.parent_path(),
                      options.max_input_bytes);
}

static Scene with_gltf_extras(Scene scene, const std::optional<GltfExtras>& extras) {
    if (extras) apply_gltf_extras(scene, *extras);
    return scene;
}

namespace {

Scene record_applied(Scene s, const ImportOptions& options) {
    s.units_converted = options.units == Units::metres;
    s.import_scale = options.scale;
    return s;
}

}  // namespace

Scene import_file(const fs::path& path, const ImportOptions& options) {
    const std::optional<GltfExtras> extras = gltf_precheck(path, options);
    if (options.contained)
        return record_applied(with_gltf_extras(run_contained(path.string(), options, [&] {
            Assimp::Importer importer;
            return convert_assimp_scene(read_with_assimp(importer, path, options), path.string(), options);
        }), extras), options);
    Assimp::Importer importer;
    return record_applied(
        with_gltf_extras(convert_assimp_scene(read_with_assimp(importer, path, options), path.string(), options), extras),
        options);
}

Scene import_memory(ByteView data, std::string_view name, const ImportOptions& options) {
    std::optional<GltfExtras> extras;
    if (data.size() <= options.max_input_bytes && looks_like_gltf(data, name))
        extras = check_gltf(data, name, {}, options.max_input_bytes);
    if (options.contained)
        return record_applied(with_gltf_extras(run_contained(name, options, [&] {
            Assimp::Importer importer;
            return convert_assimp_scene(read_with_assimp(importer, data, name, options), name, options);
        }), extras), options);
    Assimp::Importer importer;
    return record_applied(
        with_gltf_extras(convert_assimp_scene(read_with_assimp(importer, data, name, options), name, options), extras),
        options);
}

}  // namespace mod::scene
