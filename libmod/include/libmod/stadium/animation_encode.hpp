#pragma once
// Pokémon Stadium skeletal animations, write side: per-frame samples → the packed mode the game
// reads (../shared/reference/stadium_animation.md §4.5; read side: animation.hpp). Spec of the
// choices made here: doc/formats/stadium-animation-write.md.
//
// Per channel c (descriptors 3c, 3c+1, 3c+2 = x, y, z) and component:
//   * the values are quantised first: translation round(v) (model units), rotation
//     round(v / 16) as a 12-bit field (× 16 when sampled: 4096 steps per turn, wrapped),
//     scale round(v · 1000) (s16 / 1000);
//   * a component whose quantised values never change is a constant in the descriptor (n = 1):
//     rotation offRot = the 12-bit field, translation offTrans = the value (16-bit mode) or its
//     low 12 bits (12-bit mode), scale offScale = the value as u16 (a negative constant scale,
//     which the u16 cannot hold, becomes a 2-entry stream);
//   * otherwise a stream of n values (n = 1 + the last frame at which the value still changes,
//     since the game reads off + min(f, n − 1)); identical streams of one kind share their data.
//   * Translations are 12-bit fields when every translation value (constants included) lies in
//     [−2048, 2047], else 16-bit (header flag 0x04, per animation).
// Rotation and translation streams are bit-packed big-endian (field i at bit i·bits), followed
// by one zero halfword (the game's reader touches the halfword after a field).
//
// Limits (ErrorKind::limit, one line naming the channel, axis and component): frame count 1..65535;
// a component that still changes after frame 254 (n is a u8: 255 values at most); a translation
// outside s16; a scale whose ·1000 leaves s16 (u16 for constants); a stream offset past 65535
// (offsets are u16 element indices); more than 65535 descriptors. Non-finite samples are format
// errors.

#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/builder.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mod::stadium {

// One channel at one frame, unquantised: translation in model units, rotation in binary angles
// (65536 = 360°; any real value, wrapped), scale factors.
struct PoseSample {
    std::array<double, 3> translation{};
    std::array<double, 3> rotation{};
    std::array<double, 3> scale{1, 1, 1};
};

struct EncodeOptions {
    // The header's flags: 0x02 (hold) and bits modkit does not know are kept; 0x04 is chosen by
    // range and 0x08 (Hermite) cleared.
    std::uint16_t flags = 0;
    std::array<std::uint8_t, 2> unknown2{};
    std::int16_t start_frame = 0, loop_frame = 0;
    // Frames to encode; 0: the channels' sample count (a model with no channel needs it).
    std::uint32_t frame_count = 0;
};

// The largest difference between a sample and what the game samples from the encoding.
struct QuantisationError {
    double rotation_degrees = 0;  // angular difference, wrapped to ±180°
    double translation = 0;       // model units
    double scale = 0;             // factor
};

struct EncodedAnimation {
    // The builder's form (ModelBuilder::add_animation takes it as is): header fields, one
    // descriptor per entry of `channels`, rotation/translation arrays as packed words.
    SkeletalAnimation animation;
    bool trans16 = false;
    QuantisationError error;
    std::size_t constants = 0, streams = 0, shared_streams = 0;
    // What sample_channel gives for the encoding: expected[c][f].
    std::vector<std::vector<ChannelPose>> expected;
};

// channels[c][f]: channel c at frame f; every channel has the same number of frames (the frame
// count, 1..65535). Errors: see the top of this file; usage for ragged input.
EncodedAnimation encode_packed(const std::vector<std::vector<PoseSample>>& channels, const EncodeOptions& options = {});

// Packs signed fields of `bits` (12 or 16) big-endian, field i at bit i·bits, plus one zero
// halfword. Values are masked to `bits`.
std::vector<std::uint16_t> pack_bitfields(const std::vector<std::int32_t>& fields, unsigned bits);

// ---- rotations ---------------------------------------------------------------------------------

using Matrix3 = std::array<double, 9>;  // row-major, acting on column vectors

// The game's local rotation Rz·Ry·Rx (func_8000F5A8 read as column vectors), angles in binary
// angles (65536 = 360°).
Matrix3 rotation_matrix(const std::array<double, 3>& angles);
// A unit quaternion (x, y, z, w as glTF stores it; normalised here) as a rotation matrix.
Matrix3 quaternion_matrix(const std::array<double, 4>& q);

// Binary angles (x, y, z) with rotation_matrix(result) == m (m a rotation). Of the two Euler
// solutions (y and 180° − y) the one nearest `reference` (summed wrapped distance; ties: |y| ≤
// 90°) is returned, each angle wrapped to the turn nearest its reference. Gimbal lock (cos y
// below 1e-9): x = reference x and z follows from the matrix, so the choice is deterministic.
std::array<double, 3> euler_from_matrix(const Matrix3& m, const std::array<double, 3>& reference = {});

// Wrapped difference a − b of binary angles, in [−32768, 32768).
double angle_difference(double a, double b) noexcept;

}  // namespace mod::stadium
