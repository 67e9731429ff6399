#pragma once
// One size rule for every game's mesh replacement (issue 29 item 3): a new mesh whose size
// differs from the mesh it replaces by more than scale_change_limit either way is refused
// (kind limit, exit 3) with both boxes and the fix that is right for the source's format,
// unless the caller allows the change (--allow-scale-change, "allow_scale_change": true), when
// the same text becomes a warning. A unit mistake (Blender's default FBX in centimetres: 100×)
// or a wrong unit declaration is what the rule catches; a model of another shape is not.
//
// Size is the box diagonal of every finite position: one number per mesh, which an
// axis mistake (a model lying on its side) leaves near 1 while a unit mistake scales by the
// unit factor. Spec: doc/formats/scene-import.md ("Units and the size rule").

#include "libmod/core/error.hpp"
#include "libmod/scene/model.hpp"
#include "libmod/scene/validate.hpp"

#include <optional>
#include <span>
#include <string>

namespace mod::scene {

inline constexpr double scale_change_limit = 10.0;

struct ScaleComparison {
    BoundingBox old_box, new_box;
    double old_diagonal = 0, new_diagonal = 0;
    double ratio = 1;  // new / old diagonal; 1 when either box is empty or flat to a point
    bool beyond(double limit = scale_change_limit) const noexcept { return ratio > limit || ratio < 1.0 / limit; }
};

ScaleComparison compare_scale(std::span<const Vec3> old_positions, std::span<const Vec3> new_positions);
ScaleComparison compare_scale(const BoundingBox& old_box, const BoundingBox& new_box);

// What the source said about its unit, for the fix the message names.
struct ScaleSource {
    std::string format;                       // Scene::format ("fbx", "glb", "dae", ...)
    std::optional<double> file_unit_metres;   // Scene::file_unit_metres
    bool units_converted = true;              // ImportOptions::units == Units::metres
    double scale = 1.0;                       // ImportOptions::scale
};
// From what the import recorded (Scene::units_converted, Scene::import_scale).
ScaleSource scale_source(const Scene& scene);

// The sentence for a comparison beyond the limit: "the new mesh is 100 times larger than the
// mesh it replaces (new box …, diagonal …; replaced box …)" then the fix: for a file that
// declares its unit and was read with --units file, the default --units metres; otherwise
// the --scale (manifest "scale") factor that gives the old size, rounded to a power of ten when
// it is within 20% of one; always the allow option. Empty when the comparison is within it.
std::string scale_change_text(const ScaleComparison& c, const ScaleSource& source,
                              double limit = scale_change_limit);

// Throws mod::Error(limit, scale_change_text, `where`) when c is beyond the limit and !allow;
// returns the text (for a warning) when it is beyond and allowed; empty otherwise.
std::string check_scale_change(const ScaleComparison& c, const ScaleSource& source, bool allow,
                               const std::string& where, double limit = scale_change_limit);

// Whether `e` is the refusal check_scale_change throws (for callers that locate it, e.g. at a
// manifest's "source" field).
bool is_scale_change_refusal(const Error& e);

}  // namespace mod::scene
