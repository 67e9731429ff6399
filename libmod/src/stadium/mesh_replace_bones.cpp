// Mesh replacement, step 1: the source onto the target bones (mesh_replace.hpp). Retargeting by
// name / bone map with suggestions for what does not map, one dominant bone per vertex, the
// triangle partition into own, seam (bone + parent, blended through the vertex cache) and
// reassigned triangles, and the size check.
#include "mesh_replace_detail.hpp"

#include "libmod/core/error.hpp"
#include "libmod/scene/bone_suggest.hpp"
#include "libmod/scene/scale_check.hpp"
#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/animation_replace.hpp"
#include "libmod/stadium/export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

namespace mod::stadium {

scene::Skeleton target_skeleton(const Model& model) {
    scene::Skeleton s;
    const std::vector<scene::Mat4> globals = bone_globals(model, bind_poses(model));
    for (std::size_t i = 0; i < model.bones.size(); ++i) {
        scene::Bone b;
        b.name = animation_bone_name(model, i);
        b.parent = model.bones[i].parent;
        b.bind = globals[i];
        s.bones.push_back(std::move(b));
    }
    scene::derive_bone_matrices(s);
    return s;
}

std::int16_t to_s16(double value, const std::string& what) {
    if (!std::isfinite(value)) throw Error(ErrorKind::format, what + " is not a finite number");
    const double r = std::round(value);
    if (r > 32767.0 || r < -32768.0) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.1f", value);
        throw Error(ErrorKind::limit, what + " is " + buf +
                                          " model units from its bone; an s16 vertex holds -32768..32767 "
                                          "(scale the source down: the model's units are kept with its skeleton)");
    }
    return static_cast<std::int16_t>(r);
}

namespace mesh_detail {

namespace {

// The bones carrying weight that have no target, with suggestions, as one format error.
[[noreturn]] void refuse_unmapped(const scene::Scene& source, const scene::Skeleton& target, const Error& e) {
    std::vector<std::string> names;
    for (const auto& b : target.bones) names.push_back(b.name);
    const scene::BoneMapTemplate t = scene::suggest_bone_map(scene::bone_usage(source), names);
    std::string hints;
    for (const auto& s : t.bones)
        if (!s.same_name && !s.target.empty() && !target.find(s.source))
            hints += (hints.empty() ? "" : ", ") + std::string("'") + s.source + " = " + s.target + "'";
    std::string msg = e.message();
    if (!hints.empty()) msg += "; suggested lines: " + hints;
    msg += "; the model's bones are " + names.front() + " … " + names.back() + " (" + std::to_string(names.size()) +
           ", named as `stadium export` names them)";
    throw Error(ErrorKind::format, msg, e.file());
}

}  // namespace

MeshPartition partition_mesh(const Model& model, scene::Scene& source, const MeshReplaceOptions& options, MeshPlan& plan) {
    if (model.bones.empty())
        throw Error(ErrorKind::usage, "the model has no bone (0x1D): there is no skeleton to keep", {});
    std::size_t tris = 0;
    for (const auto& m : source.meshes) tris += m.triangles.size();
    if (source.meshes.empty() || tris == 0) throw Error(ErrorKind::format, "the source has no triangle mesh", source.source);

    // Finite positions (the importer checks too; scenes built by hand are checked here).
    for (std::size_t mi = 0; mi < source.meshes.size(); ++mi)
        for (std::size_t v = 0; v < source.meshes[mi].positions.size(); ++v)
            for (float c : source.meshes[mi].positions[v])
                if (!std::isfinite(c))
                    throw Error(ErrorKind::format, "vertex " + std::to_string(v) + " of mesh '" + source.meshes[mi].name +
                                                       "' has a non-finite position", source.source);

    // Size against the model's own mesh: the size rule every game shares (scene/scale_check.hpp),
    // refused beyond 10x unless allowed; between mesh_scale_warning and 10x a warning.
    {
        std::vector<scene::Vec3> src, old;
        for (const auto& m : source.meshes) src.insert(src.end(), m.positions.begin(), m.positions.end());
        const scene::Scene old_scene = model_scene(model);
        for (const auto& m : old_scene.meshes) old.insert(old.end(), m.positions.begin(), m.positions.end());
        const scene::ScaleComparison c = scene::compare_scale(old, src);
        plan.size_ratio = c.ratio;
        const std::string change = scene::check_scale_change(c, scene::scale_source(source), options.allow_scale_change,
                                                             source.source);
        if (!change.empty()) plan.warnings.push_back(change);
        else if (c.beyond(mesh_scale_warning)) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "the source is %.3g times the size of the model's mesh (box diagonal %.4g vs %.4g)",
                          c.ratio, c.new_diagonal, c.old_diagonal);
            plan.warnings.push_back(buf);
        }
    }

    const scene::Skeleton target = target_skeleton(model);
    try {
        scene::retarget(source, target, options.bone_map);
    } catch (const Error& e) {
        if (e.kind() == ErrorKind::format && e.message().find("carry weight") != std::string::npos)
            refuse_unmapped(source, target, e);
        throw;
    }
    for (const auto& w : source.warnings) plan.warnings.push_back(w);

    MeshPartition part;
    std::vector<std::uint32_t> first;
    for (std::size_t mi = 0; mi < source.meshes.size(); ++mi) {
        first.push_back(static_cast<std::uint32_t>(part.vertices.size()));
        const auto& m = source.meshes[mi];
        for (std::uint32_t v = 0; v < m.vertex_count(); ++v) {
            part.vertices.push_back({static_cast<std::uint32_t>(mi), v});
            std::int32_t best = -1;
            float w = 0;
            if (v < m.influences.size())
                for (const auto& inf : m.influences[v])
                    if (inf.weight > w || (inf.weight == w && best >= 0 && std::int32_t(inf.bone) < best)) {
                        w = inf.weight;
                        best = std::int32_t(inf.bone);
                    }
            if (best < 0 || w <= 0) {
                best = 0;
                ++plan.unweighted_vertices;
            }
            part.dominant.push_back(best);
        }
    }
    plan.source_vertices = part.vertices.size();
    if (plan.unweighted_vertices)
        plan.warnings.push_back(std::to_string(plan.unweighted_vertices) +
                                " vertices carry no weight and were given to " + target.bones[0].name);
    if (part.vertices.size() > std::numeric_limits<std::int32_t>::max())
        throw Error(ErrorKind::limit, "the source has too many vertices", source.source);

    const std::size_t nb = model.bones.size();
    part.own.resize(nb);
    part.seam.resize(nb);
    std::vector<std::size_t> per_bone(nb, 0);
    for (auto d : part.dominant) ++per_bone[std::size_t(d)];
    auto parent = [&](std::int32_t b) { return model.bones[std::size_t(b)].parent; };
    for (std::size_t mi = 0; mi < source.meshes.size(); ++mi) {
        const auto& m = source.meshes[mi];
        for (std::size_t ti = 0; ti < m.triangles.size(); ++ti) {
            const auto& t = m.triangles[ti];
            PartTriangle pt;
            pt.material = m.material;
            for (int k = 0; k < 3; ++k) {
                if (t[k] >= m.vertex_count())
                    throw Error(ErrorKind::format, "triangle " + std::to_string(ti) + " of mesh '" + m.name +
                                                       "' names vertex " + std::to_string(t[k]) + " of " +
                                                       std::to_string(m.vertex_count()), source.source);
                pt.v[k] = first[mi] + t[k];
                pt.bone[k] = part.dominant[pt.v[k]];
            }
            if (pt.v[0] == pt.v[1] || pt.v[1] == pt.v[2] || pt.v[0] == pt.v[2]) continue;  // no area
            ++plan.source_triangles;
            std::set<std::int32_t> bones(pt.bone.begin(), pt.bone.end());
            if (bones.size() == 1) {
                part.own[std::size_t(pt.bone[0])].push_back(pt);
                continue;
            }
            if (bones.size() == 2) {
                const std::int32_t a = *bones.begin(), b = *bones.rbegin();
                const std::int32_t child = parent(b) == a ? b : parent(a) == b ? a : -1;
                if (child >= 0) {
                    part.seam[std::size_t(child)].push_back(pt);
                    ++plan.seams_blended;
                    continue;
                }
                ++plan.reassigned_not_adjacent;
            } else {
                ++plan.reassigned_three_bones;
            }
            // Given to the bone of most corners (three bones: the first corner's).
            std::int32_t to = pt.bone[0];
            for (int k = 0; k < 3; ++k)
                if (std::count(pt.bone.begin(), pt.bone.end(), pt.bone[k]) >= 2) to = pt.bone[k];
            pt.bone = {to, to, to};
            part.own[std::size_t(to)].push_back(pt);
        }
    }
    if (plan.source_triangles == 0)
        throw Error(ErrorKind::format, "every triangle of the source is degenerate (repeats a vertex)", source.source);
    if (plan.reassigned_three_bones + plan.reassigned_not_adjacent)
        plan.warnings.push_back(std::to_string(plan.reassigned_three_bones + plan.reassigned_not_adjacent) +
                                " triangles span bones the vertex cache cannot blend (" +
                                std::to_string(plan.reassigned_three_bones) + " on three bones, " +
                                std::to_string(plan.reassigned_not_adjacent) +
                                " on two bones that are not parent and child): each was given to one bone, "
                                "so it may stretch when the joints bend");
    plan.bones.resize(nb);
    for (std::size_t b = 0; b < nb; ++b) {
        plan.bones[b].bone = b;
        plan.bones[b].name = target.bones[b].name;
        plan.bones[b].vertices = per_bone[b];
        plan.bones[b].triangles = part.own[b].size() + part.seam[b].size();
        plan.bones[b].seam_triangles = part.seam[b].size();
    }
    return part;
}

}  // namespace mesh_detail

}  // namespace mod::stadium
