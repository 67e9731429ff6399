// Which textures and texels each palette colours (contract in palette_use.hpp).
#include "libmod/stadium/palette_use.hpp"

#include "libmod/n64/texel.hpp"

#include <algorithm>
#include <cmath>

namespace mod::stadium {

namespace {

// Hue bin (0..11) of an RGBA8 colour, or -1 when grey or transparent.
int hue_bin(const std::uint8_t* c) {
    if (c[3] == 0) return -1;
    const double r = c[0] / 255.0, g = c[1] / 255.0, b = c[2] / 255.0;
    const double hi = std::max({r, g, b}), lo = std::min({r, g, b});
    if (hi <= 0 || (hi - lo) / hi < 0.15) return -1;
    double h;
    if (hi == r) h = 60 * std::fmod((g - b) / (hi - lo) + 6, 6.0);
    else if (hi == g) h = 60 * ((b - r) / (hi - lo) + 2);
    else h = 60 * ((r - g) / (hi - lo) + 4);
    return static_cast<int>(std::fmod(h + 15, 360.0) / 30) % 12;
}

}  // namespace

const char* hue_bin_name(std::size_t bin) noexcept {
    static const char* const names[12] = {"red",  "orange", "yellow", "yellow-green", "green",   "green-cyan",
                                          "cyan", "azure",  "blue",   "violet",       "magenta", "pink"};
    return bin < 12 ? names[bin] : "?";
}

std::vector<PaletteUse> palette_use(const Model& model) {
    std::vector<PaletteUse> out;
    for (std::size_t p = 0; p < model.palettes.size(); ++p) {
        const ModelPalette& pal = model.palettes[p];
        PaletteUse u;
        u.palette = p;
        u.color_count = pal.color_count;
        u.texels_per_slot.assign(pal.entries.size(), 0);
        u.materials = model.materials_with_palette(p);
        std::vector<std::pair<std::size_t, unsigned>> drawn;  // texture, CI4 bank
        for (std::size_t mi : u.materials) {
            const auto& mt = model.materials[mi];
            if (mt.texture < 0 || static_cast<std::size_t>(mt.texture) >= model.textures.size()) continue;
            const auto& tex = model.textures[static_cast<std::size_t>(mt.texture)];
            if (!tex.format || !n64::is_ci(*tex.format)) continue;
            const unsigned bank = *tex.format == n64::TexelFormat::ci4 && mt.load ? mt.load->render.palette : 0;
            const std::pair<std::size_t, unsigned> key{static_cast<std::size_t>(mt.texture), bank};
            if (std::find(drawn.begin(), drawn.end(), key) == drawn.end()) drawn.push_back(key);
        }
        std::sort(drawn.begin(), drawn.end());
        for (const auto& [t, bank] : drawn) {
            if (u.textures.empty() || u.textures.back() != t) u.textures.push_back(t);
            const auto& tex = model.textures[t];
            try {
                ByteReader r(tex.data, Endian::big, {}, "texture[" + std::to_string(t) + "]");
                const Bytes idx = n64::decode_indices(*tex.format, r, tex.descriptor.width, tex.descriptor.height);
                const unsigned first = *tex.format == n64::TexelFormat::ci4 ? 16 * bank : 0;
                std::uint64_t past = 0;
                for (std::uint8_t i : idx) {
                    const std::size_t slot = first + i;
                    if (slot < u.texels_per_slot.size()) ++u.texels_per_slot[slot];
                    else ++past;
                }
                if (past)
                    u.notes.push_back("texture " + std::to_string(t) + ": " + std::to_string(past) +
                                      " texels name slots past the palette's " + std::to_string(pal.entries.size()));
            } catch (const Error& e) {
                u.notes.push_back("texture " + std::to_string(t) + ": not counted (" + e.message() + ")");
            }
        }
        for (std::size_t s = 0; s < u.texels_per_slot.size(); ++s) {
            const std::uint64_t n = u.texels_per_slot[s];
            if (!n) continue;
            u.texels += n;
            std::uint8_t c[4];
            if (pal.format == n64::TlutFormat::ia16) n64::ia16_to_rgba8(pal.entries[s], c);
            else n64::rgba5551_to_rgba8(pal.entries[s], c);
            const int bin = hue_bin(c);
            if (bin < 0) u.grey_texels += n;
            else u.hue_texels[static_cast<std::size_t>(bin)] += n;
        }
        out.push_back(std::move(u));
    }
    return out;
}

std::string palette_use_text(const PaletteUse& u) {
    auto list = [](const std::vector<std::size_t>& v) {
        std::string s;
        for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
        return s.empty() ? std::string("none") : s;
    };
    std::string s = "palette " + std::to_string(u.palette) + " (" + std::to_string(u.color_count) + " colours): materials " +
                    list(u.materials) + ", CI textures " + list(u.textures);
    if (!u.texels) return s + "; colours no texel";
    const auto best = std::max_element(u.hue_texels.begin(), u.hue_texels.end());
    const std::uint64_t top = std::max(*best, u.grey_texels);
    const char* what = *best >= u.grey_texels ? hue_bin_name(std::size_t(best - u.hue_texels.begin())) : "grey/black/white";
    const unsigned pct = static_cast<unsigned>((200 * top + u.texels) / (2 * u.texels));
    s += "; " + std::to_string(u.texels) + " texels, most of them " + what + " (" + std::to_string(pct) + " %)";
    for (const auto& n : u.notes) s += "; " + n;
    return s;
}

}  // namespace mod::stadium
