#pragma once
// Checksums and digests: CRC-32 (IEEE, as zlib), MD5 and SHA-1. Pure functions of the bytes.

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace mod {

// CRC-32/ISO-HDLC (zlib's crc32): poly 0xEDB88320 reflected, init and xorout 0xFFFFFFFF.
// `previous` chains calls: crc32(b, crc32(a)) == crc32(a ++ b).
std::uint32_t crc32(std::span<const std::uint8_t> data, std::uint32_t previous = 0) noexcept;

using Md5Digest = std::array<std::uint8_t, 16>;
using Sha1Digest = std::array<std::uint8_t, 20>;

Md5Digest md5(std::span<const std::uint8_t> data) noexcept;
Sha1Digest sha1(std::span<const std::uint8_t> data) noexcept;
// True when sha1 runs on the x86 SHA extensions (chosen from CPUID at the first call; about
// 5x the portable code). Both give the same digest.
bool sha1_uses_sha_extensions() noexcept;
// True when crc32 runs on PCLMULQDQ (chosen from CPUID; inputs of 64 bytes or more).
bool crc32_uses_clmul() noexcept;
namespace detail {
// The portable SHA-1 and CRC-32, whatever the CPU (tests compare them with sha1 and crc32).
Sha1Digest sha1_portable(std::span<const std::uint8_t> data) noexcept;
std::uint32_t crc32_portable(std::span<const std::uint8_t> data, std::uint32_t previous = 0) noexcept;
}  // namespace detail

// Lower-case hexadecimal of a byte sequence.
std::string to_hex(std::span<const std::uint8_t> data);

}  // namespace mod
