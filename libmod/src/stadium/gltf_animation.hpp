#pragma once
// A small bounds-checked reader for the animations of a glTF 2.0 binary (.glb), internal to the
// stadium layer (animation_replace.cpp). The scene layer's contained import carries no
// animations, so the few structures needed are read here: the JSON chunk (RapidJSON) and the
// BIN chunk, node names, and each animation's channels with their samplers (input times as
// float; outputs float, or normalised integers for rotations). Every offset, stride and count is
// checked against its buffer view and the BIN chunk before anything is allocated; errors are
// format errors naming the file, the byte offset where known and the JSON path
// (`animations[0].samplers[2].output`).

#include "libmod/core/bytes.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mod::stadium::gltf {

enum class Interpolation { linear, step, cubic };
enum class Path { translation, rotation, scale };

struct Sampler {
    Interpolation interpolation = Interpolation::linear;
    std::vector<float> times;   // strictly increasing is not required by all exporters: checked non-decreasing
    std::vector<float> values;  // components per key (3 or 4); ×3 for cubic (in-tangent, value, out-tangent)
    unsigned components = 3;
    // The value at `t` seconds (clamped to the first/last key, as glTF players do). Rotations
    // interpolate by normalised lerp after taking the shorter arc (linear) or as glTF's cubic
    // spline, then are normalised by the caller.
    std::array<double, 4> evaluate(double t, bool rotation) const;
};

struct Channel {
    std::size_t node = 0;
    Path path = Path::translation;
    std::size_t sampler = 0;  // index in Animation::samplers
};

struct Animation {
    std::string name;  // may be empty
    std::vector<Sampler> samplers;
    std::vector<Channel> channels;  // weights channels are skipped (counted in skipped_weights)
    std::size_t skipped_weights = 0;
    double duration = 0;  // largest input time
    // extras the exporter records (all optional), as top-level keys or in extras.modkit_skeletal:
    // frame_count, hold, loop_frame, start_frame, index (the skeletal animation it came from).
    std::optional<std::int64_t> frame_count, loop_frame, start_frame, index;
    std::optional<bool> hold;
};

struct File {
    std::vector<std::string> node_names;  // "" for unnamed nodes
    std::vector<Animation> animations;
};

// Reads `data` (a .glb). `file` names it in errors.
File read_glb_animations(ByteView data, const std::string& file);

}  // namespace mod::stadium::gltf
