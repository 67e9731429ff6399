#pragma once
// Export of the 0x20/0x21 display-list nodes (ModelNode, model.hpp): the matrix each draws with.
#include "libmod/scene/model.hpp"
#include "libmod/stadium/model.hpp"

namespace mod::stadium {

// The bind-time matrix (scene form: column vectors) node `node` draws with when the matrix
// below its outermost enclosing node is `bone` (the enclosing bone's bind matrix):
//   0x20: func_800148D8 pushes func_8000F2C4(t, r) × the matrix below (row form); in column form
//         below · T · Ry · Rx · Rz, with r = ModelNode::rotation() (the handler's conversion);
//   0x21: func_80014980 sets func_8000F88C(view, below, t, s). Export has no camera, so the view
//         is the identity: the below matrix's row lengths (column lengths here) × s on the
//         diagonal, no rotation (a billboard faces the camera), t carried through the below matrix.
scene::Mat4 node_draw_matrix(const Model& model, std::int32_t node, const scene::Mat4& bone);

}  // namespace mod::stadium
