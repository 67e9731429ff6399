// The three N64 image byte orders and the conversions between them (doc/formats/rom.md §2).
#include "libmod/n64/rom.hpp"

#include <algorithm>
#include <utility>

namespace mod::n64 {

namespace {

// The first word of the header (PI BSD DOM1 configuration 0x80371240) as it appears in each
// order; it is the only way to tell the orders apart.
constexpr std::uint8_t z64_magic[4] = {0x80, 0x37, 0x12, 0x40};
constexpr std::uint8_t v64_magic[4] = {0x37, 0x80, 0x40, 0x12};
constexpr std::uint8_t n64_magic[4] = {0x40, 0x12, 0x37, 0x80};

bool starts_with(ByteView data, const std::uint8_t (&magic)[4]) {
    return data.size() >= 4 && std::equal(magic, magic + 4, data.begin());
}

std::size_t unit_of(ByteOrder order) {
    switch (order) {
        case ByteOrder::z64: return 1;
        case ByteOrder::v64: return 2;
        case ByteOrder::n64: return 4;
    }
    return 1;
}

// Swapping bytes within each 2- or 4-byte unit; each transform is its own inverse, so one
// function serves both directions.
Bytes swap_units(ByteView in, ByteOrder order) {
    const std::size_t unit = unit_of(order);
    if (in.size() % unit != 0)
        throw Error(ErrorKind::format, std::string("a ") + to_string(order) + " image must be a multiple of " +
                                           std::to_string(unit) + " bytes, this one has " +
                                           std::to_string(in.size()));
    Bytes out(in.begin(), in.end());
    if (order == ByteOrder::v64) {
        for (std::size_t i = 0; i < out.size(); i += 2) std::swap(out[i], out[i + 1]);
    } else if (order == ByteOrder::n64) {
        for (std::size_t i = 0; i < out.size(); i += 4) {
            std::swap(out[i], out[i + 3]);
            std::swap(out[i + 1], out[i + 2]);
        }
    }
    return out;
}

}  // namespace

const char* to_string(ByteOrder order) noexcept {
    switch (order) {
        case ByteOrder::z64: return "z64";
        case ByteOrder::v64: return "v64";
        case ByteOrder::n64: return "n64";
    }
    return "?";
}

ByteOrder parse_byte_order(std::string_view name) {
    if (name == "z64") return ByteOrder::z64;
    if (name == "v64") return ByteOrder::v64;
    if (name == "n64") return ByteOrder::n64;
    throw Error(ErrorKind::usage, "unknown byte order \"" + std::string(name) + "\" (z64, v64 or n64)");
}

ByteOrder detect_order(const ByteReader& image) {
    const ByteView data = image.data();
    if (data.size() < boot_area_size)
        image.fail_at(0, "an N64 image needs at least the " + hex(boot_area_size) +
                             "-byte boot area, this one has " + std::to_string(data.size()) + " bytes");
    if (data.size() % 4 != 0)
        image.fail_at(0, "an N64 image is a whole number of 32-bit words, this one has " +
                             std::to_string(data.size()) + " bytes");
    if (starts_with(data, z64_magic)) return ByteOrder::z64;
    if (starts_with(data, v64_magic)) return ByteOrder::v64;
    if (starts_with(data, n64_magic)) return ByteOrder::n64;
    image.fail_at(0, "not an N64 image: first word " + to_hex(data.first(4)) +
                         " is none of 80371240 (z64), 37804012 (v64), 40123780 (n64)");
}

Bytes to_z64(ByteView image, ByteOrder from) { return swap_units(image, from); }

Bytes from_z64(ByteView z64, ByteOrder to) { return swap_units(z64, to); }

}  // namespace mod::n64
