// Decoding skeletal and aux animations (contract in animation.hpp; spec
// doc/formats/stadium-animation.md, ground truth ../shared/reference/stadium_animation.md).
#include "libmod/stadium/animation.hpp"

#include "libmod/stadium/model.hpp"
#include "stadium/animation_detail.hpp"

#include <algorithm>
#include <set>

namespace mod::stadium {

const char* to_string(Component c) noexcept {
    switch (c) {
        case Component::scale: return "scale";
        case Component::rotation: return "rotation";
        case Component::translation: return "translation";
    }
    return "?";
}

std::uint8_t AnimationDescriptor::count(Component c) const noexcept {
    return c == Component::scale ? n_scale : c == Component::rotation ? n_rot : n_trans;
}
std::uint16_t AnimationDescriptor::offset(Component c) const noexcept {
    return c == Component::scale ? scale_off : c == Component::rotation ? rot_off : trans_off;
}

const AnimationArray& SkeletalAnimationData::array(Component c) const noexcept {
    return c == Component::scale ? scale : c == Component::rotation ? rotation : translation;
}

namespace {

constexpr Component components[3] = {Component::scale, Component::rotation, Component::translation};

// Reads structures of one animation; errors name `path.what` and the body offset.
class Reader {
public:
    Reader(const Model& m, const std::string& path, std::string name)
        : m_(m), r_(m.fragment.body, Endian::big, {}, path + "." + name), base_(m.fragment.link_base()), name_(std::move(name)) {
        // Structure starts the walk knows (pointer targets in this fragment), to bound arrays
        // whose extent the data does not store.
        for (const auto& p : m.map.pointers)
            if ((p.target & 0xFFF00000u) == base_ && p.target - base_ < m.fragment.body.size())
                starts_.insert(p.target - base_);
        starts_.insert(m.fragment.body_size());
    }

    [[noreturn]] void fail(std::uint64_t at, const std::string& what, const std::string& message) const {
        r_.fail_at_path(static_cast<std::size_t>(std::min<std::uint64_t>(at, r_.size())), "." + what, message);
    }
    std::uint32_t body_size() const noexcept { return m_.fragment.body_size(); }
    std::uint32_t link_base() const noexcept { return base_; }
    std::uint16_t u16(std::uint32_t at) const { return r_.u16_at(at); }
    std::uint32_t u32(std::uint32_t at) const { return r_.u32_at(at); }
    std::uint8_t u8(std::uint32_t at) const { return r_.u8_at(at); }

    // Body offset of the link address stored at `site`, with `need` bytes there.
    std::uint32_t target(std::uint32_t site, const std::string& what, std::uint64_t need) const {
        const std::uint32_t v = u32(site);
        if ((v & 0xFFF00000u) != base_ || v - base_ >= body_size())
            fail(site, what, "pointer " + hex(v, 8) + " does not point into this fragment's " + hex(body_size()) + "-byte body");
        const std::uint32_t t = v - base_;
        if (need > body_size() - t)
            fail(t, what, std::to_string(need) + " bytes at " + hex(t) + " leave the " + hex(body_size()) + "-byte body");
        return t;
    }
    // Bytes from `offset` to the next known structure start after it.
    std::uint32_t extent(std::uint32_t offset) const {
        auto it = starts_.upper_bound(offset);
        return (it == starts_.end() ? body_size() : *it) - offset;
    }

private:
    const Model& m_;
    ByteReader r_;
    std::uint32_t base_;
    std::string name_;
    std::set<std::uint32_t> starts_;
};

std::string channel_name(std::size_t d) {
    static const char axes[] = {'x', 'y', 'z'};
    return "descriptor[" + std::to_string(d) + "] (channel " + std::to_string(d / 3) + " " + axes[d % 3] + ")";
}

// Halfword range [first, end) of the array one descriptor component reads; first may be -1.
struct Reach {
    std::int64_t first = 0, end = 0;  // halfwords
    bool any = false;
};

Reach component_reach(const SkeletalAnimationData& a, const AnimationDescriptor& d, Component c) {
    const std::int64_t n = d.count(c), off = d.offset(c);
    Reach r;
    if (a.hermite()) {
        if (n < 2) return r;
        const bool wide = d.interp & (c == Component::scale ? interp_flag::wide_scale
                                      : c == Component::rotation ? interp_flag::wide_rotation
                                                                 : interp_flag::wide_translation);
        r = {off, off + n * (wide ? 4 : 3), true};
        return r;
    }
    if (n == 1) return r;
    const std::int64_t lo = n == 0 ? off - 1 : off, hi = n == 0 ? off - 1 : off + n - 1;  // element indices
    if (c == Component::scale) return {lo, hi + 1, true};
    const std::int64_t bits = (c == Component::rotation || !a.trans16()) ? 12 : 16;
    // Index −1 as the hardware reads it (read_packed_field): C's truncating division gives
    // halfword 0 for 12-bit fields (halfwords 0 and 1), −1 for 16-bit ones (−1 and 0).
    if (lo < 0) return bits == 16 ? Reach{-1, 1, true} : Reach{0, 2, true};
    const std::int64_t p_last = hi * bits;
    const std::int64_t last_word = p_last / 16 + ((p_last % 16) + bits > 16 ? 1 : 0);
    return {lo * bits / 16, last_word + 1, true};
}

void read_array(const Reader& rd, AnimationArray& arr, std::uint32_t site, const std::string& what, Reach need,
                std::vector<std::string>& findings) {
    arr.pointer = rd.u32(site);
    if (!need.any) {
        // Nothing reads it: keep the pointer; the words up to the next structure when it points here.
        if ((arr.pointer & 0xFFF00000u) == rd.link_base() && arr.pointer - rd.link_base() < rd.body_size()) {
            arr.offset = arr.pointer - rd.link_base();
            arr.extent = rd.extent(arr.offset);
            arr.words.resize(arr.extent / 2);
            for (std::size_t i = 0; i < arr.words.size(); ++i) arr.words[i] = rd.u16(arr.offset + std::uint32_t(2 * i));
        }
        return;
    }
    arr.offset = rd.target(site, what, 0);
    arr.extent = rd.extent(arr.offset);
    if (need.first < 0) {
        if (arr.offset < 2) rd.fail(arr.offset, what, "element -1 (a count-0 descriptor at offset 0) lies before the body");
        arr.word_before = rd.u16(arr.offset - 2);
    }
    const std::uint64_t words = std::max<std::uint64_t>(arr.extent / 2, static_cast<std::uint64_t>(std::max<std::int64_t>(need.end, 0)));
    if (2 * words > rd.body_size() - arr.offset)
        rd.fail(arr.offset, what, "the descriptors read halfword " + std::to_string(need.end - 1) + " at " +
                                      hex(arr.offset + 2 * std::uint64_t(need.end - 1)) + ", outside the " + hex(rd.body_size()) +
                                      "-byte body");
    if (std::uint64_t(std::max<std::int64_t>(need.end, 0)) * 2 > arr.extent)
        findings.push_back(what + ": the descriptors read " + std::to_string(need.end) + " halfwords, past the array's " +
                           std::to_string(arr.extent) + " bytes before the next structure (the game reads what lies there)");
    arr.words.resize(static_cast<std::size_t>(words));
    for (std::size_t i = 0; i < arr.words.size(); ++i) arr.words[i] = rd.u16(arr.offset + std::uint32_t(2 * i));
}

// The reader of header `index` of one kind (`headers`, `kind` in the usage error, `name` in
// structure paths); usage error when the model has no such header.
Reader open_header(const Model& model, const std::vector<std::uint32_t>& headers, std::size_t index, const std::string& path,
                   const char* kind, const char* name) {
    if (index >= headers.size())
        throw Error(ErrorKind::usage, "the model has " + std::to_string(headers.size()) + " " + kind + " animations, not " +
                                          std::to_string(index + 1));
    return Reader(model, path, std::string(name) + "[" + std::to_string(index) + "]");
}

// The fields both headers start with (§4.2, §4.8), read into `a` from `headers[index]` whose
// kind is `size` bytes long: flags, two unknown bytes, start and loop frames, the +0x08 count
// (`count`: descriptors or channels), the frame count and the +0x0C link address (`pointer`);
// flag bits the game does not test are a finding.
template <class A>
void read_header_start(const Reader& rd, const std::vector<std::uint32_t>& headers, std::size_t index, std::uint32_t size,
                       A& a, std::uint16_t& count, std::uint32_t& pointer) {
    a.index = index;
    a.header = headers[index];
    const std::uint32_t h = a.header;
    if (std::uint64_t(h) + size > rd.body_size()) rd.fail(h, "header", "the " + hex(size) + "-byte header leaves the body");
    a.flags = rd.u16(h);
    a.unknown2 = {rd.u8(h + 2), rd.u8(h + 3)};
    a.start_frame = std::int16_t(rd.u16(h + 4));
    a.loop_frame = std::int16_t(rd.u16(h + 6));
    count = rd.u16(h + 8);
    a.frame_count = rd.u16(h + 0xA);
    pointer = rd.u32(h + 0xC);
    if (a.flags & ~anim_flag::known)
        a.findings.push_back("flags " + hex(a.flags, 4) + " has bits other than 0x02/0x04/0x08 (" +
                             hex(a.flags & ~anim_flag::known, 4) + ")");
}

}  // namespace

SkeletalAnimationData read_skeletal_animation(const Model& model, std::size_t index, const std::string& path) {
    const Reader rd = open_header(model, model.map.animations, index, path, "skeletal", "animation");
    SkeletalAnimationData a;
    read_header_start(rd, model.map.animations, index, skeletal_header_size, a, a.descriptor_count, a.descriptor_pointer);
    const std::uint32_t h = a.header;
    auto& F = a.findings;
    if (a.descriptor_count % 3)
        F.push_back("descriptor count " + std::to_string(a.descriptor_count) + " is not a multiple of 3 (the last " +
                    std::to_string(a.descriptor_count % 3) + " animate no bone)");
    if (a.frame_count == 0) F.push_back("frame count 0: the last frame is -1");
    else {
        if (a.loop_frame < 0 || a.loop_frame >= a.frame_count)
            F.push_back("loop start " + std::to_string(a.loop_frame) + " is outside frames 0.." + std::to_string(a.frame_count - 1));
        if (a.start_frame < 0 || a.start_frame >= a.frame_count)
            F.push_back("start frame " + std::to_string(a.start_frame) + " is outside frames 0.." + std::to_string(a.frame_count - 1));
    }
    if (a.descriptor_count) {
        a.descriptor_offset = rd.target(h + 0xC, "descriptors", std::uint64_t(a.descriptor_count) * animation_descriptor_size);
        a.descriptors.resize(a.descriptor_count);
        for (std::size_t i = 0; i < a.descriptors.size(); ++i) {
            const std::uint32_t at = a.descriptor_offset + std::uint32_t(i * animation_descriptor_size);
            auto& d = a.descriptors[i];
            d.n_scale = rd.u8(at);
            d.n_rot = rd.u8(at + 1);
            d.n_trans = rd.u8(at + 2);
            d.interp = rd.u8(at + 3);
            d.scale_off = rd.u16(at + 4);
            d.rot_off = rd.u16(at + 6);
            d.trans_off = rd.u16(at + 8);
        }
    } else if ((a.descriptor_pointer & 0xFFF00000u) == model.fragment.link_base() &&
               a.descriptor_pointer - model.fragment.link_base() < rd.body_size()) {
        a.descriptor_offset = a.descriptor_pointer - model.fragment.link_base();
    }
    AnimationArray* arrays[3] = {&a.scale, &a.rotation, &a.translation};
    for (int k = 0; k < 3; ++k) {
        const Component c = components[k];
        Reach need;
        for (std::size_t i = 0; i < a.descriptors.size(); ++i) {
            const Reach r = component_reach(a, a.descriptors[i], c);
            if (!r.any) continue;
            if (!need.any) need = r;
            need.first = std::min(need.first, r.first);
            need.end = std::max(need.end, r.end);
            need.any = true;
        }
        read_array(rd, *arrays[k], h + 0x10 + 4 * std::uint32_t(k), std::string(to_string(c)) + "_data", need, F);
    }
    if (a.hermite()) {
        for (std::size_t i = 0; i < a.descriptors.size(); ++i)
            for (Component c : components) {
                const auto& d = a.descriptors[i];
                if (d.count(c) < 2) continue;
                const auto keys = detail::keys_of(a.array(c), d.offset(c), d.count(c), detail::wide_keys(d, c));
                for (std::size_t k = 1; k < keys.size(); ++k)
                    if (keys[k].frame <= keys[k - 1].frame) {
                        F.push_back(channel_name(i) + " " + to_string(c) + " key " + std::to_string(k) + " at frame " +
                                    std::to_string(keys[k].frame) + " does not follow frame " + std::to_string(keys[k - 1].frame) +
                                    " (equal frames divide by zero in the game)");
                        break;
                    }
            }
    }
    return a;
}

AuxAnimationData read_aux_animation(const Model& model, std::size_t index, const std::string& path) {
    const Reader rd = open_header(model, model.map.aux_animations, index, path, "aux", "aux_animation");
    AuxAnimationData a;
    read_header_start(rd, model.map.aux_animations, index, aux_header_size, a, a.channel_count, a.channel_pointer);
    const std::uint32_t h = a.header;
    a.stream_pointer = rd.u32(h + 0x10);
    auto& F = a.findings;
    if (a.frame_count == 0) F.push_back("frame count 0");
    else if (a.loop_frame < 0 || a.loop_frame >= a.frame_count)
        F.push_back("loop start " + std::to_string(a.loop_frame) + " is outside frames 0.." + std::to_string(a.frame_count - 1));
    std::int64_t first = 0, end = 0;
    bool any = false;
    if (a.channel_count) {
        a.channel_offset = rd.target(h + 0xC, "channels", 4ull * a.channel_count);
        a.channels.resize(a.channel_count);
        for (std::size_t i = 0; i < a.channels.size(); ++i) {
            const std::uint32_t at = a.channel_offset + std::uint32_t(4 * i);
            a.channels[i] = {rd.u16(at), rd.u16(at + 2)};
            const std::int64_t lo = a.channels[i].count ? a.channels[i].base : a.channels[i].base - 1;
            const std::int64_t hi = a.channels[i].count ? a.channels[i].base + a.channels[i].count - 1 : lo;
            first = any ? std::min(first, lo) : lo;
            end = any ? std::max(end, hi + 1) : hi + 1;
            any = true;
        }
    }
    if (any) {
        a.stream_offset = rd.target(h + 0x10, "stream", 0);
        a.stream_extent = rd.extent(a.stream_offset);
        if (first < 0) {
            if (a.stream_offset < 1) rd.fail(a.stream_offset, "stream", "byte -1 (a count-0 channel at base 0) lies before the body");
            a.stream_before = rd.u8(a.stream_offset - 1);
        }
        const std::uint64_t bytes = std::max<std::uint64_t>(a.stream_extent, std::uint64_t(std::max<std::int64_t>(end, 0)));
        if (bytes > rd.body_size() - a.stream_offset)
            rd.fail(a.stream_offset, "stream", "the channels read byte " + std::to_string(end - 1) + " at " +
                                                   hex(a.stream_offset + std::uint64_t(end - 1)) + ", outside the body");
        if (std::uint64_t(std::max<std::int64_t>(end, 0)) > a.stream_extent)
            F.push_back("the channels read " + std::to_string(end) + " stream bytes, past the " + std::to_string(a.stream_extent) +
                        " before the next structure");
        a.stream.resize(static_cast<std::size_t>(bytes));
        for (std::size_t i = 0; i < a.stream.size(); ++i) a.stream[i] = rd.u8(a.stream_offset + std::uint32_t(i));
        const std::size_t textures = model.textures.size();
        for (std::size_t c = 0; c < a.channels.size(); ++c) {
            const auto& ch = a.channels[c];
            const std::size_t n = ch.count ? ch.count : 1;
            for (std::size_t k = 0; k < n; ++k) {
                const std::uint8_t v = sample_aux(a, c, static_cast<std::int32_t>(k));
                if (v >= textures) {
                    F.push_back("channel " + std::to_string(c) + " frame " + std::to_string(k) + " shows texture " +
                                std::to_string(v) + ", past the " + std::to_string(textures) + "-entry texture table");
                    break;
                }
            }
        }
    } else {
        a.stream_offset = 0;
    }
    return a;
}

ModelAnimations read_animations(const Model& model, const std::string& path) {
    ModelAnimations out;
    for (std::size_t i = 0; i < model.map.animations.size(); ++i) {
        out.skeletal.push_back(read_skeletal_animation(model, i, path));
        const auto& a = out.skeletal.back();
        for (const auto& f : a.findings) out.findings.push_back("animation[" + std::to_string(i) + "]: " + f);
        for (std::size_t b = 0; b < model.bones.size(); ++b) {
            const std::uint8_t c = model.bones[b].channel;
            if (c != 0xFF && !a.binds(c))
                out.findings.push_back("animation[" + std::to_string(i) + "]: bone " + std::to_string(b) + "'s channel " +
                                       std::to_string(c) + " needs descriptors " + std::to_string(3 * c) + ".." +
                                       std::to_string(3 * c + 2) + " of " + std::to_string(a.descriptor_count) +
                                       ": it keeps its bind pose");
        }
    }
    for (std::size_t i = 0; i < model.map.aux_animations.size(); ++i) {
        out.aux.push_back(read_aux_animation(model, i, path));
        for (const auto& f : out.aux.back().findings) out.findings.push_back("aux_animation[" + std::to_string(i) + "]: " + f);
    }
    return out;
}

}  // namespace mod::stadium
