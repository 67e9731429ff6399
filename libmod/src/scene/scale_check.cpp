// The size rule shared by every game's mesh replacement: see scale_check.hpp.
#include "libmod/scene/scale_check.hpp"

#include "libmod/core/error.hpp"

#include <cmath>
#include <cstdio>

namespace mod::scene {

namespace {

double diagonal(const BoundingBox& b) {
    if (b.empty) return 0;
    const Vec3 s = b.size();
    return std::sqrt(double(s[0]) * s[0] + double(s[1]) * s[1] + double(s[2]) * s[2]);
}

std::string box_text(const BoundingBox& b, double diag) {
    const Vec3 s = b.size();
    char buf[160];
    std::snprintf(buf, sizeof buf, "extent %.4g x %.4g x %.4g, diagonal %.4g", double(s[0]), double(s[1]), double(s[2]),
                  diag);
    return buf;
}

constexpr const char* refusal_head = "the new mesh is";

// The factor that brings the new size back to the old one, as the user would type it.
std::string factor_text(double f) {
    const double p = std::pow(10.0, std::round(std::log10(f)));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", std::abs(f / p - 1) < 0.2 ? p : f);
    return buf;
}

}  // namespace

ScaleComparison compare_scale(const BoundingBox& old_box, const BoundingBox& new_box) {
    ScaleComparison c;
    c.old_box = old_box;
    c.new_box = new_box;
    c.old_diagonal = diagonal(old_box);
    c.new_diagonal = diagonal(new_box);
    if (c.old_diagonal > 0 && c.new_diagonal > 0 && std::isfinite(c.old_diagonal) && std::isfinite(c.new_diagonal))
        c.ratio = c.new_diagonal / c.old_diagonal;
    return c;
}

ScaleComparison compare_scale(std::span<const Vec3> old_positions, std::span<const Vec3> new_positions) {
    return compare_scale(bounding_box(old_positions), bounding_box(new_positions));
}

ScaleSource scale_source(const Scene& scene) {
    return ScaleSource{scene.format, scene.file_unit_metres, scene.units_converted, scene.import_scale};
}

std::string scale_change_text(const ScaleComparison& c, const ScaleSource& source, double limit) {
    if (!c.beyond(limit)) return {};
    const bool larger = c.ratio > 1;
    char head[96];
    std::snprintf(head, sizeof head, "%s %.3g times %s than the mesh it replaces", refusal_head, larger ? c.ratio : 1 / c.ratio,
                  larger ? "larger" : "smaller");
    std::string s = std::string(head) + " (new: " + box_text(c.new_box, c.new_diagonal) + "; replaced: " +
                    box_text(c.old_box, c.old_diagonal) + "): ";
    const double unit = source.file_unit_metres.value_or(1.0);
    const std::string fmt = source.format.empty() ? "source" : source.format;
    if (!source.units_converted && source.file_unit_metres && std::abs(unit - 1.0) > 1e-9) {
        char u[64];
        std::snprintf(u, sizeof u, "%g", unit);
        s += "the " + fmt + " file declares 1 unit = " + u + " m and --units file (\"units\": \"file\") kept its numbers; "
             "drop it (the default, --units metres, converts the declared unit)";
    } else {
        std::string f = factor_text(source.scale / c.ratio);
        if (std::abs(source.scale - 1.0) > 1e-9) f += " instead of " + factor_text(source.scale);
        if (fmt == "fbx" && source.file_unit_metres)
            s += "the FBX's positions do not match the unit it declares; scale it with --scale " + f +
                 " (\"scale\": " + f + ") or fix the unit in the exporter";
        else if (fmt == "glb" || fmt == "gltf")
            s += "glTF positions are metres by definition; scale the model in the modelling tool or with --scale " + f +
                 " (\"scale\": " + f + ")";
        else
            s += "scale the source with --scale " + f + " (\"scale\": " + f + ")";
    }
    return s + ", or keep the size with --allow-scale-change (\"allow_scale_change\": true)";
}

std::string check_scale_change(const ScaleComparison& c, const ScaleSource& source, bool allow, const std::string& where,
                               double limit) {
    std::string text = scale_change_text(c, source, limit);
    if (!text.empty() && !allow) throw Error(ErrorKind::limit, text, where);
    return text;
}

bool is_scale_change_refusal(const Error& e) {
    return e.kind() == ErrorKind::limit && e.message().starts_with(refusal_head);
}

}  // namespace mod::scene
