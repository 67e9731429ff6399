// Reading glTF 2.0 binary animations (contract in gltf_animation.hpp).
#include "stadium/gltf_animation.hpp"

#include "libmod/core/error.hpp"
#include "libmod/core/rapidjson.hpp"

#include <algorithm>
#include <cmath>

namespace mod::stadium::gltf {

namespace {

constexpr std::uint32_t glb_magic = 0x46546C67;  // "glTF" little-endian
constexpr std::uint32_t chunk_json = 0x4E4F534A, chunk_bin = 0x004E4942;
// Bounds any one accessor (keys × components); the BIN chunk bounds it first anyway.
constexpr std::uint64_t max_accessor_values = 1u << 26;

class Reader {
public:
    Reader(ByteView data, const std::string& file) : file_(file), r_(data, Endian::little, file, "glb") {}

    File run() {
        if (r_.size() < 12 || r_.u32_at(0) != glb_magic)
            r_.fail_at(0, "not a binary glTF (.glb): the file does not start with \"glTF\" (export the animation as .glb)");
        if (r_.u32_at(4) != 2) r_.fail_at(4, "glTF container version " + std::to_string(r_.u32_at(4)) + "; only version 2 is read");
        const std::uint32_t length = r_.u32_at(8);
        if (length > r_.size()) r_.fail_at(8, "the header says " + std::to_string(length) + " bytes; the file has " + std::to_string(r_.size()));
        std::size_t at = 12;
        std::optional<ByteView> json;
        while (at + 8 <= length) {
            const std::uint32_t size = r_.u32_at(at), type = r_.u32_at(at + 4);
            if (size > length - at - 8) r_.fail_at(at, "chunk of " + std::to_string(size) + " bytes runs past the end");
            const ByteView body = r_.bytes_at(at + 8, size);
            if (type == chunk_json && !json) json = body;
            else if (type == chunk_bin && !bin_) {
                bin_ = body;
                bin_offset_ = at + 8;
            }
            at += 8 + static_cast<std::size_t>(size);
        }
        if (!json) r_.fail_at(12, "no JSON chunk");
        doc_.Parse(reinterpret_cast<const char*>(json->data()), json->size());
        if (doc_.HasParseError() || !doc_.IsObject())
            fail("", "the JSON chunk is not a glTF object (error at character " + std::to_string(doc_.GetErrorOffset()) + ")");
        File out;
        if (doc_.HasMember("nodes")) {
            const auto& nodes = array(doc_["nodes"], "nodes");
            for (rapidjson::SizeType i = 0; i < nodes.Size(); ++i) {
                const auto& n = nodes[i];
                out.node_names.push_back(n.IsObject() && n.HasMember("name") && n["name"].IsString() ? n["name"].GetString() : "");
            }
        }
        if (doc_.HasMember("animations")) {
            const auto& anims = array(doc_["animations"], "animations");
            for (rapidjson::SizeType i = 0; i < anims.Size(); ++i)
                out.animations.push_back(animation(anims[i], "animations[" + std::to_string(i) + "]", out.node_names.size()));
        }
        return out;
    }

private:
    using Value = rapidjson::Value;

    [[noreturn]] void fail(const std::string& path, const std::string& message, std::uint64_t offset = no_offset) const {
        throw Error(ErrorKind::format, message, file_, offset, path.empty() ? "glb.json" : "glb.json." + path);
    }
    const Value& array(const Value& v, const std::string& path) const {
        if (!v.IsArray()) fail(path, "expected an array");
        return v;
    }
    const Value& member(const Value& obj, const char* name, const std::string& path) const {
        if (!obj.IsObject()) fail(path, "expected an object");
        if (!obj.HasMember(name)) fail(path, std::string("\"") + name + "\" is missing");
        return obj[name];
    }
    std::uint64_t index(const Value& v, const std::string& path, std::uint64_t bound) const {
        if (!v.IsUint64()) fail(path, "expected a non-negative integer");
        if (v.GetUint64() >= bound) fail(path, std::to_string(v.GetUint64()) + " is out of range (" + std::to_string(bound) + " defined)");
        return v.GetUint64();
    }
    std::uint64_t uint_or(const Value& obj, const char* name, std::uint64_t fallback, const std::string& path) const {
        if (!obj.HasMember(name)) return fallback;
        if (!obj[name].IsUint64()) fail(path + "." + name, "expected a non-negative integer");
        return obj[name].GetUint64();
    }

    // Reads accessor `a` as floats: `components` per element (the accessor's type must match).
    std::vector<float> accessor(std::uint64_t a, unsigned components, bool allow_normalized, const std::string& path) const {
        const auto& accs = array(member(doc_, "accessors", path), "accessors");
        const std::string ap = "accessors[" + std::to_string(a) + "]";
        if (a >= accs.Size()) fail(path, "accessor " + std::to_string(a) + " is out of range");
        const Value& acc = accs[static_cast<rapidjson::SizeType>(a)];
        if (!acc.IsObject()) fail(ap, "expected an object");
        const Value& type = member(acc, "type", ap);
        const char* want = components == 1 ? "SCALAR" : components == 3 ? "VEC3" : "VEC4";
        if (!type.IsString() || std::string(type.GetString()) != want)
            fail(ap + ".type", std::string("expected ") + want + " (used by " + path + ")");
        const std::uint64_t component_type = uint_or(acc, "componentType", 0, ap);
        const bool normalized = acc.HasMember("normalized") && acc["normalized"].IsBool() && acc["normalized"].GetBool();
        unsigned size = 0;
        if (component_type == 5126) size = 4;
        else if (allow_normalized && normalized && (component_type == 5120 || component_type == 5121)) size = 1;
        else if (allow_normalized && normalized && (component_type == 5122 || component_type == 5123)) size = 2;
        else fail(ap + ".componentType", "component type " + std::to_string(component_type) + " is not read here (float, or normalized integers for rotations)");
        const std::uint64_t count = uint_or(acc, "count", 0, ap);
        if (count == 0) fail(ap + ".count", "an animation accessor needs at least one element");
        if (count * components > max_accessor_values) fail(ap + ".count", std::to_string(count) + " elements is more than this reader accepts");
        if (acc.HasMember("sparse")) fail(ap + ".sparse", "sparse accessors are not read here");
        if (!acc.HasMember("bufferView")) fail(ap, "an accessor without a bufferView (all zeros) is not read here");
        const auto& views = array(member(doc_, "bufferViews", ap), "bufferViews");
        const std::uint64_t vi = index(acc["bufferView"], ap + ".bufferView", views.Size());
        const std::string vp = "bufferViews[" + std::to_string(vi) + "]";
        const Value& view = views[static_cast<rapidjson::SizeType>(vi)];
        if (!view.IsObject()) fail(vp, "expected an object");
        const auto& buffers = array(member(doc_, "buffers", vp), "buffers");
        const std::uint64_t bi = index(member(view, "buffer", vp), vp + ".buffer", buffers.Size());
        if (bi != 0 || (buffers[0].IsObject() && buffers[0].HasMember("uri")) || !bin_)
            fail(vp + ".buffer", "only the .glb's own BIN chunk is read (no external or data: URI buffers)");
        const std::uint64_t view_offset = uint_or(view, "byteOffset", 0, vp);
        const std::uint64_t view_length = uint_or(view, "byteLength", 0, vp);
        if (view_offset > bin_->size() || view_length > bin_->size() - view_offset)
            fail(vp, "bytes " + std::to_string(view_offset) + "+" + std::to_string(view_length) + " leave the " +
                         std::to_string(bin_->size()) + "-byte BIN chunk");
        const std::uint64_t elem = std::uint64_t(size) * components;
        const std::uint64_t stride = uint_or(view, "byteStride", elem, vp);
        if (stride < elem) fail(vp + ".byteStride", "stride " + std::to_string(stride) + " is smaller than an element");
        const std::uint64_t acc_offset = uint_or(acc, "byteOffset", 0, ap);
        if (acc_offset % size != 0 || stride % size != 0) fail(ap, "misaligned accessor");
        if (acc_offset > view_length || (count - 1) * stride + elem > view_length - acc_offset)
            fail(ap, std::to_string(count) + " elements from byte " + std::to_string(acc_offset) + " leave the " +
                         std::to_string(view_length) + "-byte buffer view " + std::to_string(vi));
        const ByteReader r = ByteReader(*bin_, Endian::little, file_, "glb.bin").with_base(bin_offset_);
        std::vector<float> out;
        out.reserve(static_cast<std::size_t>(count * components));
        for (std::uint64_t i = 0; i < count; ++i)
            for (unsigned c = 0; c < components; ++c) {
                const std::size_t at = static_cast<std::size_t>(view_offset + acc_offset + i * stride + std::uint64_t(c) * size);
                float v = 0;
                switch (component_type) {
                    case 5126: v = std::bit_cast<float>(r.u32_at(at)); break;
                    case 5120: v = std::max(float(std::int8_t(r.u8_at(at))) / 127.0f, -1.0f); break;
                    case 5121: v = float(r.u8_at(at)) / 255.0f; break;
                    case 5122: v = std::max(float(std::int16_t(r.u16_at(at))) / 32767.0f, -1.0f); break;
                    default: v = float(r.u16_at(at)) / 65535.0f; break;
                }
                if (!std::isfinite(v)) fail(ap, "element " + std::to_string(i) + " is not a finite number", bin_offset_ + at);
                out.push_back(v);
            }
        return out;
    }

    Animation animation(const Value& v, const std::string& path, std::size_t nodes) const {
        Animation a;
        if (!v.IsObject()) fail(path, "expected an object");
        if (v.HasMember("name") && v["name"].IsString()) a.name = v["name"].GetString();
        if (v.HasMember("extras") && v["extras"].IsObject()) {
            // Top-level keys, or the exporter's extras.modkit_skeletal object (which wins).
            for (const Value* e : {&v["extras"], v["extras"].HasMember("modkit_skeletal") && v["extras"]["modkit_skeletal"].IsObject()
                                                     ? &v["extras"]["modkit_skeletal"]
                                                     : nullptr}) {
                if (!e) continue;
                auto integer = [&](const char* k, std::optional<std::int64_t>& out) {
                    if (e->HasMember(k) && (*e)[k].IsInt64()) out = (*e)[k].GetInt64();
                };
                integer("frame_count", a.frame_count);
                integer("loop_frame", a.loop_frame);
                integer("start_frame", a.start_frame);
                integer("index", a.index);
                if (e->HasMember("hold") && (*e)["hold"].IsBool()) a.hold = (*e)["hold"].GetBool();
            }
        }
        const auto& samplers = array(member(v, "samplers", path), path + ".samplers");
        const auto& channels = array(member(v, "channels", path), path + ".channels");
        std::vector<bool> used(samplers.Size(), false);
        std::vector<Path> paths(samplers.Size(), Path::translation);
        for (rapidjson::SizeType i = 0; i < channels.Size(); ++i) {
            const std::string cp = path + ".channels[" + std::to_string(i) + "]";
            const Value& ch = channels[i];
            const Value& target = member(ch, "target", cp);
            const Value& p = member(target, "path", cp + ".target");
            if (!p.IsString()) fail(cp + ".target.path", "expected a string");
            const std::string name = p.GetString();
            if (name == "weights") {
                ++a.skipped_weights;
                continue;
            }
            Channel c;
            if (name == "translation") c.path = Path::translation;
            else if (name == "rotation") c.path = Path::rotation;
            else if (name == "scale") c.path = Path::scale;
            else fail(cp + ".target.path", "\"" + name + "\" is not a node transform path");
            if (!target.HasMember("node")) fail(cp + ".target", "a channel without a node (an extension target) is not read here");
            c.node = static_cast<std::size_t>(index(target["node"], cp + ".target.node", nodes));
            c.sampler = static_cast<std::size_t>(index(member(ch, "sampler", cp), cp + ".sampler", samplers.Size()));
            if (used[c.sampler] && paths[c.sampler] != c.path)
                fail(cp + ".sampler", "sampler " + std::to_string(c.sampler) + " serves paths of different sizes");
            used[c.sampler] = true;
            paths[c.sampler] = c.path;
            a.channels.push_back(c);
        }
        for (rapidjson::SizeType i = 0; i < samplers.Size(); ++i) {
            const std::string sp = path + ".samplers[" + std::to_string(i) + "]";
            Sampler s;
            if (!used[i]) {
                a.samplers.push_back(std::move(s));
                continue;
            }
            const Value& sv = samplers[i];
            if (!sv.IsObject()) fail(sp, "expected an object");
            if (sv.HasMember("interpolation")) {
                if (!sv["interpolation"].IsString()) fail(sp + ".interpolation", "expected a string");
                const std::string in = sv["interpolation"].GetString();
                if (in == "LINEAR") s.interpolation = Interpolation::linear;
                else if (in == "STEP") s.interpolation = Interpolation::step;
                else if (in == "CUBICSPLINE") s.interpolation = Interpolation::cubic;
                else fail(sp + ".interpolation", "\"" + in + "\" is not LINEAR, STEP or CUBICSPLINE");
            }
            s.components = paths[i] == Path::rotation ? 4 : 3;
            s.times = accessor(index(member(sv, "input", sp), sp + ".input", UINT64_MAX), 1, false, sp + ".input");
            s.values = accessor(index(member(sv, "output", sp), sp + ".output", UINT64_MAX), s.components,
                                paths[i] == Path::rotation, sp + ".output");
            const std::size_t per_key = s.interpolation == Interpolation::cubic ? 3u * s.components : s.components;
            if (s.values.size() != s.times.size() * per_key)
                fail(sp + ".output", std::to_string(s.values.size() / s.components) + " output elements for " +
                                         std::to_string(s.times.size()) + " keys");
            for (std::size_t k = 0; k < s.times.size(); ++k) {
                if (s.times[k] < 0) fail(sp + ".input", "key " + std::to_string(k) + " has a negative time");
                if (k && s.times[k] < s.times[k - 1]) fail(sp + ".input", "key times decrease at key " + std::to_string(k));
            }
            a.duration = std::max(a.duration, double(s.times.back()));
            a.samplers.push_back(std::move(s));
        }
        return a;
    }

    std::string file_;
    ByteReader r_;
    rapidjson::Document doc_;
    std::optional<ByteView> bin_;
    std::size_t bin_offset_ = 0;
};

}  // namespace

std::array<double, 4> Sampler::evaluate(double t, bool rotation) const {
    std::array<double, 4> out{0, 0, 0, 0};
    const std::size_t n = times.size();
    const bool cubic = interpolation == Interpolation::cubic;
    const std::size_t stride = cubic ? 3u * components : components;
    auto value = [&](std::size_t key, unsigned c) { return double(values[key * stride + (cubic ? components : 0) + c]); };
    std::size_t i = 0;
    if (n == 0) return out;
    if (t <= times[0] || n == 1) {
        for (unsigned c = 0; c < components; ++c) out[c] = value(0, c);
        return out;
    }
    if (t >= times[n - 1]) {
        for (unsigned c = 0; c < components; ++c) out[c] = value(n - 1, c);
        return out;
    }
    // times[0] < t < times[n-1]: the first key after t is 1..n-1, so times[i] <= t < times[i + 1].
    i = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), t,
                                                  [](double v, float e) { return v < double(e); }) -
                                 times.begin()) - 1;
    const double t0 = times[i], t1 = times[i + 1], dt = t1 - t0;
    const double s = dt > 0 ? (t - t0) / dt : 0;
    if (interpolation == Interpolation::step || dt <= 0) {
        for (unsigned c = 0; c < components; ++c) out[c] = value(i, c);
        return out;
    }
    if (cubic) {
        const double s2 = s * s, s3 = s2 * s;
        for (unsigned c = 0; c < components; ++c) {
            const double p0 = value(i, c), p1 = value(i + 1, c);
            const double m0 = dt * values[i * stride + 2 * components + c];  // out-tangent of key i
            const double m1 = dt * values[(i + 1) * stride + c];             // in-tangent of key i+1
            out[c] = (2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * m0 + (-2 * s3 + 3 * s2) * p1 + (s3 - s2) * m1;
        }
        return out;
    }
    if (rotation) {
        // Spherical interpolation along the shorter arc.
        std::array<double, 4> a{}, b{};
        double dot = 0;
        for (unsigned c = 0; c < 4; ++c) {
            a[c] = value(i, c);
            b[c] = value(i + 1, c);
            dot += a[c] * b[c];
        }
        if (dot < 0) {
            for (auto& x : b) x = -x;
            dot = -dot;
        }
        double wa = 1 - s, wb = s;
        if (dot < 0.9995) {
            const double theta = std::acos(std::min(dot, 1.0));
            wa = std::sin((1 - s) * theta) / std::sin(theta);
            wb = std::sin(s * theta) / std::sin(theta);
        }
        for (unsigned c = 0; c < 4; ++c) out[c] = wa * a[c] + wb * b[c];
        return out;
    }
    for (unsigned c = 0; c < components; ++c) out[c] = value(i, c) * (1 - s) + value(i + 1, c) * s;
    return out;
}

File read_glb_animations(ByteView data, const std::string& file) { return Reader(data, file).run(); }

}  // namespace mod::stadium::gltf
