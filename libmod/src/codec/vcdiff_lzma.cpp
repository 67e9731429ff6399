// xdelta3's LZMA secondary compression of VCDIFF sections (doc/formats/vcdiff.md §3): an .xz
// stream without an integrity check, through liblzma.
#include "vcdiff_detail.hpp"

#include "libmod/core/error.hpp"

#include <lzma.h>

#include <algorithm>
#include <bit>
#include <utility>

namespace mod::vcdiff::detail {

namespace {

struct Stream {
    lzma_stream s = LZMA_STREAM_INIT;
    ~Stream() { lzma_end(&s); }
};

}  // namespace

namespace {

Bytes lzma_compress_with(ByteView data, std::uint32_t lc, std::uint32_t pb) {
    lzma_options_lzma options;
    if (lzma_lzma_preset(&options, 9 | LZMA_PRESET_EXTREME)) throw Error(ErrorKind::limit, "liblzma refused preset 9e");
    options.lc = lc;
    options.pb = pb;
    // The dictionary need not exceed the data: memory stays proportional to the section.
    const std::size_t wanted = std::max<std::size_t>(std::bit_ceil(std::max<std::size_t>(data.size(), 1)), 4096);
    options.dict_size = static_cast<std::uint32_t>(std::min<std::size_t>(options.dict_size, wanted));
    const lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
    Stream z;
    if (lzma_stream_encoder(&z.s, filters, LZMA_CHECK_NONE) != LZMA_OK)
        throw Error(ErrorKind::limit, "liblzma could not start an encoder (memory)");
    Bytes out(lzma_stream_buffer_bound(data.size()));
    z.s.next_in = data.data();
    z.s.avail_in = data.size();
    z.s.next_out = out.data();
    z.s.avail_out = out.size();
    const lzma_ret r = lzma_code(&z.s, LZMA_FINISH);
    if (r != LZMA_STREAM_END) throw Error(ErrorKind::limit, "liblzma failed to compress a VCDIFF section");
    out.resize(out.size() - z.s.avail_out);
    // xdelta3 writes the stream header and the block only: its decoder stops when the section's
    // declared size is out. The index and the 12-byte footer (whose Backward Size gives the
    // index's length) are dropped alike.
    if (out.size() >= 24) {
        const std::size_t footer = out.size() - 12;
        const std::uint32_t backward = std::uint32_t(out[footer + 4]) | std::uint32_t(out[footer + 5]) << 8 |
                                       std::uint32_t(out[footer + 6]) << 16 | std::uint32_t(out[footer + 7]) << 24;
        const std::size_t index = (std::size_t(backward) + 1) * 4;
        if (index + 12 + 12 <= out.size()) out.resize(out.size() - 12 - index);
    }
    return out;
}

}  // namespace

// Preset 9e with the literal context and position bits LZMA's defaults take (lc 3, pb 2), and,
// for sections up to 1 MiB (instructions and addresses mostly: bytes whose meaning does not
// follow 4-byte alignment or the previous byte's high bits), also lc 0 pb 0 and lc 3 pb 0; the
// smallest is kept (the first on a tie). The decoder reads the choice from the stream.
Bytes lzma_compress(ByteView data) {
    Bytes best = lzma_compress_with(data, 3, 2);
    if (data.size() <= (std::size_t(1) << 20))
        for (const auto [lc, pb] : {std::pair{0u, 0u}, std::pair{3u, 0u}}) {
            Bytes other = lzma_compress_with(data, lc, pb);
            if (other.size() < best.size()) best = std::move(other);
        }
    return best;
}

Bytes lzma_decompress(const ByteReader& section, std::size_t size) {
    Stream z;
    // 256 MiB covers a 64 MiB dictionary (preset 9) with room; larger ones are not xdelta3's.
    if (lzma_stream_decoder(&z.s, std::uint64_t(256) << 20, 0) != LZMA_OK)
        throw Error(ErrorKind::limit, "liblzma could not start a decoder (memory)");
    Bytes out(size);
    const ByteView in = section.data();
    z.s.next_in = in.data();
    z.s.avail_in = in.size();
    z.s.next_out = out.data();
    z.s.avail_out = out.size();
    lzma_ret r = lzma_code(&z.s, LZMA_FINISH);
    // The output can fill before the stream's index and footer are read: finish into a spare
    // byte, which must stay unused.
    std::uint8_t spare = 0;
    while (r == LZMA_OK && z.s.avail_out == 0 && z.s.next_out != &spare + 1) {
        z.s.next_out = &spare;
        z.s.avail_out = 1;
        r = lzma_code(&z.s, LZMA_FINISH);
    }
    const bool overflow = z.s.next_out == &spare + 1;
    // xdelta3's form: the stream stops after the block (no index or footer) once the declared
    // bytes are out.
    if (!overflow && z.s.next_out == &spare && z.s.avail_in == 0 && (r == LZMA_OK || r == LZMA_BUF_ERROR)) return out;
    const bool in_spare = z.s.next_out == &spare || overflow;
    const std::size_t produced = in_spare ? size : size - z.s.avail_out;
    const std::size_t at = in.size() - z.s.avail_in;
    if (r == LZMA_MEMLIMIT_ERROR)
        section.fail_at(at, "the LZMA stream needs a dictionary above 256 MiB", ErrorKind::limit);
    if (overflow)
        section.fail_at(at, "the LZMA stream holds more than the " + std::to_string(size) + " bytes it declares");
    if (r == LZMA_OK || r == LZMA_BUF_ERROR)
        section.fail_at(at, "the LZMA stream ends after " + std::to_string(produced) + " of its " +
                                std::to_string(size) + " bytes");
    if (r != LZMA_STREAM_END) section.fail_at(at, "damaged LZMA stream (liblzma error " + std::to_string(int(r)) + ")");
    if (produced != size)
        section.fail_at(at, "the LZMA stream gives " + std::to_string(produced) + " bytes, " +
                                std::to_string(size) + " declared");
    if (z.s.avail_in != 0) section.fail_at(at, std::to_string(z.s.avail_in) + " bytes after the LZMA stream");
    return out;
}

}  // namespace mod::vcdiff::detail
