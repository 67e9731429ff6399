// posed_scene (export.hpp): the export scene with the vertices moved to an animation frame, for
// previews of a pose (issue 28: before/after pictures posed in a frame of an animation).
#include "libmod/stadium/export.hpp"

#include "libmod/core/error.hpp"

#include <cmath>

namespace mod::stadium {

scene::Scene posed_scene(const Model& model, const SkeletalAnimationData& animation, std::int32_t frame,
                         const std::string& name) {
    scene::Scene sc = model_scene(model, name);
    const std::vector<scene::Mat4> rest = bone_globals(model, bind_poses(model));
    const std::vector<scene::Mat4> pose = bone_globals(model, sample_bones(model, animation, frame));
    std::vector<scene::Mat4> move(rest.size());
    for (std::size_t b = 0; b < rest.size(); ++b)
        move[b] = scene::multiply(pose[b], scene::inverse(rest[b], "bone " + std::to_string(b) + " rest matrix"));
    for (auto& m : sc.meshes)
        for (std::size_t v = 0; v < m.positions.size(); ++v) {
            if (v >= m.influences.size() || m.influences[v].empty()) continue;
            // model_scene gives each vertex one bone with weight 1.
            const std::uint32_t b = m.influences[v][0].bone;
            if (b >= move.size()) continue;
            m.positions[v] = scene::transform_point(move[b], m.positions[v]);
            if (v < m.normals.size()) {
                scene::Vec3 n = scene::transform_direction(move[b], m.normals[v]);
                const double len = std::sqrt(double(n[0]) * n[0] + double(n[1]) * n[1] + double(n[2]) * n[2]);
                if (len > 0 && std::isfinite(len))
                    for (auto& c : n) c = static_cast<float>(c / len);
                m.normals[v] = n;
            }
        }
    return sc;
}

}  // namespace mod::stadium
