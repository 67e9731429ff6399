#pragma once
// Issue 17 forge cases for the Stadium sample (review §5.3 items 1 and 8): non-zero bone rest
// rotations, mirror/clamp wrap on a render tile, unlit geometry with RGBA vertex colours.
// sample/stadium.cpp calls these at the points they decide.
#include "libmod/stadium/builder.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace mod::sample {

// Bone `b`'s rest rotation (binary angles, 65536 = 360°): bone 1 of every model turns 90° about
// y (0x4000), bone 2 turns 45° about x (0x2000); others 0.
stadium::Vec3s sample_bone_rotation(std::size_t model, int bone);

// The material DL of material `k` (texture `texture`): material 1 (the RGBA16 texture) mirrors
// S and clamps T (cms = G_TX_MIRROR, cmt = G_TX_CLAMP); the others keep the default wrap.
stadium::DlId sample_material_dl(stadium::ModelBuilder& m, std::size_t k, std::int16_t texture);

// Issue 33 (review A18): model 7 (five nested bones) exercises the 0x1D flag paths of
// src/12D80.c: bone 1 has flag bit 0 (func_8000F730 + the scale stack) with the non-uniform
// scale (2, 1, 0.5); bone 2, its child, has flag bit 0 too (it inherits that stack, and its
// rest rotation is 45° about x); bone 3 has flag bit 1 (camera-facing, func_80010228). Other
// bones and models: flags 0, scale 1.
inline constexpr std::size_t sample_bone_flags_model = 7;
struct SampleBoneFlags {
    std::uint8_t flags = 0;
    std::int32_t sx = 0x10000, sy = 0x10000, sz = 0x10000;  // 16.16
};
SampleBoneFlags sample_bone_flags(std::size_t model, int bone);

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

// Review §5.3 item 5 on the sample (PERS-SZP as func_80003890 unpacks it): entry 9 (model 10)
// is stored with size1 = the fragment size, size2 = size1 + 0x40 and three fix-ups, applied in
// order after the Yay0 decode and before the zero fill of [size1, size2):
//   {0x11111111, c}, {0xF80107C1, c}  c = palette 0's colours: the stream holds 0xDEADBEEF
//                                     there; the second fix-up wins (colours 0xF801 red, 0x07C1
//                                     green: the model's palette 0 starts with them);
//   {0xCAFEF00D, size1 + 8}           inside [size1, size2): the zero fill erases it.
// The Yay0 stream decompresses to size1 + 0x10 bytes (16 bytes "fixup-zero-fill!" after the
// fragment, also erased by the zero fill). header_size = 0x18 + 3 × 8 = 0x30.
inline constexpr std::size_t sample_fixup_entry = 9;
inline constexpr std::uint32_t sample_fixup_colours = 0xF80107C1u;
inline constexpr std::uint32_t sample_fixup_slack = 0x40;
// The fragment's final content (what the game holds after unpacking): palette 0's first two
// colours are the fix-up's. No-op for other models.
void sample_fixup_content(Bytes& fragment, std::size_t model);
// The PERS-SZP blob of entry 9 (unpadded).
Bytes sample_fixup_blob(const Bytes& fragment);

// Review §5.3 item 6 on the sample (relocations as Memmap_RelocateFragment applies them): model
// 11 (entry 11) carries a texture page of 16 RGBA16 32×32 textures (2 KiB each, in the texture
// table after the drawn ones, drawn by no material: real model fragments are ~0x25000 bytes),
// links its root struct last, beyond 0x8000, and returns it through a getter whose one HI16 is
// shared by two LO16s: lui v1, %hi(root) / addiu v0, v1, %lo(root) / jr ra /
// lw t0, %lo(root + 0x14)(v1). Both low halves are >= 0x8000, so %hi carries (+1: 0x8FF1).
inline constexpr std::size_t sample_large_model = 11;
inline constexpr int sample_texture_page = 16;

// Review §5.3 item 7 on the sample: model 5 (three bones) lays its script out with the
// control-flow commands of geo_layout.c and the two DL nodes with their own transform:
//   17 1C 05 | 1D(b0) 05 23 22 | 00 → A | 03 → B | 1E(bone 0, wrapper DL) | 02 → C
//   A: 1D(b1) 05 23 22 | 20 | 21 | 01      (bone 1's level left open: 01 restores the level
//                                            the 00 was called at, so bone 2 is bone 0's child)
//   B: 1D(b2) 05 23 22 06 04
//   C: 06 06 01
// The 0x20 node draws the wrapper DL (bone 0's box) rotated by (20°, −20°, 90°) (the game's
// (d << 15) / 180: 3640, −3640, 16384) and translated by (5, 10, −15) under bone 1; the 0x21
// node draws it as a billboard at (10, −20, 30) with scale 1.5 (0x18000) under bone 1.
inline constexpr std::size_t sample_layout_case_model = 5;
inline constexpr stadium::Vec3s sample_node_degrees{20, -20, 90};
inline constexpr stadium::Vec3s sample_node_translation{5, 10, -15};
inline constexpr stadium::Vec3s sample_billboard_translation{10, -20, 30};
inline constexpr std::uint32_t sample_billboard_scale = 0x18000;
// Writes the rest of model 5's script after `17 1C 05`; bone_block(s, b) writes bone b's
// 1D 05 23 22.
void sample_case_layout(stadium::LayoutScript& s, const std::function<void(stadium::LayoutScript&, int)>& bone_block,
                        stadium::DlId wrapper_dl);

}  // namespace mod::sample
