// The matrices of the 0x20/0x21 display-list nodes (see export_node.hpp).
#include "stadium/export_node.hpp"

#include "libmod/stadium/game_trig.hpp"

#include <cmath>

namespace mod::stadium {

namespace {

scene::Mat4 node_matrix(const ModelNode& n, const scene::Mat4& below) {
    scene::Mat4 m = scene::identity_matrix;
    if (n.op == 0x20) {
        const auto r = n.rotation();
        // SINS / COSS: the game's table (game_trig.hpp).
        const double sx = game_sins(r[0]), cx = game_coss(r[0]), sy = game_sins(r[1]), cy = game_coss(r[1]),
                     sz = game_sins(r[2]), cz = game_coss(r[2]);
        // Column form of func_8000F2C4: row c here is column c of the game's row-form matrix.
        const double a[3][3] = {{cy * cz + sx * sy * sz, -cy * sz + sx * sy * cz, cx * sy},
                                {cx * sz, cx * cz, -sx},
                                {-sy * cz + sx * cy * sz, sy * sz + sx * cy * cz, cx * cy}};
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) m[i * 4 + j] = static_cast<float>(a[i][j]);
            m[i * 4 + 3] = static_cast<float>(n.translation[i]);
        }
        return scene::multiply(below, m);
    }
    const double s = n.scale / 65536.0;
    for (int c = 0; c < 3; ++c) {
        const double len = std::sqrt(double(below[c]) * below[c] + double(below[4 + c]) * below[4 + c] +
                                     double(below[8 + c]) * below[8 + c]);
        m[c * 5] = static_cast<float>(len * s);
    }
    const scene::Vec3 t =
        scene::transform_point(below, {float(n.translation[0]), float(n.translation[1]), float(n.translation[2])});
    for (int r = 0; r < 3; ++r) m[r * 4 + 3] = t[r];
    return m;
}

}  // namespace

scene::Mat4 node_draw_matrix(const Model& model, std::int32_t node, const scene::Mat4& bone) {
    const ModelNode& n = model.nodes.at(static_cast<std::size_t>(node));
    return node_matrix(n, n.parent >= 0 ? node_draw_matrix(model, n.parent, bone) : bone);
}

}  // namespace mod::stadium
