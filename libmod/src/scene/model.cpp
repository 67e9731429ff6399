// Skeleton lookup and the small matrix helpers of model.hpp.
#include "libmod/scene/model.hpp"

#include "libmod/core/error.hpp"

#include <Eigen/Dense>

#include <cmath>

namespace mod::scene {
namespace {

Eigen::Matrix4d to_eigen(const Mat4& m) {
    Eigen::Matrix4d e;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) e(r, c) = m[r * 4 + c];
    return e;
}

Mat4 from_eigen(const Eigen::Matrix4d& e) {
    Mat4 m;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) m[r * 4 + c] = static_cast<float>(e(r, c));
    return m;
}

}  // namespace

std::optional<std::uint32_t> Skeleton::find(std::string_view name) const {
    for (std::size_t i = 0; i < bones.size(); ++i)
        if (bones[i].name == name) return static_cast<std::uint32_t>(i);
    return std::nullopt;
}

Mat4 multiply(const Mat4& a, const Mat4& b) { return from_eigen(to_eigen(a) * to_eigen(b)); }

Mat4 inverse(const Mat4& m, std::string_view what) {
    Eigen::Matrix4d e = to_eigen(m);
    Eigen::FullPivLU<Eigen::Matrix4d> lu(e);
    // A bind matrix with a near-zero determinant cannot be inverted meaningfully; relative
    // threshold so that tiny (scaled) but regular matrices still pass.
    double scale = e.block<3, 3>(0, 0).cwiseAbs().maxCoeff();
    if (!e.allFinite() || !lu.isInvertible() || scale == 0 ||
        std::abs(e.block<3, 3>(0, 0).determinant()) < 1e-12 * scale * scale * scale)
        throw Error(ErrorKind::format, std::string(what) + " is not invertible");
    Mat4 result = from_eigen(lu.inverse());
    // The inverse of an affine matrix is affine: its last row is exactly 0 0 0 1, not the LU's
    // rounding noise (glTF validators refuse inverse bind matrices whose last row is not).
    if (m[12] == 0.0f && m[13] == 0.0f && m[14] == 0.0f && m[15] == 1.0f) {
        result[12] = result[13] = result[14] = 0.0f;
        result[15] = 1.0f;
    }
    return result;
}

void derive_bone_matrices(Skeleton& skeleton) {
    auto& bones = skeleton.bones;
    for (std::size_t i = 0; i < bones.size(); ++i) {
        std::int32_t p = bones[i].parent;
        if (p >= static_cast<std::int32_t>(bones.size()) || p < -1)
            throw Error(ErrorKind::format, "bone '" + bones[i].name + "' has parent " + std::to_string(p) +
                                               ", outside the skeleton");
        // A chain longer than the skeleton must revisit a bone: a cycle.
        std::size_t steps = 0;
        for (std::int32_t q = p; q >= 0; q = bones[q].parent)
            if (++steps > bones.size())
                throw Error(ErrorKind::format, "the parents of bone '" + bones[i].name + "' form a cycle");
        bones[i].inverse_bind = inverse(bones[i].bind, "bind matrix of bone '" + bones[i].name + "'");
    }
    for (auto& b : bones) b.local = b.parent < 0 ? b.bind : multiply(bones[b.parent].inverse_bind, b.bind);
}

}  // namespace mod::scene
