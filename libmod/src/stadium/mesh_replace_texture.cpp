// Mesh replacement, step 2: source materials → N64 textures (mesh_replace.hpp). Each used
// material's base-colour image (× its base-colour factor) is resized to powers of two that fit
// TMEM and encoded in the format that fits best; an untextured material gets a 4×4 RGBA16
// swatch of its base colour. Shading (lit normals or vertex colours) follows the target.
#include "mesh_replace_detail.hpp"

#include "libmod/core/error.hpp"
#include "libmod/image/colour.hpp"
#include "libmod/image/quantise.hpp"
#include "libmod/n64/texel.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace mod::stadium::mesh_detail {

namespace {

constexpr std::uint32_t tmem_bytes = 4096;

std::uint32_t pow2_floor(std::uint32_t v) {
    std::uint32_t p = 1;
    while (p * 2 <= v && p < 256) p *= 2;
    return p;
}

// Box-filtered resize (each output texel averages the source texels its footprint covers;
// alpha-weighted colour so transparent texels do not darken edges).
image::RgbaImage resize(const scene::MaterialTexture& t, std::uint32_t w, std::uint32_t h) {
    image::RgbaImage out;
    out.width = w;
    out.height = h;
    out.pixels.resize(std::size_t(w) * h * 4);
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            const std::uint32_t x0 = x * t.width / w, x1 = std::max(x0 + 1, (x + 1) * t.width / w);
            const std::uint32_t y0 = y * t.height / h, y1 = std::max(y0 + 1, (y + 1) * t.height / h);
            double acc[4] = {0, 0, 0, 0};
            double n = 0;
            for (std::uint32_t yy = y0; yy < y1 && yy < t.height; ++yy)
                for (std::uint32_t xx = x0; xx < x1 && xx < t.width; ++xx) {
                    const std::uint8_t* p = &t.rgba[(std::size_t(yy) * t.width + xx) * 4];
                    const double a = p[3] / 255.0;
                    for (int k = 0; k < 3; ++k) acc[k] += p[k] * a;
                    acc[3] += p[3];
                    n += 1;
                }
            std::uint8_t* o = &out.pixels[(std::size_t(y) * w + x) * 4];
            const double asum = acc[3] / 255.0;
            for (int k = 0; k < 3; ++k) o[k] = static_cast<std::uint8_t>(std::lround(asum > 0 ? acc[k] / asum : 0));
            o[3] = static_cast<std::uint8_t>(std::lround(n > 0 ? acc[3] / n : 255));
        }
    return out;
}

std::uint8_t wrap_bits(scene::TextureWrap w) {
    return w == scene::TextureWrap::mirrored_repeat ? n64::tx_mirror : w == scene::TextureWrap::clamp_to_edge ? n64::tx_clamp : 0;
}
const char* wrap_name(scene::TextureWrap w) {
    return w == scene::TextureWrap::mirrored_repeat ? "mirror" : w == scene::TextureWrap::clamp_to_edge ? "clamp" : "repeat";
}

// Largest power-of-two size ≤ the image (≤ 256 per axis) with w × h ≤ cap texels and w ≥ min_w.
std::pair<std::uint32_t, std::uint32_t> fit(std::uint32_t sw, std::uint32_t sh, std::uint32_t cap, std::uint32_t min_w) {
    std::uint32_t w = std::max(pow2_floor(sw), min_w), h = pow2_floor(sh);
    while (w * h > cap) {
        if ((w >= h && w > min_w) || h == 1) w /= 2;
        else h /= 2;
    }
    return {w, h};
}

void delta_e_of(const image::RgbaImage& want, const Bytes& got, double& mean, double& max) {
    double sum = 0;
    std::uint64_t n = 0;
    max = 0;
    for (std::size_t i = 0; i < want.pixel_count(); ++i) {
        if (want.pixels[4 * i + 3] < 128) continue;
        const double d = image::delta_e(image::to_oklab(want.at(i)),
                                        image::to_oklab({got[4 * i], got[4 * i + 1], got[4 * i + 2], 255}));
        sum += d;
        max = std::max(max, d);
        ++n;
    }
    mean = n ? sum / double(n) : 0;
}

void apply_factor(image::RgbaImage& img, const scene::Vec4& f) {
    if (f[0] == 1 && f[1] == 1 && f[2] == 1 && f[3] == 1) return;
    for (std::size_t i = 0; i < img.pixel_count(); ++i) {
        for (int k = 0; k < 3; ++k) {
            const double lin = image::srgb8_to_linear(img.pixels[4 * i + k]) * f[k];
            img.pixels[4 * i + k] = static_cast<std::uint8_t>(std::lround(std::clamp(image::linear_to_srgb(lin), 0.0, 1.0) * 255));
        }
        img.pixels[4 * i + 3] = static_cast<std::uint8_t>(std::lround(img.pixels[4 * i + 3] * std::clamp(f[3], 0.0f, 1.0f)));
    }
}

// The texture is written with its own alpha whatever the source's alphaMode says; how the game
// draws alpha is its render mode's (not traced). Said when the source means something else, so a
// material the author made opaque or cut at another threshold is not changed without a word.
void alpha_mode_warnings(const scene::MaterialInfo& info, const std::string& name, MeshPlan& plan) {
    if (!info.texture) return;
    std::size_t clear = 0;
    for (std::size_t i = 3; i < info.texture->rgba.size(); i += 4) clear += info.texture->rgba[i] < 128;
    if (info.alpha == scene::AlphaMode::opaque && clear)
        plan.warnings.push_back("material " + name + " is opaque in the source (glTF alphaMode OPAQUE or none), but " +
                                std::to_string(clear) + " texel(s) of its texture have alpha below 128: they are written "
                                "with their alpha, so the game may draw them cut out; make the image opaque if the "
                                "material must be");
    if (info.alpha == scene::AlphaMode::mask && std::abs(info.alpha_cutoff - 0.5f) > 0.5f / 255)
        plan.warnings.push_back("material " + name + " cuts at alphaCutoff " + std::to_string(info.alpha_cutoff).substr(0, 5) +
                                " in the source; the texture keeps its alpha values and the game's render mode, not "
                                "the cutoff, decides which texels are cut");
}

}  // namespace

std::vector<MaterialOut> build_materials(const Model& model, const scene::Scene& source, const MeshPartition& part,
                                         ModelBuilder& b, MeshPlan& plan) {
    std::vector<MaterialOut> out(std::max<std::size_t>(source.materials.size(), 1));
    auto mark = [&](const std::vector<PartTriangle>& ts) {
        for (const auto& t : ts)
            if (t.material < out.size()) out[t.material].used = true;
            else throw Error(ErrorKind::format, "a mesh names material " + std::to_string(t.material) + " of " +
                                                    std::to_string(source.materials.size()), source.source);
    };
    for (const auto& v : part.own) mark(v);
    for (const auto& v : part.seam) mark(v);

    // The target's shading and combiner.
    bool target_lit = false, target_unlit = false;
    for (const auto& t : model.triangles) ((t.geometry_mode & 0x00020000u) ? target_lit : target_unlit) = true;
    std::uint8_t combiner = 0;
    for (const auto& m : model.materials)
        if (m.texture >= 0) {
            combiner = m.combiner;
            break;
        }
    // Which materials have vertex colours in the source.
    std::set<std::uint32_t> coloured;
    for (const auto& m : source.meshes)
        if (!m.colours.empty()) coloured.insert(m.material);

    // Materials with the same image, factor and wrap modes share one texture (and palette).
    std::map<std::string, std::pair<std::size_t, std::size_t>> shared;  // key → (material, plan index)
    for (std::uint32_t mi = 0; mi < out.size(); ++mi) {
        MaterialOut& mo = out[mi];
        if (!mo.used) continue;
        const scene::MaterialInfo info = mi < source.material_info.size() ? source.material_info[mi] : scene::MaterialInfo{};
        alpha_mode_warnings(info, mi < source.materials.size() ? source.materials[mi] : "material" + std::to_string(mi), plan);
        std::string key;
        for (float f : info.base_colour) key += std::to_string(f) + ",";
        if (info.texture) {
            key += std::to_string(int(info.texture->wrap_s)) + "," + std::to_string(int(info.texture->wrap_t)) + "," +
                   std::to_string(info.texture->width) + "x" + std::to_string(info.texture->height) + ":";
            key.append(info.texture->rgba.begin(), info.texture->rgba.end());
        }
        MeshMaterialPlan mp;
        mp.name = mi < source.materials.size() ? source.materials[mi] : "material" + std::to_string(mi);
        if (info.unlit) mo.lit = false, mp.shading_reason = "the source material is unlit: vertex colours";
        else if (!target_lit) mo.lit = false, mp.shading_reason = "the target draws no lit triangle: vertex colours";
        else if (coloured.count(mi) && target_unlit)
            mo.lit = false, mp.shading_reason = "the source has vertex colours and the target draws unlit triangles";
        else mo.lit = true, mp.shading_reason = "the target draws lit triangles: s8 normals";
        mp.lit = mo.lit;  // the plan said "lit" for every material before

        if (auto it = shared.find(key); it != shared.end()) {
            const MaterialOut& same = out[it->second.first];
            mo.texture = same.texture, mo.palette = same.palette, mo.material_dl = same.material_dl;
            mo.width = same.width, mo.height = same.height, mo.combiner = combiner;
            mp.texture = mo.texture, mp.palette = mo.palette, mp.combiner = combiner;
            MeshTexturePlan tp = plan.textures[it->second.second];
            tp.material = mp.name;
            tp.shared_with = plan.materials[it->second.second].name;
            plan.materials.push_back(std::move(mp));
            plan.textures.push_back(std::move(tp));
            continue;
        }
        shared.emplace(key, std::pair{std::size_t(mi), plan.textures.size()});
        MeshTexturePlan tp;
        tp.material = mp.name;
        n64::TexelFormat fmt;
        Bytes texels;
        std::vector<std::uint16_t> palette;
        std::uint8_t cms = 0, cmt = 0;
        if (!info.texture || info.texture->width == 0 || info.texture->height == 0) {
            // A 4×4 RGBA16 swatch of the base colour.
            image::RgbaImage img;
            img.width = img.height = 4;
            img.pixels.assign(64, 255);
            apply_factor(img, info.base_colour);
            fmt = n64::TexelFormat::rgba16;
            texels = n64::encode_rgba(fmt, img.pixels, 4, 4);
            const Bytes back = n64::decode_rgba(fmt, ByteReader(texels, Endian::big), 4, 4);
            delta_e_of(img, back, tp.mean_delta_e, tp.max_delta_e);
            tp.source = "base colour";
            tp.width = tp.height = 4;
            tp.wrap_s = tp.wrap_t = "repeat";
        } else {
            const scene::MaterialTexture& st = *info.texture;
            if (st.rgba.size() != std::size_t(st.width) * st.height * 4)
                throw Error(ErrorKind::format, "texture '" + st.name + "' has the wrong number of bytes", source.source);
            tp.source = st.name;
            tp.source_width = st.width;
            tp.source_height = st.height;
            cms = wrap_bits(st.wrap_s);
            cmt = wrap_bits(st.wrap_t);
            tp.wrap_s = wrap_name(st.wrap_s);
            tp.wrap_t = wrap_name(st.wrap_t);
            bool grey = true, graded = false;
            for (std::size_t i = 0; i < st.rgba.size(); i += 4) {
                grey = grey && st.rgba[i] == st.rgba[i + 1] && st.rgba[i + 1] == st.rgba[i + 2];
                graded = graded || (st.rgba[i + 3] != 0 && st.rgba[i + 3] != 255);
            }
            grey = grey && info.base_colour[0] == info.base_colour[1] && info.base_colour[1] == info.base_colour[2];
            if (grey) {
                fmt = graded ? n64::TexelFormat::ia8 : n64::TexelFormat::i8;
                auto [w, h] = fit(st.width, st.height, tmem_bytes, 8);
                image::RgbaImage img = resize(st, w, h);
                apply_factor(img, info.base_colour);
                texels = n64::encode_rgba(fmt, img.pixels, w, h);
                const Bytes back = n64::decode_rgba(fmt, ByteReader(texels, Endian::big), w, h);
                delta_e_of(img, back, tp.mean_delta_e, tp.max_delta_e);
                tp.width = w, tp.height = h;
            } else {
                // CI4 (4096 texels in the lower 2 KB) when it is close enough, else CI8 (2048 texels).
                auto [w4, h4] = fit(st.width, st.height, 4096, 16);
                image::RgbaImage img4 = resize(st, w4, h4);
                apply_factor(img4, info.base_colour);
                image::QuantiseOptions q4;
                q4.palette_size = 16;
                image::QuantiseResult r4 = image::quantise(std::span<const image::RgbaImage>(&img4, 1), q4);
                const bool ci4 = r4.exact || r4.reports[0].mean_delta_e <= 2.0;
                if (ci4) {
                    fmt = n64::TexelFormat::ci4;
                    texels = n64::encode_indices(fmt, r4.indices[0], w4, h4);
                    palette = r4.palette;
                    tp.width = w4, tp.height = h4;
                    tp.mean_delta_e = r4.reports[0].mean_delta_e, tp.max_delta_e = r4.reports[0].max_delta_e;
                } else {
                    auto [w8, h8] = fit(st.width, st.height, 2048, 8);
                    image::RgbaImage img8 = resize(st, w8, h8);
                    apply_factor(img8, info.base_colour);
                    image::QuantiseOptions q8;
                    q8.palette_size = 256;
                    image::QuantiseResult r8 = image::quantise(std::span<const image::RgbaImage>(&img8, 1), q8);
                    fmt = n64::TexelFormat::ci8;
                    texels = n64::encode_indices(fmt, r8.indices[0], w8, h8);
                    palette = r8.palette;
                    tp.width = w8, tp.height = h8;
                    tp.mean_delta_e = r8.reports[0].mean_delta_e, tp.max_delta_e = r8.reports[0].max_delta_e;
                }
            }
        }
        tp.format = n64::to_string(fmt);
        tp.tmem_bytes = static_cast<std::uint32_t>(texels.size()) + (palette.empty() ? 0u : 2048u);
        if (b.texture_count() + 1 > max_model_textures || b.palette_count() + !palette.empty() > max_model_palettes)
            throw Error(ErrorKind::limit, "the source needs at least " + std::to_string(b.texture_count() + 1) + " textures and " +
                                              std::to_string(b.palette_count() + !palette.empty()) +
                                              " palettes; command 0x17 holds at most 255 of each (fewer materials, "
                                              "or materials sharing one image)", source.source);
        if (!palette.empty()) mo.palette = b.add_palette(palette);
        mo.texture = b.add_texture(static_cast<TexFormat>(n64::image_format(fmt)), static_cast<TexSize>(n64::texel_size(fmt)),
                                   static_cast<std::uint16_t>(tp.width), static_cast<std::uint16_t>(tp.height), std::move(texels));
        mo.material_dl = b.add_material_dl(mo.texture, cms, cmt);
        mo.width = tp.width;
        mo.height = tp.height;
        mo.combiner = combiner;
        mp.texture = mo.texture;
        mp.palette = mo.palette;
        mp.combiner = combiner;
        plan.materials.push_back(std::move(mp));
        plan.textures.push_back(std::move(tp));
    }
    plan.textures_written = b.texture_count();
    plan.palettes_written = b.palette_count();
    return out;
}

Vertex make_vertex(const Model& model, const scene::Scene& source, const MeshPartition& part,
                   const std::vector<scene::Mat4>& inverse_binds, const MaterialOut& mat, std::uint32_t v,
                   std::int32_t bone, MeshPlan& plan) {
    (void)model;
    const SourceRef ref = part.vertices[v];
    const scene::Mesh& m = source.meshes[ref.mesh];
    const scene::Mat4& inv = inverse_binds[std::size_t(bone)];
    const scene::Vec3& p = m.positions[ref.index];
    const std::string what = "vertex " + std::to_string(ref.index) + " of mesh '" + m.name + "'";
    Vertex out;
    // Bone space in double (one rounding, to s16).
    double q[3];
    for (int i = 0; i < 3; ++i)
        q[i] = double(inv[i * 4]) * p[0] + double(inv[i * 4 + 1]) * p[1] + double(inv[i * 4 + 2]) * p[2] + double(inv[i * 4 + 3]);
    out.x = to_s16(q[0], what + " (x)");
    out.y = to_s16(q[1], what + " (y)");
    out.z = to_s16(q[2], what + " (z)");
    for (double c : q) plan.max_coordinate = std::max<std::int32_t>(plan.max_coordinate, std::int32_t(std::lround(std::fabs(c))));
    // S10.5 texel coordinates (V up in the scene, t down in the texture).
    if (ref.index < m.uv0.size()) {
        const double s = double(m.uv0[ref.index][0]) * mat.width * 32.0;
        const double t = (1.0 - double(m.uv0[ref.index][1])) * mat.height * 32.0;
        auto clamp16 = [&](double x) {
            if (!std::isfinite(x)) x = 0;
            const double r = std::round(x);
            if (r > 32767 || r < -32768) ++plan.uv_clamped;
            return static_cast<std::int16_t>(std::clamp(r, -32768.0, 32767.0));
        };
        out.s = clamp16(s);
        out.t = clamp16(t);
    }
    if (mat.lit) {
        scene::Vec3 n{0, 0, 1};
        if (ref.index < m.normals.size()) n = scene::transform_direction(inv, m.normals[ref.index]);
        const double len = std::sqrt(double(n[0]) * n[0] + double(n[1]) * n[1] + double(n[2]) * n[2]);
        for (int i = 0; i < 3; ++i) {
            const double c = len > 0 && std::isfinite(len) ? n[i] / len : (i == 2 ? 1.0 : 0.0);
            out.color[i] = static_cast<std::uint8_t>(static_cast<std::int8_t>(std::clamp<long>(std::lround(c * 127.0), -127, 127)));
        }
        out.color[3] = 255;
    } else if (ref.index < m.colours.size()) {
        const scene::Vec4& c = m.colours[ref.index];
        for (int i = 0; i < 3; ++i)
            out.color[i] = static_cast<std::uint8_t>(std::lround(std::clamp(image::linear_to_srgb(std::clamp(double(c[i]), 0.0, 1.0)), 0.0, 1.0) * 255));
        out.color[3] = static_cast<std::uint8_t>(std::lround(std::clamp(double(c[3]), 0.0, 1.0) * 255));
    }
    return out;
}

}  // namespace mod::stadium::mesh_detail
