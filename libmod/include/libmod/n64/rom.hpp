#pragma once
// N64 cartridge images: byte orders, the 0x40-byte header, CIC detection and the boot
// checksum (CRC1/CRC2). Spec: doc/formats/rom.md.
//
// Everything works on the normalised (z64, big-endian) image; to_order() converts back to
// the order a file came in, so output keeps the input's order unless told otherwise.

#include "libmod/core/bytes.hpp"
#include "libmod/core/hash.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace mod::n64 {

enum class ByteOrder { z64, v64, n64 };  // big-endian; 16-bit swapped; 32-bit little-endian

const char* to_string(ByteOrder order) noexcept;

// Detects the order from the first word (80371240 / 37804012 / 40123780); format error when
// it is none of them or the image is shorter than the 0x1000-byte boot area or not a
// multiple of 4 bytes.
ByteOrder detect_order(const ByteReader& image);

// Converts between orders (the three transforms are their own inverses).
Bytes to_z64(ByteView image, ByteOrder from);
Bytes from_z64(ByteView z64, ByteOrder to);

enum class Cic { unknown, cic6101, cic6102, cic6103, cic6105, cic6106 };

const char* to_string(Cic cic) noexcept;  // "6102", … , "unknown"

// Identifies the CIC from the CRC-32 of the IPL3 (z64 bytes 0x40..0xFFF).
Cic detect_cic(ByteView z64);

struct Checksums {
    std::uint32_t crc1 = 0;
    std::uint32_t crc2 = 0;
};

// The boot checksum over z64 bytes 0x1000..0x100FFF for the given CIC (format error when the
// image is shorter than 0x101000 bytes; limit error for Cic::unknown).
Checksums compute_checksums(ByteView z64, Cic cic);

struct Header {
    std::uint32_t pi_config = 0;     // 0x00
    std::uint32_t clock_rate = 0;    // 0x04
    std::uint32_t entry_point = 0;   // 0x08
    std::uint32_t release = 0;       // 0x0C
    Checksums stored;                // 0x10, 0x14
    std::string title;               // 0x20, 20 bytes, trailing spaces/NULs trimmed
    std::string game_code;           // 0x3B..0x3E, e.g. "NPOE"
    std::uint8_t version = 0;        // 0x3F
};

Header read_header(ByteView z64);

// Everything `modkit rom info` reports.
struct RomInfo {
    ByteOrder order = ByteOrder::z64;
    Header header;
    Cic cic = Cic::unknown;
    std::uint32_t ipl3_crc32 = 0;
    std::optional<Checksums> computed;  // absent when the CIC is unknown
    Md5Digest md5{};                    // of the normalised image
    Sha1Digest sha1{};
    std::string known_revision;         // e.g. "Pokémon Stadium (USA) 1.0", empty when unknown
};

RomInfo inspect(const ByteReader& image);

// Writes CRC1/CRC2 computed for the detected CIC into a z64 image (0x10..0x17 only; the boot
// code 0x40..0xFFF is never touched). Returns the new checksums; limit error for an unknown CIC.
Checksums fix_checksums(Bytes& z64);

inline constexpr char stadium_us_10_md5[] = "ed1378bc12115f71209a77844965ba50";

}  // namespace mod::n64
