#pragma once
// What the VCDIFF decoder (vcdiff.cpp) and encoder (vcdiff_create.cpp) share: the RFC 3284
// default code table (§5.6), the address caches (§5.1-5.3) and xdelta3's LZMA secondary
// compression (doc/formats/vcdiff.md §3). Internal header.
#include "libmod/core/bytes.hpp"

#include <array>
#include <cstdint>

namespace mod::vcdiff::detail {

enum Type : std::uint8_t { noop = 0, add = 1, run = 2, copy = 3 };

struct Instruction {
    std::uint8_t type = noop;
    std::uint8_t size = 0;  // 0: the size follows as a varint in the instruction section
    std::uint8_t mode = 0;  // copies only: 0 self, 1 here, 2..5 near, 6..8 same
};
struct Code {
    Instruction first, second;
};

inline constexpr std::size_t near_slots = 4, same_slots = 3;
inline constexpr unsigned mode_count = 2 + near_slots + same_slots;  // 9

// The 256 entries of the default code table, built as the RFC lists them.
const std::array<Code, 256>& default_code_table() noexcept;

// Default-table opcodes the encoder writes (each returns 0 when no entry fits, 0 being RUN).
std::uint8_t add_opcode(std::size_t size) noexcept;                       // 1 (size follows) or 2..18
std::uint8_t copy_opcode(std::size_t size, unsigned mode) noexcept;       // 19 + 16 mode (+ size - 3)
std::uint8_t add_copy_opcode(std::size_t add_size, std::size_t copy_size, unsigned mode) noexcept;  // 163..246
std::uint8_t copy_add_opcode(std::size_t copy_size, unsigned mode, std::size_t add_size) noexcept;  // 247..255

// The near and same caches, reset at the start of every window.
class AddressCache {
public:
    void update(std::uint64_t address) noexcept {
        near_[next_] = address;
        next_ = (next_ + 1) % near_slots;
        same_[address % (same_slots * 256)] = address;
    }
    std::uint64_t near_at(std::size_t i) const noexcept { return near_[i]; }
    std::uint64_t same_at(std::size_t i) const noexcept { return same_[i]; }

private:
    std::array<std::uint64_t, near_slots> near_{};
    std::array<std::uint64_t, same_slots * 256> same_{};
    std::size_t next_ = 0;
};

// xdelta3's LZMA secondary form of one section: an .xz stream (no integrity check) of `data`,
// with a dictionary no larger than the data needs.
Bytes lzma_compress(ByteView data);
// Decodes such a stream into exactly `size` bytes; format error (naming `section`) when the
// stream is damaged, ends early or holds more. At most `size` bytes are allocated.
Bytes lzma_decompress(const ByteReader& section, std::size_t size);

}  // namespace mod::vcdiff::detail
