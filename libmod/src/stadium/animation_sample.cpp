// Sampling decoded animations with the game's arithmetic (contract in animation.hpp;
// ../shared/reference/stadium_animation.md §4.4-§4.8).
#include "libmod/stadium/animation.hpp"

#include "libmod/stadium/model.hpp"
#include "stadium/animation_detail.hpp"

#include <algorithm>
#include <cmath>

namespace mod::stadium {

std::int32_t read_bitfield(const std::vector<std::uint16_t>& words, std::uint32_t index, unsigned bits) noexcept {
    const std::uint64_t p = std::uint64_t(index) * bits;
    const std::uint64_t w = p / 16;
    const std::uint32_t hi = w < words.size() ? words[w] : 0;
    const std::uint32_t lo = w + 1 < words.size() ? words[w + 1] : 0;
    const std::uint32_t word = ((hi << 16) | lo) << (p % 16);
    // Arithmetic shift right of the s32 by 32 - bits: the sign-extended field.
    return static_cast<std::int32_t>(word) >> (32 - bits);
}

float evaluate_hermite(const std::vector<HermiteKey>& k, std::int32_t t) noexcept {
    const std::size_t n = k.size();
    if (n == 0) return 0;
    if (t <= k[0].frame) return k[0].value;
    if (t >= k[n - 1].frame) return k[n - 1].value;
    std::size_t i = n - 2;
    for (std::size_t j = 0; j + 3 <= n; ++j)  // j over 0 .. n-3
        if (t < k[j + 1].frame) {
            i = j;
            break;
        }
    const std::int32_t span = std::int32_t(k[i + 1].frame) - k[i].frame;
    if (span == 0) return k[i].value;  // the game divides by zero here (a finding on read)
    // src/17300.c func_80016934, every operation in f32 in C's order (left to right).
    const float x = float(t - k[i].frame) / 30.0f;
    const float y = 30.0f / float(span);
    const float h00 = ((2.0f * x * x * x * y * y * y) - 3.0f * x * x * y * y) + 1.0f;
    const float h01 = (-2.0f * x * x * x * y * y * y) + 3.0f * x * x * y * y;
    const float h10 = (x * x * x * y * y - (2.0f * x * x * y)) + x;
    const float h11 = x * x * x * y * y - (x * x * y);
    return float(k[i].value) * h00 + float(k[i + 1].value) * h01 + float(k[i].out_tangent) * h10 +
           float(k[i + 1].in_tangent) * h11;
}

std::int16_t hermite_angle(float tenths) noexcept {
    if (!std::isfinite(tenths)) return 0;
    float deg = tenths / 10.0f;
    // src/17300.c func_80016DE0: repeated ±360 in f32. Values from s16 keys stay below ~1.4e7°
    // (about 40,000 steps); a larger one (impossible from the data) is reduced first.
    if (std::fabs(deg) > 1e8f) deg = std::fmod(deg, 360.0f);
    while (deg < 0.0f) deg += 360.0f;
    while (deg >= 360.0f) deg -= 360.0f;
    const auto whole = static_cast<std::int32_t>(deg / 360.0f * 65536.0f);  // truncation, 0..65535
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(whole));
}

std::int32_t read_packed_field(const AnimationArray& arr, std::int64_t index, unsigned bits) noexcept {
    const std::int32_t p = static_cast<std::int32_t>(index * std::int64_t(bits));  // s32 product (indices are u16 + frame)
    const std::int32_t w = p / 16, r = p % 16;  // C: truncation toward zero, remainder with the dividend's sign
    auto half = [&](std::int64_t k) -> std::uint32_t {
        if (k == -1) return arr.word_before.value_or(0);
        if (k < 0 || static_cast<std::uint64_t>(k) >= arr.words.size()) return 0;
        return arr.words[static_cast<std::size_t>(k)];
    };
    std::uint32_t word = (half(w) << 16) | half(std::int64_t(w) + 1);
    word <<= static_cast<std::uint32_t>(r) & 31u;                                       // sllv
    const std::int32_t v = static_cast<std::int32_t>(word) >> ((0u - bits) & 31u);  // srav by −bits
    return std::int16_t(static_cast<std::uint16_t>(static_cast<std::uint32_t>(v)));  // spC.y
}

namespace {

std::int32_t s16_at(const AnimationArray& arr, std::int64_t i) {
    if (i < 0) return std::int16_t(arr.word_before.value_or(0));
    return std::int16_t(static_cast<std::size_t>(i) < arr.words.size() ? arr.words[static_cast<std::size_t>(i)] : 0);
}

}  // namespace

double sample_component(const SkeletalAnimationData& a, std::size_t descriptor, Component c, std::int32_t frame) {
    if (descriptor >= a.descriptors.size())
        throw Error(ErrorKind::usage, "descriptor " + std::to_string(descriptor) + " of " + std::to_string(a.descriptors.size()));
    const AnimationDescriptor& d = a.descriptors[descriptor];
    const std::int64_t f = std::max<std::int32_t>(frame, 0);
    const unsigned n = d.count(c);
    const std::uint16_t off = d.offset(c);
    const AnimationArray& arr = a.array(c);
    if (a.hermite()) {
        if (n < 2) {
            const auto k = std::int16_t(off);
            if (c == Component::scale) return double(float(k) / 100.0f);
            if (c == Component::rotation) return hermite_angle(float(k));
            return k;
        }
        const float v = evaluate_hermite(detail::keys_of(arr, off, n, detail::wide_keys(d, c)), static_cast<std::int32_t>(f));
        if (c == Component::scale) return double(v / 100.0f);
        if (c == Component::rotation) return hermite_angle(v);
        return double(v);
    }
    const std::int64_t idx = std::int64_t(off) + std::min<std::int64_t>(f, std::int64_t(n) - 1);
    switch (c) {
        case Component::scale:
            if (n == 1) return off / 1000.0;
            return s16_at(arr, idx) / 1000.0;
        case Component::rotation:
            if (n == 1) return std::int16_t(std::uint16_t(off << 4));
            return std::int16_t(std::uint16_t(read_packed_field(arr, idx, 12) * 16));
        case Component::translation:
            if (n == 1) return a.trans16() ? std::int16_t(off) : std::int16_t(std::uint16_t(off << 4)) >> 4;
            return read_packed_field(arr, idx, a.trans16() ? 16 : 12);
    }
    return 0;
}

ChannelPose sample_channel(const SkeletalAnimationData& a, std::size_t channel, std::int32_t frame) {
    if (3 * channel + 2 >= a.descriptors.size())
        throw Error(ErrorKind::usage, "channel " + std::to_string(channel) + " needs descriptors " + std::to_string(3 * channel) +
                                          ".." + std::to_string(3 * channel + 2) + "; the animation has " +
                                          std::to_string(a.descriptors.size()));
    ChannelPose p;
    for (std::size_t axis = 0; axis < 3; ++axis) {
        const std::size_t d = 3 * channel + axis;
        p.scale[axis] = sample_component(a, d, Component::scale, frame);
        p.rotation[axis] = static_cast<std::int16_t>(sample_component(a, d, Component::rotation, frame));
        p.translation[axis] = sample_component(a, d, Component::translation, frame);
    }
    return p;
}

std::vector<ChannelPose> bind_poses(const Model& model) {
    std::vector<ChannelPose> out;
    out.reserve(model.bones.size());
    for (const auto& b : model.bones) {
        ChannelPose p;
        for (int k = 0; k < 3; ++k) {
            p.translation[k] = b.translation[k];
            p.rotation[k] = b.rotation[k];
            p.scale[k] = b.scale[k] / 65536.0;
        }
        out.push_back(p);
    }
    return out;
}

std::vector<ChannelPose> sample_bones(const Model& model, const SkeletalAnimationData& a, std::int32_t frame) {
    auto out = bind_poses(model);
    for (std::size_t b = 0; b < model.bones.size(); ++b)
        if (a.binds(model.bones[b].channel)) out[b] = sample_channel(a, model.bones[b].channel, frame);
    return out;
}

std::string component_kind(const SkeletalAnimationData& a, std::size_t descriptor, Component c) {
    const AnimationDescriptor& d = a.descriptors.at(descriptor);
    const unsigned n = d.count(c);
    if (a.hermite()) return n < 2 ? "constant" : detail::wide_keys(d, c) ? "wide keys" : "keys";
    return n == 1 ? "constant" : n == 0 ? "stream@off-1" : "stream";
}

std::uint8_t sample_aux(const AuxAnimationData& a, std::size_t channel, std::int32_t frame) {
    if (channel >= a.channels.size())
        throw Error(ErrorKind::usage, "aux channel " + std::to_string(channel) + " of " + std::to_string(a.channels.size()));
    const auto& ch = a.channels[channel];
    const std::int64_t f = std::max<std::int32_t>(frame, 0);
    const std::int64_t i = std::int64_t(ch.base) + std::min<std::int64_t>(f, std::int64_t(ch.count) - 1);
    if (i < 0) return a.stream_before.value_or(0);
    return static_cast<std::size_t>(i) < a.stream.size() ? a.stream[static_cast<std::size_t>(i)] : 0;
}

std::vector<std::int32_t> skeletal_frames(const SkeletalAnimationData& a, std::int32_t start, std::size_t ticks) {
    std::vector<std::int32_t> out;
    std::int64_t pos = std::int64_t(start) * 0x10000 - 0x10000;
    const std::int64_t end = std::int64_t(a.frame_count) * 0x10000;
    for (std::size_t t = 0; t < ticks; ++t) {
        pos += 0x10000;
        if (pos >= end) pos = a.hold() ? end - 0x10000 : std::int64_t(a.loop_frame) * 0x10000;
        out.push_back(static_cast<std::int32_t>(std::max<std::int64_t>(pos >> 16, 0)));
    }
    return out;
}

std::vector<std::int32_t> aux_frames(const AuxAnimationData& a, std::int32_t start, std::size_t ticks) {
    std::vector<std::int32_t> out;
    std::int64_t counter = std::int64_t(start) - 1;
    for (std::size_t t = 0; t < ticks; ++t) {
        ++counter;
        if (counter >= a.frame_count) counter = a.hold() ? std::int64_t(a.frame_count) - 1 : a.loop_frame;
        out.push_back(static_cast<std::int32_t>(counter));
    }
    return out;
}

}  // namespace mod::stadium
