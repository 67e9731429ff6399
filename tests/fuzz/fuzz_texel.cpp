// Fuzz target: N64 texel and TLUT decoders. The first 8 bytes choose the case:
//   0 format (index into all_texel_formats, mod 9)   1 width - 1   2 height - 1
//   3 TLUT entry count - 1   4 bit 0: IA16 TLUT, bit 1: intensity alpha   5 CI4 bank (mod 17)
//   6..7 unused; the rest is the texel data, then the TLUT.
// Decoding must succeed or throw mod::Error; what decodes must encode back to the texel bytes
// (the spec's decode -> encode identity, with the trailing pad nibble), TLUT entries must
// encode to their bytes, and a CI decode through a TLUT must agree with indices + colours.
#include "libmod/n64/texel.hpp"
#include "libmod/n64/tlut.hpp"

#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 8) return 0;
    using namespace mod::n64;
    const TexelFormat format = all_texel_formats[data[0] % all_texel_formats.size()];
    const std::uint32_t width = data[1] + 1u, height = data[2] + 1u;
    const unsigned tlut_count = data[3] + 1u;
    const TlutFormat tlut_format = (data[4] & 1) ? TlutFormat::ia16 : TlutFormat::rgba5551;
    DecodeOptions options;
    options.i_alpha = (data[4] & 2) ? IntensityAlpha::intensity : IntensityAlpha::opaque;
    const unsigned bank = data[5] % 17u;
    const mod::ByteView rest(data + 8, size - 8);
    const mod::ByteReader texels(rest, mod::Endian::big, "fuzz", "texels");
    const std::uint64_t count = std::uint64_t(width) * height;
    const std::size_t used = static_cast<std::size_t>(texel_bytes(format, count));
    try {
        if (!is_ci(format)) {
            const mod::Bytes rgba = decode_rgba(format, texels, width, height, options);
            if (rgba.size() != count * 4) std::abort();
            const mod::Bytes back = encode_rgba(format, rgba, width, height, trailing_pad(format, rest, count));
            if (back.size() != used || std::memcmp(back.data(), rest.data(), used) != 0) std::abort();
        } else {
            const mod::Bytes indices = decode_indices(format, texels, width, height);
            const mod::Bytes back = encode_indices(format, indices, width, height, trailing_pad(format, rest, count));
            if (back.size() != used || std::memcmp(back.data(), rest.data(), used) != 0) std::abort();
            mod::ByteReader tr(rest, mod::Endian::big, "fuzz", "tlut");
            tr.seek(used);
            const Tlut tlut = decode_tlut(tr, tlut_count, tlut_format);
            const mod::Bytes tb = encode_tlut(tlut);
            if (tb.size() != 2u * tlut_count || std::memcmp(tb.data(), rest.data() + used, tb.size()) != 0) std::abort();
            const mod::Bytes rgba = decode_ci_rgba(format, texels, width, height, tlut, bank);
            for (std::uint64_t i = 0; i < count; ++i) {
                const unsigned slot = tlut_slot(format, indices[i], bank);
                std::uint8_t want[4];
                tlut_colour(tlut.entries.at(slot), tlut.format, want);
                if (std::memcmp(want, rgba.data() + 4 * i, 4) != 0) std::abort();
            }
        }
    } catch (const mod::Error&) {
    }
    return 0;
}
