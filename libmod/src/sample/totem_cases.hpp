#pragma once
// Issue 17 forge cases for the TotemTech sample (review §5.2): a subtype-2 SKIN naming a
// SURFACE next to its MESH, with normal weight lists that differ from its position lists.
// Used by sample/totem.cpp; the records are appended on every platform.
#include "libmod/core/bytes.hpp"
#include "libmod/totem/mesh.hpp"

#include <string>
#include <tuple>
#include <vector>

namespace mod::sample {

inline constexpr const char* totem_lid_skin_name = "DB:>SAMPLE>PROPS>CRATE_LID.TSKIN";
inline constexpr const char* totem_lid_surface_name = "DB:>SAMPLE>PROPS>CRATE_LID.TSURFACE";
inline constexpr const char* totem_lid_group_name = "CRATE_HINGE";

// Issue 33 forge case (T17, T13): the sign MESH (subtype 4, strip groups, corner lists) whose
// two strips name material indices 2 and 3 of its two materials {SIGN.TMAT, SKIN.TMAT}, and a
// plain SKIN over it (groups SIGN_POST, SIGN_BOARD). SIGN.TMAT textures CRATE with the UV
// transform totem_sign_uv_transform (row vector (u, v, 1) x M).
inline constexpr const char* totem_sign_mesh_name = "DB:>SAMPLE>PROPS>SIGN.TMESH";
inline constexpr const char* totem_sign_skin_name = "DB:>SAMPLE>PROPS>SIGN.TSKIN";
inline constexpr const char* totem_sign_material_name = "DB:>SAMPLE>MATERIALS>SIGN.TMAT";
inline constexpr std::uint32_t totem_sign_index_base = 2;
// u' = -v + 0.25, v' = 2u + 0.5 (exact in binary).
inline constexpr float totem_sign_uv_transform[9] = {0, 2, 0, -1, 0, 0, 0.25f, 0.5f, 1};

// The lid SKIN (subtype 2, no animation block): mesh ids {crate MESH, lid SURFACE}; one group
// CRATE_HINGE whose subsection on the MESH lists positions k = 0, 2, 4, ... with weight 0.75
// when k % 4 == 0, else 0.5, and normals k + 1 with weight 1 minus that; one subsection on the
// SURFACE (mesh_index 1) listing id 0 at 1.0 for both lists.
Bytes lid_skin_payload(const totem::Mesh& crate, std::int32_t crate_id, Endian endian);

}  // namespace mod::sample
