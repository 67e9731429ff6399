#pragma once
// What the TotemTech operations (ops_totem.cpp, ops_totem_textures.cpp) share: the target
// archive and its name table as the edits so far left them. Defined in ops_totem.cpp.
#include "operation.hpp"

#include "libmod/totem/archive.hpp"
#include "libmod/totem/names.hpp"

#include <optional>

namespace mod::manifest::detail {

// The target's platform: the input's "platform" (schema: gamecube, ps2 or pc), else from the
// file's extension.
std::optional<totem::Platform> totem_platform(const EditEnv& env);
// The archive in `bytes` (the target's current or original bytes); errors name the target.
totem::Archive decode_totem_archive(const EditEnv& env, const Bytes& bytes);
// The target's name table as the edits so far left it (empty when the manifest gives none).
totem::NameTable totem_names(const EditEnv& env);

}  // namespace mod::manifest::detail
