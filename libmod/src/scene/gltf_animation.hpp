#pragma once
// glTF animations for the scene writer (private to the scene layer): Scene::animations as glTF
// animation objects, and the TRS form of the nodes they target.

#include "libmod/core/rapidjson.hpp"
#include "libmod/scene/model.hpp"

#include <functional>
#include <set>

namespace mod::scene {

// Per-component bounds of an accessor (empty when not written).
struct MinMax {
    std::vector<float> min, max;
};
// Adds a float accessor over `data` (`components` floats per element, glTF type `type`) in a
// bufferView of its own, with the given bounds; returns the accessor index.
using FloatAccessorSink = std::function<std::size_t(const std::vector<float>& data, const char* type, std::size_t components,
                                                    MinMax bounds)>;

// Checks Scene::animations (bone indices, sizes, increasing finite times, finite values):
// format error naming the animation and channel.
void check_animations(const Scene& scene);
// Bones some channel targets.
std::set<std::uint32_t> animated_bones(const Scene& scene);
// Writes "translation"/"rotation"/"scale" of decompose(local) (keys omitted when identity).
void write_node_trs(rapidjson::Writer<rapidjson::StringBuffer>& w, const Mat4& local);
// Writes the "animations" array (call only when the scene has animations).
void write_animations(rapidjson::Writer<rapidjson::StringBuffer>& w, const Scene& scene, const FloatAccessorSink& add);

}  // namespace mod::scene
