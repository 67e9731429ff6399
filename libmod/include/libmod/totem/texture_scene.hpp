#pragma once
// The textures and material colours of an exported TotemTech scene: each scene material named
// after a MATERIAL (or a MATERIALANIM, followed to its MATERIAL) gets its colour as the base
// colour factor and its BITMAP as the base colour texture. Spec: doc/formats/totem-bitmap.md
// ("Export").

#include "libmod/scene/model.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/bitmap.hpp"
#include "libmod/totem/material.hpp"
#include "libmod/totem/names.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace mod::totem {

// The bitmap layout of an archive: from the platform when known, else from the byte order
// (big-endian GameCube, little-endian the PS2 hypothesis). nullopt for PC (no source).
std::optional<BitmapLayout> bitmap_layout(std::optional<Platform> platform, Endian endian);

struct MaterialLink {
    std::int32_t material = 0;          // MATERIAL id (0 when none was found)
    std::optional<std::size_t> record;  // its record
    std::optional<std::size_t> bitmap;  // the BITMAP record its texture names
    std::vector<std::string> notes;     // why something is missing
};

// Follows a MESH material id: MATERIAL, or MATERIALANIM → its MATERIAL; then the texture.
MaterialLink follow_material(const ByteReader& dgc, const Archive& archive, std::int32_t id, const NameTable& names);

// A MATERIAL's UV transform as both public readers apply it (Chum World bakes it into the
// exported UVs, noclip applies it in its vertex shader): row vector (u, v, 1) x M, i.e.
// u' = u*m0 + v*m3 + m6, v' = u*m1 + v*m4 + m7, in f32 in that order; m2, m5, m8 unused.
using UvTransform = std::array<float, 9>;
bool is_identity(const UvTransform& m) noexcept;
scene::Vec2 apply_uv_transform(const UvTransform& m, scene::Vec2 uv) noexcept;
// The transform of the MATERIAL `id` leads to (follow_material); nullopt when there is none or
// it is the identity.
std::optional<UvTransform> material_uv_transform(const ByteReader& dgc, const Archive& archive, std::int32_t id,
                                                 const NameTable& names);

struct StoredUvs {
    std::vector<scene::Vec2> uvs;  // the MESH UVs to store, one per source vertex
    std::size_t kept = 0;          // from TEXCOORD_1: TEXCOORD_0 is still its transform
    std::size_t inverted = 0;      // TEXCOORD_0 mapped back through the inverse transform
};
// The inverse of what attach_materials does to a mesh of a material with transform `m`: a
// vertex whose uv0 equals M applied to its uv1 (within 1e-5, relative above 1) keeps uv1 (the
// stored UVs export wrote there, so export -> replace of an unchanged mesh is exact); any
// other vertex gets uv0 through the inverse of M's 2x2 part and translation. Throws format
// (naming `label`) when a vertex needs the inverse and M's 2x2 part is singular.
StoredUvs stored_uvs(const UvTransform& m, const std::vector<scene::Vec2>& uv0, const std::vector<scene::Vec2>& uv1,
                     const std::string& label);

// The base-colour factor export gives a MATERIAL: its colour, each component clamped to 0..1
// (1 where it is not finite).
scene::Vec4 exported_base_colour(const Material& m);

// Fills scene.material_info for every scene material whose name is a MATERIAL/MATERIALANIM
// (name, or hash text as skin_to_scene writes it). The image is stored flipped vertically:
// skin_to_scene keeps TotemTech texcoords as stored (v = 0 at the first texel row, as GX
// samples) and the glTF writer writes 1 − v, so the flipped image samples exactly the texel
// the game samples. Alpha mode from the BITMAP's alpha level (0 opaque, 1 mask, 2 blend).
// A material whose MATERIAL has a non-identity UV transform gets it applied to uv0 of its
// meshes (uv1 keeps the stored UVs, for stored_uvs on the way back); one line says so.
// Returns one line per material that could not be textured (and why).
std::vector<std::string> attach_materials(scene::Scene& scene, const ByteReader& dgc, const Archive& archive,
                                          const NameTable& names, std::optional<BitmapLayout> layout);

}  // namespace mod::totem
