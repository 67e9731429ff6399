#pragma once
// Test helpers for animation replacement: a minimal .glb writer (nodes with names, animations
// with float samplers) and the game's sampled poses as a glTF animation, built here so the
// write side is tested independently of the exporter.

#include "libmod/core/bytes.hpp"
#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/animation_encode.hpp"
#include "libmod/stadium/model.hpp"

#include <array>
#include <string>
#include <vector>

namespace animtest {

struct Track {
    std::string node;
    std::string path;  // translation, rotation, scale
    std::vector<float> times;
    std::vector<float> values;  // 3 or 4 per key (x3 for CUBICSPLINE)
    std::string interpolation = "LINEAR";
};

struct Anim {
    std::string name;
    std::vector<Track> tracks;
    std::string extras_json;  // "" or a JSON object
};

mod::Bytes make_glb(const std::vector<std::string>& nodes, const std::vector<Anim>& anims);

// (x, y, z, w) of a rotation matrix.
std::array<double, 4> quaternion_of(const mod::stadium::Matrix3& m);

// The poses sample_bones gives for every frame of `a`, as one glTF animation: per bone a
// LINEAR track per path with a key at each f / 30 s.
Anim anim_of(const mod::stadium::Model& m, const mod::stadium::SkeletalAnimationData& a, const std::string& name);

std::vector<std::string> bone_names(const mod::stadium::Model& m);

}  // namespace animtest
