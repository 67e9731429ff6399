#pragma once
// N64 cartridge images: byte orders, the 0x40-byte header, CIC detection and the boot
// checksum (CRC1/CRC2). Spec: doc/formats/rom.md.
//
// Everything works on the normalised (z64, big-endian) image; from_z64() converts back to
// the order a file came in, so output keeps the input's order unless told otherwise.
// Nothing here ever writes to the boot code (0x40..0xFFF).

#include "libmod/core/bytes.hpp"
#include "libmod/core/hash.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mod::n64 {

inline constexpr std::size_t rom_header_size = 0x40;
inline constexpr std::size_t boot_code_offset = 0x40;     // IPL3 starts here
inline constexpr std::size_t boot_area_size = 0x1000;     // header + IPL3
inline constexpr std::size_t checksum_start = 0x1000;     // first byte covered by CRC1/CRC2
inline constexpr std::size_t checksum_length = 0x100000;  // 1 MiB
inline constexpr std::size_t checksum_end = checksum_start + checksum_length;
inline constexpr std::size_t crc1_offset = 0x10;
inline constexpr std::size_t crc2_offset = 0x14;

enum class ByteOrder { z64, v64, n64 };  // big-endian; 16-bit swapped; 32-bit little-endian

const char* to_string(ByteOrder order) noexcept;  // "z64" / "v64" / "n64"
// "z64" / "v64" / "n64"; usage error otherwise.
ByteOrder parse_byte_order(std::string_view name);

// Detects the order from the first word (80371240 / 37804012 / 40123780); format error (at
// the image's offset 0, naming image.file()) when it is none of them, or the image is shorter
// than the 0x1000-byte boot area, or not a multiple of 4 bytes.
ByteOrder detect_order(const ByteReader& image);

// Converts between orders (the three transforms are their own inverses). Format error when
// the size is not a multiple of the order's unit (2 bytes for v64, 4 for n64).
Bytes to_z64(ByteView image, ByteOrder from);
Bytes from_z64(ByteView z64, ByteOrder to);

enum class Cic { unknown, cic6101, cic6102, cic6103, cic6105, cic6106 };

const char* to_string(Cic cic) noexcept;  // "6101", "6102", … , "unknown"

// The CRC-32 of the IPL3 (z64 bytes 0x40..0xFFF) that identifies each CIC (0 for unknown).
std::uint32_t ipl3_crc32(Cic cic) noexcept;
// The seed the IPL3 starts its checksum accumulators with (0 for unknown; 6101 shares 6102's).
std::uint32_t checksum_seed(Cic cic) noexcept;

// For synthetic images only (the sample ROM, tests): rewrites the 4 bytes z64[at..at+4),
// which must lie inside the IPL3 (0x40 <= at, at + 4 <= 0x1000), so that the CRC-32 of
// 0x40..0xFFF becomes `target` (e.g. ipl3_crc32(Cic::cic6103)); every other byte is kept.
// Usage error when `at` is outside the IPL3 or the image is shorter than the boot area. This
// changes boot code, so it must never be applied to a real cartridge image.
void forge_ipl3_crc32(Bytes& z64, std::size_t at, std::uint32_t target);

// Identifies the CIC from the CRC-32 of the IPL3 (z64 bytes 0x40..0xFFF); Cic::unknown when
// the CRC matches none of the five known boot codes. Format error when shorter than 0x1000.
Cic detect_cic(ByteView z64);

struct Checksums {
    std::uint32_t crc1 = 0;
    std::uint32_t crc2 = 0;
    friend bool operator==(const Checksums&, const Checksums&) = default;
};

// The boot checksum over z64 bytes 0x1000..0x100FFF for the given CIC. An image shorter than
// 0x101000 bytes is read as if padded with zeros (what the tools that build small homebrew
// images do; see doc/formats/rom.md). Format error when the image is shorter than the
// 0x1000-byte boot area; limit error for Cic::unknown.
Checksums compute_checksums(ByteView z64, Cic cic);

struct Header {
    std::uint32_t pi_config = 0;     // 0x00
    std::uint32_t clock_rate = 0;    // 0x04
    std::uint32_t entry_point = 0;   // 0x08
    std::uint32_t release = 0;       // 0x0C
    Checksums stored;                // 0x10, 0x14
    std::string title;               // 0x20, 20 bytes, trailing spaces/NULs trimmed (raw bytes)
    std::string game_code;           // 0x3B..0x3E, e.g. "NPOE" (raw bytes)
    std::uint8_t version = 0;        // 0x3F
};

// Reads the header fields of a z64 image; format error when shorter than 0x40 bytes.
Header read_header(ByteView z64);

// Everything `modkit rom info` reports.
struct RomInfo {
    ByteOrder order = ByteOrder::z64;
    std::uint64_t size = 0;             // bytes
    Header header;
    Cic cic = Cic::unknown;
    std::uint32_t ipl3_crc32 = 0;
    std::optional<Checksums> computed;  // absent when the CIC is unknown
    bool checksum_zero_padded = false;  // the image ends before 0x101000 (zeros assumed)
    Md5Digest md5{};                    // of the normalised image
    Sha1Digest sha1{};
    std::string known_revision;         // e.g. "Pokémon Stadium (USA) 1.0", empty when unknown

    bool checksums_match() const noexcept { return computed && *computed == header.stored; }
};

// Detects the order, normalises and reports. Errors as detect_order().
RomInfo inspect(const ByteReader& image);

// Writes CRC1/CRC2 computed for the detected CIC into a z64 image (0x10..0x17 only; the boot
// code 0x40..0xFFF is never touched). Returns the new checksums; format error when shorter
// than the boot area, limit error for an unknown CIC.
Checksums fix_checksums(Bytes& z64);

inline constexpr char stadium_us_10_md5[] = "ed1378bc12115f71209a77844965ba50";

// The revision name for a normalised-image MD5 (lower-case hex), empty when not known.
std::string known_revision(std::string_view md5_hex);

}  // namespace mod::n64
