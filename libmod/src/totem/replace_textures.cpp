// mesh.replace: the source's textures as new BITMAP and MATERIAL records (replace_textures.hpp).
#include "replace_textures.hpp"

#include "libmod/core/error.hpp"
#include "libmod/totem/material.hpp"
#include "libmod/totem/texture_scene.hpp"
#include "libmod/totem/verify.hpp"

#include <algorithm>
#include <cmath>

namespace mod::totem::replace_detail {

namespace {

// GX textures stop at 1024 texels a side (the GX texture size registers hold 10 bits).
constexpr std::uint32_t rt_gx_max_texture = 1024;

bool rt_is_type(const Record& r, const char* type) { return r.type_id == name_id(type); }

const char* rt_keep_hint = " (--keep-textures or \"textures\": \"keep\" keeps the MATERIAL's own texture)";

bool rt_same_colour(const scene::Vec4& x, const scene::Vec4& y) {
    for (int k = 0; k < 4; ++k)
        if (std::abs(double(x[k]) - double(y[k])) > 0.5 / 255.0) return false;
    return true;
}

// Directory part of a record name ("DB:>A>B>" of "DB:>A>B>C.TMAT") and its extension (".TMAT").
std::string rt_name_dir(const std::string& name) {
    const auto gt = name.rfind('>');
    return gt == std::string::npos ? std::string() : name.substr(0, gt + 1);
}
std::string rt_name_ext(const std::string& name) {
    const auto dot = name.rfind('.');
    const auto gt = name.rfind('>');
    return dot == std::string::npos || (gt != std::string::npos && dot < gt) ? std::string() : name.substr(dot);
}

// A new record named `name` with the type and subtype of `model`.
Record rt_record_like(const Record& model, const std::string& name, Bytes payload) {
    Record r;
    r.type_id = model.type_id;
    r.name_id = name_id(name);
    r.subtype_id = model.subtype_id;
    r.payload = std::move(payload);
    return r;
}

}  // namespace

image::RgbaImage stored_image(const scene::MaterialTexture& t, const std::string& label) {
    if (t.width == 0 || t.height == 0 || t.rgba.size() != std::size_t(4) * t.width * t.height)
        throw Error(ErrorKind::format, label + ": its texture has no pixels (" + std::to_string(t.width) + "x" +
                                           std::to_string(t.height) + ", " + std::to_string(t.rgba.size()) + " bytes)");
    if (t.width > rt_gx_max_texture || t.height > rt_gx_max_texture)
        throw Error(ErrorKind::limit, label + ": its texture" +
                                          (t.name.empty() || t.name[0] == '*' ? std::string() : " '" + t.name + "'") +
                                          " is " + std::to_string(t.width) + "x" +
                                          std::to_string(t.height) + "; GameCube textures stop at 1024x1024: scale it down "
                                          "in the source" + rt_keep_hint);
    image::RgbaImage img;
    img.width = t.width;
    img.height = t.height;
    img.pixels.resize(t.rgba.size());
    const std::size_t row = std::size_t(4) * t.width;
    for (std::uint32_t y = 0; y < t.height; ++y)
        std::copy_n(t.rgba.begin() + std::ptrdiff_t(row * y), row, img.pixels.begin() + std::ptrdiff_t(row * (t.height - 1 - y)));
    return img;
}

std::string name_stem(const std::string& source_name) {
    std::string out;
    for (unsigned char c : source_name) {
        if (out.size() == 48) break;
        const unsigned char u = static_cast<unsigned char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
        out += (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' ? char(u) : '_';
    }
    return out.empty() ? "MATERIAL" : out;
}

struct TextureImporter::Worn {
    std::optional<std::size_t> material_record;  // the MATERIAL (followed from a MATERIALANIM)
    std::int32_t material = 0;
    Material decoded;
    bool animated = false;                       // `paired` is a MATERIALANIM
    std::optional<std::size_t> bitmap;           // its BITMAP record
    std::optional<Bitmap> decoded_bitmap;        // the BITMAP record decoded, when `image` is set
    std::optional<image::RgbaImage> image;       // its texels (nullopt: export leaves it untextured)
    std::vector<std::string> notes;
};

TextureImporter::TextureImporter(const ByteReader& dgc, const Archive& archive, const NameTable& names,
                                 const scene::Scene& source, const ReplaceOptions& options, ReplaceReport& report)
    : dgc_(dgc), a_(archive), names_(names), source_(source), options_(options), report_(report), trial_(names) {}

TextureImporter::Worn TextureImporter::worn_by(std::int32_t paired) const {
    Worn w;
    const MaterialLink link = follow_material(dgc_, a_, paired, names_);
    w.notes = link.notes;
    const auto rec = find_record(a_, paired);
    w.animated = rec && rt_is_type(a_.records[*rec], "MATERIALANIM");
    if (!link.record) return w;
    w.material_record = link.record;
    w.material = link.material;
    w.decoded = decode_material(payload_reader(dgc_, a_, *link.record));
    w.bitmap = link.bitmap;
    const auto layout = bitmap_layout(options_.platform, a_.endian);
    if (link.bitmap && layout) {
        try {
            w.decoded_bitmap = decode_bitmap(payload_reader(dgc_, a_, *link.bitmap), *layout);
            w.image = decode_pixels(*w.decoded_bitmap, a_.endian);
        } catch (const Error&) {
            // Export leaves such a material untextured; any source image is then new.
        }
    }
    return w;
}

bool TextureImporter::stores_as(const Bitmap& bitmap, const image::RgbaImage& img, const image::RgbaImage& worn) const {
    try {
        return decode_pixels(encode_image(bitmap, img, a_.endian), a_.endian).pixels == worn.pixels;
    } catch (const Error&) {
        return false;
    }
}

std::pair<Bitmap, std::size_t> TextureImporter::encode_new_bitmap(const image::RgbaImage& img,
                                                                  std::optional<std::size_t> first_choice,
                                                                  const std::string& label,
                                                                  BitmapEncodeReport& report) const {
    const auto layout = bitmap_layout(options_.platform, a_.endian);
    if (!layout)
        throw Error(ErrorKind::usage, label + " has its own texture, but no source describes PC bitmaps: modkit cannot "
                                              "write one" + std::string(rt_keep_hint));
    std::vector<std::size_t> candidates;
    if (first_choice) candidates.push_back(*first_choice);
    for (std::size_t i = 0; i < a_.records.size(); ++i)
        if (rt_is_type(a_.records[i], "BITMAP") && i != first_choice) candidates.push_back(i);
    std::string first_error;
    for (auto c : candidates) {
        try {
            const Bitmap model = decode_bitmap(payload_reader(dgc_, a_, c), *layout);
            BitmapEncodeOptions o;
            BitmapEncodeReport r;
            Bitmap b = encode_image(model, img, a_.endian, o, &r);
            report = std::move(r);
            return {std::move(b), c};
        } catch (const Error& e) {
            if (first_error.empty()) first_error = names_.display(a_.records[c].name_id) + ": " + e.message();
        }
    }
    throw Error(ErrorKind::usage, label + " has its own texture, but no BITMAP of the archive can be the model for a new "
                                          "one (" + (first_error.empty() ? std::string("the archive has no BITMAP") : first_error) +
                                          ")" + rt_keep_hint);
}

std::string TextureImporter::new_name(const std::string& like, const std::string& stem, const char* fallback_dir,
                                      const char* fallback_ext) {
    const auto listed = names_.find(name_id(like));
    const std::string dir = listed && !rt_name_dir(like).empty() ? rt_name_dir(like) : fallback_dir;
    const std::string ext = listed && !rt_name_ext(like).empty() ? rt_name_ext(like) : fallback_ext;
    for (unsigned n = 1; n < 1000; ++n) {
        const std::string name = dir + stem + (n == 1 ? "" : "_" + std::to_string(n)) + ext;
        const std::int32_t id = name_id(name);
        if (find_record(a_, id) || taken_.count(id)) continue;
        try {
            trial_.add(name);  // a CRC-32 another listed name owns: try the next
        } catch (const Error&) {
            continue;
        }
        taken_.insert(id);
        report_.names_added.push_back(name);
        return name;
    }
    throw Error(ErrorKind::usage, "no free record name for '" + dir + stem + ext + "' (1000 tried)");
}

std::int32_t TextureImporter::material_for(std::size_t index, std::int32_t paired, const std::string& mesh) {
    if (!options_.source_textures || index >= source_.material_info.size()) return paired;
    const auto key = std::make_pair(index, paired);
    if (auto it = made_.find(key); it != made_.end()) return it->second;
    const scene::MaterialInfo& info = source_.material_info[index];
    const std::string& source_name = index < source_.materials.size() ? source_.materials[index] : std::string();
    const std::string label = "source material '" + source_name + "'";
    const Worn worn = worn_by(paired);
    if (!info.texture) {  // keeps the MATERIAL's texture and colour (doc: untextured sources)
        if (worn.bitmap)  // said once per pairing: the new mesh wears a texture its source did not have
            report_.warnings.push_back(label + " has no texture: MESH " + mesh + " draws it with " + names_.display(paired) +
                                       ", which wears " + names_.display(a_.records[*worn.bitmap].name_id) +
                                       " (give the source material its base-colour image to bring your own)");
        made_.emplace(key, paired);
        return paired;
    }
    if (!worn.material_record) {
        std::string why;
        for (const auto& n : worn.notes) why += (why.empty() ? "" : "; ") + n;
        throw Error(ErrorKind::format, label + " (MESH " + mesh + ") is paired with " + names_.display(paired) +
                                           ", which leads to no MATERIAL to copy for its texture (" + why + ")" + rt_keep_hint);
    }
    const image::RgbaImage img = stored_image(*info.texture, label);
    const bool same_image = worn.image && worn.image->width == img.width && worn.image->height == img.height &&
                            (worn.image->pixels == img.pixels || stores_as(*worn.decoded_bitmap, img, *worn.image));
    const bool same_factor = rt_same_colour(info.base_colour, exported_base_colour(worn.decoded));
    if (same_image && same_factor) return paired;

    NewTexture nt;
    nt.source_material = source_name;
    nt.replaces = names_.display(paired);
    Material m = worn.decoded;
    for (int k = 0; k < 4; ++k) m.colour[k] = F32::of(info.base_colour[k]);
    const std::string stem = name_stem(source_name);
    if (!same_image) {
        const auto [bitmap, model] = encode_new_bitmap(img, worn.bitmap, label, nt.encode);
        const Record& model_record = a_.records[model];
        nt.template_bitmap = names_.display(model_record.name_id);
        nt.bitmap = new_name(nt.template_bitmap, stem, "DB:>MODKIT>TEXTURES>", ".TBITMAP");
        nt.format = bitmap_format_name(bitmap.layout, bitmap.format);
        nt.width = bitmap.width;
        nt.height = bitmap.height;
        records_.push_back({rt_record_like(model_record, nt.bitmap, encode_bitmap(bitmap, a_.endian)), std::nullopt});
        m.texture = name_id(nt.bitmap);
        if (worn.bitmap && model != *worn.bitmap)
            report_.warnings.push_back(label + ": the BITMAP its MATERIAL wears (" + names_.display(a_.records[*worn.bitmap].name_id) +
                                       ") cannot be written; the new texture copies " + nt.template_bitmap + "'s format (" +
                                       nt.format + ")");
        for (const auto& w : nt.encode.warnings) report_.warnings.push_back(label + ", new BITMAP " + nt.bitmap + ": " + w);
    }
    const Record& material_record = a_.records[*worn.material_record];
    nt.material = new_name(names_.display(worn.material), stem, "DB:>MODKIT>MATERIALS>", ".TMAT");
    records_.push_back({rt_record_like(material_record, nt.material, encode_material(m, a_.endian)), std::nullopt});
    if (worn.animated)
        report_.warnings.push_back(label + " (MESH " + mesh + ") was paired with MATERIALANIM " + names_.display(paired) +
                                   ": its own texture is a new still MATERIAL " + nt.material +
                                   "; the texture animation no longer plays on this mesh");
    report_.pairings.push_back(label + " -> new MATERIAL " + nt.material +
                               (nt.bitmap.empty() ? " (its colour; texture kept)" : " with new BITMAP " + nt.bitmap + " (" +
                                                    nt.format + " " + std::to_string(nt.width) + "x" + std::to_string(nt.height) +
                                                    ")") +
                               ", copied from " + names_.display(worn.material) + " (source texture, MESH " + mesh + ")");
    report_.textures.push_back(std::move(nt));
    made_.emplace(key, name_id(report_.textures.back().material));
    return made_.at(key);
}

}  // namespace mod::totem::replace_detail
