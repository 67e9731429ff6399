#include "libmod/totem/archive.hpp"

#include <algorithm>
#include <cctype>

namespace mod::totem {

const char* to_string(Platform p) noexcept {
    switch (p) {
    case Platform::gamecube: return "gamecube";
    case Platform::ps2: return "ps2";
    case Platform::pc: return "pc";
    }
    return "unknown";
}

Endian endian_of(Platform p) noexcept { return p == Platform::gamecube ? Endian::big : Endian::little; }

const char* data_extension(Platform p) noexcept {
    return p == Platform::gamecube ? ".DGC" : p == Platform::ps2 ? ".DPS" : ".DPC";
}

const char* names_extension(Platform p) noexcept {
    return p == Platform::gamecube ? ".NGC" : p == Platform::ps2 ? ".NPS" : ".NPC";
}

std::optional<Platform> platform_from_path(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    for (char& c : ext) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (ext == ".DGC" || ext == ".NGC") return Platform::gamecube;
    if (ext == ".DPS" || ext == ".NPS") return Platform::ps2;
    if (ext == ".DPC" || ext == ".NPC") return Platform::pc;
    return std::nullopt;
}

std::string Archive::legal_text() const {
    auto end = std::find(legal_notice.begin(), legal_notice.end(), std::uint8_t{0});
    return std::string(legal_notice.begin(), end);
}

std::uint64_t Archive::chunk_used(const Chunk& c) const {
    std::uint64_t used = chunk_header_size;
    for (auto i : c.records) used += records.at(i).total_size();
    return used;
}

namespace {

// How well one byte order explains the file: -1 impossible, higher is better.
int order_score(ByteView data, Endian e) {
    if (data.size() < header_size) return -1;
    ByteReader r(data, e);
    const std::uint32_t chunk = r.u32_at(legal_notice_size);
    const std::size_t body = data.size() - header_size;
    if (chunk == 0 || chunk > max_chunk_size) return -1;
    int score = 0;
    if (body == 0) return chunk % chunk_granularity == 0 ? 1 : 0;
    if (chunk > body) {
        // Only a lone short chunk could explain it; accept weakly.
    } else {
        if (body % chunk == 0) score += 2;
    }
    if (chunk % chunk_granularity == 0) score += 2;
    // The first chunk's records must chain inside it.
    const std::size_t first = std::min<std::size_t>(chunk, body);
    ByteReader c(data.subspan(header_size, first), e);
    if (!c.has(4)) return -1;
    const std::uint32_t count = c.u32();
    if (std::uint64_t(count) * record_header_size > c.remaining()) return -1;
    for (std::uint32_t i = 0; i < count; ++i) {
        if (!c.has(4)) return -1;
        const std::uint32_t size = c.u32();
        if (size < record_header_size || size - 4 > c.remaining()) return -1;
        c.skip(size - 4);
    }
    return score + 1;
}

}  // namespace

ByteOrderDetection detect_byte_order(ByteView data, std::optional<Platform> hint) {
    if (data.size() < header_size)
        throw Error(ErrorKind::format, "truncated: the 0x800-byte archive header needs " +
                                           std::to_string(header_size) + " bytes, the file has " +
                                           std::to_string(data.size()),
                    {}, data.size(), "dgc.header");
    const int big = order_score(data, Endian::big), little = order_score(data, Endian::little);
    ByteOrderDetection d;
    const std::string hint_text = hint ? std::string("; the extension says ") + to_string(*hint) : "";
    if (big < 0 && little < 0) {
        // Corrupt either way: pick the order the extension names, else the one whose chunk
        // size alone is plausible, so that decoding reports the precise broken record.
        auto plausible = [&](Endian e) {
            const std::uint32_t c = ByteReader(data, e).u32_at(legal_notice_size);
            return c != 0 && c % chunk_granularity == 0 && c <= data.size() - header_size && c <= max_chunk_size;
        };
        const bool pb = plausible(Endian::big), pl = plausible(Endian::little);
        if (!hint && pb == pl)
            throw Error(ErrorKind::format, "the chunk size word gives no valid chunk layout in either byte order", {},
                        legal_notice_size, "dgc.header.chunk_size");
        d.endian = hint ? endian_of(*hint) : (pb ? Endian::big : Endian::little);
        d.reason = std::string("no byte order gives a valid first chunk; decoding as ") + to_string(d.endian) +
                   "-endian" + (hint ? hint_text : std::string("; only its chunk size is plausible"));
        return d;
    }
    if (big != little) {
        d.endian = big > little ? Endian::big : Endian::little;
        d.reason = std::string("chunk size and first chunk fit ") + to_string(d.endian) + "-endian " +
                   (big >= 0 && little >= 0 ? "best" : "only") + hint_text;
        if (hint && endian_of(*hint) != d.endian)
            d.reason += "; the extension disagrees, the content wins";
        return d;
    }
    if (!hint)
        throw Error(ErrorKind::usage,
                    "both byte orders give a valid layout; name the platform (--platform gamecube|ps2|pc)",
                    {}, legal_notice_size, "dgc.header.chunk_size");
    d.endian = endian_of(*hint);
    d.reason = "both byte orders fit; the extension decides" + hint_text;
    return d;
}

Archive decode_archive(const ByteReader& in) {
    ByteReader r = in.with_path(in.path().empty() ? "dgc" : in.path());
    Archive a;
    a.endian = r.endian();
    r.require_at(0, header_size);
    auto legal = r.bytes_at(0, legal_notice_size);
    a.legal_notice.assign(legal.begin(), legal.end());
    a.chunk_size = r.u32_at(legal_notice_size);
    auto pad = r.bytes_at(legal_notice_size + 4, header_padding_size);
    a.header_padding.assign(pad.begin(), pad.end());
    if (a.chunk_size < chunk_header_size)
        r.fail_at_path(legal_notice_size, ".header.chunk_size",
                       "chunk size " + std::to_string(a.chunk_size) + " cannot hold a chunk header");
    if (a.chunk_size > max_chunk_size)
        r.fail_at_path(legal_notice_size, ".header.chunk_size",
                       "chunk size " + hex(a.chunk_size) + " is larger than the limit of " + hex(max_chunk_size) +
                           " (16 MiB; doc/formats/totem-archive.md, Limits): refused before allocating",
                       ErrorKind::limit);
    std::size_t pos = header_size;
    for (std::size_t ci = 0; pos < r.size(); ++ci) {
        const std::size_t len = std::min<std::size_t>(a.chunk_size, r.size() - pos);
        ByteReader c = r.sub(pos, len, index_path(".chunk", ci));
        if (!c.has(4)) c.fail_at(0, "truncated: a " + std::to_string(len) + "-byte last chunk cannot hold its record count");
        const std::uint32_t count = c.u32();
        if (std::uint64_t(count) * record_header_size > c.remaining())
            c.fail_at(0, "record count " + std::to_string(count) + " needs at least " +
                             std::to_string(std::uint64_t(count) * record_header_size) +
                             " bytes, the chunk has " + std::to_string(c.remaining()) + " left");
        Chunk chunk;
        for (std::uint32_t j = 0; j < count; ++j) {
            const std::size_t at = c.tell();
            std::string path = index_path(".record", j);
            if (!c.has(record_header_size))
                c.fail_at_path(at, path, "truncated record header: need 16 bytes, " +
                                             std::to_string(c.remaining()) + " left in the chunk");
            const std::uint32_t size = c.u32();
            if (size < record_header_size)
                c.fail_at_path(at, path, "record size " + std::to_string(size) +
                                             " is smaller than its 16-byte header");
            if (size - 4 > c.remaining())
                c.fail_at_path(at, path, "record size " + std::to_string(size) + " crosses the chunk end (" +
                                             std::to_string(c.remaining() + 4) + " bytes left)");
            Record rec;
            rec.type_id = c.i32();
            rec.name_id = c.i32();
            rec.subtype_id = c.i32();
            auto payload = c.bytes(size - record_header_size);
            rec.payload.assign(payload.begin(), payload.end());
            rec.offset = c.absolute(at);
            chunk.records.push_back(a.records.size());
            a.records.push_back(std::move(rec));
        }
        auto rest = c.bytes(c.remaining());
        chunk.padding.assign(rest.begin(), rest.end());
        a.chunks.push_back(std::move(chunk));
        pos += len;
    }
    return a;
}

Bytes encode_archive(const Archive& a) {
    if (a.legal_notice.size() != legal_notice_size)
        throw Error(ErrorKind::usage, "legal notice must be exactly 0x100 bytes");
    if (a.header_padding.size() != header_padding_size)
        throw Error(ErrorKind::usage, "header padding must be exactly 0x6FC bytes");
    ByteWriter w(a.endian);
    w.bytes(a.legal_notice);
    w.u32(a.chunk_size);
    w.bytes(a.header_padding);
    for (std::size_t ci = 0; ci < a.chunks.size(); ++ci) {
        const Chunk& c = a.chunks[ci];
        const std::uint64_t used = a.chunk_used(c);
        const std::string where = "dgc.chunk[" + std::to_string(ci) + "]";
        if (used > a.chunk_size)
            throw Error(ErrorKind::limit, "records take " + std::to_string(used) + " bytes, more than the chunk size " +
                                              std::to_string(a.chunk_size), {}, no_offset, where);
        const bool last = ci + 1 == a.chunks.size();
        if (used + c.padding.size() != a.chunk_size && !(last && used + c.padding.size() < a.chunk_size))
            throw Error(ErrorKind::usage, "padding of " + std::to_string(c.padding.size()) +
                                              " bytes does not complete the chunk", {}, no_offset, where);
        w.u32(static_cast<std::uint32_t>(c.records.size()));
        for (auto i : c.records) {
            const Record& rec = a.records.at(i);
            if (rec.total_size() > 0xFFFFFFFFu)
                throw Error(ErrorKind::limit, "record larger than 4 GiB", {}, no_offset, where);
            w.u32(static_cast<std::uint32_t>(rec.total_size()));
            w.i32(rec.type_id);
            w.i32(rec.name_id);
            w.i32(rec.subtype_id);
            w.bytes(rec.payload);
        }
        w.bytes(c.padding);
    }
    return w.take();
}

std::vector<std::string> archive_notes(const Archive& a) {
    std::vector<std::string> notes;
    if (a.chunk_size % chunk_granularity != 0)
        notes.push_back("chunk size " + hex(a.chunk_size) + " is not a multiple of 0x800 (every known file's is)");
    if (std::any_of(a.header_padding.begin(), a.header_padding.end(), [](std::uint8_t b) { return b != 0; }))
        notes.push_back("header padding 0x104-0x7FF holds non-zero bytes (kept verbatim)");
    for (std::size_t ci = 0; ci < a.chunks.size(); ++ci) {
        const Chunk& c = a.chunks[ci];
        if (std::any_of(c.padding.begin(), c.padding.end(), [](std::uint8_t b) { return b != 0; }))
            notes.push_back("chunk " + std::to_string(ci) + " padding holds non-zero bytes (kept verbatim)");
        if (ci + 1 == a.chunks.size() && a.chunk_used(c) + c.padding.size() < a.chunk_size)
            notes.push_back("last chunk is " + std::to_string(a.chunk_used(c) + c.padding.size()) +
                            " bytes, short of the chunk size (kept short)");
    }
    return notes;
}

std::optional<std::size_t> find_record(const Archive& a, std::int32_t name_id) {
    for (std::size_t i = 0; i < a.records.size(); ++i)
        if (a.records[i].name_id == name_id) return i;
    return std::nullopt;
}

std::optional<std::size_t> find_record_by_text(const Archive& a, const NameTable& names, std::string_view text) {
    if (text.size() > 1 && text[0] == '#') {
        const auto index = parse_id(text.substr(1));
        if (!index || *index < 0 || std::size_t(*index) >= a.records.size()) return std::nullopt;
        return std::size_t(*index);
    }
    return find_record(a, id_from_text(names, text));
}

}  // namespace mod::totem
