#pragma once
// What modkit reads from a glTF 2.0 file itself, beside Assimp (private to the scene layer):
//
// * Weights. Assimp 5.2.5 drops negative and NaN WEIGHTS_n values before modkit sees them, so
//   such a file would import "fine" with other weights than the file holds. check_gltf reads
//   the JSON (GLB chunk or .gltf text) and every float WEIGHTS_n accessor (GLB BIN chunk,
//   base64 data: URI, or a .bin beside the file) and refuses a negative or NaN weight with a
//   format error naming the mesh, primitive, attribute, accessor and vertex. Everything is
//   bounds-checked against the buffer (hostile-safe): offsets, lengths, strides and counts.
//   Unsigned-integer weights cannot be negative or NaN and are not read.
// * What modkit's own writer (gltf_writer.hpp) stores in extras: the original bits of
//   non-finite normals (NORMAL holds a substitute) and the synthetic root node of a skeleton
//   with several roots. apply_gltf_extras puts the bits back and removes the synthetic root.

#include "libmod/core/bytes.hpp"
#include "libmod/scene/model.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace mod::scene {

struct GltfExtras {
    struct Primitive {
        std::size_t vertex_count = 0;  // POSITION's count
        // (vertex, bits of x, y, z) of each non-finite normal the writer substituted
        std::vector<std::pair<std::uint32_t, std::array<std::uint32_t, 3>>> normal_bits;
    };
    std::vector<Primitive> primitives;  // meshes[0].primitives[0], [1], ..., meshes[1]...
    std::string synthetic_root;         // name of the node marked as modkit's synthetic root
};

// True when the data is a GLB (magic) or `name` ends in .gltf/.glb.
bool looks_like_gltf(ByteView data, std::string_view name);

// Reads the JSON and the float WEIGHTS_n accessors; throws mod::Error (format, file `name`) on
// a negative or NaN weight or a malformed structure it needs. `base_dir` (may be empty) is where
// a .gltf's external buffers are looked for; max_bytes bounds any external buffer read.
GltfExtras check_gltf(ByteView data, std::string_view name, const std::filesystem::path& base_dir,
                      std::uint64_t max_bytes);

// Restores the substituted normals' bits (when the scene has one mesh per primitive with the
// same vertex counts; a NaN normal is NaN whatever transform the import applied) and removes
// the synthetic root bone (when it is a root no vertex weights; its children become roots).
void apply_gltf_extras(Scene& scene, const GltfExtras& extras);

}  // namespace mod::scene
