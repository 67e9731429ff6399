#pragma once
// The TotemTech sample ("forge"): a GameCube pair (SAMPLE.DGC + SAMPLE.NGC, big-endian), a
// PS2 pair (SAMPLE.DPS + SAMPLE.NPS, little-endian) and a PC pair (SAMPLE.DPC + SAMPLE.NPC,
// little-endian by hypothesis, its last chunk short) with the same content:
//  * MESH records (a skinned body with strip groups and collision shapes, a skinned head, a
//    prop; the PS2 prop has no corner lists, as Chum World notes for PS2);
//  * SKIN records: one with an animation block and the seed's trailing zero2, one with an
//    animation block and no zero2 (Chum World's reading), one without an animation block;
//    all with unknown entries that satisfy the seed's invariants; one vertex group whose name
//    is deliberately absent from the name table (shown as its hash); a subtype-2 SKIN naming
//    the crate MESH and a SURFACE, whose normal lists differ from its position lists
//    (totem_cases.hpp);
//  * opaque BITMAP, SURFACE, MATERIAL, NODE and ANIMATION records; one record whose subtype
//    name is absent from the table.
// Deterministic: same bytes on every run. Synthetic: nothing comes from the games.

#include "libmod/core/bytes.hpp"
#include "libmod/totem/archive.hpp"

#include <filesystem>
#include <vector>

namespace mod::sample {

struct TotemSampleFiles {
    Bytes data;   // the archive (.DGC / .DPS)
    Bytes names;  // the name table (.NGC / .NPS)
};

// Names of interest to tests and examples.
inline constexpr const char* totem_skin_seed_name = "DB:>SAMPLE>CHARACTERS>HERO>HERO.TSKIN";
inline constexpr const char* totem_skin_chum_name = "DB:>SAMPLE>CHARACTERS>HERO>HERO_ALT.TSKIN";
inline constexpr const char* totem_skin_plain_name = "DB:>SAMPLE>PROPS>CRATE.TSKIN";
inline constexpr const char* totem_body_mesh_name = "DB:>SAMPLE>CHARACTERS>HERO>HERO_BODY.TMESH";
inline constexpr const char* totem_head_mesh_name = "DB:>SAMPLE>CHARACTERS>HERO>HERO_HEAD.TMESH";
inline constexpr const char* totem_crate_mesh_name = "DB:>SAMPLE>PROPS>CRATE.TMESH";

// The archive and name table for one platform (gamecube, ps2 or pc).
TotemSampleFiles totem_sample(totem::Platform platform);

// Writes SAMPLE.DGC/.NGC, SAMPLE.DPS/.NPS and SAMPLE.DPC/.NPC into `dir`; returns the paths.
std::vector<std::filesystem::path> write_totem_sample(const std::filesystem::path& dir);

}  // namespace mod::sample
