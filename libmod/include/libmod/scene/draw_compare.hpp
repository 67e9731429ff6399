#pragma once
// Whether two scenes draw the same thing, whatever order their meshes, vertices and triangles
// are in: what a replacement checks to tell an unedited round trip (the target's own export,
// read back) from an edit, so that it can keep the target's bytes (issue 30 item 4).

#include "libmod/scene/model.hpp"

namespace mod::scene {

// True when `a` and `b` have
//   * the same skeleton: bone names, parents and bind matrices (bits), in order;
//   * the same multiset of triangles as values: per corner the position, normal, uv0 and
//     vertex colour bits (none: white, as glTF reads it) and the processed skin weights (scene::process_weights when `skin` is
//     empty: bones by name, bytes of 1/255), winding kept (rotations of a triangle are one
//     triangle), each with its material's look: texture pixels, size and wrap modes, base
//     colour, alpha mode and cutoff, unlit. Material and mesh names do not matter.
// Tangents and uv1 are not compared (no game here stores them from the scene). A scene whose
// weights cannot be processed (a vertex without weight) compares its raw influences instead.
//
// With a tolerance, positions (and bind matrices), normals, uv0 and colours are compared on a
// grid of that step instead of by bits (0: bits): for a source read back from a file, whose
// importer's float arithmetic moves values by an ulp or two. Values that straddle a grid line
// compare unequal, which only ever errs on the side of "not alike".
struct DrawTolerance {
    float position = 0.0f, normal = 0.0f, uv = 0.0f, colour = 0.0f;
};
bool draws_alike(const Scene& a, const Scene& b, const DrawTolerance& tolerance = {});

}  // namespace mod::scene
