#include "anim_glb_support.hpp"

#include "libmod/stadium/animation_replace.hpp"

#include <cmath>
#include <cstring>

namespace animtest {

using namespace mod::stadium;

mod::Bytes make_glb(const std::vector<std::string>& nodes, const std::vector<Anim>& anims) {
    mod::Bytes bin;
    std::string views, accessors;
    std::size_t n_views = 0;
    auto add = [&](const std::vector<float>& data, const char* type, std::size_t comps) {
        const std::size_t off = bin.size();
        for (float f : data) {
            std::uint32_t u;
            std::memcpy(&u, &f, 4);
            for (int k = 0; k < 4; ++k) bin.push_back(std::uint8_t(u >> (8 * k)));
        }
        if (n_views) views += ",";
        views += "{\"buffer\":0,\"byteOffset\":" + std::to_string(off) + ",\"byteLength\":" + std::to_string(data.size() * 4) + "}";
        if (n_views) accessors += ",";
        accessors += "{\"bufferView\":" + std::to_string(n_views) + ",\"componentType\":5126,\"count\":" +
                     std::to_string(data.size() / comps) + ",\"type\":\"" + type + "\"}";
        return n_views++;
    };
    std::string json = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[";
    for (std::size_t i = 0; i < nodes.size(); ++i) json += (i ? "," : "") + std::string("{\"name\":\"") + nodes[i] + "\"}";
    json += "],\"animations\":[";
    for (std::size_t a = 0; a < anims.size(); ++a) {
        std::string samplers, channels;
        for (std::size_t t = 0; t < anims[a].tracks.size(); ++t) {
            const Track& tr = anims[a].tracks[t];
            std::size_t node = 0;
            for (std::size_t i = 0; i < nodes.size(); ++i)
                if (nodes[i] == tr.node) node = i;
            const std::size_t comps = tr.path == "rotation" ? 4 : 3;
            const std::size_t in = add(tr.times, "SCALAR", 1), out = add(tr.values, comps == 4 ? "VEC4" : "VEC3", comps);
            samplers += (t ? "," : "") + std::string("{\"input\":") + std::to_string(in) + ",\"output\":" + std::to_string(out) +
                        ",\"interpolation\":\"" + tr.interpolation + "\"}";
            channels += (t ? "," : "") + std::string("{\"sampler\":") + std::to_string(t) + ",\"target\":{\"node\":" +
                        std::to_string(node) + ",\"path\":\"" + tr.path + "\"}}";
        }
        json += (a ? "," : "") + std::string("{\"name\":\"") + anims[a].name + "\",\"samplers\":[" + samplers +
                "],\"channels\":[" + channels + "]" + (anims[a].extras_json.empty() ? "" : ",\"extras\":" + anims[a].extras_json) + "}";
    }
    json += "],\"bufferViews\":[" + views + "],\"accessors\":[" + accessors + "],\"buffers\":[{\"byteLength\":" +
            std::to_string(bin.size()) + "}]}";
    while (json.size() % 4) json += ' ';
    while (bin.size() % 4) bin.push_back(0);
    mod::Bytes out;
    auto u32 = [&](std::uint32_t v) {
        for (int k = 0; k < 4; ++k) out.push_back(std::uint8_t(v >> (8 * k)));
    };
    u32(0x46546C67);
    u32(2);
    u32(std::uint32_t(12 + 8 + json.size() + 8 + bin.size()));
    u32(std::uint32_t(json.size()));
    u32(0x4E4F534A);
    out.insert(out.end(), json.begin(), json.end());
    u32(std::uint32_t(bin.size()));
    u32(0x004E4942);
    out.insert(out.end(), bin.begin(), bin.end());
    return out;
}

std::array<double, 4> quaternion_of(const Matrix3& m) {
    const double tr = m[0] + m[4] + m[8];
    double x, y, z, w;
    if (tr > 0) {
        const double s = std::sqrt(tr + 1.0) * 2;
        w = 0.25 * s; x = (m[7] - m[5]) / s; y = (m[2] - m[6]) / s; z = (m[3] - m[1]) / s;
    } else if (m[0] > m[4] && m[0] > m[8]) {
        const double s = std::sqrt(1.0 + m[0] - m[4] - m[8]) * 2;
        w = (m[7] - m[5]) / s; x = 0.25 * s; y = (m[1] + m[3]) / s; z = (m[2] + m[6]) / s;
    } else if (m[4] > m[8]) {
        const double s = std::sqrt(1.0 + m[4] - m[0] - m[8]) * 2;
        w = (m[2] - m[6]) / s; x = (m[1] + m[3]) / s; y = 0.25 * s; z = (m[5] + m[7]) / s;
    } else {
        const double s = std::sqrt(1.0 + m[8] - m[0] - m[4]) * 2;
        w = (m[3] - m[1]) / s; x = (m[2] + m[6]) / s; y = (m[5] + m[7]) / s; z = 0.25 * s;
    }
    return {x, y, z, w};
}

std::vector<std::string> bone_names(const Model& m) {
    std::vector<std::string> out;
    for (std::size_t b = 0; b < m.bones.size(); ++b) out.push_back(animation_bone_name(m, b));
    return out;
}

Anim anim_of(const Model& m, const SkeletalAnimationData& a, const std::string& name) {
    Anim out;
    out.name = name;
    const auto names = bone_names(m);
    for (std::size_t b = 0; b < m.bones.size(); ++b) {
        Track t{names[b], "translation", {}, {}}, r{names[b], "rotation", {}, {}}, s{names[b], "scale", {}, {}};
        for (std::int32_t f = 0; f < a.frame_count; ++f) {
            const ChannelPose p = sample_bones(m, a, f)[b];
            const float time = float(f / 30.0);
            t.times.push_back(time);
            r.times.push_back(time);
            s.times.push_back(time);
            const auto q = quaternion_of(rotation_matrix({double(p.rotation[0]), double(p.rotation[1]), double(p.rotation[2])}));
            for (int k = 0; k < 3; ++k) {
                t.values.push_back(float(p.translation[k]));
                s.values.push_back(float(p.scale[k]));
            }
            for (int k = 0; k < 4; ++k) r.values.push_back(float(q[k]));
        }
        out.tracks.push_back(std::move(t));
        out.tracks.push_back(std::move(r));
        out.tracks.push_back(std::move(s));
    }
    return out;
}

}  // namespace animtest
