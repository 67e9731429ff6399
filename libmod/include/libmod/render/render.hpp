#pragma once
// mod::render — a small deterministic software renderer for model previews (issue 15): the
// report page's before/after pictures and the `preview` commands.
//
// What it draws: every triangle of every mesh of a scene::Scene, in the positions as stored
// (skinned meshes in their bind pose; the skeleton is not drawn), with an orthographic camera
// looking along one model-space axis, z-buffered, no back-face culling (both sides drawn).
//
// Determinism: the same scene and options give the same bytes on every run and machine that
// follows IEEE-754 (no threads, no fused multiply-add: the library builds with
// -ffp-contract=off). Vertices are projected in double and rounded to fixed point with 8
// sub-pixel bits; coverage is decided by exact 64-bit integer edge functions sampled at pixel
// centres with the top-left fill rule (a pixel on an edge shared by two triangles is drawn by
// exactly one of them; pixels of zero-area triangles are never drawn).
//
// View conventions (model space is Y up, as glTF and scene::Scene's producers use):
//   front: camera on +Z looking toward -Z; image right = +X, image up = +Y; nearer = larger z.
//   side:  camera on +X looking toward -X; image right = -Z, image up = +Y; nearer = larger x.
//   top:   camera on +Y looking toward -Y; image right = +X, image up = -Z; nearer = larger y.
//
// Fit: the view's two image axes of the fit box (RenderOptions::fit, else bounding_box(scene))
// are scaled by ONE factor (no distortion) so the box fills the image minus a margin of
// max(1, min(width, height) / 32) pixels (integer division) on every side, and the box's centre
// is the image's centre. Precisely, with m the margin, (ex, ey) the box's extents along the
// image axes and (cx, cy) its centre: scale = min((width - 2m) / ex, (height - 2m) / ey) over
// the extents that are > 0 (1 when both are 0), a point at image-axis coordinates (a, b) lands
// at pixel coordinates x = width / 2 + (a - cx) · scale, y = height / 2 - (b - cy) · scale, and
// pixel (i, j) is sampled at its centre (i + 0.5, j + 0.5). Row 0 is the top of the image.
//
// Colour of a covered pixel (the nearest fragment; equal depths keep the earlier triangle):
//   texel × vertex colour × MaterialInfo::base_colour, multiplied in LINEAR light (texels are
//   sRGB bytes, converted exactly with image::srgb8_to_linear; vertex and base colours are
//   linear as scene/model.hpp defines them), then × the shade, then encoded back to 8-bit sRGB
//   by rounding (so a texel times exact 1s comes out as the texel's bytes).
//   * texel: the material's texture (when RenderOptions::textured and the material has a
//     well-formed texture: width, height > 0 and rgba of 4 × width × height bytes), sampled
//     nearest-neighbour at the pixel centre's uv0 (interpolated linearly, exact for an
//     orthographic camera): column floor(u · width), row floor((1 - v) · height) (uv0 has V up,
//     texture rows run top to bottom), each index then wrapped by the texture's wrap_s / wrap_t:
//     repeat (modulo the size), mirrored_repeat (period 2 · size, the second half reversed),
//     clamp_to_edge (clamped to 0 .. size - 1). A non-finite coordinate samples index 0.
//     Without a texture the texel is white. A mesh without uv0 samples uv (0, 0).
//   * vertex colour: Mesh::colours interpolated (white when the mesh has none).
//   * base colour: MaterialInfo::base_colour (white when the scene has no material_info entry).
//   * shade: 1 for textured and for unlit (MaterialInfo::unlit) meshes; otherwise Lambert from a
//     light fixed in VIEW space (the same in every view): 0.35 + 0.65 · max(0, n · l) with
//     l = normalise(-1, 1, 2) in (image right, image up, toward the camera) and n the mesh's
//     interpolated normal (Mesh::normals when every one of the triangle's normals is finite and
//     non-zero, else the face normal), normalised and turned toward the camera (two-sided).
// Alpha (of texel × vertex colour × base colour): AlphaMode::opaque ignores it (the pixel gets
// alpha 255); mask drops fragments with alpha < alpha_cutoff; blend meshes are drawn after every
// opaque and mask mesh, in scene order, drawn where not behind the depth buffer (equal depth
// draws, so a decal on its surface shows) without writing depth, composited "over" the pixel in
// sRGB bytes: round(a · src + (1 - a) · dst) per channel, alpha round(a · 255 + (1 - a) · dst). Uncovered pixels keep the
// background colour (alpha included).
//
// Robustness: vertices with a non-finite coordinate, triangles with an index beyond the mesh's
// positions, zero-area triangles and triangles reaching beyond 2^18 pixels from the image (only
// possible with a RenderOptions::fit smaller than the scene) are skipped; bounding_box ignores non-finite positions;
// nothing in a scene makes render_scene throw or read out of bounds.

#include "libmod/image/image.hpp"
#include "libmod/scene/model.hpp"
#include "libmod/scene/validate.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace mod::render {

using scene::Vec3;

// An axis-aligned box in model space, and the box of every finite position of a scene's meshes:
// the scene layer's (libmod/scene/validate.hpp).
using Box = scene::BoundingBox;
using scene::bounding_box;
// The smallest box holding both (an empty box holds nothing).
Box union_box(const Box& a, const Box& b);

enum class View : std::uint8_t { front, side, top };
// "front", "side", "top".
std::string_view to_string(View view) noexcept;
// Parses "front" / "side" / "top"; usage error otherwise.
View parse_view(std::string_view text);

struct RenderOptions {
    std::uint32_t width = 256, height = 256;  // each 1 .. max_render_dimension
    View view = View::front;
    bool textured = true;  // false: every mesh shaded with vertex × base colour, textures ignored
    image::Rgba8 background{40, 44, 52, 255};
    // The box fitted to the image instead of bounding_box(scene). Pass the union of a "before"
    // and an "after" scene's boxes to draw both at the same scale (a mesh imported 100× too
    // large then looks 100× too large). An empty box means: use the scene's own.
    std::optional<Box> fit;
};

inline constexpr std::uint32_t max_render_dimension = 4096;

// Pixels per model unit with which render_scene draws `fit` in `view` on a width × height
// picture (what a size bar under before/after pictures drawn with that fit measures); 0 when the
// box is empty or a point in that view (render_scene then draws at 1 pixel per unit, centred).
double pixels_per_unit(const Box& fit, View view, std::uint32_t width, std::uint32_t height);

// The picture of `scene` as the conventions above define it: width × height RGBA8, rows top to
// bottom. Usage error when width or height is 0 or above max_render_dimension. An empty scene
// (or one without a finite vertex) gives the background only.
image::RgbaImage render_scene(const scene::Scene& scene, const RenderOptions& options = {});

// Front and side views (options.view ignored) next to each other with side_by_side, gap
// pixels of options.background between them: what `modkit … preview` writes without --view.
image::RgbaImage render_front_side(const scene::Scene& scene, const RenderOptions& options = {},
                                   std::uint32_t gap = 8);

// The images left to right, `gap` columns of `background` between neighbours, top-aligned; the
// result is as tall as the tallest image and shorter ones are padded below with `background`.
// No images: a 0 × 0 image. Usage error when an image's pixels do not match its size; limit
// error when the result would exceed max_compose_dimension in either direction.
image::RgbaImage side_by_side(std::span<const image::RgbaImage> images, std::uint32_t gap,
                              image::Rgba8 background);

// Every pixel repeated factor × factor times (nearest-neighbour zoom by an integer factor).
// Usage error when factor is 0 or the image's pixels do not match its size; limit error when
// the result would exceed max_compose_dimension in either direction.
image::RgbaImage scale_nearest(const image::RgbaImage& image, unsigned factor);

inline constexpr std::uint32_t max_compose_dimension = 32768;

}  // namespace mod::render
