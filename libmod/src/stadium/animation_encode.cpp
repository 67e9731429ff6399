// Packed-mode encoding of skeletal animations (contract in animation_encode.hpp; the game's
// reading: ../shared/reference/stadium_animation.md §4.5).
#include "libmod/stadium/animation_encode.hpp"

#include "libmod/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

namespace mod::stadium {

namespace {

constexpr double binary_per_radian = 32768.0 / std::numbers::pi;
const char* const axis_names[3] = {"x", "y", "z"};

std::string where(std::size_t channel, std::size_t axis, Component c) {
    return std::string("channel ") + std::to_string(channel) + " " + axis_names[axis] + " " + to_string(c);
}

[[noreturn]] void limit(const std::string& message) { throw Error(ErrorKind::limit, message); }

// round(v) as an integer, or a limit error naming the sample when it is far outside any field.
std::int64_t rounded(double v, std::size_t channel, std::size_t axis, Component c, std::size_t frame) {
    if (!std::isfinite(v))
        throw Error(ErrorKind::format, where(channel, axis, c) + " at frame " + std::to_string(frame) + " is not a finite number");
    if (std::fabs(v) > 1e12) limit(where(channel, axis, c) + " at frame " + std::to_string(frame) + " is far outside the format's range");
    return std::llround(v);
}

// 12-bit signed field of a rotation: round(angle / 16), wrapped to [−2048, 2047].
std::int32_t rotation_field(std::int64_t sixteenths) {
    const std::int64_t w = ((sixteenths % 4096) + 4096) % 4096;
    return static_cast<std::int32_t>(w >= 2048 ? w - 4096 : w);
}

std::int16_t rotation_of_field(std::int32_t field) {
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(static_cast<std::uint32_t>(field) * 16u));
}

// n: the game reads off + min(f, n − 1), so trailing repeats of the last value are implied.
std::size_t stream_length(const std::vector<std::int32_t>& q) {
    std::size_t n = q.size();
    while (n > 1 && q[n - 2] == q[n - 1]) --n;
    return n;
}

// One kind's stream pool: identical streams share their elements.
struct Pool {
    std::vector<std::int32_t> fields;
    std::map<std::vector<std::int32_t>, std::uint32_t> seen;
    std::size_t shared = 0;

    std::uint16_t add(const std::vector<std::int32_t>& stream, const std::string& what) {
        if (auto it = seen.find(stream); it != seen.end()) {
            ++shared;
            return static_cast<std::uint16_t>(it->second);
        }
        const std::size_t off = fields.size();
        if (off > 0xFFFF)
            limit(what + ": its stream would start at element " + std::to_string(off) +
                  ", past the descriptor's u16 offset (65535); the animation has too much motion for one model entry");
        fields.insert(fields.end(), stream.begin(), stream.end());
        seen.emplace(stream, static_cast<std::uint32_t>(off));
        return static_cast<std::uint16_t>(off);
    }
};

}  // namespace

double angle_difference(double a, double b) noexcept {
    double d = std::fmod(a - b, 65536.0);
    if (d < -32768.0) d += 65536.0;
    if (d >= 32768.0) d -= 65536.0;
    return d;
}

std::vector<std::uint16_t> pack_bitfields(const std::vector<std::int32_t>& fields, unsigned bits) {
    const std::uint64_t total = std::uint64_t(fields.size()) * bits;
    std::vector<std::uint16_t> words(static_cast<std::size_t>((total + 15) / 16) + 1, 0);
    const std::uint32_t mask = (1u << bits) - 1u;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::uint32_t v = static_cast<std::uint32_t>(fields[i]) & mask;
        for (unsigned b = 0; b < bits; ++b) {
            if (!((v >> (bits - 1 - b)) & 1u)) continue;
            const std::uint64_t p = std::uint64_t(i) * bits + b;  // bit p counted from the MSB of word 0
            words[static_cast<std::size_t>(p / 16)] |= static_cast<std::uint16_t>(0x8000u >> (p % 16));
        }
    }
    return words;
}

EncodedAnimation encode_packed(const std::vector<std::vector<PoseSample>>& channels, const EncodeOptions& options) {
    const std::size_t frames = options.frame_count ? options.frame_count : channels.empty() ? 0 : channels[0].size();
    if (frames == 0) throw Error(ErrorKind::usage, "an animation needs at least one frame");
    if (frames > 0xFFFF)
        limit("the animation has " + std::to_string(frames) + " frames; the header's frame count is a u16 (at most 65535)");
    for (std::size_t c = 0; c < channels.size(); ++c)
        if (channels[c].size() != frames)
            throw Error(ErrorKind::usage, "channel " + std::to_string(c) + " has " + std::to_string(channels[c].size()) +
                                              " samples for " + std::to_string(frames) + " frames");
    if (channels.size() * 3 > 0xFFFF)
        limit(std::to_string(channels.size()) + " channels need " + std::to_string(channels.size() * 3) +
              " descriptors; the header's count is a u16");

    // Quantised values per (channel, axis) and kind.
    const std::size_t n_tracks = channels.size() * 3;
    std::vector<std::vector<std::int32_t>> tq(n_tracks), rq(n_tracks), sq(n_tracks);
    EncodedAnimation out;
    bool wide = false;
    for (std::size_t c = 0; c < channels.size(); ++c)
        for (std::size_t k = 0; k < 3; ++k) {
            auto& t = tq[3 * c + k];
            auto& r = rq[3 * c + k];
            auto& s = sq[3 * c + k];
            for (std::size_t f = 0; f < frames; ++f) {
                const PoseSample& p = channels[c][f];
                const std::int64_t tv = rounded(p.translation[k], c, k, Component::translation, f);
                if (tv < -32768 || tv > 32767)
                    limit(where(c, k, Component::translation) + " at frame " + std::to_string(f) + " is " +
                          std::to_string(tv) + ", outside the 16-bit range (-32768..32767)");
                wide = wide || tv < -2048 || tv > 2047;
                t.push_back(static_cast<std::int32_t>(tv));
                r.push_back(rotation_field(rounded(p.rotation[k] / 16.0, c, k, Component::rotation, f)));
                const std::int64_t sv = rounded(p.scale[k] * 1000.0, c, k, Component::scale, f);
                if (sv < -32768 || sv > 65535)
                    limit(where(c, k, Component::scale) + " at frame " + std::to_string(f) + " is " +
                          std::to_string(p.scale[k]) + "; scales are stored as s16 / 1000 (-32.768..32.767, constants 0..65.535)");
                s.push_back(static_cast<std::int32_t>(sv));
                out.error.translation = std::max(out.error.translation, std::fabs(p.translation[k] - double(tv)));
                out.error.rotation_degrees =
                    std::max(out.error.rotation_degrees,
                             std::fabs(angle_difference(p.rotation[k], rotation_of_field(r.back()))) * 360.0 / 65536.0);
                out.error.scale = std::max(out.error.scale, std::fabs(p.scale[k] - double(sv) / 1000.0));
            }
        }
    out.trans16 = wide;

    SkeletalAnimation& a = out.animation;
    a.flags = static_cast<std::uint16_t>((options.flags & ~(anim_flag::trans16 | anim_flag::hermite)) |
                                         (wide ? anim_flag::trans16 : 0));
    a.unknown2 = options.unknown2;
    a.start_frame = options.start_frame;
    a.loop_frame = options.loop_frame;
    a.frame_count = static_cast<std::uint16_t>(frames);
    a.channels.resize(n_tracks);
    Pool scale_pool, rot_pool, trans_pool;
    auto stream_of = [&](const std::vector<std::int32_t>& q, std::size_t track, Component c) {
        const std::size_t n = stream_length(q);
        if (n > 255)
            limit(where(track / 3, track % 3, c) + " still changes at frame " + std::to_string(n - 1) +
                  "; a packed stream holds at most 255 values (its count is a u8), so motion must stop by frame 254");
        return std::vector<std::int32_t>(q.begin(), q.begin() + static_cast<long>(n));
    };
    for (std::size_t d = 0; d < n_tracks; ++d) {
        SkeletalAnimation::Channel& desc = a.channels[d];
        desc.interp = 0;
        const std::string name = "channel " + std::to_string(d / 3) + " " + axis_names[d % 3];
        // Scale.
        auto s = stream_of(sq[d], d, Component::scale);
        if (s.size() == 1 && s[0] >= 0) {
            desc.n_scale = 1;
            desc.scale_off = static_cast<std::uint16_t>(s[0]);
            ++out.constants;
        } else {
            if (s.size() == 1) s.push_back(s[0]);  // a negative constant: the u16 cannot hold it
            for (auto v : s)
                if (v > 32767) limit(name + " scale " + std::to_string(v / 1000.0) + " moves; streams hold s16 / 1000 (at most 32.767)");
            desc.n_scale = static_cast<std::uint8_t>(s.size());
            desc.scale_off = scale_pool.add(s, name + " scale");
            ++out.streams;
        }
        // Rotation.
        const auto r = stream_of(rq[d], d, Component::rotation);
        if (r.size() == 1) {
            desc.n_rot = 1;
            desc.rot_off = static_cast<std::uint16_t>(r[0] & 0xFFF);
            ++out.constants;
        } else {
            desc.n_rot = static_cast<std::uint8_t>(r.size());
            desc.rot_off = rot_pool.add(r, name + " rotation");
            ++out.streams;
        }
        // Translation.
        const auto t = stream_of(tq[d], d, Component::translation);
        if (t.size() == 1) {
            desc.n_trans = 1;
            desc.trans_off = static_cast<std::uint16_t>(wide ? static_cast<std::uint16_t>(t[0]) : (t[0] & 0xFFF));
            ++out.constants;
        } else {
            desc.n_trans = static_cast<std::uint8_t>(t.size());
            desc.trans_off = trans_pool.add(t, name + " translation");
            ++out.streams;
        }
    }
    out.shared_streams = scale_pool.shared + rot_pool.shared + trans_pool.shared;
    for (auto v : scale_pool.fields) a.scale.push_back(static_cast<std::int16_t>(v));
    for (auto w : pack_bitfields(rot_pool.fields, 12)) a.rotation.push_back(static_cast<std::int16_t>(w));
    for (auto w : pack_bitfields(trans_pool.fields, wide ? 16 : 12)) a.translation.push_back(static_cast<std::int16_t>(w));

    out.expected.assign(channels.size(), std::vector<ChannelPose>(frames));
    for (std::size_t c = 0; c < channels.size(); ++c)
        for (std::size_t f = 0; f < frames; ++f)
            for (std::size_t k = 0; k < 3; ++k) {
                ChannelPose& p = out.expected[c][f];
                p.translation[k] = tq[3 * c + k][f];
                p.rotation[k] = rotation_of_field(rq[3 * c + k][f]);
                p.scale[k] = sq[3 * c + k][f] / 1000.0;
            }
    return out;
}

// ---- rotations ---------------------------------------------------------------------------------

Matrix3 rotation_matrix(const std::array<double, 3>& angles) {
    const double x = angles[0] / binary_per_radian, y = angles[1] / binary_per_radian, z = angles[2] / binary_per_radian;
    const double sx = std::sin(x), cx = std::cos(x), sy = std::sin(y), cy = std::cos(y), sz = std::sin(z), cz = std::cos(z);
    return {cy * cz, sx * sy * cz - cx * sz, cx * sy * cz + sx * sz,
            cy * sz, sx * sy * sz + cx * cz, cx * sy * sz - sx * cz,
            -sy,     sx * cy,                cx * cy};
}

Matrix3 quaternion_matrix(const std::array<double, 4>& q) {
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0) || !std::isfinite(n)) throw Error(ErrorKind::format, "a rotation quaternion has zero or non-finite length");
    const double x = q[0] / n, y = q[1] / n, z = q[2] / n, w = q[3] / n;
    return {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
            2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
            2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
}

std::array<double, 3> euler_from_matrix(const Matrix3& m, const std::array<double, 3>& reference) {
    auto near = [](double a, double ref) { return a + 65536.0 * std::round((ref - a) / 65536.0); };
    auto distance = [&](const std::array<double, 3>& s) {
        double d = 0;
        for (int k = 0; k < 3; ++k) d += std::fabs(angle_difference(s[k], reference[k]));
        return d;
    };
    const double cy = std::hypot(m[0], m[3]);
    const double y = std::atan2(-m[6], cy);
    // Below this, x and z are not separable from a float-precision matrix (the nearest y the
    // format holds to ±90° has cos y ≈ 1.5e-3).
    if (cy < 1e-5) {
        const double x = reference[0] / binary_per_radian;
        const double z = m[6] < 0 ? x - std::atan2(m[1], m[4]) : std::atan2(-m[1], m[4]) - x;
        return {reference[0], near(y * binary_per_radian, reference[1]), near(z * binary_per_radian, reference[2])};
    }
    const double x = std::atan2(m[7], m[8]), z = std::atan2(m[3], m[0]);
    std::array<double, 3> a{x * binary_per_radian, y * binary_per_radian, z * binary_per_radian};
    std::array<double, 3> b{a[0] + 32768.0, 32768.0 - a[1], a[2] + 32768.0};
    for (int k = 0; k < 3; ++k) {
        a[k] = near(a[k], reference[k]);
        b[k] = near(b[k], reference[k]);
    }
    return distance(b) < distance(a) - 1e-9 ? b : a;
}

}  // namespace mod::stadium
