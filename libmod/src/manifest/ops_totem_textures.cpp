// TotemTech texture and material operations (palette.set, palette.hsv, material.colour,
// texture.replace for game totemtech). Registered beside the archive operations of ops_totem.cpp.
#include "operation.hpp"

namespace mod::manifest::detail {

void register_totem_texture_ops(OpTable&) {}

}  // namespace mod::manifest::detail
