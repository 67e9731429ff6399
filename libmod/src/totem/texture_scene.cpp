#include "libmod/totem/texture_scene.hpp"

#include "libmod/totem/material.hpp"
#include "libmod/totem/verify.hpp"

#include <algorithm>
#include <cmath>

namespace mod::totem {

std::optional<BitmapLayout> bitmap_layout(std::optional<Platform> platform, Endian endian) {
    if (platform == Platform::pc) return std::nullopt;
    if (platform) return *platform == Platform::gamecube ? BitmapLayout::gamecube : BitmapLayout::ps2;
    return endian == Endian::big ? BitmapLayout::gamecube : BitmapLayout::ps2;
}

namespace {
bool is_type(const Record& r, const char* type) { return r.type_id == name_id(type); }
}  // namespace

MaterialLink follow_material(const ByteReader& dgc, const Archive& a, std::int32_t id, const NameTable& names) {
    MaterialLink link;
    auto rec = find_record(a, id);
    if (!rec) {
        link.notes.push_back("no record " + names.display(id));
        return link;
    }
    if (is_type(a.records[*rec], "MATERIALANIM")) {
        const MaterialAnim anim = decode_material_anim(payload_reader(dgc, a, *rec));
        const std::int32_t anim_id = id;
        id = anim.material;
        rec = find_record(a, id);
        if (!rec) {
            link.notes.push_back("MATERIALANIM " + names.display(anim_id) + " names no record " + names.display(id));
            return link;
        }
    }
    if (!is_type(a.records[*rec], "MATERIAL")) {
        link.notes.push_back(names.display(id) + " is a " + names.display(a.records[*rec].type_id) + ", not a MATERIAL");
        return link;
    }
    link.material = id;
    link.record = rec;
    const Material m = decode_material(payload_reader(dgc, a, *rec));
    if (m.texture == 0) return link;
    auto bmp = find_record(a, m.texture);
    if (!bmp || !is_type(a.records[*bmp], "BITMAP")) {
        link.notes.push_back("MATERIAL " + names.display(id) + ": texture " + names.display(m.texture) + " is not a BITMAP here");
        return link;
    }
    link.bitmap = bmp;
    return link;
}

bool is_identity(const UvTransform& m) noexcept {
    const UvTransform identity = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int k = 0; k < 9; ++k)
        if (!(m[k] == identity[k])) return false;
    return true;
}

scene::Vec2 apply_uv_transform(const UvTransform& m, scene::Vec2 uv) noexcept {
    const float u = uv[0], v = uv[1];
    return {u * m[0] + v * m[3] + m[6], u * m[1] + v * m[4] + m[7]};
}

std::optional<UvTransform> material_uv_transform(const ByteReader& dgc, const Archive& a, std::int32_t id,
                                                 const NameTable& names) {
    const MaterialLink link = follow_material(dgc, a, id, names);
    if (!link.record) return std::nullopt;
    const Material m = decode_material(payload_reader(dgc, a, *link.record));
    UvTransform t;
    for (int k = 0; k < 9; ++k) t[k] = m.uv_transform[k].value();
    if (is_identity(t)) return std::nullopt;
    return t;
}

StoredUvs stored_uvs(const UvTransform& m, const std::vector<scene::Vec2>& uv0, const std::vector<scene::Vec2>& uv1,
                     const std::string& label) {
    StoredUvs out;
    out.uvs.resize(uv0.size());
    const double det = double(m[0]) * m[4] - double(m[1]) * m[3];
    for (std::size_t v = 0; v < uv0.size(); ++v) {
        if (v < uv1.size()) {
            const scene::Vec2 t = apply_uv_transform(m, uv1[v]);
            auto close = [](float a, float b) { return std::fabs(a - b) <= 1e-5f * std::max(1.0f, std::fabs(a)); };
            if (close(t[0], uv0[v][0]) && close(t[1], uv0[v][1])) {
                out.uvs[v] = uv1[v];
                ++out.kept;
                continue;
            }
        }
        if (det == 0 || !std::isfinite(det))
            throw Error(ErrorKind::format, label + ": vertex " + std::to_string(v) +
                                               "'s UV is not its material's transform of TEXCOORD_1, and the transform "
                                               "cannot be inverted (its 2x2 part is singular): edit TEXCOORD_1 instead");
        const double du = double(uv0[v][0]) - m[6], dv = double(uv0[v][1]) - m[7];
        out.uvs[v] = {static_cast<float>((du * m[4] - dv * m[3]) / det), static_cast<float>((dv * m[0] - du * m[1]) / det)};
        ++out.inverted;
    }
    return out;
}

scene::Vec4 exported_base_colour(const Material& m) {
    scene::Vec4 c;
    for (int k = 0; k < 4; ++k) {
        const float v = m.colour[k].value();
        c[k] = std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 1.0f;
    }
    return c;
}

std::vector<std::string> attach_materials(scene::Scene& sc, const ByteReader& dgc, const Archive& a, const NameTable& names,
                                          std::optional<BitmapLayout> layout) {
    std::vector<std::string> out;
    sc.material_info.assign(sc.materials.size(), scene::MaterialInfo{});
    for (std::size_t i = 0; i < sc.materials.size(); ++i) {
        const std::string& label = sc.materials[i];
        try {
            const MaterialLink link = follow_material(dgc, a, id_from_text(names, label), names);
            for (const auto& n : link.notes) out.push_back("material " + label + ": " + n);
            if (!link.record) continue;
            const Material m = decode_material(payload_reader(dgc, a, *link.record));
            scene::MaterialInfo& info = sc.material_info[i];
            info.base_colour = exported_base_colour(m);
            UvTransform t;
            for (int k = 0; k < 9; ++k) t[k] = m.uv_transform[k].value();
            const bool finite = std::all_of(t.begin(), t.end(), [](float x) { return std::isfinite(x); });
            if (!finite) {
                out.push_back("material " + label + ": its UV transform has a non-finite entry and is not applied");
            } else if (!is_identity(t)) {
                std::size_t vertices = 0;
                for (auto& mesh : sc.meshes) {
                    if (mesh.material != i) continue;
                    for (auto& uv : mesh.uv0) uv = apply_uv_transform(t, uv);
                    vertices += mesh.uv0.size();
                }
                out.push_back("material " + label + ": its UV transform (u, v, 1) x M is applied to TEXCOORD_0 of " +
                              std::to_string(vertices) + " vertices as Chum World and noclip apply it; TEXCOORD_1 keeps "
                              "the stored UVs");
            }
            if (!link.bitmap) continue;
            if (!layout) {
                out.push_back("material " + label + ": no source describes PC bitmaps; exported untextured");
                continue;
            }
            const Bitmap b = decode_bitmap(payload_reader(dgc, a, *link.bitmap), *layout);
            const image::RgbaImage img = decode_pixels(b, a.endian);
            scene::MaterialTexture tex;
            tex.name = names.display(a.records[*link.bitmap].name_id);
            tex.width = img.width;
            tex.height = img.height;
            tex.rgba.resize(img.pixels.size());
            const std::size_t row = std::size_t(4) * img.width;
            for (std::uint32_t y = 0; y < img.height; ++y)  // flipped: see the header
                std::copy_n(img.pixels.begin() + std::ptrdiff_t(row * y), row,
                            tex.rgba.begin() + std::ptrdiff_t(row * (img.height - 1 - y)));
            info.texture = std::move(tex);
            info.alpha = b.alpha_level == 1 ? scene::AlphaMode::mask : b.alpha_level == 2 ? scene::AlphaMode::blend
                                                                                            : scene::AlphaMode::opaque;
            if (info.base_colour[3] < 1.0f && info.alpha == scene::AlphaMode::opaque) info.alpha = scene::AlphaMode::blend;
        } catch (const Error& e) {
            out.push_back("material " + label + ": " + e.what() + " (exported untextured)");
        }
    }
    return out;
}

}  // namespace mod::totem
