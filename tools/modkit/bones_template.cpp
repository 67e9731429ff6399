// The shared body of the `bones` commands (contract: bones_template.hpp).
#include "bones_template.hpp"

#include "json.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/bone_shape.hpp"
#include "libmod/scene/bone_suggest.hpp"
#include "libmod/scene/import.hpp"

#include <cstdio>

namespace modkit {

namespace fs = std::filesystem;
namespace sc = mod::scene;

int run_bones(const fs::path& source, const BonesTarget& target, const std::optional<fs::path>& out, const Global& g) {
    if (out && target.names.empty()) usage_error("--out needs --target (the names to map onto)");
    std::vector<fs::path> inputs = target.inputs;
    inputs.push_back(source);
    if (out) mod::ensure_distinct_output(*out, inputs);
    sc::Scene scene = sc::import_file(source);
    const auto usage = sc::bone_usage(scene);
    sc::BoneMapTemplate t = sc::suggest_bone_map(usage, target.names);
    sc::ShapeReport shape;
    if (target.skeleton) shape = sc::suggest_by_shape(t, usage, scene.skeleton, *target.skeleton);
    else if (!target.centroids.empty()) shape = sc::suggest_by_centroids(t, usage, sc::bone_centroids(scene), target.centroids);
    if (out) mod::write_file_atomic(*out, t.text, inputs);
    if (g.json) {
        Json j;
        j.begin_object().field("source", source.string());
        j.key("bones").begin_array();
        for (std::size_t i = 0; i < usage.size(); ++i) {
            j.begin_object().field("name", usage[i].name).field("total_weight", usage[i].total_weight)
                .field("vertices", std::uint64_t(usage[i].vertices));
            if (!target.names.empty()) j.field("target", t.bones[i].target).field("by_shape", t.bones[i].by_shape);
            j.end_object();
        }
        j.end_array();
        j.key("targets").begin_array();
        for (const auto& n : target.names) j.value(n);
        j.end_array();
        j.key("strip").begin_array();
        for (const auto& p : t.strip_prefixes) j.value(p);
        j.end_array().field("matched_by_shape", std::uint64_t(shape.matched));
        if (shape.matched) j.field("shape_orientation", shape.orientation);
        j.end_object();
        return 0;
    }
    std::printf("%s: %zu bones\n", source.string().c_str(), usage.size());
    std::printf("%12s %9s  %-32s%s\n", "weight", "vertices", "bone", target.names.empty() ? "" : "  target");
    std::size_t unmatched_weighted = 0;
    for (std::size_t i = 0; i < usage.size(); ++i) {
        std::string to;
        if (!target.names.empty()) {
            const auto& b = t.bones[i];
            to = b.target.empty() ? (b.candidates ? "? (several)" : "?") : b.by_shape ? b.target + " (by shape)" : b.target;
            if (b.target.empty() && usage[i].vertices) ++unmatched_weighted;
        }
        std::printf("%12.4f %9zu  %-32s%s%s\n", usage[i].total_weight, usage[i].vertices, usage[i].name.c_str(),
                    to.empty() ? "" : "  ", to.c_str());
    }
    if (!target.names.empty()) {
        std::printf("%s (%zu):", target.what.c_str(), target.names.size());
        for (const auto& n : target.names) std::printf(" %s", n.c_str());
        std::printf("\n");
        for (const auto& p : t.strip_prefixes) std::printf("prefix rule: strip %s\n", p.c_str());
        if (shape.matched)
            std::printf("%zu bone(s) matched by skeleton shape (source %s): where the bones are, not their names; check "
                        "them (each follows a '# by shape' line in the template)\n",
                        shape.matched, shape.orientation.c_str());
        if (shape.too_far)
            std::printf("%zu weighted bone(s) are farther than %.0f%% of the skeleton's size from every target bone\n",
                        shape.too_far, 100 * sc::shape_match_max_distance);
        if (unmatched_weighted)
            std::printf("%zu weighted bones have no target: edit their '# ... = ?' lines in the template\n",
                        unmatched_weighted);
    }
    if (out) std::printf("wrote %s\n", out->string().c_str());
    return 0;
}

}  // namespace modkit
