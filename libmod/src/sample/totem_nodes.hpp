#pragma once
// Internal to the TotemTech sample forge: the NODE / LOD character trees (totem_nodes.cpp),
// added by totem.cpp's build().
#include "libmod/core/bytes.hpp"
#include "libmod/totem/archive.hpp"

#include <string>
#include <tuple>
#include <vector>

namespace mod::sample {

// Appends (type, name, subtype, payload) records: the hero's NODE (resource: its LOD, union
// LODDATA) with a child NODE holding the head MESH (union MESHDATA), the hero's LOD (resource:
// the seed SKIN; three animations; two optional blocks present), and the crate's NODE and LOD
// (subtype 2 with a sound table; resource: the crate MESH directly).
void totem_node_records(totem::Platform platform, const std::string& subtype,
                        std::vector<std::tuple<std::string, std::string, std::string, Bytes>>& out);

inline constexpr const char* totem_hero_node_name = "DB:>SAMPLE>CHARACTERS>HERO>HERO.TNODE";
inline constexpr const char* totem_hero_lod_name = "DB:>SAMPLE>CHARACTERS>HERO>HERO.TLOD";

}  // namespace mod::sample
