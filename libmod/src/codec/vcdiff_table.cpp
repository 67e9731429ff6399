// The RFC 3284 default code table (§5.6) and the encoder's opcodes for it.
#include "vcdiff_detail.hpp"

namespace mod::vcdiff::detail {

namespace {

std::array<Code, 256> build_table() noexcept {
    std::array<Code, 256> t{};
    std::size_t i = 0;
    t[i++] = {{run, 0, 0}, {}};                                                // 0
    for (std::uint8_t s = 0; s <= 17; ++s) t[i++] = {{add, s, 0}, {}};         // 1..18
    for (std::uint8_t m = 0; m < mode_count; ++m) {                            // 19..162
        t[i++] = {{copy, 0, m}, {}};
        for (std::uint8_t s = 4; s <= 18; ++s) t[i++] = {{copy, s, m}, {}};
    }
    for (std::uint8_t m = 0; m <= 5; ++m)                                      // 163..234
        for (std::uint8_t a = 1; a <= 4; ++a)
            for (std::uint8_t c = 4; c <= 6; ++c) t[i++] = {{add, a, 0}, {copy, c, m}};
    for (std::uint8_t m = 6; m < mode_count; ++m)                              // 235..246
        for (std::uint8_t a = 1; a <= 4; ++a) t[i++] = {{add, a, 0}, {copy, 4, m}};
    for (std::uint8_t m = 0; m < mode_count; ++m) t[i++] = {{copy, 4, m}, {add, 1, 0}};  // 247..255
    return t;
}

}  // namespace

const std::array<Code, 256>& default_code_table() noexcept {
    static const std::array<Code, 256> table = build_table();
    return table;
}

std::uint8_t add_opcode(std::size_t size) noexcept { return size >= 1 && size <= 17 ? std::uint8_t(1 + size) : 1; }

std::uint8_t copy_opcode(std::size_t size, unsigned mode) noexcept {
    const unsigned base = 19 + 16 * mode;
    return std::uint8_t(size >= 4 && size <= 18 ? base + (size - 3) : base);
}

std::uint8_t add_copy_opcode(std::size_t add_size, std::size_t copy_size, unsigned mode) noexcept {
    if (add_size < 1 || add_size > 4) return 0;
    if (mode <= 5 && copy_size >= 4 && copy_size <= 6)
        return std::uint8_t(163 + 12 * mode + 3 * (add_size - 1) + (copy_size - 4));
    if (mode >= 6 && mode < mode_count && copy_size == 4) return std::uint8_t(235 + 4 * (mode - 6) + (add_size - 1));
    return 0;
}

std::uint8_t copy_add_opcode(std::size_t copy_size, unsigned mode, std::size_t add_size) noexcept {
    return copy_size == 4 && add_size == 1 && mode < mode_count ? std::uint8_t(247 + mode) : 0;
}

}  // namespace mod::vcdiff::detail
