#pragma once
// Unaligned big/little-endian loads and stores on raw byte pointers. The caller has checked
// bounds; ByteReader/ByteWriter are the checked interfaces.

#include <bit>
#include <cstdint>
#include <cstring>

namespace mod {

enum class Endian { big, little };

const char* to_string(Endian e) noexcept;

namespace endian {

template <class T>
inline T load_native(const std::uint8_t* p) noexcept {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

inline std::uint16_t bswap16(std::uint16_t v) noexcept { return __builtin_bswap16(v); }
inline std::uint32_t bswap32(std::uint32_t v) noexcept { return __builtin_bswap32(v); }
inline std::uint64_t bswap64(std::uint64_t v) noexcept { return __builtin_bswap64(v); }

inline constexpr bool host_is_little = std::endian::native == std::endian::little;

inline std::uint16_t load_be16(const std::uint8_t* p) noexcept {
    auto v = load_native<std::uint16_t>(p);
    return host_is_little ? bswap16(v) : v;
}
inline std::uint32_t load_be32(const std::uint8_t* p) noexcept {
    auto v = load_native<std::uint32_t>(p);
    return host_is_little ? bswap32(v) : v;
}
inline std::uint64_t load_be64(const std::uint8_t* p) noexcept {
    auto v = load_native<std::uint64_t>(p);
    return host_is_little ? bswap64(v) : v;
}
inline std::uint16_t load_le16(const std::uint8_t* p) noexcept {
    auto v = load_native<std::uint16_t>(p);
    return host_is_little ? v : bswap16(v);
}
inline std::uint32_t load_le32(const std::uint8_t* p) noexcept {
    auto v = load_native<std::uint32_t>(p);
    return host_is_little ? v : bswap32(v);
}
inline std::uint64_t load_le64(const std::uint8_t* p) noexcept {
    auto v = load_native<std::uint64_t>(p);
    return host_is_little ? v : bswap64(v);
}

inline void store_be16(std::uint8_t* p, std::uint16_t v) noexcept {
    if (host_is_little) v = bswap16(v);
    std::memcpy(p, &v, 2);
}
inline void store_be32(std::uint8_t* p, std::uint32_t v) noexcept {
    if (host_is_little) v = bswap32(v);
    std::memcpy(p, &v, 4);
}
inline void store_be64(std::uint8_t* p, std::uint64_t v) noexcept {
    if (host_is_little) v = bswap64(v);
    std::memcpy(p, &v, 8);
}
inline void store_le16(std::uint8_t* p, std::uint16_t v) noexcept {
    if (!host_is_little) v = bswap16(v);
    std::memcpy(p, &v, 2);
}
inline void store_le32(std::uint8_t* p, std::uint32_t v) noexcept {
    if (!host_is_little) v = bswap32(v);
    std::memcpy(p, &v, 4);
}
inline void store_le64(std::uint8_t* p, std::uint64_t v) noexcept {
    if (!host_is_little) v = bswap64(v);
    std::memcpy(p, &v, 8);
}

inline std::uint16_t load16(const std::uint8_t* p, Endian e) noexcept {
    return e == Endian::big ? load_be16(p) : load_le16(p);
}
inline std::uint32_t load32(const std::uint8_t* p, Endian e) noexcept {
    return e == Endian::big ? load_be32(p) : load_le32(p);
}
inline std::uint64_t load64(const std::uint8_t* p, Endian e) noexcept {
    return e == Endian::big ? load_be64(p) : load_le64(p);
}
inline void store16(std::uint8_t* p, std::uint16_t v, Endian e) noexcept {
    e == Endian::big ? store_be16(p, v) : store_le16(p, v);
}
inline void store32(std::uint8_t* p, std::uint32_t v, Endian e) noexcept {
    e == Endian::big ? store_be32(p, v) : store_le32(p, v);
}
inline void store64(std::uint8_t* p, std::uint64_t v, Endian e) noexcept {
    e == Endian::big ? store_be64(p, v) : store_le64(p, v);
}

}  // namespace endian
}  // namespace mod
