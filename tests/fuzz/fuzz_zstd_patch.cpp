// Fuzz target: zstd patches (MZPT). The input is a patch; it is inspected as is, then its
// header is re-sealed so that mutations reach the frame: the source identity is set to a
// zero-filled source of the declared size (at most 1 MiB; the seeds are made against such a
// file by make_seeds.sh) and the header CRC recomputed. Applying must succeed or throw
// mod::Error, never allocate more than the (lowered) target limit, and a result must have the
// declared size and CRC-32.
#include "libmod/codec/zstd_patch.hpp"
#include "libmod/core/endian.hpp"
#include "libmod/core/hash.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const mod::ByteView input(data, size);
    mod::zpatch::ApplyOptions options;
    options.max_target = 1u << 20;
    try {
        (void)mod::zpatch::inspect(mod::ByteReader(input, mod::Endian::little, "fuzz", "zpatch"));
    } catch (const mod::Error&) {
    }
    if (size < mod::zpatch::header_size) return 0;
    mod::Bytes sealed(input.begin(), input.end());
    const std::uint64_t source_size = mod::endian::load_le64(sealed.data() + 0x08);
    if (source_size > (1u << 20)) return 0;
    const mod::Bytes source(static_cast<std::size_t>(source_size), 0);
    mod::endian::store_le32(sealed.data() + 0x10, mod::crc32(source));
    const auto sha = mod::sha1(source);
    std::memcpy(sealed.data() + 0x14, sha.data(), sha.size());
    // The frame size field follows the bytes that are there, so truncations reach the frame too.
    mod::endian::store_le32(sealed.data() + 0x4C, static_cast<std::uint32_t>(std::min<std::size_t>(size - mod::zpatch::header_size, UINT32_MAX)));
    mod::endian::store_le32(sealed.data() + 0x54, mod::crc32(mod::ByteView(sealed).first(0x54)));
    try {
        mod::zpatch::Header h;
        const mod::Bytes out = mod::zpatch::apply(mod::ByteView(sealed), source, options, &h);
        if (out.size() != h.target_size || mod::crc32(out) != h.target_crc32) std::abort();
    } catch (const mod::Error&) {
    }
    return 0;
}
