// Texel decode/encode loops for every format (non-CI to RGBA8, CI to indices).
#include "libmod/n64/texel.hpp"

#include <cstring>
#include <string>

namespace mod::n64 {

namespace {

std::uint64_t texel_count(std::uint32_t width, std::uint32_t height) {
    check_dimensions(width, height);
    return std::uint64_t(width) * height;
}

// The texel bytes of a width × height texture at the start of `texels`, or a format error
// naming how many bytes were needed.
ByteView texel_data(TexelFormat format, const ByteReader& texels, std::uint32_t width, std::uint32_t height) {
    std::uint64_t need = texel_bytes(format, texel_count(width, height));
    if (texels.size() < need)
        texels.fail_at(0, std::string(to_string(format)) + " texture " + std::to_string(width) + "x" +
                              std::to_string(height) + " needs " + std::to_string(need) + " bytes, " +
                              std::to_string(texels.size()) + " available");
    return texels.data().first(static_cast<std::size_t>(need));
}

inline unsigned nibble(const std::uint8_t* p, std::uint64_t i) noexcept {
    return (i & 1) ? (p[i >> 1] & 15u) : (p[i >> 1] >> 4);
}

inline void put_nibble(std::uint8_t* p, std::uint64_t i, unsigned v) noexcept {
    if (i & 1) p[i >> 1] = static_cast<std::uint8_t>((p[i >> 1] & 0xF0) | (v & 15));
    else p[i >> 1] = static_cast<std::uint8_t>((p[i >> 1] & 0x0F) | ((v & 15) << 4));
}

inline void grey(std::uint8_t* o, std::uint8_t i, std::uint8_t a) noexcept {
    o[0] = o[1] = o[2] = i;
    o[3] = a;
}

void require_non_ci(TexelFormat format, const char* what) {
    if (is_ci(format))
        throw Error(ErrorKind::usage, std::string(what) + ": " + to_string(format) +
                                          " holds palette indices (use the index codec and a TLUT)");
}

void require_ci(TexelFormat format, const char* what) {
    if (!is_ci(format))
        throw Error(ErrorKind::usage, std::string(what) + ": " + to_string(format) + " is not a CI format");
}

Bytes blank_output(TexelFormat format, std::uint64_t n, std::uint8_t pad) {
    Bytes out(static_cast<std::size_t>(texel_bytes(format, n)), 0);
    if (bits_per_texel(format) == 4 && (n & 1)) out.back() = static_cast<std::uint8_t>(pad & 15);
    return out;
}

}  // namespace

Bytes decode_rgba(TexelFormat format, const ByteReader& texels, std::uint32_t width, std::uint32_t height,
                  const DecodeOptions& options) {
    require_non_ci(format, "decode_rgba");
    ByteView data = texel_data(format, texels, width, height);
    const std::uint64_t n = std::uint64_t(width) * height;
    const std::uint8_t* p = data.data();
    Bytes out(static_cast<std::size_t>(n * 4));
    std::uint8_t* o = out.data();
    const bool i_opaque = options.i_alpha == IntensityAlpha::opaque;
    switch (format) {
    case TexelFormat::rgba16:
        for (std::uint64_t i = 0; i < n; ++i) rgba5551_to_rgba8(endian::load_be16(p + 2 * i), o + 4 * i);
        break;
    case TexelFormat::rgba32:
        std::memcpy(o, p, out.size());
        break;
    case TexelFormat::ia4:
        for (std::uint64_t i = 0; i < n; ++i) {
            unsigned v = nibble(p, i);
            grey(o + 4 * i, expand3(v >> 1), (v & 1) ? 255 : 0);
        }
        break;
    case TexelFormat::ia8:
        for (std::uint64_t i = 0; i < n; ++i) grey(o + 4 * i, expand4(p[i] >> 4), expand4(p[i] & 15));
        break;
    case TexelFormat::ia16:
        for (std::uint64_t i = 0; i < n; ++i) ia16_to_rgba8(endian::load_be16(p + 2 * i), o + 4 * i);
        break;
    case TexelFormat::i4:
        for (std::uint64_t i = 0; i < n; ++i) {
            std::uint8_t v = expand4(nibble(p, i));
            grey(o + 4 * i, v, i_opaque ? 255 : v);
        }
        break;
    case TexelFormat::i8:
        for (std::uint64_t i = 0; i < n; ++i) grey(o + 4 * i, p[i], i_opaque ? 255 : p[i]);
        break;
    case TexelFormat::ci4:
    case TexelFormat::ci8:
        break;  // refused above
    }
    return out;
}

Bytes encode_rgba(TexelFormat format, ByteView rgba, std::uint32_t width, std::uint32_t height, std::uint8_t pad) {
    require_non_ci(format, "encode_rgba");
    const std::uint64_t n = texel_count(width, height);
    if (rgba.size() != n * 4)
        throw Error(ErrorKind::usage, "encode_rgba: " + std::to_string(rgba.size()) + " bytes is not a " +
                                          std::to_string(width) + "x" + std::to_string(height) + " RGBA8 image");
    Bytes out = blank_output(format, n, pad);
    std::uint8_t* o = out.data();
    const std::uint8_t* s = rgba.data();
    switch (format) {
    case TexelFormat::rgba16:
        for (std::uint64_t i = 0; i < n; ++i) endian::store_be16(o + 2 * i, rgba8_to_rgba5551(s + 4 * i));
        break;
    case TexelFormat::rgba32:
        std::memcpy(o, s, out.size());
        break;
    case TexelFormat::ia4:
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint8_t* c = s + 4 * i;
            put_nibble(o, i, (quantise3(intensity(c[0], c[1], c[2])) << 1) | (c[3] >= alpha_threshold ? 1u : 0u));
        }
        break;
    case TexelFormat::ia8:
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint8_t* c = s + 4 * i;
            o[i] = static_cast<std::uint8_t>((quantise4(intensity(c[0], c[1], c[2])) << 4) | quantise4(c[3]));
        }
        break;
    case TexelFormat::ia16:
        for (std::uint64_t i = 0; i < n; ++i) endian::store_be16(o + 2 * i, rgba8_to_ia16(s + 4 * i));
        break;
    case TexelFormat::i4:
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint8_t* c = s + 4 * i;
            put_nibble(o, i, quantise4(intensity(c[0], c[1], c[2])));
        }
        break;
    case TexelFormat::i8:
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint8_t* c = s + 4 * i;
            o[i] = intensity(c[0], c[1], c[2]);
        }
        break;
    case TexelFormat::ci4:
    case TexelFormat::ci8:
        break;
    }
    return out;
}

Bytes decode_indices(TexelFormat format, const ByteReader& texels, std::uint32_t width, std::uint32_t height) {
    require_ci(format, "decode_indices");
    ByteView data = texel_data(format, texels, width, height);
    const std::uint64_t n = std::uint64_t(width) * height;
    if (format == TexelFormat::ci8) return Bytes(data.begin(), data.end());
    Bytes out(static_cast<std::size_t>(n));
    for (std::uint64_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(nibble(data.data(), i));
    return out;
}

Bytes encode_indices(TexelFormat format, ByteView indices, std::uint32_t width, std::uint32_t height,
                     std::uint8_t pad) {
    require_ci(format, "encode_indices");
    const std::uint64_t n = texel_count(width, height);
    if (indices.size() != n)
        throw Error(ErrorKind::usage, "encode_indices: " + std::to_string(indices.size()) + " indices for a " +
                                          std::to_string(width) + "x" + std::to_string(height) + " texture");
    if (format == TexelFormat::ci8) return Bytes(indices.begin(), indices.end());
    Bytes out = blank_output(format, n, pad);
    for (std::uint64_t i = 0; i < n; ++i) {
        if (indices[i] > 15)
            throw Error(ErrorKind::usage, "encode_indices: texel " + std::to_string(i) + " uses index " +
                                              std::to_string(indices[i]) + ", CI4 holds 0..15");
        put_nibble(out.data(), i, indices[i]);
    }
    return out;
}

std::uint8_t trailing_pad(TexelFormat format, ByteView texels, std::uint64_t texel_count) noexcept {
    if (bits_per_texel(format) != 4 || (texel_count & 1) == 0) return 0;
    std::uint64_t last = texel_count >> 1;
    return last < texels.size() ? static_cast<std::uint8_t>(texels[last] & 15) : 0;
}

}  // namespace mod::n64
