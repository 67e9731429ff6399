#pragma once
// Conversions between Assimp's types and the scene model (private to the scene layer).
// aiMatrix4x4 is row-major with column vectors (a4, b4, c4 = translation), like Mat4.

#include "libmod/scene/model.hpp"

#include <assimp/matrix4x4.h>
#include <assimp/vector3.h>

namespace mod::scene {

inline Mat4 to_mat4(const aiMatrix4x4& m) {
    return {m.a1, m.a2, m.a3, m.a4, m.b1, m.b2, m.b3, m.b4, m.c1, m.c2, m.c3, m.c4, m.d1, m.d2, m.d3, m.d4};
}

inline aiMatrix4x4 to_ai(const Mat4& m) {
    return aiMatrix4x4(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11], m[12], m[13],
                       m[14], m[15]);
}

inline Vec3 to_vec3(const aiVector3D& v) { return {v.x, v.y, v.z}; }

}  // namespace mod::scene
