// Texel format names, (fmt, siz) tables, channel expansion rules and descriptors.
#include "libmod/n64/texel.hpp"

#include <string>

namespace mod::n64 {

namespace {

struct FormatInfo {
    TexelFormat format;
    const char* name;
    ImageFormat fmt;
    TexelSize siz;
};

constexpr FormatInfo format_table[] = {
    {TexelFormat::rgba16, "rgba16", ImageFormat::rgba, TexelSize::b16},
    {TexelFormat::rgba32, "rgba32", ImageFormat::rgba, TexelSize::b32},
    {TexelFormat::ci4, "ci4", ImageFormat::ci, TexelSize::b4},
    {TexelFormat::ci8, "ci8", ImageFormat::ci, TexelSize::b8},
    {TexelFormat::ia4, "ia4", ImageFormat::ia, TexelSize::b4},
    {TexelFormat::ia8, "ia8", ImageFormat::ia, TexelSize::b8},
    {TexelFormat::ia16, "ia16", ImageFormat::ia, TexelSize::b16},
    {TexelFormat::i4, "i4", ImageFormat::i, TexelSize::b4},
    {TexelFormat::i8, "i8", ImageFormat::i, TexelSize::b8},
};

const FormatInfo& info(TexelFormat format) noexcept { return format_table[static_cast<int>(format)]; }

// Nearest-level tables, built once from the expansion rules so the two can never disagree.
template <unsigned Bits>
struct LevelTable {
    std::array<std::uint8_t, 256> nearest{};
    explicit LevelTable(std::uint8_t (*expand)(unsigned)) {
        constexpr unsigned levels = 1u << Bits;
        for (unsigned v = 0; v < 256; ++v) {
            unsigned best = 0, best_d = 256;
            for (unsigned q = 0; q < levels; ++q) {
                unsigned e = expand(q);
                unsigned d = e > v ? e - v : v - e;
                if (d < best_d) best = q, best_d = d;  // strict: ties keep the lower level
            }
            nearest[v] = static_cast<std::uint8_t>(best);
        }
    }
};

const LevelTable<5>& table5() { static const LevelTable<5> t(expand5); return t; }
const LevelTable<4>& table4() { static const LevelTable<4> t(expand4); return t; }
const LevelTable<3>& table3() { static const LevelTable<3> t(expand3); return t; }

}  // namespace

const char* to_string(TexelFormat format) noexcept { return info(format).name; }

TexelFormat parse_texel_format(std::string_view name) {
    for (const auto& f : format_table)
        if (name == f.name) return f.format;
    throw Error(ErrorKind::usage, "unknown texel format '" + std::string(name) +
                                      "' (rgba16, rgba32, ci4, ci8, ia4, ia8, ia16, i4, i8)");
}

std::optional<TexelFormat> texel_format(std::uint8_t fmt, std::uint8_t siz) noexcept {
    for (const auto& f : format_table)
        if (static_cast<std::uint8_t>(f.fmt) == fmt && static_cast<std::uint8_t>(f.siz) == siz) return f.format;
    return std::nullopt;
}

ImageFormat image_format(TexelFormat format) noexcept { return info(format).fmt; }
TexelSize texel_size(TexelFormat format) noexcept { return info(format).siz; }
unsigned bits_per_texel(TexelFormat format) noexcept { return 4u << static_cast<unsigned>(info(format).siz); }
bool is_ci(TexelFormat format) noexcept { return info(format).fmt == ImageFormat::ci; }

std::uint64_t texel_bytes(TexelFormat format, std::uint64_t texels) noexcept {
    return (texels * bits_per_texel(format) + 7) / 8;
}

void check_dimensions(std::uint32_t width, std::uint32_t height) {
    if (width == 0 || height == 0 || width > max_dimension || height > max_dimension)
        throw Error(ErrorKind::limit, "texture size " + std::to_string(width) + "x" + std::to_string(height) +
                                          " is outside 1.." + std::to_string(max_dimension));
}

std::uint8_t expand5(unsigned v) noexcept { return static_cast<std::uint8_t>(((v & 31) << 3) | ((v & 31) >> 2)); }
std::uint8_t expand4(unsigned v) noexcept { return static_cast<std::uint8_t>((v & 15) * 17); }
std::uint8_t expand3(unsigned v) noexcept {
    v &= 7;
    return static_cast<std::uint8_t>((v << 5) | (v << 2) | (v >> 1));
}
unsigned quantise5(std::uint8_t value) noexcept { return table5().nearest[value]; }
unsigned quantise4(std::uint8_t value) noexcept { return table4().nearest[value]; }
unsigned quantise3(std::uint8_t value) noexcept { return table3().nearest[value]; }

std::uint8_t intensity(std::uint8_t r, std::uint8_t g, std::uint8_t b) noexcept {
    if (r == g && g == b) return r;
    return static_cast<std::uint8_t>((299u * r + 587u * g + 114u * b + 500u) / 1000u);
}

void rgba5551_to_rgba8(std::uint16_t v, std::uint8_t* rgba) noexcept {
    rgba[0] = expand5(v >> 11);
    rgba[1] = expand5(v >> 6);
    rgba[2] = expand5(v >> 1);
    rgba[3] = (v & 1) ? 255 : 0;
}

std::uint16_t rgba8_to_rgba5551(const std::uint8_t* rgba) noexcept {
    return static_cast<std::uint16_t>((quantise5(rgba[0]) << 11) | (quantise5(rgba[1]) << 6) |
                                      (quantise5(rgba[2]) << 1) | (rgba[3] >= alpha_threshold ? 1 : 0));
}

void ia16_to_rgba8(std::uint16_t v, std::uint8_t* rgba) noexcept {
    auto i = static_cast<std::uint8_t>(v >> 8);
    rgba[0] = rgba[1] = rgba[2] = i;
    rgba[3] = static_cast<std::uint8_t>(v);
}

std::uint16_t rgba8_to_ia16(const std::uint8_t* rgba) noexcept {
    return static_cast<std::uint16_t>((intensity(rgba[0], rgba[1], rgba[2]) << 8) | rgba[3]);
}

std::uint64_t TextureDescriptor::byte_size() const noexcept {
    auto f = format();
    return f ? texel_bytes(*f, std::uint64_t(width) * height) : 0;
}

bool TextureDescriptor::valid() const noexcept {
    return format() && width != 0 && height != 0 && width <= max_dimension && height <= max_dimension &&
           texel_count == std::uint32_t(width) * height;
}

void TextureDescriptor::check(std::string_view path) const {
    auto fail = [&](const std::string& why) { throw Error(ErrorKind::format, why, {}, no_offset, std::string(path)); };
    if (!format())
        fail("unsupported texture format fmt " + std::to_string(fmt) + " siz " + std::to_string(siz));
    if (width == 0 || height == 0 || width > max_dimension || height > max_dimension)
        fail("texture size " + std::to_string(width) + "x" + std::to_string(height) + " is outside 1.." +
             std::to_string(max_dimension));
    if (texel_count != std::uint32_t(width) * height)
        fail("texel count " + std::to_string(texel_count) + " differs from width x height = " +
             std::to_string(std::uint32_t(width) * height) + " (the game's recolour pass uses the count)");
}

}  // namespace mod::n64
