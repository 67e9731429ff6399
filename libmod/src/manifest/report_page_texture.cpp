// The report page's textures (texture.replace results): the texture before and after at an
// integer zoom (nearest neighbour), the PNG asked for, and a ΔE heat map with mean and max.
#include "report_page_detail.hpp"

#include "libmod/image/colour.hpp"
#include "libmod/image/png.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <algorithm>
#include <cmath>

namespace mod::manifest::detail::page {

// ΔE at which the heat map is at full scale (white); 10 is where apply warns about a texture.
inline constexpr double heat_full_scale = 20;

std::shared_ptr<const stadium::Model> stadium_model(Files& files, const std::string& path, std::size_t index,
                                                    std::string* why) {
    const std::string key = "stadium-model\n" + path + "\n" + std::to_string(index);
    if (auto it = files.decoded.find(key); it != files.decoded.end())
        return std::static_pointer_cast<const stadium::Model>(it->second);
    const auto bytes = files.get(path, why);
    if (!bytes) return nullptr;
    try {
        // The archive is parsed once per ROM, as a view of the bytes themselves when they are in
        // z64 order (no copy of its region), else of the image brought to z64 order.
        const std::string archive_key = "stadium-archive\n" + path;
        std::shared_ptr<const stadium::Archive> archive;
        if (auto it = files.decoded.find(archive_key); it != files.decoded.end())
            archive = std::static_pointer_cast<const stadium::Archive>(it->second);
        else {
            const auto order = n64::detect_order(ByteReader(*bytes, Endian::big, path, "rom"));
            auto z64 = order == n64::ByteOrder::z64
                           ? bytes
                           : std::make_shared<const Bytes>(stadium::load_rom_bytes(*bytes, path).z64);
            archive = std::make_shared<const stadium::Archive>(stadium::view_archive(*z64, z64, path));
            files.decoded[archive_key] = archive;
        }
        auto model = std::make_shared<const stadium::Model>(stadium::read_archive_model(*archive, index));
        files.decoded[key] = model;
        return model;
    } catch (const std::exception& e) {
        if (why) *why = std::string("model ") + std::to_string(index) + " of " + path + " cannot be read: " + e.what();
        return nullptr;
    }
}

namespace {

std::optional<image::RgbaImage> texture_of(const stadium::Model& m, std::size_t t, std::optional<std::size_t> palette,
                                           std::string* why) {
    if (t >= m.textures.size()) {
        if (why) *why = "the model has no texture " + std::to_string(t);
        return std::nullopt;
    }
    try {
        const auto& d = m.textures[t].descriptor;
        return image::RgbaImage{d.width, d.height, stadium::decode_texture_rgba(m, t, palette)};
    } catch (const std::exception& e) {
        if (why) *why = std::string("texture ") + std::to_string(t) + " cannot be decoded: " + e.what();
        return std::nullopt;
    }
}

// Black -> red -> yellow -> white as ΔE goes 0 -> heat_full_scale.
image::Rgba8 heat(double de) {
    const double t = std::clamp(de / heat_full_scale, 0.0, 1.0) * 3;
    auto ch = [](double v) { return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255)); };
    return {ch(t), ch(t - 1), ch(t - 2), 255};
}

struct HeatMap {
    image::RgbaImage picture;
    double mean = 0, max = 0;
    std::uint64_t opaque = 0;
};

// Per texel ΔE of `after` against `reference` over texels opaque in the reference (alpha >=
// 128, as the quantiser counts them); texels transparent in the reference are mid grey, or
// magenta where `after` drew them opaque.
HeatMap heat_map(const image::RgbaImage& reference, const image::RgbaImage& after) {
    HeatMap h;
    h.picture = {after.width, after.height, Bytes(after.pixels.size())};
    double sum = 0;
    for (std::size_t i = 0; i < after.pixel_count(); ++i) {
        const image::Rgba8 r = reference.at(i), a = after.at(i);
        image::Rgba8 c{128, 128, 128, 255};
        if (r.a >= 128) {
            const double de = a.a >= 128 ? image::delta_e(r, a) : 100.0;
            sum += de;
            h.max = std::max(h.max, de);
            ++h.opaque;
            c = heat(de);
        } else if (a.a >= 128) {
            c = {255, 0, 255, 255};
        }
        auto* px = &h.picture.pixels[4 * i];
        px[0] = c.r, px[1] = c.g, px[2] = c.b, px[3] = 255;
    }
    h.mean = h.opaque ? sum / double(h.opaque) : 0;
    return h;
}

image::RgbaImage heat_legend() {
    image::RgbaImage l{160, 10, Bytes(160 * 10 * 4)};
    for (std::uint32_t x = 0; x < l.width; ++x) {
        const image::Rgba8 c = heat(heat_full_scale * x / (l.width - 1));
        for (std::uint32_t y = 0; y < l.height; ++y) {
            auto* p = &l.pixels[(std::size_t(y) * l.width + x) * 4];
            p[0] = c.r, p[1] = c.g, p[2] = c.b, p[3] = 255;
        }
    }
    return l;
}

unsigned zoom_for(std::uint32_t width, const ReportPageOptions& o) {
    unsigned z = std::max(1u, o.max_texture_zoom);
    while (z > 1 && std::uint64_t(width) * z > 256) --z;
    return z;
}

std::string figure(const image::RgbaImage& picture, unsigned z, const std::string& caption) {
    return "<figure>" + img(zoom(picture, z), caption) + "<figcaption>" + esc(caption) + "</figcaption></figure>\n";
}

void texture_block(Section& s, const Json& edit, const Json& t, std::size_t model_index) {
    const std::size_t index = u64_of(t, "texture").value_or(0);
    const std::string input = Files::input_of(edit);
    const auto output = s.files.output_of(input);
    s.html += "<h3>Texture " + std::to_string(index) + " of model " + std::to_string(model_index) + "</h3>\n";
    const Json* before_info = member(t, "before");
    const Json* after_info = member(t, "after");
    auto describe = [](const Json* i) {
        if (!i) return std::string("?");
        return text_of(*i, "format") + " " + std::to_string(u64_of(*i, "width").value_or(0)) + "×" +
               std::to_string(u64_of(*i, "height").value_or(0));
    };
    s.html += "<p>" + esc(describe(before_info)) + " &rarr; " + esc(describe(after_info)) + "; reported against the PNG: mean "
              "&Delta;E " + fixed(number_of(t, "mean_delta_e").value_or(0)) + ", max " +
              fixed(number_of(t, "max_delta_e").value_or(0)) + "</p>\n";

    std::string why;
    std::optional<image::RgbaImage> before, after, png;
    if (auto m = stadium_model(s.files, input, model_index, &why)) before = texture_of(*m, index, std::nullopt, &why);
    if (!before) note(s, "before: " + why);
    if (!output) note(s, "after: the report names no output for " + input);
    else if (auto m = stadium_model(s.files, *output, model_index, &why)) {
        std::optional<std::size_t> pal;
        if (auto p = u64_of(t, "palette")) pal = *p;
        after = texture_of(*m, index, pal, &why);
    }
    if (output && !after) note(s, "after: " + why);
    const std::string png_path = text_of(t, "png");
    if (!png_path.empty()) {
        if (auto bytes = s.files.get_beside(text_of(edit, "manifest"), png_path, &why)) {
            try {
                png = image::read_png(*bytes, png_path);
            } catch (const std::exception& e) {
                why = e.what();
            }
        }
        if (!png) note(s, "the PNG asked for: " + why);
    }
    std::uint32_t widest = 1;
    for (const auto* p : {&before, &after, &png})
        if (*p) widest = std::max(widest, (*p)->width);
    const unsigned z = zoom_for(widest, s.options);
    if (before) s.html += figure(*before, z, "before (" + std::to_string(z) + "×)");
    if (after) s.html += figure(*after, z, "after (" + std::to_string(z) + "×)");
    if (png) s.html += figure(*png, z, "asked for: " + png_path);
    if (!after) return;
    const image::RgbaImage* reference = nullptr;
    std::string against;
    if (png && png->width == after->width && png->height == after->height) reference = &*png, against = "the PNG";
    else if (before && before->width == after->width && before->height == after->height)
        reference = &*before, against = "the texture before";
    if (!reference) {
        note(s, "no heat map: the PNG and the texture before differ in size from the texture after");
        return;
    }
    const HeatMap h = heat_map(*reference, *after);
    s.html += "<figure>" + img(zoom(h.picture, z), "ΔE heat map") + "<figcaption>&Delta;E against " + against + ": mean " +
              fixed(h.mean) + ", max " + fixed(h.max) + " (" + std::to_string(h.opaque) + " opaque texels)</figcaption></figure>\n";
    s.html += "<p>" + img(heat_legend(), "ΔE scale", "legend-bar") + " &Delta;E 0 &rarr; " + fixed(heat_full_scale, 0) +
              "+ (grey: transparent in the reference; magenta: drawn where the reference is transparent)</p>\n";
}

}  // namespace

void texture_sections(Section& s, const Json& edit) {
    const Json* result = member(edit, "result");
    if (!result) return;
    const std::size_t model = u64_of(*result, "model").value_or(0);
    if (const Json* ts = member(*result, "textures"); ts && ts->IsArray())
        for (const auto& t : ts->GetArray()) texture_block(s, edit, t, model);
}

}  // namespace mod::manifest::detail::page
