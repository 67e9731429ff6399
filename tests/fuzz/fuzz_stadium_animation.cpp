// Fuzz target: the animations of a model FRAGMENT (animation.hpp) must either decode or throw
// mod::Error, and whatever decodes must sample without leaving its arrays: finite values at
// every frame of every channel, bone matrices for every frame, aux values for every frame, and
// the glTF animations of the export scene (add_animations) consistent with the skeleton.
#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/model.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

using namespace mod::stadium;

[[noreturn]] void violated(const char* invariant) {
    std::fprintf(stderr, "fuzz_stadium_animation: invariant broken: %s\n", invariant);
    std::abort();
}

void check_skeletal(const Model& m, const SkeletalAnimationData& a) {
    if (a.descriptors.size() != a.descriptor_count) violated("descriptor count");
    const std::int32_t frames = std::min<std::int32_t>(a.frame_count, 64);
    for (std::int32_t f = -1; f <= frames; ++f) {
        for (std::size_t c = 0; c < a.channel_count(); ++c) {
            const ChannelPose p = sample_channel(a, c, f);
            for (int k = 0; k < 3; ++k)
                if (!std::isfinite(p.translation[k]) || !std::isfinite(p.scale[k])) violated("finite pose");
        }
        const auto poses = sample_bones(m, a, f);
        if (poses.size() != m.bones.size()) violated("one pose per bone");
        try {
            if (bone_globals(m, poses).size() != m.bones.size()) violated("one matrix per bone");
        } catch (const mod::Error&) {
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Model m;
    ModelAnimations anims;
    try {
        m = read_model(mod::ByteView(data, size), "fuzz");
        anims = read_animations(m, "fuzz");
    } catch (const mod::Error&) {
        return 0;
    }
    if (anims.skeletal.size() != m.map.animations.size() || anims.aux.size() != m.map.aux_animations.size())
        violated("animation counts");
    for (const auto& a : anims.skeletal) check_skeletal(m, a);
    for (const auto& a : anims.aux)
        for (std::int32_t f = 0; f < std::min<std::int32_t>(a.frame_count, 64); ++f)
            for (std::size_t c = 0; c < a.channels.size(); ++c) (void)sample_aux(a, c, f);
    try {
        auto sc = model_scene(m, "fuzz");
        add_animations(sc, m, anims);
        for (const auto& an : sc.animations)
            for (const auto& ch : an.channels)
                if (ch.bone >= sc.skeleton.bones.size() || ch.times.empty()) violated("animation channel");
    } catch (const mod::Error&) {
    }
    return 0;
}
