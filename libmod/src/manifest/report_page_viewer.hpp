#pragma once
// The report page's interactive 3D before/after (issue 29 item 6): Google's <model-viewer>
// (npm @google/model-viewer, three.js inside), embedded into the page when modkit was built with
// it (CMake MODKIT_VIEWER_JS; build.sh installs it), fed GLBs that the scene layer's own writer
// makes in memory (scene::export_glb) as data: URIs, so the page stays one file that requests
// nothing. Internal to the manifest layer (report_page_model.cpp, report_page.cpp).

#include "libmod/core/bytes.hpp"
#include "libmod/scene/model.hpp"

#include <optional>

#include <string>
#include <string_view>
#include <vector>

namespace mod::manifest::detail::page {

// model-viewer's UMD bundle, "" when the build had none (generated: viewer_script.cpp.in).
std::string_view viewer_script();
// Its package version ("" without it).
std::string_view viewer_version();

struct ViewerModel {
    std::string label;  // "before", "after", "weights before", … (the buttons' text)
    Bytes glb;
};

// One 3D view: a <model-viewer> showing models[0], a button per model, a play button when the
// model shown has animations, and a <pre class="viewer-state"> the controller keeps up to date
// with what is shown (JSON: view, loaded, errors, dims x/y/z, animations, playing, time) for
// tests and the curious. A page URL ending in #3d=LABEL shows that model first; #3d=LABEL&play
// also plays its first animation (the state is written again 1.5 s later). "" when `models` is
// empty; a note instead of the view when the build has no viewer.
std::string viewer_block(const std::string& id, const std::vector<ViewerModel>& models);

// The "bones" view of a model (report_page_bones.cpp): every material blended at 30 % of its
// alpha, and one more mesh, "modkit_bones" (material of that name, unlit orange): a diamond at
// each bone's head (size 1.2 % of the diagonal of the box around vertices and heads), weighted
// to the bone, and an octahedral stick from its parent's head to its head, weighted to the
// parent (none for a root or a bone within two diamonds of its parent's head). nullopt when the
// scene has no bones or no extent.
std::optional<scene::Scene> bones_view(scene::Scene sc);

// Once at the end of a page with viewer blocks: the bundle (with its licence line) and the
// controller script. "" when the build has no viewer.
std::string viewer_page_scripts();

}  // namespace mod::manifest::detail::page
