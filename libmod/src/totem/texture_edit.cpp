#include "libmod/totem/texture_edit.hpp"

#include <cmath>
#include <cstdio>

namespace mod::totem {

std::size_t find_typed_record(const Archive& a, const NameTable& names, const std::string& text, const char* type) {
    const auto i = find_record_by_text(a, names, text);
    if (!i) throw Error(ErrorKind::usage, "no record named '" + text + "' (" + hash_text(id_from_text(names, text)) + ")");
    if (a.records[*i].type_id != name_id(type))
        throw Error(ErrorKind::usage, "record '" + text + "' is a " + names.display(a.records[*i].type_id) + ", not a " + type);
    return *i;
}

TextureReplaceResult replace_texture(const ByteReader& payload, BitmapLayout layout, const image::RgbaImage& img,
                                     const BitmapEncodeOptions& options) {
    TextureReplaceResult r;
    r.before = decode_bitmap(payload, layout);
    r.after = encode_image(r.before, img, payload.endian(), options, &r.report);
    r.payload = encode_bitmap(r.after, payload.endian());
    return r;
}

PaletteEditResult set_palette(const ByteReader& payload, BitmapLayout layout, std::span<const image::SlotColour> colours,
                              std::span<const unsigned> locked) {
    PaletteEditResult r;
    r.before = decode_bitmap(payload, layout);
    Bitmap b = r.before;
    r.changes = set_palette_slots(b, payload.endian(), colours, locked);
    r.payload = encode_bitmap(b, payload.endian());
    return r;
}

PaletteEditResult shift_palette(const ByteReader& payload, BitmapLayout layout, const image::HsvShift& shift,
                                std::span<const unsigned> slots, std::span<const unsigned> locked) {
    PaletteEditResult r;
    r.before = decode_bitmap(payload, layout);
    Bitmap b = r.before;
    r.changes = shift_palette_hsv(b, payload.endian(), shift, slots, locked);
    r.payload = encode_bitmap(b, payload.endian());
    return r;
}

MaterialColourResult set_material_colour(const ByteReader& payload, const MaterialColourEdit& edit) {
    MaterialColourResult r;
    r.before = decode_material(payload);
    r.after = r.before;
    auto f = [](std::uint8_t v) { return F32::of(float(v) / 255.0f); };
    if (edit.colour) r.after.colour = {f(edit.colour->r), f(edit.colour->g), f(edit.colour->b), f(edit.colour->a)};
    if (edit.emission) r.after.emission = {f(edit.emission->r), f(edit.emission->g), f(edit.emission->b)};
    r.payload = encode_material(r.after, payload.endian());
    return r;
}

image::Rgba8 parse_rgba_text(std::string_view t) {
    if (!t.empty() && t[0] == '#') t.remove_prefix(1);
    auto bad = [&] { return Error(ErrorKind::usage, "colour '" + std::string(t) + "' is not RRGGBB or RRGGBBAA in hex"); };
    if (t.size() != 6 && t.size() != 8) throw bad();
    std::uint32_t v = 0;
    for (char c : t) {
        const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) throw bad();
        v = v << 4 | unsigned(d);
    }
    if (t.size() == 6) v = v << 8 | 0xFF;
    return {static_cast<std::uint8_t>(v >> 24), static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8),
            static_cast<std::uint8_t>(v)};
}

std::string rgba_text(image::Rgba8 c) {
    char b[16];
    std::snprintf(b, sizeof b, "%02X%02X%02X%02X", c.r, c.g, c.b, c.a);
    return b;
}

}  // namespace mod::totem
