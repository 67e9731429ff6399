#pragma once
// The contained import (contract: ImportOptions::contained in libmod/scene/import.hpp).
#include "libmod/scene/import.hpp"

#include <functional>
#include <string_view>

namespace mod::scene {

// Runs `import` in a forked child under the limits of `options` and returns the Scene it
// produced, or rethrows the mod::Error it threw; a crash, hang or limit is a format error
// naming `name`.
Scene run_contained(std::string_view name, const ImportOptions& options, const std::function<Scene()>& import);

}  // namespace mod::scene
