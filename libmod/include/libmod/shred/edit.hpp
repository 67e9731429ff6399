#pragma once
// Same-topology edits of skinned meshes found by scan() in any file: positions, normals,
// tangents, tangent signs, UVs and weight values that keep every vertex's palette. The stream
// keeps its size and vertex order, so the file is patched in place (every other byte kept).
// Spec of the CSV form: doc/formats/shred-stream.md ("Same-topology edits").

#include "libmod/core/bytes.hpp"
#include "libmod/shred/scan.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mod::shred {

struct VertexEdit {
    std::uint32_t mesh = 0;    // index in scan() order
    std::uint32_t vertex = 0;  // index in the stream's stored order
    std::optional<std::array<float, 3>> position, normal, tangent;
    std::optional<float> tangent_sign;
    std::optional<std::array<float, 2>> uv0, uv1;
    // One weight per palette slot; quantised by largest remainder (quantise_weights). A
    // non-zero weight on an unused slot (bone 255) is refused: it would change the palette.
    std::optional<std::array<float, 4>> weights;
};

// CSV, one change per line: "mesh,vertex,field,values..." with field one of
// position(3) normal(3) tangent(3) tangent_sign(1) uv0(2) uv1(2) weights(4) ('#' comments and
// blank lines ignored). Several lines may edit the same vertex. Errors (format) name `file`
// and "line[N]".
std::vector<VertexEdit> parse_edit_csv(std::string_view text, const std::string& file = {});

struct EditReport {
    std::size_t meshes_found = 0;
    std::size_t vertices_changed = 0;
    std::size_t bytes_changed = 0;
};

// Applies the edits to a copy of `data`: every edited mesh must have been found valid by
// scan(); its stream is decoded, edited, re-validated (all invariants; a NaN normal the edit
// writes is a warning like any other) and written back over the same bytes. Throws usage when
// a mesh or vertex index does not exist, format when the mesh is invalid or the result breaks
// an invariant.
Bytes apply_edits(ByteView data, std::span<const VertexEdit> edits, const std::string& file = {},
                  const ScanOptions& options = {}, EditReport* report = nullptr);

}  // namespace mod::shred
