// Issue 17 forge cases for the TotemTech sample (review §5.2 items 1 and 2).
#include "totem_cases.hpp"

#include "libmod/totem/names.hpp"
#include "libmod/totem/skin.hpp"

namespace mod::sample {

using namespace mod::totem;

Bytes lid_skin_payload(const Mesh& crate, std::int32_t crate_id, Endian endian) {
    Skin s;
    s.header.item_type = item_skin;
    s.header.item_subtype = 2;  // the seed: only subtype 2 may name a SURFACE
    for (int i = 0; i < 16; ++i) s.header.matrix[i] = F32::of(i % 5 == 0 ? 1.0f : 0.0f);
    s.mesh_ids = {crate_id, name_id(totem_lid_surface_name)};
    SkinSection sec;
    sec.group_id = name_id(totem_lid_group_name);
    SkinSubsection on_mesh;
    on_mesh.mesh_index = 0;
    // Positions k = 0, 2, 4, ... weigh 0.75 when k % 4 == 0, else 0.5; the normal lists name
    // normal k + 1 (another entry of the MESH's separate normal array) with weight 1 - that:
    // ids and weights both differ from the position lists.
    for (std::uint32_t k = 0; k + 1 < crate.positions.size() && k + 1 < crate.normals.size(); k += 2) {
        const float w = k % 4 == 0 ? 0.75f : 0.5f;
        on_mesh.vertices.push_back({k, F32::of(w)});
        on_mesh.normals.push_back({k + 1, F32::of(1.0f - w)});
    }
    SkinSubsection on_surface;
    on_surface.mesh_index = 1;
    on_surface.vertices.push_back({0, F32::of(1.0f)});
    on_surface.normals.push_back({0, F32::of(1.0f)});
    sec.subsections = {on_mesh, on_surface};
    s.sections.push_back(sec);
    SkinUnknownEntry u;
    u.vertices = {static_cast<std::uint32_t>(on_mesh.vertices.size() / 2), 1};
    u.normals = {static_cast<std::uint32_t>(on_mesh.normals.size() / 3), 1};
    s.unknown.push_back(u);
    return encode_skin(s, endian);
}

}  // namespace mod::sample
