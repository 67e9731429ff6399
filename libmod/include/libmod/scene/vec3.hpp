#pragma once
// Small vector functions on scene::Vec3 shared by the scene layer and its users (import,
// export, the report page's bones view). Each is the plain formula, so results are the same
// bits wherever it is called.

#include "libmod/scene/model.hpp"

#include <cmath>

namespace mod::scene {

// a − b, in float.
inline Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
// a × b, in float.
inline Vec3 cross(const Vec3& a, const Vec3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
// a · b, summed in double.
inline double dot(const Vec3& a, const Vec3& b) { return double(a[0]) * b[0] + double(a[1]) * b[1] + double(a[2]) * b[2]; }
// |a|, in double.
inline double length(const Vec3& a) { return std::sqrt(dot(a, a)); }

}  // namespace mod::scene
