// BITMAP edits: a new image in the record's own format (palettes through the project's
// quantiser), palette slots set or shifted in the palette's own format.
#include "bitmap_detail.hpp"

#include "libmod/image/colour.hpp"
#include "libmod/image/quantise.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace mod::totem {

using image::Rgba8;
using namespace detail_bitmap;

const char* to_string(PaletteMode m) noexcept {
    switch (m) {
    case PaletteMode::automatic: return "auto";
    case PaletteMode::quantise: return "quantise";
    case PaletteMode::reindex: return "reindex";
    }
    return "?";
}

PaletteMode parse_palette_mode(const std::string& t) {
    if (t == "auto") return PaletteMode::automatic;
    if (t == "quantise" || t == "quantize") return PaletteMode::quantise;
    if (t == "reindex") return PaletteMode::reindex;
    throw Error(ErrorKind::usage, "unknown palette mode '" + t + "' (auto, quantise or reindex)");
}

namespace {

std::size_t stored_slot(const Bitmap& b, std::size_t logical) {
    return b.layout == BitmapLayout::ps2 && b.format == bitmap_c8 ? ps2_clut_slot(static_cast<unsigned>(logical)) : logical;
}

// Writes palette position `i` (as stored) from a colour in the palette's own format.
void put_entry(Bitmap& b, Endian e, std::size_t i, Rgba8 c) {
    std::uint8_t* p = b.palette.data();
    if (b.layout == BitmapLayout::ps2) {
        p[4 * i] = c.r, p[4 * i + 1] = c.g, p[4 * i + 2] = c.b, p[4 * i + 3] = c.a;
    } else if (b.palette_format == palette_rgba8888) {
        endian::store32(p + 4 * i, std::uint32_t(c.r) << 24 | std::uint32_t(c.g) << 16 | std::uint32_t(c.b) << 8 | c.a, e);
    } else {
        endian::store16(p + 2 * i, b.palette_format == palette_rgb5a3 ? rgba_to_rgb5a3(c) : rgba_to_rgb565(c), e);
    }
}

void require_palette(const Bitmap& b, Endian e) {
    if (!b.paletted()) throw Error(ErrorKind::usage, "this bitmap (" + bitmap_format_name(b.layout, b.format) + ") has no palette");
    if (decode_palette(b, e).size() != b.palette_entries())
        throw Error(ErrorKind::usage, "the bitmap's palette does not match its header");
}

bool is_locked(std::span<const unsigned> locked, unsigned s) { return std::find(locked.begin(), locked.end(), s) != locked.end(); }

// Nearest palette entry per texel (transparent texels: the first entry with alpha < 128).
Bytes reindex(const image::RgbaImage& img, const std::vector<Rgba8>& pal) {
    std::vector<image::Oklab> lab;
    for (auto c : pal) lab.push_back(image::to_oklab(c));
    int transparent = -1;
    for (std::size_t i = 0; i < pal.size() && transparent < 0; ++i)
        if (pal[i].a < 128) transparent = int(i);
    std::map<std::uint32_t, std::uint8_t> cache;
    Bytes out(img.pixel_count());
    for (std::size_t i = 0; i < out.size(); ++i) {
        const Rgba8 c = img.at(i);
        if (c.a < 128 && transparent >= 0) {
            out[i] = static_cast<std::uint8_t>(transparent);
            continue;
        }
        const std::uint32_t key = std::uint32_t(c.r) << 16 | std::uint32_t(c.g) << 8 | c.b;
        auto [it, fresh] = cache.try_emplace(key, 0);
        if (fresh) {
            const auto l = image::to_oklab(c);
            double best = 1e300;
            for (std::size_t k = 0; k < pal.size(); ++k) {
                if (pal[k].a < 128 && transparent >= 0) continue;
                const double d = image::delta_e(l, lab[k]);
                if (d < best) best = d, it->second = static_cast<std::uint8_t>(k);
            }
        }
        out[i] = it->second;
    }
    return out;
}

// The stored pixel bytes for one value per texel (indices or packed colours) in the layout.
Bytes pack_pixels(const Bitmap& b, Endian e, const image::RgbaImage& img, const Bytes& indices) {
    const std::uint64_t bytes = bitmap_pixel_bytes(b.layout, b.format, img.width, img.height);
    Bytes out(bytes, 0);
    auto value_at = [&](std::uint32_t x, std::uint32_t y) -> std::uint32_t {
        const std::size_t i = std::size_t(y) * img.width + x;
        if (!indices.empty()) return indices[i];
        const Rgba8 c = img.at(i);
        return std::uint32_t(c.r) << 24 | std::uint32_t(c.g) << 16 | std::uint32_t(c.b) << 8 | c.a;
    };
    if (b.layout == BitmapLayout::ps2) {
        for (std::size_t i = 0; i < img.pixel_count(); ++i) {
            const std::uint32_t v = value_at(static_cast<std::uint32_t>(i % img.width), static_cast<std::uint32_t>(i / img.width));
            switch (b.format) {
            case bitmap_c4: out[i / 2] |= static_cast<std::uint8_t>((v & 15) << (i % 2 ? 4 : 0)); break;
            case bitmap_c8: out[i] = static_cast<std::uint8_t>(v); break;
            case bitmap_rgba8:
                out[4 * i] = std::uint8_t(v >> 8), out[4 * i + 1] = std::uint8_t(v >> 16), out[4 * i + 2] = std::uint8_t(v >> 24),
                out[4 * i + 3] = std::uint8_t(v);
                break;
            case bitmap_ps2_bgr888: out[3 * i] = std::uint8_t(v >> 8), out[3 * i + 1] = std::uint8_t(v >> 16), out[3 * i + 2] = std::uint8_t(v >> 24); break;
            }
        }
        return out;
    }
    const GxTile t = gx_tile(b.format);
    const std::uint32_t pw = (img.width + t.w - 1) / t.w * t.w;
    const std::uint64_t count = bytes * 8 / t.bits;
    for (std::uint64_t i = 0; i < count; ++i) {
        auto [x, y] = gx_tile_position(i, t.w, t.h, pw);
        if (x >= img.width || y >= img.height) continue;  // padding: zero elements (Chum World)
        const std::uint32_t v = value_at(x, y);
        const Rgba8 c{static_cast<std::uint8_t>(v >> 24), static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8),
                      static_cast<std::uint8_t>(v)};
        switch (b.format) {
        case bitmap_c4: out[i / 2] |= static_cast<std::uint8_t>((v & 15) << (i % 2 ? 0 : 4)); break;
        case bitmap_c8: out[i] = static_cast<std::uint8_t>(v); break;
        case bitmap_rgb565: endian::store16(&out[2 * i], rgba_to_rgb565(c), e); break;
        case bitmap_rgb5a3: endian::store16(&out[2 * i], rgba_to_rgb5a3(c), e); break;
        case bitmap_rgba8: {
            std::uint8_t* tile = &out[(i / 16) * 64];
            const std::size_t k = i % 16;
            tile[2 * k] = c.a, tile[2 * k + 1] = c.r, tile[32 + 2 * k] = c.g, tile[32 + 2 * k + 1] = c.b;
            break;
        }
        }
    }
    return out;
}

void measure(const image::RgbaImage& want, const image::RgbaImage& got, BitmapEncodeReport& r) {
    double sum = 0;
    std::uint64_t n = 0;
    r.max_delta_e = 0;
    for (std::size_t i = 0; i < want.pixel_count(); ++i) {
        const Rgba8 a = want.at(i);
        if (a.a < 128) continue;
        const double d = image::delta_e(a, got.at(i));
        sum += d, ++n;
        r.max_delta_e = std::max(r.max_delta_e, d);
    }
    r.mean_delta_e = n ? sum / double(n) : 0;
}

}  // namespace

Bitmap encode_image(const Bitmap& original, const image::RgbaImage& img, Endian e, const BitmapEncodeOptions& options,
                    BitmapEncodeReport* report_out) {
    img.check();
    const bool ps2 = original.layout == BitmapLayout::ps2;
    if (!ps2 && original.format == bitmap_rgb888)
        throw Error(ErrorKind::usage, "format 13 (RGB888) is refused: the two public readers disagree on its byte "
                                      "order and noclip reads format 13 with filter 5 as GX RGBA8 with a missing "
                                      "quarter (doc/formats/totem-bitmap.md); this record cannot take a new image");
    if (ps2 && (original.flags & ps2_swizzled_flag))
        throw Error(ErrorKind::usage, "PS2 bitmap with flag 0x40 (GS-swizzled): modkit does not swizzle pixels");
    if (ps2 && original.format == bitmap_ps2_rgba5551)
        throw Error(ErrorKind::usage, "PS2 format 7: its stored size is not established; modkit does not write it");
    if (!img.width || !img.height) throw Error(ErrorKind::usage, "the image is empty");
    (void)bitmap_pixel_bytes(original.layout, original.format, img.width, img.height);  // limits, known code
    Bitmap b = original;
    b.width = img.width;
    b.height = img.height;
    BitmapEncodeReport report;
    bool translucent = false, transparent = false;
    for (std::size_t i = 0; i < img.pixel_count(); ++i) translucent |= img.at(i).a < 255, transparent |= img.at(i).a < 128;

    if (!b.paletted()) {
        report.mode = "direct";
        b.pixels = pack_pixels(b, e, img, {});
        if (translucent && (b.format == bitmap_rgb565 || b.format == bitmap_ps2_bgr888))
            report.warnings.push_back("the image has alpha but " + bitmap_format_name(b.layout, b.format) + " has none: made opaque");
    } else {
        require_palette(original, e);
        const unsigned n = original.palette_entries();
        for (unsigned s : options.locked)
            if (s >= n) throw Error(ErrorKind::usage, "locked slot " + std::to_string(s) + " is outside the " + std::to_string(n) + "-entry palette");
        struct Candidate {
            Bitmap b;
            BitmapEncodeReport r;
        };
        std::vector<Candidate> candidates;
        if (options.mode != PaletteMode::quantise) {  // reindex: the palette as it is
            Candidate c{b, {}};
            std::vector<Rgba8> logical(n);
            for (unsigned k = 0; k < n; ++k) logical[k] = palette_entry(b, e, stored_slot(b, k));
            c.b.pixels = pack_pixels(c.b, e, img, reindex(img, logical));
            c.r.mode = "reindex";
            measure(img, decode_pixels(c.b, e), c.r);
            candidates.push_back(std::move(c));
        }
        if (options.mode != PaletteMode::reindex) {  // quantise: a new palette, locked slots kept
            Candidate c{b, {}};
            image::QuantiseOptions q;
            q.palette_size = n;
            q.threads = options.threads;
            for (unsigned s : options.locked) {
                // `s` is a stored position; the quantiser works on pixel values (the same but on PS2 C8)
                q.locked.push_back({static_cast<unsigned>(stored_slot(b, s)), image::to_rgba5551(palette_entry(b, e, s))});
            }
            const image::RgbaImage* one = &img;
            const auto result = image::quantise(std::span<const image::RgbaImage>(one, 1), q);
            std::vector<unsigned> written = result.written_slots;
            if (result.transparent_slot && !is_locked(options.locked, *result.transparent_slot))
                written.push_back(*result.transparent_slot);
            for (unsigned s : written) put_entry(c.b, e, stored_slot(c.b, s), image::from_rgba5551(result.palette[s]));
            c.b.pixels = pack_pixels(c.b, e, img, result.indices[0]);
            c.r.mode = "quantise";
            measure(img, decode_pixels(c.b, e), c.r);
            candidates.push_back(std::move(c));
        }
        std::size_t best = 0;  // auto: the lower mean dE; a tie keeps the palette (reindex first)
        for (std::size_t i = 1; i < candidates.size(); ++i)
            if (candidates[i].r.mean_delta_e < candidates[best].r.mean_delta_e) best = i;
        b = std::move(candidates[best].b);
        report = std::move(candidates[best].r);
        if (translucent && !ps2 && b.palette_format == palette_rgb565)
            report.warnings.push_back("the image has alpha but the RGB565 palette has none: made opaque");
        if (translucent && report.mode == "quantise")
            report.warnings.push_back("the quantiser keeps one transparent slot: alpha is 0 below 128, opaque above");
    }
    if (transparent && b.alpha_level == 0)
        report.warnings.push_back("the image has transparent texels but the record's alpha level is 0 (opaque); kept "
                                  "(its meaning for the game is not established)");
    if (report.mode != "reindex" && report.mode != "quantise") measure(img, decode_pixels(b, e), report);
    if (report_out) *report_out = std::move(report);
    return b;
}

namespace {

PaletteChange change_of(const Bitmap& before, const Bitmap& after, Endian e, unsigned slot, Rgba8 requested) {
    PaletteChange c;
    c.slot = slot;
    c.before = palette_raw(before, e, slot);
    c.after = palette_raw(after, e, slot);
    c.requested = requested;
    c.result = palette_entry(after, e, slot);
    c.rounding_delta_e = image::delta_e(requested, c.result);
    return c;
}

}  // namespace

std::vector<PaletteChange> set_palette_slots(Bitmap& b, Endian e, std::span<const image::SlotColour> requests,
                                             std::span<const unsigned> locked) {
    require_palette(b, e);
    std::vector<unsigned> seen;
    for (const auto& r : requests) {
        if (r.slot >= b.palette_entries())
            throw Error(ErrorKind::usage, "the palette has " + std::to_string(b.palette_entries()) + " slots; there is no slot " +
                                              std::to_string(r.slot));
        if (is_locked(seen, r.slot)) throw Error(ErrorKind::usage, "slot " + std::to_string(r.slot) + " is listed twice");
        if (is_locked(locked, r.slot)) throw Error(ErrorKind::conflict, "slot " + std::to_string(r.slot) + " is locked");
        seen.push_back(r.slot);
    }
    Bitmap next = b;
    std::vector<PaletteChange> out;
    for (const auto& r : requests) {
        put_entry(next, e, r.slot, r.colour);
        out.push_back(change_of(b, next, e, r.slot, r.colour));
    }
    b = std::move(next);
    return out;
}

std::vector<PaletteChange> shift_palette_hsv(Bitmap& b, Endian e, const image::HsvShift& shift,
                                             std::span<const unsigned> slots, std::span<const unsigned> locked) {
    require_palette(b, e);
    for (unsigned s : slots)
        if (s >= b.palette_entries())
            throw Error(ErrorKind::usage, "the palette has " + std::to_string(b.palette_entries()) + " slots; there is no slot " +
                                              std::to_string(s));
    Bitmap next = b;
    std::vector<PaletteChange> out;
    for (unsigned s = 0; s < b.palette_entries(); ++s) {
        if ((!slots.empty() && !is_locked(slots, s)) || is_locked(locked, s)) continue;
        const Rgba8 c = palette_entry(b, e, s);
        image::Hsv h = image::to_hsv(c);
        h.h = std::fmod(std::fmod(h.h + shift.hue_degrees, 360.0) + 360.0, 360.0);
        h.s = std::clamp(h.s * shift.saturation, 0.0, 1.0);
        h.v = std::clamp(h.v * shift.value, 0.0, 1.0);
        const Rgba8 want = image::from_hsv(h, c.a);
        put_entry(next, e, s, want);
        out.push_back(change_of(b, next, e, s, want));
    }
    b = std::move(next);
    return out;
}

}  // namespace mod::totem
