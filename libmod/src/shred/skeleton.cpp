// SCP skeleton: decode + validation, in-place encode, and our own writer for new files.
#include "libmod/shred/skeleton.hpp"

#include <bit>
#include <cmath>
#include <cstring>

namespace mod::shred {

std::array<float, 16> ScpBone::matrix() const noexcept {
    std::array<float, 16> m{};
    for (std::size_t k = 0; k < 16; ++k) m[k] = std::bit_cast<float>(matrix_bits[k]);
    return m;
}

std::optional<std::uint32_t> Skeleton::find(std::string_view name) const {
    for (std::size_t i = 0; i < bones.size(); ++i)
        if (bones[i].name == name) return static_cast<std::uint32_t>(i);
    return std::nullopt;
}

AffineLayout affine_layout(const std::array<float, 16>& m, float tol) noexcept {
    auto near = [&](float v, float want) { return std::fabs(v - want) <= tol; };
    if (near(m[12], 0) && near(m[13], 0) && near(m[14], 0) && near(m[15], 1)) return AffineLayout::translation_in_column3;
    if (near(m[3], 0) && near(m[7], 0) && near(m[11], 0) && near(m[15], 1)) return AffineLayout::translation_in_row3;
    return AffineLayout::not_affine;
}

namespace {

std::string bone_path(std::size_t i, const char* field) { return "bone[" + std::to_string(i) + "]." + field; }

std::string read_name(const ByteReader& r, std::size_t i, std::uint32_t at) {
    ByteView rest = r.data().subspan(at);
    const void* nul = std::memchr(rest.data(), 0, rest.size());
    if (!nul) r.fail_at_path(at, bone_path(i, "name"), "name is not NUL-terminated");
    std::size_t len = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - rest.data());
    if (len == 0) r.fail_at_path(at, bone_path(i, "name"), "empty bone name");
    for (std::size_t k = 0; k < len; ++k)
        if (rest[k] < 0x20 || rest[k] > 0x7E)
            r.fail_at_path(at + k, bone_path(i, "name"), "bone name byte " + hex(rest[k], 2) + " is not printable ASCII");
    return std::string(reinterpret_cast<const char*>(rest.data()), len);
}

}  // namespace

Skeleton decode_skeleton(const ByteReader& r) {
    Skeleton s;
    std::uint32_t count = r.u32_at(scp_bone_count_field);
    std::uint32_t table = r.u32_at(scp_table_offset_field);
    if (count == 0) r.fail_at_path(scp_bone_count_field, "bone_count", "a skeleton with no bones");
    if (count > max_bones)
        r.fail_at_path(scp_bone_count_field, "bone_count", "bone count " + std::to_string(count) + " exceeds " +
                                                               std::to_string(max_bones), ErrorKind::limit);
    r.require_at(table, std::size_t(count) * scp_record_bytes);
    s.table_offset = table;
    s.raw.assign(r.data().begin(), r.data().end());
    s.bones.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        std::size_t rec = table + std::size_t(i) * scp_record_bytes;
        auto& b = s.bones[i];
        b.word0 = r.u32_at(rec);
        b.parent = r.u32_at(rec + 4);
        b.name_offset = r.u32_at(rec + 8);
        b.matrix_offset = r.u32_at(rec + 12);
        if (b.parent != no_parent && (b.parent >= count || b.parent == i))
            r.fail_at_path(rec + 4, bone_path(i, "parent"), "parent " + std::to_string(b.parent) + " is out of range (" +
                                                                std::to_string(count) + " bones)");
        if (b.name_offset >= r.size())
            r.fail_at_path(rec + 8, bone_path(i, "name_offset"), "name offset " + hex(b.name_offset) + " is past the end");
        b.name = read_name(r, i, b.name_offset);
        if (std::uint64_t(b.matrix_offset) + 64 > r.size())
            r.fail_at_path(rec + 12, bone_path(i, "matrix_offset"),
                           "matrix offset " + hex(b.matrix_offset) + " leaves no room for 64 bytes");
        for (std::size_t k = 0; k < 16; ++k) {
            b.matrix_bits[k] = r.u32_at(b.matrix_offset + 4 * k);
            if ((b.matrix_bits[k] & 0x7F800000u) == 0x7F800000u)
                r.fail_at_path(b.matrix_offset + 4 * k, bone_path(i, "matrix") + "[" + std::to_string(k) + "]",
                               "matrix element is not finite");
        }
        if (affine_layout(b.matrix()) == AffineLayout::not_affine)
            r.fail_at_path(b.matrix_offset, bone_path(i, "matrix"),
                           "matrix is not affine (neither row 3 nor column 3 is 0,0,0,1)");
    }
    return s;
}

Bytes encode_skeleton(const Skeleton& s) {
    Bytes out = s.raw;
    auto put = [&](std::size_t at, std::uint32_t v) {
        if (at + 4 > out.size()) throw Error(ErrorKind::usage, "skeleton model: field " + hex(at) + " is past the end");
        endian::store_be32(out.data() + at, v);
    };
    for (std::size_t i = 0; i < s.bones.size(); ++i) {
        const auto& b = s.bones[i];
        std::size_t rec = s.table_offset + i * scp_record_bytes;
        put(rec, b.word0);
        put(rec + 4, b.parent);
        for (std::size_t k = 0; k < 16; ++k) put(b.matrix_offset + 4 * k, b.matrix_bits[k]);
    }
    return out;
}

Bytes build_skeleton(std::span<const BoneSpec> bones) {
    constexpr std::size_t header = 0x30;
    ByteWriter w(Endian::big);
    w.fill(header);
    std::size_t table = w.size();
    w.fill(bones.size() * scp_record_bytes);
    w.align(16);
    std::vector<std::uint32_t> matrix_at(bones.size()), name_at(bones.size());
    for (std::size_t i = 0; i < bones.size(); ++i) {
        matrix_at[i] = static_cast<std::uint32_t>(w.size());
        for (float f : bones[i].matrix) w.f32(f);
    }
    for (std::size_t i = 0; i < bones.size(); ++i) {
        name_at[i] = static_cast<std::uint32_t>(w.size());
        w.string(bones[i].name);
        w.u8(0);
    }
    w.align(16);
    w.patch_u32(scp_bone_count_field, static_cast<std::uint32_t>(bones.size()));
    w.patch_u32(scp_table_offset_field, static_cast<std::uint32_t>(table));
    for (std::size_t i = 0; i < bones.size(); ++i) {
        std::size_t rec = table + i * scp_record_bytes;
        w.patch_u32(rec, bones[i].word0);
        w.patch_u32(rec + 4, bones[i].parent);
        w.patch_u32(rec + 8, name_at[i]);
        w.patch_u32(rec + 12, matrix_at[i]);
    }
    return w.take();
}

}  // namespace mod::shred
