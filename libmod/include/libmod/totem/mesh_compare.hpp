#pragma once
// Whether a rebuilt MESH (and the SKIN weights on it) draws what the old one drew, as an
// export -> import round trip carries it. replace_meshes keeps the old records when it does, so
// replacing a character from its own unedited export is a no-op (issue 30 item 4).
// Spec: doc/formats/totem-mesh.md ("Round trip through our own export").

#include "libmod/scene/model.hpp"
#include "libmod/totem/mesh.hpp"
#include "libmod/totem/skin.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace mod::totem {

// The same multiset of triangles as values in both: each corner's position, UV and normal bits
// with the winding kept (rotations of a triangle are one triangle), and each triangle's
// resolved material id (strip_material). `before`'s V is compared as a glTF export stores it
// and an import gives it back: 1 - (1 - v) in float, within which a round trip cannot do better.
// The order of positions, UVs, normals and strips does not matter. False when either MESH
// cannot be triangulated or lacks corner lists.
bool same_drawn_triangles(const Mesh& before, const Mesh& after);

// Each position value (bits) of MESH `mesh_id` gets the same weights from `after` (on
// `after_mesh`) as from `before` (on `before_mesh`), both quantised as an export stores them
// (scene::quantise_influences: at most 4 groups, bytes summing to 255; groups ranked by their
// section in `before`). Positions of one value with different weights make it false; so does
// a value only one side weights.
bool same_weights(const Skin& before, const Mesh& before_mesh, const Skin& after, const Mesh& after_mesh,
                  std::int32_t mesh_id);

// ---- the pieces same_weights and reweight_skin (unchanged positions) share ----

// Group id -> the index of its first section in `skin`: the order an export gives the groups.
std::map<std::int32_t, std::uint32_t> group_ranks(const Skin& skin);

// Per position id 0 .. positions-1 of MESH `mesh_id`: its stored weights by group id (entries
// of one group summed; non-finite entries and ids past `positions` skipped).
std::vector<std::map<std::int32_t, double>> position_weights(const Skin& skin, std::int32_t mesh_id, std::size_t positions);

// The bytes an export writes for one position's weights: scene::quantise_influences (unweighted
// allowed: count 0) with each group as bone rank[group]; nullopt when a weighted group has no rank.
std::optional<scene::SkinWeights> exported_weights(const std::map<std::int32_t, double>& weights,
                                                   const std::map<std::int32_t, std::uint32_t>& rank);

}  // namespace mod::totem
