// Fuzz target: a TotemTech BITMAP payload in either layout and byte order must decode or throw
// mod::Error; whatever decodes must re-encode to the same bytes, and its pixels, palette and
// checks must decode or throw mod::Error (never crash, hang or allocate beyond the payload).
// Also the MATERIAL / MATERIALANIM / MATERIALOBJ decoders on the same bytes.
#include "libmod/totem/bitmap.hpp"
#include "libmod/totem/material.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const mod::ByteView input(data, size);
    const mod::Bytes same(input.begin(), input.end());
    for (auto layout : {mod::totem::BitmapLayout::gamecube, mod::totem::BitmapLayout::ps2})
        for (mod::Endian e : {mod::Endian::big, mod::Endian::little}) {
            try {
                const mod::totem::Bitmap b = mod::totem::decode_bitmap(mod::ByteReader(input, e), layout);
                if (mod::totem::encode_bitmap(b, e) != same) std::abort();
                (void)mod::totem::check_bitmap(b, e);
                (void)mod::totem::decode_palette(b, e);
                const auto img = mod::totem::decode_pixels(b, e);
                if (img.pixels.size() != std::size_t(4) * b.width * b.height) std::abort();
            } catch (const mod::Error&) {
            }
        }
    for (mod::Endian e : {mod::Endian::big, mod::Endian::little}) {
        try {
            if (mod::totem::encode_material(mod::totem::decode_material(mod::ByteReader(input, e)), e) != same) std::abort();
        } catch (const mod::Error&) {
        }
        try {
            const auto a = mod::totem::decode_material_anim(mod::ByteReader(input, e));
            if (mod::totem::encode_material_anim(a, e) != same) std::abort();
            (void)mod::totem::check_material_anim(a);
        } catch (const mod::Error&) {
        }
        try {
            if (mod::totem::encode_material_obj(mod::totem::decode_material_obj(mod::ByteReader(input, e)), e) != same) std::abort();
        } catch (const mod::Error&) {
        }
    }
    return 0;
}
