#include "libmod/stadium/texture_edit.hpp"

#include "libmod/image/colour.hpp"
#include "libmod/image/quantise.hpp"
#include "libmod/n64/texel_load.hpp"
#include "libmod/stadium/ia16_palette.hpp"

#include <algorithm>
#include <bit>
#include <set>

namespace mod::stadium {

namespace {

namespace gbi = n64::gbi;

[[noreturn]] void usage(const std::string& m) { throw Error(ErrorKind::usage, m); }

std::string tex_name(std::size_t t) { return "texture[" + std::to_string(t) + "]"; }

const ModelTexture& texture_at(const Model& model, std::size_t t) {
    if (t >= model.textures.size())
        usage("texture " + std::to_string(t) + " does not exist (the model has " + std::to_string(model.textures.size()) + ")");
    if (!model.textures[t].format) usage(tex_name(t) + " has a format models do not use; it cannot be replaced");
    return model.textures[t];
}

Bytes be16(std::span<const std::uint16_t> v) {
    Bytes b;
    for (std::uint16_t e : v) {
        b.push_back(static_cast<std::uint8_t>(e >> 8));
        b.push_back(static_cast<std::uint8_t>(e));
    }
    return b;
}

Bytes be_words(std::initializer_list<std::uint32_t> words) {
    Bytes b;
    for (std::uint32_t w : words)
        for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<std::uint8_t>(w >> s));
    return b;
}

// The palette slice a CI texture indexes: its CI4 bank or the whole TLUT.
struct Slice {
    std::size_t palette = 0;
    unsigned first = 0, size = 0;
};

Slice slice_for(const Model& model, std::size_t t, n64::TexelFormat format) {
    auto p = palette_for_texture(model, t);
    if (!p) usage(tex_name(t) + " is a CI texture that no material draws with a palette");
    const auto& pal = model.palettes[*p];
    Slice s;
    s.palette = *p;
    if (format == n64::TexelFormat::ci4) {
        s.first = bank_for_texture(model, t) * 16;
        s.size = 16;
    } else {
        s.size = std::min<unsigned>(256, pal.color_count);
    }
    if (s.first + s.size > pal.color_count)
        throw Error(ErrorKind::format, tex_name(t) + ": its CI4 bank lies past the palette's " +
                                           std::to_string(pal.color_count) + " colours");
    return s;
}

std::vector<unsigned> used_slots(const Model& model, std::size_t t, n64::TexelFormat format, const Bytes& data,
                                 unsigned first) {
    const auto& d = model.textures[t].descriptor;
    ByteReader r(data, Endian::big, {}, tex_name(t));
    const Bytes idx = n64::decode_indices(format, r, d.width, d.height);
    std::set<unsigned> s;
    for (std::uint8_t i : idx) s.insert(first + i);
    return {s.begin(), s.end()};
}

// ΔE between the requested image and what the texels now draw.
void measure(TextureReport& r, const image::RgbaImage& want, const Bytes& drawn) {
    r.mean_delta_e = r.max_delta_e = 0;
    r.opaque_texels = r.transparent_texels = 0;
    double sum = 0;
    for (std::size_t i = 0; i < want.pixel_count(); ++i) {
        const image::Rgba8 a = want.at(i);
        if (a.a < 128) { ++r.transparent_texels; continue; }
        const image::Rgba8 b{drawn[4 * i], drawn[4 * i + 1], drawn[4 * i + 2], drawn[4 * i + 3]};
        const double e = image::delta_e(a, b);
        sum += e;
        r.max_delta_e = std::max(r.max_delta_e, e);
        ++r.opaque_texels;
    }
    if (r.opaque_texels) r.mean_delta_e = sum / double(r.opaque_texels);
}

// Other textures of `palette` whose used slots (with their bank) changed.
std::vector<std::size_t> touched_by(const Model& model, std::size_t palette, std::span<const std::size_t> except,
                                    const std::vector<std::uint16_t>& before, const std::vector<std::uint16_t>& after) {
    std::set<std::size_t> out;
    for (std::size_t m : model.materials_with_palette(palette)) {
        const auto& mt = model.materials[m];
        if (mt.texture < 0) continue;
        const std::size_t t = static_cast<std::size_t>(mt.texture);
        if (std::find(except.begin(), except.end(), t) != except.end() || out.count(t)) continue;
        const auto& tex = model.textures[t];
        if (!tex.format || !n64::is_ci(*tex.format)) continue;
        const unsigned first = *tex.format == n64::TexelFormat::ci4 ? bank_for_texture(model, t) * 16 : 0;
        for (unsigned s : used_slots(model, t, *tex.format, tex.data, first))
            if (s < before.size() && before[s] != after[s]) {
                out.insert(t);
                break;
            }
    }
    return {out.begin(), out.end()};
}

unsigned log2_exact(std::uint32_t v) { return std::has_single_bit(v) ? static_cast<unsigned>(std::countr_zero(v)) : 0; }

// Rewrites descriptor, texels and the material DLs' load words for a new size/format.
void write_resized(const Model& model, FragmentImage& img, std::size_t t, n64::TexelFormat format, std::uint32_t w,
                   std::uint32_t h, const Bytes& texels, std::optional<unsigned> ci4_bank = std::nullopt) {
    const ModelTexture& tex = model.textures[t];
    const std::uint64_t count = std::uint64_t(w) * h;
    if (count > 0xFFFF)
        throw Error(ErrorKind::limit, tex_name(t) + ": " + std::to_string(w) + " x " + std::to_string(h) +
                                          " texels do not fit the descriptor's u16 texel count");
    // Every material DL loading this texture gets the new load words; refuse DLs shared with others.
    std::set<std::uint32_t> dls;
    for (std::size_t m : model.materials_with_texture(t))
        if (model.materials[m].material_dl) dls.insert(model.materials[m].material_dl);
    for (const auto& mt : model.materials)
        if (mt.material_dl && dls.count(mt.material_dl) && mt.texture >= 0 && std::size_t(mt.texture) != t)
            throw Error(ErrorKind::conflict, tex_name(t) + ": its material DL " + hex(mt.material_dl, 8) +
                                                 " also loads texture " + std::to_string(mt.texture));
    for (std::uint32_t dl_address : dls) {
        const std::uint32_t off = model.offset_of(dl_address, tex_name(t) + ".material_dl");
        ByteReader r(model.fragment.body, Endian::big, {}, "dl@" + hex(off));
        r.seek(off);
        gbi::DisplayList list = gbi::decode_list(r);
        const auto load = n64::find_texture_load(list);
        if (!load) throw Error(ErrorKind::conflict, tex_name(t) + ": material DL " + hex(dl_address, 8) + " has no texture load to rewrite");
        n64::TileParams params;
        params.s = load->render.s;
        params.t = load->render.t;
        params.s.mask = static_cast<std::uint8_t>(log2_exact(w));
        params.t.mask = static_cast<std::uint8_t>(log2_exact(h));
        params.palette = format == n64::TexelFormat::ci4 ? static_cast<std::uint8_t>(ci4_bank.value_or(load->render.palette)) : 0;
        params.tmem = load->render.tmem;
        const auto plan = n64::plan_texture_load(format, w, h, params);
        const std::size_t old_bytes = list.commands.size() * 8;
        n64::replace_texture_load(list, plan);
        const Bytes bytes = gbi::encode_list(list);
        if (bytes.size() == old_bytes) {
            img.write(off, bytes);
        } else {
            const std::uint32_t a = img.append(bytes, 8);
            for (const auto& mt : model.materials)
                if (mt.material_dl == dl_address) img.set_pointer(mt.command + 4, a - img.base());
        }
    }
    const std::uint32_t a = img.append(texels, 8);
    img.set_pointer(tex.entry + 8, a - img.base());
    const auto fmt = static_cast<std::uint8_t>(n64::image_format(format));
    const auto siz = static_cast<std::uint8_t>(n64::texel_size(format));
    img.write_data(tex.entry, Bytes{fmt, siz, static_cast<std::uint8_t>(w >> 8), static_cast<std::uint8_t>(w),
                                    static_cast<std::uint8_t>(h >> 8), static_cast<std::uint8_t>(h),
                                    static_cast<std::uint8_t>(count >> 8), static_cast<std::uint8_t>(count)},
                   tex_name(t) + ".descriptor");
}

// Appends palette colours `entries` and the TLUT DL `list` (its command `settimg_command` is
// the SETTIMG, re-aimed at the colours), then a palette table holding every old entry and the
// new one; points the 0x17 command and the materials of texture `t` at them. Returns the new
// palette's index.
std::size_t append_palette(const Model& model, FragmentImage& img, std::size_t t, const std::vector<std::uint16_t>& entries,
                           gbi::DisplayList list, std::size_t settimg_command) {
    if (model.palettes.size() + 1 > max_model_palettes)
        throw Error(ErrorKind::limit, tex_name(t) + ": a new palette would make " +
                                          std::to_string(model.palettes.size() + 1) + " palettes (at most 255)");
    if (model.tables_command == 0) throw Error(ErrorKind::conflict, tex_name(t) + ": the model has no 0x17 command to extend");
    const std::uint32_t colours = img.append(be16(entries), 8) - img.base();
    std::get<gbi::SetTextureImage>(list.commands.at(settimg_command)).address = img.base() + colours;
    const std::uint32_t dl = img.append(gbi::encode_list(list), 8) - img.base();
    img.set_pointer(dl + 8 * static_cast<std::uint32_t>(settimg_command) + 4, colours);
    // The palette table: every old entry (pointers re-registered at the new sites), then the new one.
    const std::size_t n = model.palettes.size();
    Bytes table;
    for (std::size_t i = 0; i < n; ++i) {
        const Bytes e(model.fragment.body.begin() + model.palettes[i].entry,
                      model.fragment.body.begin() + model.palettes[i].entry + 12);
        table.insert(table.end(), e.begin(), e.end());
    }
    const Bytes e = be_words({static_cast<std::uint32_t>(entries.size()), img.base() + colours, img.base() + dl});
    table.insert(table.end(), e.begin(), e.end());
    const std::uint32_t tab = img.append(table, 8) - img.base();
    for (std::size_t i = 0; i <= n; ++i) {
        const std::uint32_t site = tab + 12 * static_cast<std::uint32_t>(i);
        for (std::uint32_t k : {4u, 8u}) {
            const std::uint32_t v = img.word(site + k);
            if (auto o = img.offset_of(v)) img.set_pointer(site + k, *o);
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        img.remove_pointer(model.palettes[i].entry + 4);
        img.remove_pointer(model.palettes[i].entry + 8);
    }
    img.set_pointer(model.tables_command + 0xC, tab);
    const auto count = static_cast<std::uint16_t>(n + 1);
    img.write_data(model.tables_command + 4, Bytes{static_cast<std::uint8_t>(count >> 8), static_cast<std::uint8_t>(count)},
                   "command 0x17 palette count");
    for (std::size_t m : model.materials_with_texture(t))
        img.write_data(model.materials[m].command + 0xA, Bytes{static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(n)},
                       "material palette index");
    return n;
}

// A copy of palette `p` with `entries` and a copy of its TLUT DL, for texture `t` only.
std::size_t fork_palette(const Model& model, FragmentImage& img, std::size_t t, std::size_t p,
                         const std::vector<std::uint16_t>& entries) {
    const ModelPalette& old = model.palettes[p];
    if (!old.load || old.tlut_dl == 0)
        throw Error(ErrorKind::conflict, "palette " + std::to_string(p) + " has no TLUT display list to copy");
    const std::uint32_t dl_off = model.offset_of(old.tlut_dl, "palette.tlut_dl");
    ByteReader r(model.fragment.body, Endian::big, {}, "dl@" + hex(dl_off));
    r.seek(dl_off);
    return append_palette(model, img, t, entries, gbi::decode_list(r), old.load->settimg_command);
}

// A new RGBA5551 palette for a texture that was direct colour: its TLUT DL is gDPLoadTLUT
// (pal16 into `bank`, or pal256) preceded by gDPSetTextureLUT(G_TT_RGBA16), so the TLUT type
// does not depend on what the engine set before (doc: "CI <-> direct colour").
std::size_t new_palette(const Model& model, FragmentImage& img, std::size_t t, const std::vector<std::uint16_t>& entries,
                        unsigned bank) {
    gbi::DisplayList list;
    gbi::SetOtherMode textlut;
    textlut.high = true;
    textlut.shift_byte = 32 - 14 - 2;  // G_MDSFT_TEXTLUT, 2 bits
    textlut.length_byte = 1;
    textlut.data = 0x8000;  // G_TT_RGBA16
    list.commands.push_back(textlut);
    const auto load = n64::tlut_load_commands(0, static_cast<unsigned>(entries.size()), bank);
    list.commands.insert(list.commands.end(), load.begin(), load.end());
    std::size_t settimg = 0;
    while (!std::holds_alternative<gbi::SetTextureImage>(list.commands.at(settimg))) ++settimg;
    return append_palette(model, img, t, entries, std::move(list), settimg);
}

// The materials drawing texture `t` stop naming a palette (index −1): the engine then emits
// gDPSetTextureLUT(G_TT_NONE) for them (reference §6.3 step 3).
void detach_palette(const Model& model, FragmentImage& img, std::size_t t) {
    for (std::size_t m : model.materials_with_texture(t))
        img.write_data(model.materials[m].command + 0xA, Bytes{0xFF, 0xFF}, "material palette index");
}

struct Target {
    n64::TexelFormat format;
    std::uint32_t w, h;
    bool resized;
};

Target target_for(const ModelTexture& tex, std::size_t t, const image::RgbaImage& rgba, const TextureReplaceOptions& o) {
    rgba.check();
    Target g{o.format.value_or(*tex.format), rgba.width, rgba.height, false};
    g.resized = g.format != *tex.format || g.w != tex.descriptor.width || g.h != tex.descriptor.height;
    if (g.resized && !o.allow_resize)
        usage(tex_name(t) + " is " + std::to_string(tex.descriptor.width) + "x" + std::to_string(tex.descriptor.height) +
              " " + n64::to_string(*tex.format) + ", the image is " + std::to_string(g.w) + "x" + std::to_string(g.h) + " " +
              n64::to_string(g.format) + ": allow a size/format change explicitly");
    n64::check_dimensions(g.w, g.h);
    return g;
}

// CI ↔ direct colour changes the palette of the texture's materials; a material with a
// texture-animation channel draws other textures through the same palette, so it is refused.
void check_class_change(const Model& model, std::size_t t) {
    for (std::size_t m : model.materials_with_texture(t))
        if (model.materials[m].texture_channel >= 0)
            throw Error(ErrorKind::conflict, tex_name(t) + ": material " + std::to_string(m) +
                                                 " animates its texture (channel " +
                                                 std::to_string(model.materials[m].texture_channel) +
                                                 "); its palette serves every frame, so the texture cannot change "
                                                 "between CI and direct colour");
}

void write_texels(const Model& model, FragmentImage& img, std::size_t t, const Target& g, const Bytes& texels,
                  std::optional<unsigned> ci4_bank = std::nullopt) {
    if (g.resized) write_resized(model, img, t, g.format, g.w, g.h, texels, ci4_bank);
    else {
        require_plain_data(model, model.textures[t].offset, texels.size(), tex_name(t) + ".texels");
        img.write_data(model.textures[t].offset, texels, tex_name(t) + ".texels");
    }
}

}  // namespace

const char* to_string(CiMode mode) noexcept {
    switch (mode) {
    case CiMode::reindex: return "reindex";
    case CiMode::constrained: return "constrained";
    case CiMode::fork: return "fork";
    case CiMode::shared: return "shared";
    case CiMode::automatic: return "auto";
    }
    return "?";
}

CiMode parse_ci_mode(std::string_view name) {
    for (CiMode m : {CiMode::reindex, CiMode::constrained, CiMode::fork, CiMode::shared, CiMode::automatic})
        if (name == to_string(m)) return m;
    usage("unknown CI mode '" + std::string(name) + "' (auto, reindex, constrained, fork, shared)");
}

std::vector<unsigned> slots_used(const Model& model, std::size_t texture) {
    const ModelTexture& tex = texture_at(model, texture);
    if (!n64::is_ci(*tex.format)) return {};
    const unsigned first = *tex.format == n64::TexelFormat::ci4 ? bank_for_texture(model, texture) * 16 : 0;
    return used_slots(model, texture, *tex.format, tex.data, first);
}

namespace {

// replace_texture with one explicit mode (not automatic).
TextureReport replace_with_mode(const Model& model, FragmentImage& img, std::size_t t, const image::RgbaImage& rgba,
                                const TextureReplaceOptions& o) {
    const ModelTexture& tex = texture_at(model, t);
    const Target g = target_for(tex, t, rgba, o);
    TextureReport r;
    r.texture = t;
    r.resized = g.resized;
    const std::uint8_t pad = g.resized ? 0 : n64::trailing_pad(g.format, tex.data, std::uint64_t(g.w) * g.h);
    if (o.mode == CiMode::shared && n64::is_ci(g.format))
        usage("shared mode takes several textures (replace_textures_shared)");
    const bool class_change = n64::is_ci(g.format) != n64::is_ci(*tex.format);
    if (class_change) check_class_change(model, t);
    if (!n64::is_ci(g.format)) {
        const Bytes texels = n64::encode_rgba(g.format, rgba.pixels, g.w, g.h, pad);
        ByteReader rr(texels, Endian::big, {}, tex_name(t));
        measure(r, rgba, n64::decode_rgba(g.format, rr, g.w, g.h));
        write_texels(model, img, t, g, texels);
        if (class_change) {
            detach_palette(model, img, t);
            r.palette_detached = true;
        }
        return r;
    }
    if (class_change) {
        // Direct colour → CI: quantise into a palette of its own (16 or 256 entries, as fork).
        image::QuantiseOptions q;
        q.palette_size = g.format == n64::TexelFormat::ci4 ? 16 : 256;
        q.threads = o.threads;
        const auto res = image::quantise(std::span<const image::RgbaImage>(&rgba, 1), q);
        const Bytes texels = n64::encode_indices(g.format, res.indices[0], g.w, g.h);
        ByteReader rr(texels, Endian::big, {}, tex_name(t));
        measure(r, rgba, n64::decode_ci_rgba(g.format, rr, g.w, g.h, n64::Tlut{n64::TlutFormat::rgba5551, res.palette}, 0));
        r.palette = new_palette(model, img, t, res.palette, 0);
        r.palette_added = true;
        r.written_slots = res.written_slots;
        write_texels(model, img, t, g, texels, 0u);
        return r;
    }
    const Slice s = slice_for(model, t, g.format);
    const ModelPalette& pal = model.palettes[s.palette];
    const bool ia16 = pal.format == n64::TlutFormat::ia16;
    const std::vector<std::uint16_t> sub(pal.entries.begin() + s.first, pal.entries.begin() + s.first + s.size);
    std::vector<std::uint16_t> after = pal.entries;
    Bytes indices;
    const std::span<const image::RgbaImage> one(&rgba, 1);
    if (o.mode == CiMode::reindex) {
        image::RemapOptions ro;
        ro.threads = o.threads;
        auto res = ia16 ? remap_ia16(one, sub, ro) : image::remap(one, sub, ro);
        indices = std::move(res.indices[0]);
    } else {
        image::QuantiseOptions q;
        q.palette_size = s.size;
        q.threads = o.threads;
        std::set<unsigned> locked;
        for (unsigned l : o.locked)
            if (l >= s.first && l < s.first + s.size) locked.insert(l - s.first);
        if (o.mode == CiMode::constrained) {
            for (std::size_t m : model.materials_with_palette(s.palette)) {
                const auto& mt = model.materials[m];
                if (mt.texture < 0 || std::size_t(mt.texture) == t) continue;
                for (unsigned slot : slots_used(model, static_cast<std::size_t>(mt.texture)))
                    if (slot >= s.first && slot < s.first + s.size) locked.insert(slot - s.first);
            }
            q.base = sub;
        }
        for (unsigned l : locked) q.locked.push_back({l, sub[l]});
        auto res = ia16 ? quantise_ia16(one, q) : image::quantise(one, q);
        indices = std::move(res.indices[0]);
        for (unsigned i = 0; i < s.size; ++i) after[s.first + i] = res.palette[i];
        if (o.mode == CiMode::fork) {
            // Slots the texture does not use keep the old colours.
            for (unsigned i = 0; i < s.size; ++i)
                if (std::find(res.written_slots.begin(), res.written_slots.end(), i) == res.written_slots.end() &&
                    !locked.count(i))
                    after[s.first + i] = sub[i];
        }
    }
    const Bytes texels = n64::encode_indices(g.format, indices, g.w, g.h, pad);
    for (unsigned i = 0; i < after.size(); ++i)
        if (after[i] != pal.entries[i]) r.written_slots.push_back(i);
    {
        ByteReader rr(texels, Endian::big, {}, tex_name(t));
        measure(r, rgba, n64::decode_ci_rgba(g.format, rr, g.w, g.h, n64::Tlut{pal.format, after},
                                             s.first / 16));
    }
    if (o.mode == CiMode::fork) {
        r.palette = fork_palette(model, img, t, s.palette, after);
        r.palette_forked = true;
    } else {
        r.palette = s.palette;
        if (after != pal.entries) {
            require_plain_data(model, pal.offset, 2 * after.size(), "palette colours");
            img.write_data(pal.offset, be16(after), "palette colours");
        }
        const std::size_t self[1] = {t};
        r.touched = touched_by(model, s.palette, self, pal.entries, after);
    }
    write_texels(model, img, t, g, texels);
    return r;
}

// The palette modes a single CI → CI replacement can use, least invasive first.
constexpr CiMode single_modes[] = {CiMode::reindex, CiMode::constrained, CiMode::fork};

struct Trial {
    TextureReport report;
    FragmentImage image;
};

// Each of single_modes except `skip` on a copy of `img`; modes that fail with a usage, limit or
// conflict error (they do not fit the palette's constraints) are left out. The first failure
// is kept in `failure`.
std::vector<std::pair<CiMode, Trial>> try_modes(const Model& model, const FragmentImage& img, std::size_t t,
                                                const image::RgbaImage& rgba, const TextureReplaceOptions& o,
                                                std::optional<CiMode> skip, std::optional<Error>& failure) {
    std::vector<std::pair<CiMode, Trial>> out;
    for (CiMode m : single_modes) {
        if (skip && m == *skip) continue;
        TextureReplaceOptions mo = o;
        mo.mode = m;
        FragmentImage scratch = img;
        try {
            TextureReport r = replace_with_mode(model, scratch, t, rgba, mo);
            out.push_back({m, Trial{std::move(r), std::move(scratch)}});
        } catch (const Error& e) {
            if (e.kind() != ErrorKind::usage && e.kind() != ErrorKind::limit && e.kind() != ErrorKind::conflict) throw;
            if (!failure) failure = e;
        }
    }
    return out;
}

}  // namespace

TextureReport replace_texture(const Model& model, FragmentImage& img, std::size_t t, const image::RgbaImage& rgba,
                              const TextureReplaceOptions& o) {
    const ModelTexture& tex = texture_at(model, t);
    const Target g = target_for(tex, t, rgba, o);  // size and format errors come before any choice
    const bool palette_choice = n64::is_ci(g.format) && n64::is_ci(*tex.format);
    if (!palette_choice) {
        TextureReplaceOptions mo = o;
        if (mo.mode == CiMode::automatic) mo.mode = CiMode::reindex;  // no palette to choose for
        return replace_with_mode(model, img, t, rgba, mo);
    }
    if (o.mode != CiMode::automatic) {
        const FragmentImage before = img;
        TextureReport r = replace_with_mode(model, img, t, rgba, o);
        r.mode = o.mode;
        if (r.mean_delta_e > mode_warning_delta_e) {
            std::optional<Error> failure;
            for (auto& [m, trial] : try_modes(model, before, t, rgba, o, o.mode, failure)) {
                r.tried.emplace_back(m, trial.report.mean_delta_e);
                if (trial.report.mean_delta_e < r.mean_delta_e - auto_mode_margin &&
                    (!r.better || trial.report.mean_delta_e < r.better->second))
                    r.better = std::pair{m, trial.report.mean_delta_e};
            }
        }
        return r;
    }
    std::optional<Error> failure;
    auto trials = try_modes(model, img, t, rgba, o, std::nullopt, failure);
    if (trials.empty()) throw *failure;
    std::size_t best = 0;
    for (std::size_t i = 1; i < trials.size(); ++i)
        if (trials[i].second.report.mean_delta_e < trials[best].second.report.mean_delta_e - auto_mode_margin) best = i;
    TextureReport r = std::move(trials[best].second.report);
    r.mode = trials[best].first;
    for (const auto& [m, trial] : trials) r.tried.emplace_back(m, trial.report.mean_delta_e);
    img = std::move(trials[best].second.image);
    return r;
}

std::vector<TextureReport> replace_textures_shared(const Model& model, FragmentImage& img,
                                                   std::span<const std::size_t> textures,
                                                   std::span<const image::RgbaImage> images,
                                                   const TextureReplaceOptions& o) {
    if (textures.empty() || textures.size() != images.size()) usage("shared mode needs one image per texture");
    const ModelTexture& first = texture_at(model, textures[0]);
    if (!n64::is_ci(*first.format)) usage("shared mode is for CI textures");
    const Slice s = slice_for(model, textures[0], *first.format);
    for (std::size_t i = 0; i < textures.size(); ++i) {
        const ModelTexture& tex = texture_at(model, textures[i]);
        if (tex.format != first.format) usage("shared mode: " + tex_name(textures[i]) + " has another format");
        const Slice si = slice_for(model, textures[i], *tex.format);
        if (si.palette != s.palette || si.first != s.first)
            usage("shared mode: " + tex_name(textures[i]) + " is drawn with another palette or bank");
        images[i].check();
        if (images[i].width != tex.descriptor.width || images[i].height != tex.descriptor.height)
            usage("shared mode keeps sizes: " + tex_name(textures[i]) + " is " + std::to_string(tex.descriptor.width) +
                  "x" + std::to_string(tex.descriptor.height));
    }
    const ModelPalette& pal = model.palettes[s.palette];
    const std::vector<std::uint16_t> sub(pal.entries.begin() + s.first, pal.entries.begin() + s.first + s.size);
    image::QuantiseOptions q;
    q.palette_size = s.size;
    q.threads = o.threads;
    q.base = sub;
    std::set<unsigned> locked;
    for (unsigned l : o.locked)
        if (l >= s.first && l < s.first + s.size) locked.insert(l - s.first);
    for (std::size_t m : model.materials_with_palette(s.palette)) {
        const auto& mt = model.materials[m];
        if (mt.texture < 0) continue;
        const auto tt = static_cast<std::size_t>(mt.texture);
        if (std::find(textures.begin(), textures.end(), tt) != textures.end()) continue;
        for (unsigned slot : slots_used(model, tt))
            if (slot >= s.first && slot < s.first + s.size) locked.insert(slot - s.first);
    }
    for (unsigned l : locked) q.locked.push_back({l, sub[l]});
    auto res = pal.format == n64::TlutFormat::ia16 ? quantise_ia16(images, q) : image::quantise(images, q);
    std::vector<std::uint16_t> after = pal.entries;
    for (unsigned i = 0; i < s.size; ++i) after[s.first + i] = res.palette[i];
    require_plain_data(model, pal.offset, 2 * after.size(), "palette colours");
    img.write_data(pal.offset, be16(after), "palette colours");
    const auto touched = touched_by(model, s.palette, textures, pal.entries, after);
    std::vector<TextureReport> out;
    for (std::size_t i = 0; i < textures.size(); ++i) {
        const ModelTexture& tex = model.textures[textures[i]];
        const std::uint32_t w = tex.descriptor.width, h = tex.descriptor.height;
        const Bytes texels = n64::encode_indices(*tex.format, res.indices[i], w, h,
                                                 n64::trailing_pad(*tex.format, tex.data, std::uint64_t(w) * h));
        require_plain_data(model, tex.offset, texels.size(), tex_name(textures[i]) + ".texels");
        img.write_data(tex.offset, texels, tex_name(textures[i]) + ".texels");
        TextureReport r;
        r.texture = textures[i];
        r.palette = s.palette;
        r.mode = CiMode::shared;
        for (unsigned k = 0; k < after.size(); ++k)
            if (after[k] != pal.entries[k]) r.written_slots.push_back(k);
        r.touched = touched;
        ByteReader rr(texels, Endian::big, {}, tex_name(textures[i]));
        measure(r, images[i], n64::decode_ci_rgba(*tex.format, rr, w, h, n64::Tlut{pal.format, after}, s.first / 16));
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace mod::stadium
