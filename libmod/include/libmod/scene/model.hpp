#pragma once
// mod::scene — the neutral skinned mesh + skeleton every game layer converts to and from.
//
// Plain data, no Assimp or Eigen types, so any layer (and the CLI) can use it. Conventions:
//  * Vectors are float arrays; matrices are 4x4 float, ROW-major storage m[row * 4 + col],
//    acting on COLUMN vectors (p' = M p): the translation is m[3], m[7], m[11].
//  * All positions, normals, tangents and bone matrices of a Scene are in ONE space: the
//    "model space" the importer produced (node transforms baked, then units and axes converted
//    as the ImportOptions asked, see import.hpp). Game layers map model space to their own.
//  * A triangle's winding is counter-clockwise when seen from the side its face normal points to.
//  * Influence bone indices index Scene::skeleton.bones.
// Spec and rationale: doc/formats/scene-import.md.

#include "libmod/scene/influence_lists.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mod::scene {

using Vec2 = std::array<float, 2>;
using Vec3 = std::array<float, 3>;
using Vec4 = std::array<float, 4>;
using Mat4 = std::array<float, 16>;  // row-major, column vectors (see above)

inline constexpr Mat4 identity_matrix = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

// One joint of the skeleton.
struct Bone {
    std::string name;          // unique within the skeleton; bone mapping matches on it
    std::int32_t parent = -1;  // index of the parent bone in Skeleton::bones, -1 for a root;
                               // the importer puts parents before children; other producers
                               // (a game skeleton kept in its own order) need only be acyclic
    Mat4 local = identity_matrix;         // bind pose relative to the parent (or model space for a root)
    Mat4 bind = identity_matrix;          // bind pose in model space: bone space -> model space
    Mat4 inverse_bind = identity_matrix;  // model space -> bone space at bind time (inverse of bind)
};

struct Skeleton {
    std::vector<Bone> bones;

    // Index of the bone called `name` (exact, case-sensitive), or nullopt.
    std::optional<std::uint32_t> find(std::string_view name) const;
};

// A vertex's influences after process_weights (weights.hpp): at most 4 slots, sorted by
// weight descending then bone index ascending, every used weight in 1..255, used weights
// summing to exactly 255, unused slots (index >= count) zero in both arrays.
struct SkinWeights {
    std::uint8_t count = 0;
    std::array<std::uint32_t, 4> bones{};
    std::array<std::uint8_t, 4> weights{};

    friend bool operator==(const SkinWeights&, const SkinWeights&) = default;
};

// A triangle mesh with one material. Every per-vertex array has vertex_count() entries
// (skin may instead be empty, meaning "weights not processed yet").
struct Mesh {
    std::string name;
    std::uint32_t material = 0;  // index into Scene::materials

    std::vector<Vec3> positions;
    std::vector<Vec3> normals;   // unit length unless the source stored otherwise
    std::vector<Vec4> tangents;  // xyz: tangent (direction of increasing u); w: sign (+1 or -1),
                                 // bitangent = w * cross(normal, tangent.xyz)
    std::vector<Vec2> uv0;       // first UV set, V axis pointing up (Assimp/OpenGL convention)
    std::vector<Vec2> uv1;       // second UV set (copy of uv0 or zero when the source has one set)
    // True when the importer generated the tangents (the source stored none, as Blender's glTF
    // exporter by default): a replacement may then keep the target's own tangents.
    bool tangents_generated = false;
    InfluenceLists influences;                       // raw influences per vertex (flat)
    std::vector<SkinWeights> skin;                   // processed influences (empty until processed)

    std::vector<std::array<std::uint32_t, 3>> triangles;  // vertex indices

    // Optional vertex colours (glTF COLOR_0): empty, or vertex_count() entries of RGBA in 0..1,
    // LINEAR light as glTF defines COLOR_0 (a producer holding 8-bit sRGB values converts them
    // with image::srgb8_to_linear; alpha is not converted). Exporters multiply them with the
    // material's base colour; importers may leave them empty.
    std::vector<Vec4> colours;

    std::size_t vertex_count() const noexcept { return positions.size(); }
};

// ---- Optional material records (producers that have textures fill them; others leave them
// empty, and every consumer that predates them ignores them) ----

// How a texture coordinate outside 0..1 samples (glTF sampler wrapS / wrapT).
enum class TextureWrap : std::uint8_t { repeat, mirrored_repeat, clamp_to_edge };
// How the base colour's alpha is used (glTF material alphaMode).
enum class AlphaMode : std::uint8_t { opaque, mask, blend };

// A material's base colour texture, sampled with uv0.
struct MaterialTexture {
    std::string name;  // for messages and the exported image's name (may be empty)
    std::uint32_t width = 0, height = 0;
    std::vector<std::uint8_t> rgba;  // 4 × width × height bytes, r,g,b,a, rows top to bottom (sRGB)
    TextureWrap wrap_s = TextureWrap::repeat, wrap_t = TextureWrap::repeat;
    // Empty when wrap_s / wrap_t are exactly what the source does; otherwise why they are an
    // approximation (e.g. the N64's mirror-then-clamp, which glTF has no sampler for).
    std::string wrap_note;
};

// Parallel to Scene::materials (entry i describes material i).
struct MaterialInfo {
    std::optional<MaterialTexture> texture;
    Vec4 base_colour{1, 1, 1, 1};  // linear RGBA factor (glTF baseColorFactor)
    AlphaMode alpha = AlphaMode::opaque;
    float alpha_cutoff = 0.5f;     // for AlphaMode::mask
    bool unlit = false;            // shaded by nothing but base colour × vertex colour (KHR_materials_unlit)
};

// ---- Optional animations (written by the glTF writer only; FBX export and the importer ignore
// them; gltf_animation.cpp writes them). ----

// A node transform as translation, rotation (unit quaternion x, y, z, w) and scale: what glTF
// animates. decompose() reads them from an affine matrix (scale = column lengths, negated on x
// when the determinant is negative; rotation from the normalised columns); `error` is the
// largest element difference between compose(result) and the matrix (shear TRS cannot hold).
struct Trs {
    Vec3 translation{0, 0, 0};
    Vec4 rotation{0, 0, 0, 1};
    Vec3 scale{1, 1, 1};
};
Trs decompose(const Mat4& m, double* error = nullptr);
Mat4 compose(const Trs& trs);

struct AnimationChannel {
    std::uint32_t bone = 0;  // Skeleton::bones index (the bone's glTF node)
    enum class Path : std::uint8_t { translation, rotation, scale } path = Path::translation;
    bool step = false;          // STEP interpolation, else LINEAR
    std::vector<float> times;   // seconds, strictly increasing, at least one
    std::vector<float> values;  // per time 3 floats (translation, scale) or 4 (rotation x y z w)
};

struct Animation {
    std::string name;
    std::vector<AnimationChannel> channels;
    std::string extras_json;  // a JSON object written as the animation's extras, or empty
};

struct Scene {
    std::string source;  // file the scene came from (for messages)
    std::string format;  // lower-case file extension of the source ("fbx", "glb", ...)

    // Metres per file unit as the file declares it (FBX: UnitScaleFactor / 100; glTF: 1),
    // or nullopt when the file declares nothing. Recorded whatever ImportOptions::units says.
    std::optional<double> file_unit_metres;
    // The file's declared up axis as a signed axis (0 x, 1 y, 2 z; sign +1/-1), when declared.
    std::optional<std::pair<int, int>> file_up_axis;
    // What the import applied: ImportOptions::units == Units::metres (the declared unit
    // converted) and ImportOptions::scale. Set by import_file / import_memory (not carried by
    // the scene wire format), for the size rule's advice (scale_check.hpp).
    bool units_converted = false;
    double import_scale = 1.0;

    Skeleton skeleton;
    std::vector<Mesh> meshes;
    std::vector<std::string> materials;  // material names, referenced by Mesh::material
    // Optional: empty, or entries for materials[0 .. size) (textures, wrap modes, alpha).
    std::vector<MaterialInfo> material_info;
    std::vector<std::string> warnings;   // non-fatal findings (e.g. bind pose disagreements)
    // Optional: glTF animations. The writer gives every bone a channel targets translation /
    // rotation / scale (decompose(Bone::local)) instead of a matrix, as glTF requires.
    std::vector<Animation> animations;
};

// ---- small matrix helpers (exact float storage, double arithmetic inside) ----

Mat4 multiply(const Mat4& a, const Mat4& b);  // a * b
// Inverse of an invertible affine matrix; throws mod::Error (format) naming `what` when singular.
Mat4 inverse(const Mat4& m, std::string_view what = "matrix");
// The rule for transforming a point or a direction (double sums, one rounding to float); the
// importer applies the same operations per vertex through its widened copy (WideAffine).
inline Vec3 transform_point(const Mat4& m, const Vec3& p) {
    Vec3 r;
    for (int i = 0; i < 3; ++i)
        r[i] = static_cast<float>(double(m[i * 4]) * p[0] + double(m[i * 4 + 1]) * p[1] +
                                  double(m[i * 4 + 2]) * p[2] + double(m[i * 4 + 3]));
    return r;
}
inline Vec3 transform_direction(const Mat4& m, const Vec3& d) {  // 3x3 part only
    Vec3 r;
    for (int i = 0; i < 3; ++i)
        r[i] = static_cast<float>(double(m[i * 4]) * d[0] + double(m[i * 4 + 1]) * d[1] + double(m[i * 4 + 2]) * d[2]);
    return r;
}

// Recomputes every bone's `inverse_bind` as inverse(bind) and `local` as
// inverse_bind(parent) * bind. Throws mod::Error (format) on a singular bind matrix, a parent
// index out of range or a cycle in the parents.
void derive_bone_matrices(Skeleton& skeleton);

}  // namespace mod::scene
