// N64 header fields and the `rom info` report (doc/formats/rom.md §1, §5).
#include "libmod/n64/rom.hpp"

#include "libmod/core/endian.hpp"

namespace mod::n64 {

namespace {

// Revisions we can name from the MD5 of the normalised (z64) image. Source: the
// pret/pokestadium README and baseroms/us/checksum.md5 (doc/formats/rom.md §5).
struct KnownRevision {
    const char* md5;
    const char* name;
};
constexpr KnownRevision known_revisions[] = {
    {stadium_us_10_md5, "Pokémon Stadium (USA) 1.0"},
};

std::string trimmed(ByteView field) {
    std::size_t n = field.size();
    while (n > 0 && (field[n - 1] == ' ' || field[n - 1] == 0)) --n;
    return std::string(field.begin(), field.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace

std::string known_revision(std::string_view md5_hex) {
    for (const auto& k : known_revisions)
        if (md5_hex == k.md5) return k.name;
    return {};
}

Header read_header(ByteView z64) {
    ByteReader r(z64, Endian::big, {}, "header");
    r.require_at(0, rom_header_size);
    Header h;
    h.pi_config = r.u32_at(0x00);
    h.clock_rate = r.u32_at(0x04);
    h.entry_point = r.u32_at(0x08);
    h.release = r.u32_at(0x0C);
    h.stored.crc1 = r.u32_at(crc1_offset);
    h.stored.crc2 = r.u32_at(crc2_offset);
    h.title = trimmed(r.bytes_at(0x20, 20));
    const ByteView code = r.bytes_at(0x3B, 4);
    h.game_code.assign(code.begin(), code.end());
    h.version = r.u8_at(0x3F);
    return h;
}

RomInfo inspect(const ByteReader& image) {
    RomInfo info;
    info.order = detect_order(image);
    info.size = image.size();
    const Bytes z64 = to_z64(image.data(), info.order);
    info.header = read_header(z64);
    info.ipl3_crc32 = crc32(ByteView(z64).subspan(boot_code_offset, boot_area_size - boot_code_offset));
    info.cic = detect_cic(z64);
    if (info.cic != Cic::unknown) info.computed = compute_checksums(z64, info.cic);
    info.checksum_zero_padded = z64.size() < checksum_end;
    info.md5 = md5(z64);
    info.sha1 = sha1(z64);
    info.known_revision = known_revision(to_hex(info.md5));
    return info;
}

}  // namespace mod::n64
