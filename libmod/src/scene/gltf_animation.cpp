// glTF animations (contract in gltf_animation.hpp) and the TRS decomposition of model.hpp.
#include "scene/gltf_animation.hpp"

#include "libmod/core/error.hpp"

#include <algorithm>
#include <cmath>

namespace mod::scene {

Trs decompose(const Mat4& m, double* error) {
    Trs t;
    t.translation = {m[3], m[7], m[11]};
    double c[3][3];  // columns
    for (int k = 0; k < 3; ++k)
        for (int r = 0; r < 3; ++r) c[k][r] = m[r * 4 + k];
    double s[3];
    for (int k = 0; k < 3; ++k) s[k] = std::sqrt(c[k][0] * c[k][0] + c[k][1] * c[k][1] + c[k][2] * c[k][2]);
    const double det = c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) - c[1][0] * (c[0][1] * c[2][2] - c[0][2] * c[2][1]) +
                       c[2][0] * (c[0][1] * c[1][2] - c[0][2] * c[1][1]);
    if (det < 0) s[0] = -s[0];
    double r[3][3];  // r[row][col]
    for (int k = 0; k < 3; ++k)
        for (int row = 0; row < 3; ++row) r[row][k] = s[k] != 0 ? c[k][row] / s[k] : (row == k ? 1.0 : 0.0);
    double q[4];  // x y z w
    const double tr = r[0][0] + r[1][1] + r[2][2];
    if (tr > 0) {
        const double w4 = std::sqrt(tr + 1.0) * 2;
        q[3] = 0.25 * w4;
        q[0] = (r[2][1] - r[1][2]) / w4;
        q[1] = (r[0][2] - r[2][0]) / w4;
        q[2] = (r[1][0] - r[0][1]) / w4;
    } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        const double x4 = std::sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]) * 2;
        q[3] = (r[2][1] - r[1][2]) / x4;
        q[0] = 0.25 * x4;
        q[1] = (r[0][1] + r[1][0]) / x4;
        q[2] = (r[0][2] + r[2][0]) / x4;
    } else if (r[1][1] > r[2][2]) {
        const double y4 = std::sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]) * 2;
        q[3] = (r[0][2] - r[2][0]) / y4;
        q[0] = (r[0][1] + r[1][0]) / y4;
        q[1] = 0.25 * y4;
        q[2] = (r[1][2] + r[2][1]) / y4;
    } else {
        const double z4 = std::sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]) * 2;
        q[3] = (r[1][0] - r[0][1]) / z4;
        q[0] = (r[0][2] + r[2][0]) / z4;
        q[1] = (r[1][2] + r[2][1]) / z4;
        q[2] = 0.25 * z4;
    }
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0) || !std::isfinite(n)) q[0] = q[1] = q[2] = 0, q[3] = 1;
    else
        for (double& v : q) v /= n;
    if (q[3] < 0)
        for (double& v : q) v = -v;
    t.rotation = {float(q[0]), float(q[1]), float(q[2]), float(q[3])};
    t.scale = {float(s[0]), float(s[1]), float(s[2])};
    if (error) {
        const Mat4 back = compose(t);
        double e = 0;
        for (int i = 0; i < 12; ++i) e = std::max(e, std::abs(double(back[i]) - double(m[i])));
        *error = e;
    }
    return t;
}

Mat4 compose(const Trs& t) {
    const double x = t.rotation[0], y = t.rotation[1], z = t.rotation[2], w = t.rotation[3];
    const double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                            {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                            {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    Mat4 m = identity_matrix;
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 3; ++col) m[row * 4 + col] = float(r[row][col] * t.scale[col]);
        m[row * 4 + 3] = t.translation[row];
    }
    return m;
}

namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

void floats(JsonWriter& w, const float* v, std::size_t n) {
    w.StartArray();
    for (std::size_t i = 0; i < n; ++i) w.Double(double(v[i]));
    w.EndArray();
}

const char* path_name(AnimationChannel::Path p) {
    return p == AnimationChannel::Path::translation ? "translation" : p == AnimationChannel::Path::rotation ? "rotation" : "scale";
}

}  // namespace

void check_animations(const Scene& scene) {
    for (std::size_t a = 0; a < scene.animations.size(); ++a) {
        const auto& an = scene.animations[a];
        for (std::size_t c = 0; c < an.channels.size(); ++c) {
            const auto& ch = an.channels[c];
            const std::string where = "animation " + std::to_string(a) + " (" + an.name + ") channel " + std::to_string(c);
            const std::size_t k = ch.path == AnimationChannel::Path::rotation ? 4 : 3;
            if (ch.bone >= scene.skeleton.bones.size()) throw Error(ErrorKind::format, where + ": bone " + std::to_string(ch.bone) + " does not exist");
            if (ch.times.empty() || ch.values.size() != ch.times.size() * k)
                throw Error(ErrorKind::format, where + ": " + std::to_string(ch.times.size()) + " times and " +
                                                   std::to_string(ch.values.size()) + " values");
            for (std::size_t i = 0; i < ch.times.size(); ++i)
                if (!std::isfinite(ch.times[i]) || ch.times[i] < 0 || (i && !(ch.times[i] > ch.times[i - 1])))
                    throw Error(ErrorKind::format, where + ": times must be finite, non-negative and increasing");
            for (float v : ch.values)
                if (!std::isfinite(v)) throw Error(ErrorKind::format, where + ": a value is not finite");
        }
        if (!an.extras_json.empty()) {
            rapidjson::Document d;
            d.Parse(an.extras_json.c_str(), an.extras_json.size());
            if (d.HasParseError() || !d.IsObject())
                throw Error(ErrorKind::format, "animation " + std::to_string(a) + " (" + an.name + "): extras are not a JSON object");
        }
    }
}

std::set<std::uint32_t> animated_bones(const Scene& scene) {
    std::set<std::uint32_t> out;
    for (const auto& a : scene.animations)
        for (const auto& c : a.channels) out.insert(c.bone);
    return out;
}

void write_node_trs(JsonWriter& w, const Mat4& local) {
    const Trs t = decompose(local);
    if (t.translation != Vec3{0, 0, 0}) {
        w.Key("translation");
        floats(w, t.translation.data(), 3);
    }
    if (t.rotation != Vec4{0, 0, 0, 1}) {
        w.Key("rotation");
        floats(w, t.rotation.data(), 4);
    }
    if (t.scale != Vec3{1, 1, 1}) {
        w.Key("scale");
        floats(w, t.scale.data(), 3);
    }
}

void write_animations(JsonWriter& w, const Scene& scene, const FloatAccessorSink& add) {
    w.Key("animations");
    w.StartArray();
    for (const auto& an : scene.animations) {
        std::vector<std::pair<std::size_t, std::size_t>> samplers;  // input, output accessors
        for (const auto& ch : an.channels) {
            const bool rot = ch.path == AnimationChannel::Path::rotation;
            // Sampler inputs need min and max (times are increasing: first and last).
            const MinMax bounds{{ch.times.front()}, {ch.times.back()}};
            samplers.push_back({add(ch.times, "SCALAR", 1, bounds), add(ch.values, rot ? "VEC4" : "VEC3", rot ? 4 : 3, {})});
        }
        w.StartObject();
        w.Key("name");
        w.String(an.name.c_str());
        w.Key("samplers");
        w.StartArray();
        for (std::size_t i = 0; i < an.channels.size(); ++i) {
            w.StartObject();
            w.Key("input");
            w.Uint64(samplers[i].first);
            w.Key("output");
            w.Uint64(samplers[i].second);
            w.Key("interpolation");
            // LINEAR needs two keys; one key holds its value either way.
            w.String(an.channels[i].step || an.channels[i].times.size() < 2 ? "STEP" : "LINEAR");
            w.EndObject();
        }
        w.EndArray();
        w.Key("channels");
        w.StartArray();
        for (std::size_t i = 0; i < an.channels.size(); ++i) {
            w.StartObject();
            w.Key("sampler");
            w.Uint64(i);
            w.Key("target");
            w.StartObject();
            w.Key("node");
            w.Uint(an.channels[i].bone);
            w.Key("path");
            w.String(path_name(an.channels[i].path));
            w.EndObject();
            w.EndObject();
        }
        w.EndArray();
        if (!an.extras_json.empty()) {
            w.Key("extras");
            w.RawValue(an.extras_json.c_str(), an.extras_json.size(), rapidjson::kObjectType);
        }
        w.EndObject();
    }
    w.EndArray();
}

}  // namespace mod::scene
