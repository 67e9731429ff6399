#pragma once
// Pokémon Stadium animations, read side: skeletal animations (bone channels) and aux (texture)
// animations of a model FRAGMENT, decoded as the game reads them, and sampled per integer frame
// with the game's arithmetic. Ground truth: ../shared/reference/stadium_animation.md (§4.x below);
// our spec: doc/formats/stadium-animation.md. The write side (re-encoding, `animation replace`)
// builds on these structs: every raw field and array is kept so an unchanged animation can be
// compared or re-emitted byte for byte.
//
// Units of sampled values (ChannelPose):
//   translation  model units (packed: the integer field; Hermite: the evaluated value, f32)
//   rotation     s16 binary angles (65536 = 360°, as the 0x1D bind rotation)
//   scale        factors (packed: /1000; Hermite: /100)
//
// Decoding never refuses what the game would still play: the §4.10 checks (descriptor count
// not a multiple of 3, a bone channel past the descriptors, a packed index past the array's
// extent, Hermite keys not strictly increasing, aux values past the texture table, unknown
// flag bits) are `findings`. It refuses (format error naming the fragment offset and the path
// `animation[i].…`) only what cannot be read at all: a header, descriptor table or channel
// table outside the body, an array pointer outside this fragment, an element a descriptor
// reads outside the body (the game would read other memory). A packed field at index −1
// (n == 0 with offset 0) is read as the hardware reads it (read_packed_field). Every count is
// bounded by the body before anything is allocated.

#include "libmod/stadium/fragment.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mod::stadium {

struct Model;

inline constexpr std::uint32_t skeletal_header_size = 0x1C;   // §4.2
inline constexpr std::uint32_t aux_header_size = 0x14;        // §4.8
inline constexpr std::uint32_t animation_descriptor_size = 10;          // §4.2
inline constexpr double frames_per_second = 30.0;  // export time base: hypothesis stadium-anim-fps/1 (doc/formats/stadium-animation.md)

// Header flag bits (the low byte of the s16 at +0; §4.2, §4.8).
namespace anim_flag {
inline constexpr std::uint16_t hold = 0x02;         // at the end hold the last frame (else loop)
inline constexpr std::uint16_t trans16 = 0x04;      // packed translations are 16-bit (else 12)
inline constexpr std::uint16_t hermite = 0x08;      // Hermite key mode (else packed streams)
inline constexpr std::uint16_t known = hold | trans16 | hermite;
}  // namespace anim_flag

// Descriptor interp bits (Hermite mode): wide keys (8 bytes) for the component.
namespace interp_flag {
inline constexpr std::uint8_t wide_translation = 0x01, wide_rotation = 0x02, wide_scale = 0x04;
}

enum class Component : std::uint8_t { scale = 0, rotation = 1, translation = 2 };
const char* to_string(Component c) noexcept;

// One 10-byte descriptor verbatim (§4.2): u8 nScale, nRot, nTrans, interp; u16 offsets
// (element indices, never byte offsets).
struct AnimationDescriptor {
    std::uint8_t n_scale = 0, n_rot = 0, n_trans = 0, interp = 0;
    std::uint16_t scale_off = 0, rot_off = 0, trans_off = 0;

    std::uint8_t count(Component c) const noexcept;
    std::uint16_t offset(Component c) const noexcept;
    friend bool operator==(const AnimationDescriptor&, const AnimationDescriptor&) = default;
};

// One of the header's three data arrays (scale, rotation, translation). The extent is not
// stored in the data: `extent` is the bytes from the pointer to the next structure the model
// walk knows of (the next pointer target, or the body end), `words` the big-endian u16 words
// from the pointer over max(extent, what the descriptors read), so sampling never leaves it.
struct AnimationArray {
    std::uint32_t pointer = 0;  // link address as stored in the header
    std::uint32_t offset = 0;   // body offset of the pointer's target
    std::uint32_t extent = 0;   // bytes up to the next known structure
    std::vector<std::uint16_t> words;
    // The halfword before the pointer, when a packed n == 0 descriptor with offset 0 reads
    // element −1 (s16 scales, 16-bit translation fields: read_packed_field) and it lies inside
    // the body.
    std::optional<std::uint16_t> word_before;
    friend bool operator==(const AnimationArray&, const AnimationArray&) = default;
};

// A decoded skeletal animation (§4.2), every field verbatim.
struct SkeletalAnimationData {
    std::size_t index = 0;         // in the root's array
    std::uint32_t header = 0;      // body offset of the 0x1C-byte header
    std::uint16_t flags = 0;       // s16 at +0, read as u16
    std::array<std::uint8_t, 2> unknown2{};  // +0x02, meaning unknown: kept
    std::int16_t start_frame = 0;  // +0x04
    std::int16_t loop_frame = 0;   // +0x06
    std::uint16_t descriptor_count = 0;  // +0x08 (= 3 × channels)
    std::uint16_t frame_count = 0;       // +0x0A
    std::uint32_t descriptor_pointer = 0;  // +0x0C link address
    std::uint32_t descriptor_offset = 0;   // its body offset
    std::vector<AnimationDescriptor> descriptors;  // descriptor_count entries
    AnimationArray scale, rotation, translation;   // +0x10, +0x14, +0x18
    std::vector<std::string> findings;  // §4.10 checks that did not stop the read

    bool hold() const noexcept { return flags & anim_flag::hold; }
    bool trans16() const noexcept { return flags & anim_flag::trans16; }
    bool hermite() const noexcept { return flags & anim_flag::hermite; }
    // Channels with all three descriptors present (descriptor_count / 3).
    std::size_t channel_count() const noexcept { return descriptor_count / 3u; }
    // Whether bone channel byte `c` animates: 3c + 2 < descriptor_count (§4.3; 0xFF never does
    // with fewer than 768 descriptors).
    bool binds(std::uint8_t channel) const noexcept { return 3u * channel + 2u < descriptor_count; }
    const AnimationArray& array(Component c) const noexcept;
};

// A decoded aux (texture) animation (§4.8).
struct AuxAnimationData {
    std::size_t index = 0;
    std::uint32_t header = 0;      // body offset of the 0x14-byte header
    std::uint16_t flags = 0;
    std::array<std::uint8_t, 2> unknown2{};
    std::int16_t start_frame = 0, loop_frame = 0;
    std::uint16_t channel_count = 0, frame_count = 0;
    std::uint32_t channel_pointer = 0, stream_pointer = 0;  // link addresses
    std::uint32_t channel_offset = 0, stream_offset = 0;    // body offsets
    struct Channel {
        std::uint16_t count = 0, base = 0;
        friend bool operator==(const Channel&, const Channel&) = default;
    };
    std::vector<Channel> channels;  // channel_count entries
    std::uint32_t stream_extent = 0;  // bytes up to the next known structure
    // Stream bytes from the pointer over max(extent, what the channels read); stream_before is
    // the byte before the pointer (read for count == 0 with base 0), when inside the body.
    Bytes stream;
    std::optional<std::uint8_t> stream_before;
    std::vector<std::string> findings;

    bool hold() const noexcept { return flags & anim_flag::hold; }
};

struct ModelAnimations {
    std::vector<SkeletalAnimationData> skeletal;
    std::vector<AuxAnimationData> aux;
    // Model-level findings (bones whose channel has no descriptors, etc.) plus every
    // animation's own findings prefixed with "animation[i]: " / "aux_animation[i]: ".
    std::vector<std::string> findings;
};

// Decodes every animation of a model that read (read_model), in root order. Errors: format,
// naming `path` (e.g. "archive[3].fragment") and the body offset, for data that cannot be read
// (see the top of this file).
ModelAnimations read_animations(const Model& model, const std::string& path = "fragment");
SkeletalAnimationData read_skeletal_animation(const Model& model, std::size_t index, const std::string& path = "fragment");
AuxAnimationData read_aux_animation(const Model& model, std::size_t index, const std::string& path = "fragment");

// ---- the game's primitives (exposed for tests and the encoder) -------------------------------------

// bitfield(base, i, bits) of src/F420.c: p = i·bits; the big-endian halfwords base[p/16] and
// base[p/16 + 1] as one 32-bit word, shifted left by p % 16, arithmetic shift right by 32 − bits:
// the sign-extended field. `words` past the end read as 0 (only bits the field does not use).
std::int32_t read_bitfield(const std::vector<std::uint16_t>& words, std::uint32_t index, unsigned bits) noexcept;
// The same read as the game's func_80010500 executes it for any s32 index, including −1 (a
// count-0 descriptor at offset 0): p = index·bits; halfword p/16 with C's truncating division
// (−1 → `word_before` when the array has it, else 0); left shift by p % 16 (C remainder) and
// arithmetic right shift by −bits, each amount masked to its low five bits as MIPS sllv/srav
// do; the low halfword as s16 (spC.y). For index −1: 12-bit fields read the low 12 bits of
// halfword 1, 16-bit fields the halfword before the array. Equals read_bitfield for index ≥ 0.
std::int32_t read_packed_field(const AnimationArray& array, std::int64_t index, unsigned bits) noexcept;

// Hermite evaluation of §4.6 at integer frame t over `keys` (frame, value, in, out; narrow keys
// have in == out == their one tangent), f32 arithmetic in the order src/17300.c writes it
// (func_80016934: products left to right, 2·x·x·x·y·y·y − 3·x·x·y·y + 1 …, the four terms
// summed left to right). Keys whose frames
// do not increase where t falls between them (division by zero in the game) give k[i].value.
struct HermiteKey {
    std::int16_t frame = 0, value = 0, in_tangent = 0, out_tangent = 0;
};
float evaluate_hermite(const std::vector<HermiteKey>& keys, std::int32_t t) noexcept;

// Hermite rotation: tenths of a degree → wrap to [0°, 360°) → (deg / 360) · 65536 → s16
// (truncation, so ≥ 180° becomes negative).
std::int16_t hermite_angle(float tenths) noexcept;

// ---- sampling -----------------------------------------------------------------------------------

// Per channel c (descriptors 3c, 3c+1, 3c+2 = x, y, z): the pose the game builds the bone from.
struct ChannelPose {
    std::array<double, 3> translation{};
    std::array<std::int16_t, 3> rotation{};
    std::array<double, 3> scale{1, 1, 1};
    friend bool operator==(const ChannelPose&, const ChannelPose&) = default;
};

// The value one descriptor gives component `c` at integer frame `frame` (negative → 0, as the
// game clamps), in the units above (rotation as the s16 angle, widened).
double sample_component(const SkeletalAnimationData& a, std::size_t descriptor, Component c, std::int32_t frame);
// Channel `channel` at `frame`; usage error when 3·channel + 2 ≥ descriptor_count.
ChannelPose sample_channel(const SkeletalAnimationData& a, std::size_t channel, std::int32_t frame);
// Every bone of the model at `frame`: bones whose channel binds get the sampled pose, the others
// their bind pose (0x1D translation, rotation, scale / 65536). Index = Model::bones index.
std::vector<ChannelPose> sample_bones(const Model& model, const SkeletalAnimationData& a, std::int32_t frame);
// The bind pose of every bone (what no animation changes).
std::vector<ChannelPose> bind_poses(const Model& model);

// Component kind, for listings: "constant" (packed n == 1 or Hermite n < 2), "stream" (packed
// n ≥ 2), "stream@off-1" (packed n == 0), "keys" / "wide keys" (Hermite n ≥ 2).
std::string component_kind(const SkeletalAnimationData& a, std::size_t descriptor, Component c);

// Texture index channel `channel` shows at `frame` (§4.8): stream[base + min(f, count − 1)];
// count == 0 reads base − 1 as the game. Usage error for a channel ≥ channel_count.
std::uint8_t sample_aux(const AuxAnimationData& a, std::size_t channel, std::int32_t frame);

// ---- time (§4.4) --------------------------------------------------------------------------------

// Integer frames the game samples on ticks 1..ticks after starting at `start` with speed 1
// (position (start << 16) − 0x10000, +0x10000 per tick; forward past frame_count: hold →
// frame_count − 1, else loop_frame).
std::vector<std::int32_t> skeletal_frames(const SkeletalAnimationData& a, std::int32_t start, std::size_t ticks);
// Aux: counter from start − 1, +1 per tick; past frame_count − 1: hold → last, else loop_frame.
std::vector<std::int32_t> aux_frames(const AuxAnimationData& a, std::int32_t start, std::size_t ticks);

}  // namespace mod::stadium
