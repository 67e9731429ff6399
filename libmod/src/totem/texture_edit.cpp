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

}  // namespace mod::totem
