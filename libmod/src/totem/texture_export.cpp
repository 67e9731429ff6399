#include "libmod/totem/texture_export.hpp"

#include "libmod/core/rapidjson.hpp"
#include "libmod/image/palette_text.hpp"
#include "libmod/image/png.hpp"
#include "libmod/totem/extract.hpp"
#include "libmod/totem/material.hpp"
#include "libmod/totem/mesh.hpp"
#include "libmod/totem/skin.hpp"
#include "libmod/totem/texture_edit.hpp"
#include "libmod/totem/verify.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace mod::totem {

namespace {

bool is(const Record& r, const char* type) { return r.type_id == name_id(type); }

// Walks the chain from `record`, collecting BITMAPs and material records; `depth` bounds cycles.
void walk(const ByteReader& dgc, const Archive& a, std::size_t i, std::set<std::size_t>& bitmaps,
          std::set<std::size_t>& materials, std::set<std::size_t>& seen) {
    if (!seen.insert(i).second) return;
    const Record& r = a.records[i];
    auto follow = [&](std::int32_t id) {
        if (id == 0) return;
        if (auto j = find_record(a, id)) walk(dgc, a, *j, bitmaps, materials, seen);
    };
    try {
        const ByteReader p = payload_reader(dgc, a, i);
        if (is(r, "BITMAP")) {
            bitmaps.insert(i);
        } else if (is(r, "MATERIAL")) {
            materials.insert(i);
            const Material m = decode_material(p);
            follow(m.texture);
            follow(m.reflection);
        } else if (is(r, "MATERIALANIM")) {
            materials.insert(i);
            const MaterialAnim m = decode_material_anim(p);
            follow(m.material);
            for (const auto& k : m.tracks[track_texture].keys) follow(static_cast<std::int32_t>(k.value[0].bits));
        } else if (is(r, "MATERIALOBJ")) {
            materials.insert(i);
            for (auto id : decode_material_obj(p).anims) follow(id);
        } else if (record_kind(r) == RecordKind::mesh) {
            for (auto id : decode_mesh(p).materials) follow(id);
        } else if (record_kind(r) == RecordKind::skin) {
            for (auto id : decode_skin(p).mesh_ids) follow(id);
        }
    } catch (const Error&) {
        // A record that does not decode leads nowhere; `modkit totem show` says why.
    }
}

}  // namespace

std::vector<std::size_t> bitmaps_of(const ByteReader& dgc, const Archive& a, std::size_t record) {
    std::set<std::size_t> b, m, seen;
    walk(dgc, a, record, b, m, seen);
    return {b.begin(), b.end()};
}

std::vector<std::size_t> materials_of(const ByteReader& dgc, const Archive& a, std::size_t record) {
    std::set<std::size_t> b, m, seen;
    walk(dgc, a, record, b, m, seen);
    return {m.begin(), m.end()};
}

namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

struct J {
    Writer& w;
    void str(std::string_view s) { w.String(s.data(), static_cast<rapidjson::SizeType>(s.size())); }
    void num(float f) {
        if (std::isfinite(f)) w.Double(double(f));
        else w.Null();
    }
    template <std::size_t N>
    void floats(const std::array<F32, N>& v, std::size_t n = N) {
        w.StartArray();
        for (std::size_t i = 0; i < n; ++i) num(v[i].value());
        w.EndArray();
    }
    void findings(const std::vector<Finding>& fs) {
        w.Key("findings");
        w.StartArray();
        for (const auto& f : fs) {
            w.StartObject();
            w.Key("level"), str(f.level == Finding::Level::mismatch ? "MISMATCH" : "note");
            w.Key("path"), str(f.path);
            w.Key("message"), str(f.message);
            w.EndObject();
        }
        w.EndArray();
    }
};

std::string hex_word(std::uint32_t v, int digits) {
    std::string s = hex(v, digits);
    return s.substr(2);
}

}  // namespace

TextureExport export_textures(const ByteReader& dgc, const Archive& a, const NameTable& names,
                              std::optional<BitmapLayout> layout, const std::string& platform,
                              const std::optional<std::vector<std::size_t>>& bitmaps,
                              const std::optional<std::vector<std::size_t>>& materials) {
    TextureExport out;
    const auto entries = plan_extract(a, names);
    std::vector<std::string> file_of(a.records.size());
    for (const auto& e : entries) file_of[e.index] = e.file;
    auto chosen = [&](const std::optional<std::vector<std::size_t>>& list, std::size_t i) {
        return !list || std::find(list->begin(), list->end(), i) != list->end();
    };
    rapidjson::StringBuffer buf;
    Writer w(buf);
    J j{w};
    w.StartObject();
    w.Key("format"), j.str("modkit-totem-textures");
    w.Key("version"), w.Int(1);
    w.Key("platform"), j.str(platform);
    w.Key("layout");
    if (layout) j.str(to_string(*layout));
    else w.Null();
    if (layout == BitmapLayout::ps2) w.Key("hypothesis"), j.str("totem-ps2-bitmap/1 (doc/formats/totem-bitmap.md)");
    w.Key("bitmaps");
    w.StartArray();
    for (std::size_t i = 0; i < a.records.size(); ++i) {
        if (!is(a.records[i], "BITMAP") || !chosen(bitmaps, i)) continue;
        ++out.bitmaps;
        const std::string label = names.display(a.records[i].name_id);
        w.StartObject();
        w.Key("index"), w.Uint64(i);
        w.Key("name"), j.str(label);
        w.Key("name_id"), w.Int(a.records[i].name_id);
        if (!layout) {
            w.Key("file"), w.Null();
            w.Key("error"), j.str("no source describes PC bitmaps");
            out.warnings.push_back(label + ": no source describes PC bitmaps; not decoded");
            w.EndObject();
            continue;
        }
        Bitmap b;
        try {
            b = decode_bitmap(payload_reader(dgc, a, i), *layout);
        } catch (const Error& e) {
            w.Key("file"), w.Null();
            w.Key("error"), j.str(e.what());
            out.warnings.push_back(label + ": " + e.what());
            w.EndObject();
            continue;
        }
        std::string file, error;
        try {
            const image::RgbaImage img = decode_pixels(b, a.endian);
            file = file_of[i] + ".png";
            out.files.push_back({file, image::write_png(img)});
            ++out.decoded;
        } catch (const Error& e) {
            error = e.message();
            out.warnings.push_back(label + ": " + error);
        }
        w.Key("file");
        if (file.empty()) w.Null();
        else j.str(file);
        if (!error.empty()) w.Key("error"), j.str(error);
        w.Key("width"), w.Uint(b.width);
        w.Key("height"), w.Uint(b.height);
        w.Key("format"), j.str(bitmap_format_name(b.layout, b.format));
        w.Key("format_code"), w.Uint(b.format);
        w.Key("flags"), w.Uint(b.flags);
        w.Key("palette_format");
        if (b.paletted()) j.str(palette_format_name(b.palette_format));
        else w.Null();
        w.Key("palette_format_code"), w.Uint(b.palette_format);
        w.Key("alpha_level"), w.Uint(b.alpha_level);
        w.Key("byte10"), w.Uint(b.byte10);
        w.Key("filter"), w.Uint(b.filter);
        w.Key("word08"), w.Uint(b.word08);
        w.Key("pixel_bytes"), w.Uint64(b.pixels.size());
        w.Key("tail_bytes"), w.Uint64(b.tail.size());
        if (b.paletted()) {
            const auto pal = decode_palette(b, a.endian);
            const std::size_t entry = b.palette.size() / b.palette_entries();
            w.Key("palette");
            w.StartArray();
            for (auto c : pal) j.str(image::colour_text(c));
            w.EndArray();
            w.Key("palette_stored");
            w.StartArray();
            for (std::size_t k = 0; k < b.palette_entries(); ++k) {
                std::uint32_t v = 0;
                for (std::size_t byte = 0; byte < entry; ++byte) v = v << 8 | b.palette[k * entry + byte];
                j.str(hex_word(v, int(entry * 2)));  // the bytes in file order
            }
            w.EndArray();
        }
        const auto findings = check_bitmap(b, a.endian);
        for (const auto& f : findings)
            if (f.level == Finding::Level::mismatch) out.warnings.push_back(label + ": MISMATCH " + f.path + ": " + f.message);
        j.findings(findings);
        w.EndObject();
    }
    w.EndArray();

    auto ref = [&](const char* key, std::int32_t id) {
        w.Key(key);
        if (id == 0) w.Null();
        else j.str(names.display(id));
    };
    // Each chosen `type` record as {index, name, what `write` writes}; one that does not decode
    // gets "error" (and, with `warn`, a warning).
    auto records = [&](const char* key, const char* type, bool warn, const auto& write) {
        w.Key(key);
        w.StartArray();
        for (std::size_t i = 0; i < a.records.size(); ++i) {
            if (!is(a.records[i], type) || !chosen(materials, i)) continue;
            w.StartObject();
            w.Key("index"), w.Uint64(i);
            w.Key("name"), j.str(names.display(a.records[i].name_id));
            try {
                write(payload_reader(dgc, a, i));
            } catch (const Error& e) {
                w.Key("error"), j.str(e.what());
                if (warn) out.warnings.push_back(names.display(a.records[i].name_id) + ": " + e.what());
            }
            w.EndObject();
        }
        w.EndArray();
    };
    records("materials", "MATERIAL", true, [&](const ByteReader& payload) {
        const Material m = decode_material(payload);
        w.Key("colour"), j.floats(m.colour);
        w.Key("emission"), j.floats(m.emission);
        ref("texture", m.texture);
        ref("reflection", m.reflection);
        w.Key("uv_transform"), j.floats(m.uv_transform);
        w.Key("flags_a"), w.Uint(m.flags_a);
        w.Key("flags_b"), w.Uint(m.flags_b);
        j.findings(check_material(m));
    });
    records("material_anims", "MATERIALANIM", true, [&](const ByteReader& payload) {
        const MaterialAnim m = decode_material_anim(payload);
        ref("material", m.material);
        w.Key("length_seconds"), j.num(m.length.value());
        w.Key("tracks");
        w.StartObject();
        for (std::size_t t = 0; t < track_count; ++t) {
            w.Key(track_name(t));
            w.StartObject();
            w.Key("interpolation"), w.Uint(m.tracks[t].interpolation);
            w.Key("keys");
            w.StartArray();
            for (const auto& k : m.tracks[t].keys) {
                w.StartObject();
                w.Key("frame"), w.Uint(k.frame);
                if (t == track_texture) ref("bitmap", static_cast<std::int32_t>(k.value[0].bits));
                else if (t >= track_unknown1) w.Key("bits"), j.str(hex_word(k.value[0].bits, 8));
                else w.Key("value"), j.floats(k.value, track_width(t));
                w.EndObject();
            }
            w.EndArray();
            w.EndObject();
        }
        w.EndObject();
        j.findings(check_material_anim(m));
    });
    records("material_objs", "MATERIALOBJ", false, [&](const ByteReader& payload) {
        const MaterialObj m = decode_material_obj(payload);
        w.Key("anims");
        w.StartArray();
        for (auto id : m.anims) j.str(names.display(id));
        w.EndArray();
        w.Key("tail_bytes"), w.Uint64(m.tail.size());
    });
    w.EndObject();
    out.index_json = std::string(buf.GetString(), buf.GetSize()) + "\n";
    return out;
}

}  // namespace mod::totem
