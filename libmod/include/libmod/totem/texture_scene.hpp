#pragma once
// The textures and material colours of an exported TotemTech scene: each scene material named
// after a MATERIAL (or a MATERIALANIM, followed to its MATERIAL) gets its colour as the base
// colour factor and its BITMAP as the base colour texture. Spec: doc/formats/totem-bitmap.md
// ("Export").

#include "libmod/scene/model.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/bitmap.hpp"
#include "libmod/totem/names.hpp"

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

// Fills scene.material_info for every scene material whose name is a MATERIAL/MATERIALANIM
// (name, or hash text as skin_to_scene writes it). The image is stored flipped vertically:
// skin_to_scene keeps TotemTech texcoords as stored (v = 0 at the first texel row, as GX
// samples) and the glTF writer writes 1 − v, so the flipped image samples exactly the texel
// the game samples. Alpha mode from the BITMAP's alpha level (0 opaque, 1 mask, 2 blend).
// Returns one line per material that could not be textured (and why).
std::vector<std::string> attach_materials(scene::Scene& scene, const ByteReader& dgc, const Archive& archive,
                                          const NameTable& names, std::optional<BitmapLayout> layout);

}  // namespace mod::totem
