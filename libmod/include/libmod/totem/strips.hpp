#pragma once
// Triangle lists to TotemTech MESH strips (meshoptimizer's stripifier), keeping every
// triangle's orientation as the game decodes it. Spec: doc/formats/totem-mesh.md ("Building").
//
// A MESH strip decodes window k (entries v[k], v[k+1], v[k+2]) as (v[k], v[k+a], v[k+b]) for
// even k and (v[k], v[k+b], v[k+a]) for odd k, a = tri_order, b = 3 - a (build_triangles).
// meshopt_stripify's strips are standard strips (even window in order, odd window with its last
// two corners swapped), i.e. tri_order 1, whose first triangle keeps the source's winding; it
// joins triangles with "swap" windows that repeat a vertex (degenerate). We cut every strip at
// its degenerate windows, so no decoded triangle is degenerate, and give a piece that starts
// at an odd window tri_order 2 (which swaps the roles of even and odd windows). The result is
// checked: the decoded triangles must be the input triangles (same corners, same rotation
// class), else an Error (format) — never a silently different mesh.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace mod::totem {

struct BuiltStrip {
    std::vector<std::uint32_t> corners;  // vertex ids, at least 3
    std::uint32_t tri_order = 1;         // 1 or 2
};

struct StripStats {
    std::size_t triangles = 0;          // input triangles
    std::size_t degenerate_dropped = 0; // input triangles naming one vertex twice (no area; not stored)
    std::size_t strips = 0;
    std::size_t entries = 0;            // strip entries written (sum of strip lengths)
};

// Strips holding exactly `triangles` (each (c0, c1, c2) decoded with the same cyclic order),
// except those that name one vertex twice (counted in stats). Vertex ids must be < vertex_count
// (usage error otherwise). Deterministic.
std::vector<BuiltStrip> make_strips(std::span<const std::array<std::uint32_t, 3>> triangles, std::size_t vertex_count,
                                    StripStats* stats = nullptr);

// The triangles a strip decodes to, in window order (the rule above).
std::vector<std::array<std::uint32_t, 3>> strip_triangles(const BuiltStrip& strip);

}  // namespace mod::totem
