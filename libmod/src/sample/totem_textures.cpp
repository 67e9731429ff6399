// The TotemTech sample's textures and materials: BITMAPs in every GameCube format (tile
// multiples and irregular sizes) or, for PS2, the formats of hypothesis totem-ps2-bitmap/1
// (one swizzled record kept opaque), and MATERIAL → BITMAP, MATERIALANIM → MATERIAL,
// MATERIALOBJ → MATERIALANIM chains for the hero's MESH materials. Synthetic, deterministic.
#include "totem_textures.hpp"
#include "totem_cases.hpp"

#include "libmod/totem/bitmap.hpp"
#include "libmod/totem/material.hpp"
#include "libmod/totem/names.hpp"

#include <cmath>

namespace mod::sample {

namespace {

using namespace mod::totem;

// A picture with flat areas, gradients and (when `alpha`) cut-out and translucent texels.
image::RgbaImage picture(std::uint32_t w, std::uint32_t h, unsigned salt, bool alpha) {
    image::RgbaImage img;
    img.width = w;
    img.height = h;
    img.pixels.resize(std::size_t(4) * w * h);
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            std::uint8_t* p = &img.pixels[4 * (std::size_t(y) * w + x)];
            const bool check = ((x / 4) + (y / 4) + salt) % 2 == 0;
            p[0] = static_cast<std::uint8_t>(check ? 40 + 200 * x / std::max(1u, w - 1) : 230);
            p[1] = static_cast<std::uint8_t>(check ? 60 + (salt * 37) % 120 : 30 + 200 * y / std::max(1u, h - 1));
            p[2] = static_cast<std::uint8_t>((x * 17 + y * 29 + salt * 53) % 256);
            p[3] = 255;
            if (alpha && x == 0) p[3] = 0;                       // a cut-out column
            if (alpha && y == h - 1 && x > 0) p[3] = 96;         // a translucent row
        }
    return img;
}

struct BitmapSpec {
    const char* name;
    std::uint8_t format, palette_format;
    std::uint32_t w, h;
    std::uint8_t alpha_level;
    bool trailer;
};

Bytes bitmap_payload(BitmapLayout layout, Endian e, const BitmapSpec& s, unsigned salt) {
    Bitmap b;
    b.layout = layout;
    b.format = s.format;
    b.palette_format = layout == BitmapLayout::ps2 ? 0 : s.palette_format;
    b.alpha_level = s.alpha_level;
    b.filter = static_cast<std::uint8_t>(1 + salt % 5);
    b.flags = layout == BitmapLayout::gamecube ? static_cast<std::uint8_t>(salt % 3) : 0;
    if (b.paletted()) {
        const std::size_t entry = palette_entry_size(layout, b.palette_format);
        b.palette.assign(entry * b.palette_entries(), 0);
        if (entry == 2) b.tail.assign(2 * b.palette_entries(), 0xFF);  // Chum World's palette padding
    }
    if (s.trailer) b.tail.insert(b.tail.end(), 4, 0);
    if (s.format == bitmap_rgb888) {  // never encoded by modkit: written here by hand, B,G,R
        b.width = s.w, b.height = s.h;
        const auto img = picture(s.w, s.h, salt, false);
        for (std::size_t i = 0; i < img.pixel_count(); ++i) {
            const auto c = img.at(i);
            b.pixels.insert(b.pixels.end(), {c.b, c.g, c.r});
        }
        return encode_bitmap(b, e);
    }
    BitmapEncodeOptions o;
    o.mode = PaletteMode::quantise;
    o.threads = 1;
    const bool alpha = s.alpha_level != 0;
    return encode_bitmap(encode_image(b, picture(s.w, s.h, salt, alpha), e, o), e);
}

const BitmapSpec gamecube_bitmaps[] = {
    {"DB:>SAMPLE>TEXTURES>HERO_DIFFUSE.TBITMAP", bitmap_rgb5a3, palette_rgba8888, 32, 32, 1, true},
    {"DB:>SAMPLE>TEXTURES>CRATE.TBITMAP", bitmap_c8, palette_rgb5a3, 24, 16, 0, true},
    {"DB:>SAMPLE>TEXTURES>CLOTH.TBITMAP", bitmap_c4, palette_rgb5a3, 13, 7, 1, true},
    {"DB:>SAMPLE>TEXTURES>C4_565.TBITMAP", bitmap_c4, palette_rgb565, 16, 16, 0, false},
    {"DB:>SAMPLE>TEXTURES>C8_RGBA.TBITMAP", bitmap_c8, palette_rgba8888, 10, 5, 2, true},
    {"DB:>SAMPLE>TEXTURES>RGB565.TBITMAP", bitmap_rgb565, palette_rgba8888, 16, 8, 0, true},
    {"DB:>SAMPLE>TEXTURES>RGB565_ODD.TBITMAP", bitmap_rgb565, palette_rgba8888, 5, 3, 0, true},
    {"DB:>SAMPLE>TEXTURES>RGB5A3_ODD.TBITMAP", bitmap_rgb5a3, palette_rgba8888, 6, 7, 2, true},
    {"DB:>SAMPLE>TEXTURES>RGBA8.TBITMAP", bitmap_rgba8, palette_rgba8888, 8, 8, 2, true},
    {"DB:>SAMPLE>TEXTURES>RGBA8_ODD.TBITMAP", bitmap_rgba8, palette_rgba8888, 9, 6, 2, false},
    {"DB:>SAMPLE>TEXTURES>RGB888.TBITMAP", bitmap_rgb888, palette_rgba8888, 4, 3, 0, true},
};

const BitmapSpec ps2_bitmaps[] = {
    {"DB:>SAMPLE>TEXTURES>HERO_DIFFUSE.TBITMAP", bitmap_rgba8, 0, 32, 32, 1, false},
    {"DB:>SAMPLE>TEXTURES>CRATE.TBITMAP", bitmap_c8, 0, 24, 16, 0, false},
    {"DB:>SAMPLE>TEXTURES>CLOTH.TBITMAP", bitmap_c4, 0, 13, 7, 1, false},
    {"DB:>SAMPLE>TEXTURES>BGR888.TBITMAP", bitmap_ps2_bgr888, 0, 6, 5, 0, false},
};

Material material(std::int32_t texture, float r, float g, float b, float a) {
    Material m;
    m.colour = {F32::of(r), F32::of(g), F32::of(b), F32::of(a)};
    m.emission = {F32::of(0.0f), F32::of(0.0f), F32::of(0.1f)};
    m.unknown28 = F32::of(1.0f);
    for (int i = 0; i < 9; ++i) m.uv_transform[i] = F32::of(i % 4 == 0 ? 1.0f : 0.0f);
    m.rotation = F32::of(0.0f);
    m.offset = {F32::of(0.0f), F32::of(0.0f)};
    m.scale = {F32::of(1.0f), F32::of(1.0f)};
    m.flags_a = 7;  // noclip's default material flags
    m.flags_b = 6;
    m.unknown2 = 1;
    m.unknown3 = 0x5A;  // non-zero: must survive verbatim
    m.texture = texture;
    return m;
}

MaterialAnim cloth_anim() {
    MaterialAnim a;
    a.unknown = 3;
    a.length = F32::of(2.0f);
    auto key = [](std::uint16_t frame, float x, float y = 0, float z = 0) {
        return AnimKey{frame, 0, {F32::of(x), F32::of(y), F32::of(z)}};
    };
    AnimKey t0, t1;
    t0.frame = 0, t0.value[0].bits = static_cast<std::uint32_t>(name_id("DB:>SAMPLE>TEXTURES>CLOTH.TBITMAP"));
    t1.frame = 60, t1.value[0].bits = static_cast<std::uint32_t>(name_id("DB:>SAMPLE>TEXTURES>CRATE.TBITMAP"));
    a.tracks[track_texture] = {1, {t0, t1}};
    a.tracks[track_scroll] = {2, {key(0, 0, 0), key(120, 1.0f, 0.5f)}};
    a.tracks[track_stretch] = {1, {}};
    a.tracks[track_rotation] = {2, {key(30, 0.25f)}};
    a.tracks[track_colour] = {2, {key(0, 1, 1, 1), key(90, 1, 0.5f, 0.25f)}};
    a.tracks[track_emission] = {1, {}};
    a.tracks[track_alpha] = {1, {key(45, 0.75f)}};
    AnimKey u;
    u.frame = 10, u.value[0].bits = 0xDEADBEEF;
    a.tracks[track_unknown1] = {3, {u}};
    a.tracks[track_unknown2] = {1, {}};
    a.tracks[track_unknown3] = {1, {}};
    a.material = name_id("DB:>SAMPLE>MATERIALS>CLOTH.TMAT");
    return a;
}

}  // namespace

void totem_texture_records(Platform platform, const std::string& subtype, std::vector<TotemRecordSpec>& out) {
    const Endian e = endian_of(platform);
    const BitmapLayout layout = platform == Platform::gamecube ? BitmapLayout::gamecube : BitmapLayout::ps2;
    unsigned salt = 0;
    if (layout == BitmapLayout::gamecube) {
        for (const auto& s : gamecube_bitmaps) out.push_back({"BITMAP", s.name, subtype, bitmap_payload(layout, e, s, ++salt)});
    } else {
        for (const auto& s : ps2_bitmaps) out.push_back({"BITMAP", s.name, subtype, bitmap_payload(layout, e, s, ++salt)});
        // GS-swizzled (flag 0x40): modkit keeps it verbatim and says it cannot decode it.
        Bytes swz = bitmap_payload(layout, e, {"", bitmap_c8, 0, 16, 16, 0, false}, ++salt);
        swz[0x0C] = ps2_swizzled_flag;
        out.push_back({"BITMAP", "DB:>SAMPLE>TEXTURES>SWIZZLED.TBITMAP", subtype, std::move(swz)});
    }
    const std::int32_t hero = name_id("DB:>SAMPLE>TEXTURES>HERO_DIFFUSE.TBITMAP");
    const std::int32_t cloth = name_id("DB:>SAMPLE>TEXTURES>CLOTH.TBITMAP");
    out.push_back({"MATERIAL", "DB:>SAMPLE>MATERIALS>SKIN.TMAT", subtype, encode_material(material(hero, 1, 0.85f, 0.7f, 1), e)});
    Material cloth_material = material(cloth, 0.2f, 0.4f, 0.9f, 1);
    cloth_material.reflection = hero;
    out.push_back({"MATERIAL", "DB:>SAMPLE>MATERIALS>CLOTH.TMAT", subtype, encode_material(cloth_material, e)});
    Material sign_material = material(name_id("DB:>SAMPLE>TEXTURES>CRATE.TBITMAP"), 1, 1, 1, 1);
    for (int i = 0; i < 9; ++i) sign_material.uv_transform[i] = F32::of(totem_sign_uv_transform[i]);
    out.push_back({"MATERIAL", totem_sign_material_name, subtype, encode_material(sign_material, e)});
    out.push_back({"MATERIALANIM", "DB:>SAMPLE>MATERIALS>CLOTH_ANIM.TMATANIM", subtype, encode_material_anim(cloth_anim(), e)});
    MaterialObj obj;
    obj.anims = {name_id("DB:>SAMPLE>MATERIALS>CLOTH_ANIM.TMATANIM")};
    out.push_back({"MATERIALOBJ", "DB:>SAMPLE>MATERIALS>HERO.TMATOBJ", subtype, encode_material_obj(obj, e)});
}

}  // namespace mod::sample
