// Yay0 decoding: strict, bounded, and fast (literal runs and matches are copied in blocks).
#include "libmod/codec/yay0.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace mod::yay0 {

bool has_magic(ByteView data) noexcept {
    return data.size() >= 4 && data[0] == 'Y' && data[1] == 'a' && data[2] == 'y' && data[3] == '0';
}

Header read_header(const ByteReader& stream, const DecodeOptions& options) {
    stream.require_at(0, header_size);
    if (!has_magic(stream.data()))
        stream.fail_at(0, "bad magic: expected \"Yay0\"");
    ByteReader r = stream.with_endian(Endian::big);
    Header h;
    h.decompressed_size = r.u32_at(4);
    h.link_offset = r.u32_at(8);
    h.chunk_offset = r.u32_at(12);
    if (h.decompressed_size > options.max_decoded)
        r.fail_at(4, "declared decompressed size " + std::to_string(h.decompressed_size) +
                         " exceeds the limit of " + std::to_string(options.max_decoded),
                  ErrorKind::limit);
    if (h.link_offset < header_size || h.link_offset > r.size())
        r.fail_at(8, "link-table offset " + hex(h.link_offset) + " outside the " +
                         std::to_string(r.size()) + "-byte stream");
    if (h.link_offset % 2 != 0)
        r.fail_at(8, "link-table offset " + hex(h.link_offset) + " is odd (halfword reads)");
    if (h.chunk_offset < h.link_offset || h.chunk_offset > r.size())
        r.fail_at(12, "chunk offset " + hex(h.chunk_offset) + " outside [" + hex(h.link_offset) +
                          ", " + hex(r.size()) + "]");
    // What the stream can produce at most, before anything is allocated: every chunk byte a
    // literal and every link halfword a longest match (0x111 bytes), within the mask bits. A
    // declaration beyond it is refused here when it is large (above 1 MiB: a truncated stream
    // declaring 4 GiB under --max-size 4294967295 allocated 4 GiB first); a small one is left to
    // the decoder, whose error names the token that runs out.
    const std::uint64_t literals = r.size() - h.chunk_offset, matches = (h.chunk_offset - h.link_offset) / 2;
    const std::uint64_t tokens = std::uint64_t(h.link_offset - header_size) * 8;
    const std::uint64_t most = std::min(literals + matches * 0x111, tokens * 0x111);
    if (h.decompressed_size > most && h.decompressed_size > (1u << 20))
        r.fail_at(4, "declared decompressed size " + std::to_string(h.decompressed_size) + " cannot come from this " +
                         std::to_string(r.size()) + "-byte stream (at most " + std::to_string(most) +
                         " bytes: truncated or not Yay0)");
    return h;
}

namespace {

// Copies `len` bytes from `dist` bytes back; the regions overlap when dist < len, which
// repeats the last `dist` bytes (the LZ77 run idiom). `room` is how many bytes may be written
// from `out` (the rest of the output buffer): when the copy may round up to whole 16- or
// 8-byte blocks it does, writing a few bytes past `len` that later tokens overwrite.
inline void copy_match(std::uint8_t* out, std::size_t dist, std::size_t len, std::size_t room) {
    const std::uint8_t* src = out - dist;
    if (dist >= 16 && len + 16 <= room) {
        for (std::size_t i = 0; i < len; i += 16) std::memcpy(out + i, src + i, 16);
    } else if (dist >= 8 && len + 8 <= room) {
        for (std::size_t i = 0; i < len; i += 8) std::memcpy(out + i, src + i, 8);
    } else if (dist >= len) {
        std::memcpy(out, src, len);
    } else if (dist == 1) {
        std::memset(out, *src, len);
    } else {
        for (std::size_t i = 0; i < len; ++i) out[i] = src[i];
    }
}

// Copies a run of `len` (<= 32) literal bytes, in one 32-byte block when both sides have room.
inline void copy_literals(std::uint8_t* out, const std::uint8_t* in, std::size_t len, std::size_t out_room,
                          std::size_t in_room) {
    if (out_room >= 32 && in_room >= 32)
        std::memcpy(out, in, 32);
    else
        std::memcpy(out, in, len);
}

}  // namespace

Bytes decode(const ByteReader& stream, const DecodeOptions& options, DecodeInfo* info) {
    const Header h = read_header(stream, options);
    const std::uint8_t* s = stream.data().data();
    const std::size_t mask_limit = h.link_offset;
    const std::size_t link_limit = h.chunk_offset;
    const std::size_t chunk_limit = stream.size();
    std::size_t mask_pos = header_size, link_pos = h.link_offset, chunk_pos = h.chunk_offset;

    auto fail = [&](std::size_t pos, const char* part, std::size_t index, const std::string& msg) {
        stream.fail_at_path(pos, std::string(".") + part + "[" + std::to_string(index) + "]", msg);
    };

    const std::size_t size = h.decompressed_size;
    Bytes out(size);
    std::uint8_t* o = out.data();
    std::size_t op = 0;
    std::uint32_t mask = 0;
    int bits = 0;
    while (op < size) {
        if (bits == 0) {
            if (mask_pos + 4 > mask_limit)
                fail(mask_pos, "mask", (mask_pos - header_size) / 4,
                     "mask stream runs into the link table at " + hex(h.link_offset) + " after " +
                         std::to_string(op) + " of " + std::to_string(size) + " bytes");
            mask = endian::load_be32(s + mask_pos);
            mask_pos += 4;
            bits = 32;
        }
        if (mask & 0x80000000u) {
            std::size_t run = std::min<std::size_t>(static_cast<std::size_t>(std::countl_one(mask)),
                                                    size - op);
            if (run > chunk_limit - chunk_pos)
                fail(chunk_pos, "chunk", chunk_pos - h.chunk_offset,
                     "chunk stream truncated: literal needs a byte past the end of the stream");
            copy_literals(o + op, s + chunk_pos, run, size - op, chunk_limit - chunk_pos);
            op += run;
            chunk_pos += run;
            mask = run >= 32 ? 0 : mask << run;
            bits -= static_cast<int>(run);
        } else {
            if (link_pos + 2 > link_limit)
                fail(link_pos, "link", (link_pos - h.link_offset) / 2,
                     "link table truncated: a match needs a halfword past " + hex(link_limit));
            const std::uint32_t link = endian::load_be16(s + link_pos);
            const std::size_t link_at = link_pos;
            link_pos += 2;
            const std::size_t dist = (link & 0xFFF) + 1;
            std::size_t len = link >> 12;
            if (len == 0) {
                if (chunk_pos >= chunk_limit)
                    fail(chunk_pos, "chunk", chunk_pos - h.chunk_offset,
                         "chunk stream truncated: a long match needs its length byte");
                len = static_cast<std::size_t>(s[chunk_pos++]) + 0x12;
            } else {
                len += 2;
            }
            if (dist > op)
                fail(link_at, "link", (link_at - h.link_offset) / 2,
                     "back-reference " + std::to_string(dist) + " bytes before output position " +
                         std::to_string(op) + " reaches before the start");
            if (len > size - op)
                fail(link_at, "link", (link_at - h.link_offset) / 2,
                     "match of " + std::to_string(len) + " bytes at output position " +
                         std::to_string(op) + " overruns the declared size " + std::to_string(size));
            copy_match(o + op, dist, len, size - op);
            op += len;
            mask <<= 1;
            --bits;
        }
    }
    if (info) {
        info->header = h;
        info->mask_end = mask_pos;
        info->link_end = link_pos;
        info->chunk_end = chunk_pos;
        info->stream_end = std::max({mask_pos, link_pos, chunk_pos});
    }
    return out;
}

Bytes decode(ByteView stream, const DecodeOptions& options, DecodeInfo* info) {
    return decode(ByteReader(stream, Endian::big, {}, "yay0"), options, info);
}

const char* to_string(Mode mode) noexcept { return mode == Mode::nintendo ? "nintendo" : "best"; }

Mode parse_mode(std::string_view name) {
    if (name == "nintendo") return Mode::nintendo;
    if (name == "best") return Mode::best;
    throw Error(ErrorKind::usage, "unknown Yay0 mode '" + std::string(name) + "' (nintendo or best)");
}

}  // namespace mod::yay0
