#include "libmod/codec/szp.hpp"

#include <algorithm>
#include <cstring>

namespace mod::szp {

bool has_magic(ByteView data) noexcept {
    return data.size() >= 8 && std::memcmp(data.data(), magic, 8) == 0;
}

Header read_header(const ByteReader& blob_in, const yay0::DecodeOptions& options) {
    ByteReader blob = blob_in.with_endian(Endian::big);
    blob.require_at(0, packed_header_size);
    if (!has_magic(blob.data())) blob.fail_at(0, "bad magic: expected \"PERS-SZP\"");
    Header h;
    h.header_size = blob.u32_at(0x08);
    h.size1 = blob.u32_at(0x0C);
    h.size2 = blob.u32_at(0x10);
    const std::uint32_t count = blob.u32_at(0x14);
    if (h.size2 > options.max_decoded)
        blob.fail_at(0x10, "allocation size size2 = " + std::to_string(h.size2) +
                               " exceeds the limit of " + std::to_string(options.max_decoded),
                     ErrorKind::limit);
    if (h.size1 > h.size2)
        blob.fail_at(0x0C, "size1 " + hex(h.size1) + " is larger than size2 " + hex(h.size2) +
                               " (the game would zero-fill a negative range)");
    if (h.header_size % 4 != 0)
        blob.fail_at(0x08, "header size " + hex(h.header_size) +
                               " is not 4-byte aligned (the game's Yay0 decoder reads words)");
    const std::uint64_t table_end = packed_header_size + std::uint64_t(count) * 8;
    if (table_end > blob.size())
        blob.fail_at(0x14, "fix-up count " + std::to_string(count) + " needs " +
                               std::to_string(table_end) + " bytes, the blob has " +
                               std::to_string(blob.size()));
    if (h.header_size < table_end || h.header_size > blob.size())
        blob.fail_at(0x08, "header size " + hex(h.header_size) + " outside [" + hex(table_end) +
                               ", " + hex(blob.size()) + "]");
    h.fixups.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        h.fixups[i].value = blob.u32_at(packed_header_size + 8 * i);
        h.fixups[i].offset = blob.u32_at(packed_header_size + 8 * i + 4);
    }
    return h;
}

Unpacked unpack(const ByteReader& blob_in, const yay0::DecodeOptions& options) {
    ByteReader blob = blob_in.with_endian(Endian::big);
    Unpacked u;
    u.header = szp::read_header(blob, options);
    const Header& h = u.header;
    ByteReader stream = blob.sub(h.header_size, blob.size() - h.header_size, ".yay0");
    auto head = yay0::read_header(stream, options);
    if (head.decompressed_size > h.size2)
        stream.fail_at(4, "Yay0 decompressed size " + hex(head.decompressed_size) +
                              " exceeds the allocation size2 " + hex(h.size2) +
                              " (the game would write past its buffer)");
    Bytes decoded = yay0::decode(stream, options, &u.yay0);
    u.data.assign(h.size2, 0);
    std::copy(decoded.begin(), decoded.end(), u.data.begin());
    if (decoded.size() < h.size1) u.uninitialised_bytes = h.size1 - static_cast<std::uint32_t>(decoded.size());
    for (std::size_t i = 0; i < h.fixups.size(); ++i) {
        const Fixup& f = h.fixups[i];
        if (f.offset > h.size2 || h.size2 - f.offset < 4)
            blob.fail_at_path(packed_header_size + 8 * i + 4, index_path(".fixup", i),
                              "fix-up offset " + hex(f.offset) + " outside the " + hex(h.size2) +
                                  "-byte buffer");
        endian::store_be32(&u.data[f.offset], f.value);
    }
    std::fill(u.data.begin() + h.size1, u.data.end(), std::uint8_t{0});
    return u;
}

Bytes pack(ByteView content, yay0::Mode mode) {
    if (content.size() > 0xFFFFFFFFu)
        throw Error(ErrorKind::limit, "PERS-SZP content larger than 4 GiB");
    const auto size = static_cast<std::uint32_t>(content.size());
    ByteWriter w(Endian::big);
    w.bytes(ByteView(reinterpret_cast<const std::uint8_t*>(magic), 8));
    w.u32(packed_header_size);
    w.u32(size);
    w.u32(size);
    w.u32(0);
    w.bytes(yay0::encode(content, mode));
    return w.take();
}

Bytes repack(ByteView original, ByteView content, yay0::Mode mode, bool* reused) {
    Unpacked before = unpack(ByteReader(original, Endian::big, {}, "szp"));
    bool same = before.data.size() == content.size() &&
                std::equal(before.data.begin(), before.data.end(), content.begin());
    if (reused) *reused = same;
    if (same) return Bytes(original.begin(), original.end());
    return pack(content, mode);
}

}  // namespace mod::szp
