#pragma once
// Issue 17 forge cases for the Stadium sample (review §5.3 items 1 and 8): non-zero bone rest
// rotations, mirror/clamp wrap on a render tile, unlit geometry with RGBA vertex colours.
// sample/stadium.cpp calls these at the points they decide.
#include "libmod/stadium/builder.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace mod::sample {

// Bone `b`'s rest rotation (binary angles, 65536 = 360°): bone 1 of every model turns 90° about
// y (0x4000), bone 2 turns 45° about x (0x2000); others 0.
stadium::Vec3s sample_bone_rotation(std::size_t model, int bone);

// The material DL of material `k` (texture `texture`): material 1 (the RGBA16 texture) mirrors
// S and clamps T (cms = G_TX_MIRROR, cmt = G_TX_CLAMP); the others keep the default wrap.
stadium::DlId sample_material_dl(stadium::ModelBuilder& m, std::size_t k, std::int16_t texture);

// Whether bone `b`'s geometry is unlit: the last bone of odd-numbered models. Its geometry mode
// is 0x00200405 (z-buffer, shade, cull back, smooth shading; no G_LIGHTING 0x00020000) instead of
// 0x00220405 and its vertices
// carry RGBA colours (sample_unlit_colour) instead of normals.
bool sample_bone_unlit(std::size_t model, int bones, int bone);
inline constexpr std::uint32_t sample_lit_geometry_mode = 0x00220405u;
inline constexpr std::uint32_t sample_unlit_geometry_mode = 0x00200405u;
// Corner c's colour on an unlit box: R = 0xFF, G = 0x80 | c · 8, B = 0x20, A = 0xFF.
std::array<std::uint8_t, 4> sample_unlit_colour(int corner);

// R9 on the sample: the last model's palette 0 TLUT display list is rewritten (after linking) to
// load 12 colours from its own colours + 8 bytes (SETTIMG address + 8, LOADTLUT count 12) while
// the table entry still says 16 from the start: the list is authoritative, so the palette decodes
// as the stored colours 4..15.
inline constexpr std::size_t sample_tlut_override_model = 13;
void sample_tlut_override(Bytes& fragment, std::size_t model);

}  // namespace mod::sample
