// Fuzz target: N64 cartridge images (byte order, header, CIC, boot checksum). inspect()
// must succeed or throw mod::Error; an image that inspects must convert to z64 and back to
// its own bytes, and its header must read. Inputs are capped at the checksum's 1 MiB range
// plus the boot area (a larger image only makes runs slow).
#include "libmod/n64/rom.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > mod::n64::checksum_end + 4096) return 0;
    const mod::ByteView input(data, size);
    try {
        const auto info = mod::n64::inspect(mod::ByteReader(input, mod::Endian::big, "fuzz", "rom"));
        const mod::Bytes z64 = mod::n64::to_z64(input, info.order);
        if (mod::n64::from_z64(z64, info.order) != mod::Bytes(input.begin(), input.end())) std::abort();
        const auto h = mod::n64::read_header(z64);
        if (h.stored != info.header.stored || h.title != info.header.title) std::abort();
        if (mod::n64::detect_cic(z64) != info.cic) std::abort();
        if (info.cic != mod::n64::Cic::unknown && info.computed != mod::n64::compute_checksums(z64, info.cic))
            std::abort();
    } catch (const mod::Error&) {
    }
    try {
        (void)mod::n64::read_header(input);
    } catch (const mod::Error&) {
    }
    return 0;
}
