#pragma once
// Replacing a skeletal animation of a Pokémon model from a glTF animation (the write side of
// issue 18). Spec: doc/formats/stadium-animation-write.md; encoding: animation_encode.hpp.
//
// Source: a .glb. Its animation channels target nodes named as the exporter names the bones
// ("bone<i>_id<id>", export.hpp); a channel on any other node is an error listing every such
// name, except the texture-animation helper joints export writes (texswitch_mat…, which Blender
// keys into every action): ignored with a warning, texture animations kept. Each node's translation / rotation / scale is taken as the bone's local T, R, S of the
// game's T·Rz·Ry·Rx·S (model units, a quaternion, factors), sampled at f / 30 s for frames
// f = 0 … frame_count − 1 (frame_count = round(duration · 30) + 1; a different extras.frame_count
// is warned about; so are keys off the 30 fps grid, naming their rate — Blender's 24 fps — and
// a frame count other than the replaced animation's; keys off the grid that end less than one of
// their own intervals before the replaced animation's end keep its frame count, the last key held:
// a client resampling at its rate drops that tail), the
// quaternion turned back into the game's Euler angles (euler_from_matrix, each frame's reference
// the previous frame's angles, frame 0's the bind rotation). A path the animation does not
// drive, and every bone it does not animate, keeps the bone's bind value (0x1D). Loop/hold and
// the start frame: the animation's extras (hold, loop_frame, start_frame) when present, else the
// replaced animation's own header values. Extras are read as top-level keys or in the exporter's
// extras.modkit_skeletal object.
//
// Channels: the animation gets max(the replaced animation's channel count, 1 + the largest bone
// channel byte other than 0xFF) channels; a channel no bone uses gets identity constants. Bones
// sharing one channel byte move together in the game: the animation must move them alike (else a
// conflict); a bone whose channel never binds (0xFF) must stay at its bind pose (else a conflict).
//
// Writing: the new descriptors and arrays are appended to the FRAGMENT body
// (FragmentImage::append) and the animation's header is rewritten in place (its four pointer
// words, already relocated, now point at the new data); a header another root entry shares is
// left alone and a new one is appended (with R_MIPS_32 entries for its pointer words) and root
// entry INDEX re-pointed. Nothing else moves: every other animation (skeletal and aux) keeps its
// bytes and offsets; the old descriptors and arrays stay in the body,
// unreferenced. Errors (nothing is written): usage (no such animation, an ambiguous or unknown
// --animation), format (not a .glb, hostile accessors, unknown joint names), limit (what the
// format cannot hold, see animation_encode.hpp; the entry's budgets when repacking), conflict
// (shared channels moved differently, unbound bones moved).

#include "libmod/stadium/animation_encode.hpp"
#include "libmod/stadium/archive.hpp"
#include "libmod/stadium/fragment_image.hpp"
#include "libmod/stadium/model.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mod::stadium {

struct AnimationReplaceOptions {
    // The glTF animation to take: its name, or its index in the file ("2"). Default: the only
    // one; with several, the one whose extras say it came from skeletal animation INDEX
    // (modkit_skeletal.index), else the one named "animation<INDEX>…"/"anim<INDEX>…", when
    // exactly one does.
    std::optional<std::string> animation;
    // A bone with 0x1D flag bit 1 (camera-facing, src/12D80.c func_80010228) is not drawn from
    // T·Rz·Ry·Rx·S: the game orients it by the view matrix, and export wrote its glTF TRS with an
    // identity view, so its keys are not the T, R, S the game applies. By default an animation
    // that moves such a bone is refused (conflict naming it); with camera_bones_as_trs its keys
    // are taken as T, R, S anyway and a warning names each bone.
    bool camera_bones_as_trs = false;
};

struct AnimationReplaceReport {
    std::size_t model = 0;  // archive entry (ROM-level call), else 0
    std::size_t index = 0;  // skeletal animation replaced
    std::string source_animation;  // its name in the glTF ("#N" when unnamed)
    std::size_t source_animation_index = 0;
    bool previous_hermite = false;
    std::uint16_t frame_count = 0;
    bool hold = false;
    std::int16_t start_frame = 0, loop_frame = 0;
    bool trans16 = false;
    std::size_t channels = 0;
    std::vector<std::string> bones_animated;  // bones the glTF drives
    std::vector<std::string> bones_kept;      // bones with a channel that keep their bind values
    std::size_t constants = 0, streams = 0, shared_streams = 0;
    QuantisationError error;  // the largest quantisation error per component kind
    std::uint32_t header = 0;       // body offset of the new header
    std::uint32_t bytes_added = 0;  // growth of the FRAGMENT body
    std::vector<std::string> warnings;
    // The source samples as the stored animation already does (every frame of every channel a
    // bone carries: rotations as matrices within 1e-5, translations within 1e-3 units, scales within 1e-4 (plus 2e-7 of the value: float32 precision), all far below one quantisation step; the
    // same hold, start and loop frame and counts): nothing is written (image untouched,
    // bytes_added 0, header the old one, error zero, the ROM call returns the input's bytes).
    // An unedited export read back is such a source.
    bool unchanged = false;
    // What the game samples from the new animation: expected[channel][frame].
    std::vector<std::vector<ChannelPose>> expected;
};

// The exporter's name of bone `i` ("bone<i>_id<id>").
std::string animation_bone_name(const Model& model, std::size_t bone);

// Replaces skeletal animation `index` of `model` in `image` (made from model.fragment) with the
// glTF animation in `source` (`source_name` names it in errors).
AnimationReplaceReport replace_animation(const Model& model, FragmentImage& image, std::size_t index, ByteView source,
                                         const std::string& source_name, const AnimationReplaceOptions& options = {});

// The whole edit on a ROM: model entry `model`, then the archive repacked (apply_model_edit) and
// the result read back: the new animation must sample exactly to `expected` and every other
// animation must decode identically (else a conflict error; nothing is returned).
struct RomAnimationReplace {
    Bytes rom;  // the input's byte order
    AnimationReplaceReport report;
};
RomAnimationReplace replace_animation_in_rom(const StadiumRom& rom, const Archive& archive, std::size_t model,
                                             std::size_t index, ByteView source, const std::string& source_name,
                                             const AnimationReplaceOptions& options = {}, const RepackOptions& repack = {});

}  // namespace mod::stadium
