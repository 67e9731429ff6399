// CIC identification and the IPL3 boot checksum (doc/formats/rom.md §3–4). The algorithm is
// described on n64brew (PIF-NUS, "IPL3 checksum algorithm") and in n64crc.c; this is our own
// implementation of that description.
#include "libmod/n64/rom.hpp"

#include "libmod/core/endian.hpp"

namespace mod::n64 {

namespace {

struct CicFacts {
    Cic cic;
    std::uint32_t ipl3_crc32;  // CRC-32 of z64 bytes 0x40..0xFFF
    std::uint32_t seed;        // initial value of the six accumulators
};

// One table for every per-CIC constant (sources in doc/formats/rom.md §3).
constexpr CicFacts cic_table[] = {
    {Cic::cic6101, 0x6170A4A1u, 0xF8CA4DDCu},
    {Cic::cic6102, 0x90BB6CB5u, 0xF8CA4DDCu},
    {Cic::cic6103, 0x0B050EE0u, 0xA3886759u},
    {Cic::cic6105, 0x98BC2C86u, 0xDF26F436u},
    {Cic::cic6106, 0xACC8580Au, 0x1FEA617Au},
};

const CicFacts* facts_of(Cic cic) noexcept {
    for (const auto& f : cic_table)
        if (f.cic == cic) return &f;
    return nullptr;
}

void require_boot_area(ByteView z64, const char* what) {
    if (z64.size() < boot_area_size)
        throw Error(ErrorKind::format,
                    std::string(what) + " needs the " + hex(boot_area_size) + "-byte boot area, the image has " +
                        std::to_string(z64.size()) + " bytes",
                    {}, 0);
}

// Big-endian word at `pos`; bytes past the end of the image read as zero (see
// compute_checksums).
std::uint32_t word_or_zero(ByteView z64, std::size_t pos) noexcept {
    if (pos + 4 <= z64.size()) return endian::load_be32(z64.data() + pos);
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 4; ++k) v = (v << 8) | (pos + k < z64.size() ? z64[pos + k] : 0u);
    return v;
}

inline std::uint32_t rotl(std::uint32_t v, std::uint32_t s) noexcept {
    s &= 31;
    return s == 0 ? v : (v << s) | (v >> (32 - s));
}

}  // namespace

const char* to_string(Cic cic) noexcept {
    switch (cic) {
        case Cic::cic6101: return "6101";
        case Cic::cic6102: return "6102";
        case Cic::cic6103: return "6103";
        case Cic::cic6105: return "6105";
        case Cic::cic6106: return "6106";
        case Cic::unknown: break;
    }
    return "unknown";
}

std::uint32_t ipl3_crc32(Cic cic) noexcept {
    const CicFacts* f = facts_of(cic);
    return f ? f->ipl3_crc32 : 0;
}

std::uint32_t checksum_seed(Cic cic) noexcept {
    const CicFacts* f = facts_of(cic);
    return f ? f->seed : 0;
}

Cic detect_cic(ByteView z64) {
    require_boot_area(z64, "CIC detection");
    const std::uint32_t crc = crc32(z64.subspan(boot_code_offset, boot_area_size - boot_code_offset));
    for (const auto& f : cic_table)
        if (f.ipl3_crc32 == crc) return f.cic;
    return Cic::unknown;
}

Checksums compute_checksums(ByteView z64, Cic cic) {
    require_boot_area(z64, "the boot checksum");
    const CicFacts* f = facts_of(cic);
    if (!f)
        throw Error(ErrorKind::limit,
                    "the boot checksum needs a known CIC; the IPL3 CRC-32 " +
                        hex(crc32(z64.subspan(boot_code_offset, boot_area_size - boot_code_offset)), 8) +
                        " matches none of 6101/6102/6103/6105/6106");
    std::uint32_t t1 = f->seed, t2 = f->seed, t3 = f->seed, t4 = f->seed, t5 = f->seed, t6 = f->seed;
    for (std::size_t pos = checksum_start; pos < checksum_end; pos += 4) {
        const std::uint32_t d = word_or_zero(z64, pos);
        const std::uint32_t sum = t6 + d;
        if (sum < t6) ++t4;  // carry out of the running sum
        t6 = sum;
        t3 ^= d;
        const std::uint32_t r = rotl(d, d);
        t5 += r;
        t2 ^= (t2 > d) ? r : (t6 ^ d);
        if (cic == Cic::cic6105) {
            // The 6105 IPL3 mixes in a word of its own boot code: offset 0x710 from the IPL3
            // start plus the low byte of the word's ROM address.
            const std::size_t boot_pos = boot_code_offset + 0x710 + (pos & 0xFF);
            t1 += endian::load_be32(z64.data() + boot_pos) ^ d;
        } else {
            t1 += t5 ^ d;
        }
    }
    Checksums c;
    switch (cic) {
        case Cic::cic6103:
            c.crc1 = (t6 ^ t4) + t3;
            c.crc2 = (t5 ^ t2) + t1;
            break;
        case Cic::cic6106:
            c.crc1 = (t6 * t4) + t3;
            c.crc2 = (t5 * t2) + t1;
            break;
        default:
            c.crc1 = t6 ^ t4 ^ t3;
            c.crc2 = t5 ^ t2 ^ t1;
            break;
    }
    return c;
}

Checksums fix_checksums(Bytes& z64) {
    const Checksums c = compute_checksums(z64, detect_cic(z64));
    endian::store_be32(z64.data() + crc1_offset, c.crc1);
    endian::store_be32(z64.data() + crc2_offset, c.crc2);
    return c;
}

namespace {

// The reflected CRC-32 table (poly 0xEDB88320) and the inverse of its top byte, for running
// the CRC register backwards in forge_ipl3_crc32.
struct CrcBackTables {
    std::uint32_t forward[256];
    std::uint8_t by_top_byte[256];
    CrcBackTables() {
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
            forward[i] = c;
            by_top_byte[c >> 24] = static_cast<std::uint8_t>(i);  // the top bytes are a permutation
        }
    }
    // The register before a step that consumed `byte` and left `after`.
    std::uint32_t step_back(std::uint32_t after, std::uint8_t byte) const noexcept {
        const std::uint8_t index = by_top_byte[after >> 24];
        return ((after ^ forward[index]) << 8) | std::uint32_t(index ^ byte);
    }
};

}  // namespace

void forge_ipl3_crc32(Bytes& z64, std::size_t at, std::uint32_t target) {
    if (z64.size() < boot_area_size || at < boot_code_offset || at > boot_area_size - 4)
        throw Error(ErrorKind::usage, "forge_ipl3_crc32: offset " + hex(at) + " is not inside the IPL3 (0x40..0xFFF) of a " +
                                          std::to_string(z64.size()) + "-byte image");
    static const CrcBackTables tables;
    const ByteView image(z64);
    // Register (not inverted) after the bytes before `at`, and the register needed after the
    // 4 free bytes so that the bytes after them lead to `target`.
    const std::uint32_t before = ~crc32(image.subspan(boot_code_offset, at - boot_code_offset));
    std::uint32_t needed = ~target;
    for (std::size_t pos = boot_area_size; pos-- > at + 4;) needed = tables.step_back(needed, z64[pos]);
    // Four steps consume the 4 free bytes; with zero bytes they are a bijection of the
    // register, and XORing the bytes (little-endian) into the register commutes with them.
    std::uint32_t through_zeros = needed;
    for (int k = 0; k < 4; ++k) through_zeros = tables.step_back(through_zeros, 0);
    const std::uint32_t free_bytes = through_zeros ^ before;
    for (std::size_t k = 0; k < 4; ++k) z64[at + k] = static_cast<std::uint8_t>(free_bytes >> (8 * k));
}

}  // namespace mod::n64
