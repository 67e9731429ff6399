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

// MD5 and SHA-1 are OpenSSL libcrypto's (EVP; it picks the CPU's SHA extensions itself):
// measured side by side with modkit's own code they were faster (bench/bench_hash_peers.cpp,
// doc/benchmarks.md). A libcrypto that cannot compute them (no such algorithm, no memory)
// aborts the process with a message: a wrong digest is never returned.
Md5Digest md5(std::span<const std::uint8_t> data) noexcept;
Sha1Digest sha1(std::span<const std::uint8_t> data) noexcept;
// True when crc32 runs on PCLMULQDQ (chosen from CPUID; inputs of 64 bytes or more). CRC-32
// stays modkit's own: 2.1x zlib's crc32 on this machine.
bool crc32_uses_clmul() noexcept;
namespace detail {
// The table CRC-32, whatever the CPU (tests compare it with crc32).
std::uint32_t crc32_portable(std::span<const std::uint8_t> data, std::uint32_t previous = 0) noexcept;
}  // namespace detail

// Lower-case hexadecimal of a byte sequence.
std::string to_hex(std::span<const std::uint8_t> data);

}  // namespace mod
