#pragma once
// FRAGMENT: Pokémon Stadium's relocatable modules (code fragments and every Pokémon model).
// Spec: doc/formats/fragment.md.
//
//   +0x00 u32 J to the entry (models: 0x0BFC0008 = j 0x8FF00020)   +0x04 u32 nop
//   +0x08 "FRAGMENT"   +0x10 u32 code offset (0x20)   +0x14 u32 relocOffset
//   +0x18 u32 sizeInRom (relocOffset + table, table zero-padded to 16)
//   +0x1C u32 sizeInRam (relocOffset + bss; models: == relocOffset)
//   relocOffset: u32 count, count × u32 {bit 31 "foreign" (ignored by the game),
//                bits 24..30 type (2 R_MIPS_32, 4 R_MIPS_26, 5 HI16, 6 LO16), bits 0..23 offset}
//
// parse_fragment() keeps every byte (the table's padding and anything after sizeInRom), so
// encode_fragment(parse_fragment(x)) == x. The pointer-aware editing lives in
// fragment_image.hpp.

#include "libmod/core/bytes.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mod::stadium {

inline constexpr std::uint32_t fragment_header_size = 0x20;
inline constexpr std::uint32_t model_link_base = 0x8FF00000;
inline constexpr std::uint32_t model_entry_jump = 0x0BFC0008;  // j 0x8FF00020
// Pointers are resolved through their low 20 bits (Memmap_GetFragmentVaddr), so a fragment
// must stay below this size [decomp memmap.c].
inline constexpr std::uint32_t fragment_max_size = 0x100000;
inline constexpr char fragment_magic[8] = {'F', 'R', 'A', 'G', 'M', 'E', 'N', 'T'};

enum class RelocType : std::uint8_t { mips_32 = 2, mips_26 = 4, mips_hi16 = 5, mips_lo16 = 6 };

const char* to_string(RelocType type) noexcept;

// One relocation table word, kept whole so bit 31 and any unknown bits survive.
struct Reloc {
    std::uint32_t raw = 0;

    static Reloc make(RelocType type, std::uint32_t offset, bool foreign = false) noexcept {
        return {(foreign ? 0x80000000u : 0u) | (std::uint32_t(type) << 24) | (offset & 0xFFFFFF)};
    }
    RelocType type() const noexcept { return static_cast<RelocType>((raw >> 24) & 0x7F); }
    std::uint32_t offset() const noexcept { return raw & 0xFFFFFF; }
    bool foreign() const noexcept { return (raw & 0x80000000u) != 0; }
    Reloc with_offset(std::uint32_t offset) const noexcept { return {(raw & 0xFF000000u) | (offset & 0xFFFFFF)}; }
};

struct FragmentHeader {
    std::uint32_t entry_jump = 0;    // +0x00
    std::uint32_t word4 = 0;         // +0x04 (nop)
    std::uint32_t code_offset = 0;   // +0x10
    std::uint32_t reloc_offset = 0;  // +0x14
    std::uint32_t size_in_rom = 0;   // +0x18
    std::uint32_t size_in_ram = 0;   // +0x1C
};

struct Fragment {
    FragmentHeader header;
    // [0, reloc_offset): header, code and data, where every relocation points.
    Bytes body;
    std::vector<Reloc> relocs;  // table order
    // Bytes between the last table entry and sizeInRom (zero padding, no-op words), verbatim.
    Bytes table_padding;
    // Bytes after sizeInRom in the buffer the fragment came in (e.g. PERS-SZP size2 slack).
    Bytes trailing;

    // Link base from the J at +0: ((w & 0x03FFFFFF) << 2 | 0x80000000) & 0xFFF00000.
    std::uint32_t link_base() const noexcept;
    // Runtime fragment id: ((base >> 20) & 0xFF) - 0x10 (0xEF for models).
    std::uint32_t fragment_id() const noexcept;
    std::uint32_t body_size() const noexcept { return static_cast<std::uint32_t>(body.size()); }
    // The big-endian word of the body at `offset` (caller checked bounds).
    std::uint32_t word(std::uint32_t offset) const noexcept;
};

// True when the buffer holds "FRAGMENT" at +8.
bool has_fragment_magic(ByteView data) noexcept;

// Parses and validates: magic; J opcode at +0; 0x20 <= code offset <= relocOffset <=
// sizeInRom <= buffer size; relocOffset 4-aligned; sizeInRam >= relocOffset; the table fits;
// each entry of a known type has a 4-aligned offset whose word lies inside the body. Entries
// Memmap_RelocateFragment skips or cannot resolve are kept, not refused (F12): a type other
// than 2/4/5/6 (any offset: the game never reads its word), and a LO16 with no HI16 for its rs
// register before it. relocs_the_game_skips lists them. Errors name `<path>.reloc[i]`.
Fragment parse_fragment(const ByteReader& data);

// Writes body, count, entries, table padding and trailing bytes: the exact input of
// parse_fragment when nothing was changed. The header fields in `body` are authoritative.
Bytes encode_fragment(const Fragment& fragment);

// Relocation words the game does not apply as relocations: a type other than 2/4/5/6 (its
// switch has no case: skipped), and a LO16 whose rs register had no HI16 before it (resolved
// with the relocator's uninitialised luiRefs/luiVals stack arrays: undefined). FragmentImage
// keeps the first verbatim (never moved, never dropped) and moves the second with its word
// without rewriting it. Reported by `stadium fragment check` and `stadium verify`.
struct SkippedReloc {
    std::size_t index = 0;  // in Fragment::relocs
    Reloc reloc;
    enum class Kind { unknown_type, lo16_without_hi16 } kind = Kind::unknown_type;
    std::string reason;
};
std::vector<SkippedReloc> relocs_the_game_skips(const Fragment& fragment);

// Decoded HI16/LO16 pairing in table order: for each LO16 entry index, the HI16 entry index the
// game would use (the last HI16 whose rt equals this LO16's rs).
struct RelocPair {
    std::size_t hi = 0;
    std::size_t lo = 0;
};
std::vector<RelocPair> pair_hi_lo(const Fragment& fragment);

// The root getter at 0x20: the first LUI followed (within 0x20..0x7C) by an ADDIU/ORI on the
// same register. Returns the root's offset in the fragment, or nothing when not found.
struct RootGetter {
    std::uint32_t lui_offset = 0;
    std::uint32_t lo_offset = 0;
    std::uint32_t root_address = 0;  // link address
};
std::optional<RootGetter> find_root_getter(const Fragment& fragment);

// The model root struct (§4.3 of the reference), unknown bytes verbatim.
struct ModelRoot {
    std::uint32_t offset = 0;  // in the fragment
    std::uint16_t model_id = 0;
    std::uint8_t unknown2 = 0;
    std::uint8_t layout_count = 0;
    std::uint8_t animation_count = 0;
    std::uint8_t aux_animation_count = 0;
    std::uint16_t unknown6 = 0;
    std::uint32_t layouts = 0;         // link address of the layout-pointer array
    std::uint32_t animations = 0;      // link address of the animation-header pointer array
    std::uint32_t aux_animations = 0;  // link address of the aux-animation pointer array
    std::uint32_t runtime14 = 0;       // written at runtime with the fragment address
};
inline constexpr std::uint32_t model_root_size = 0x18;

// Reads the root through the getter; format error naming `<path>.root` when the getter is
// missing or the struct lies outside the body.
ModelRoot read_model_root(const Fragment& fragment, const std::string& path = "fragment");

// MIPS instruction fields used by the relocator.
namespace mips {
inline constexpr std::uint32_t opcode(std::uint32_t insn) noexcept { return insn >> 26; }
inline constexpr std::uint32_t rs(std::uint32_t insn) noexcept { return (insn >> 21) & 31; }
inline constexpr std::uint32_t rt(std::uint32_t insn) noexcept { return (insn >> 16) & 31; }
inline constexpr std::uint32_t imm(std::uint32_t insn) noexcept { return insn & 0xFFFF; }
inline constexpr std::uint32_t op_j = 2, op_jal = 3, op_addiu = 9, op_ori = 13, op_lui = 15;
inline constexpr std::uint32_t jr_ra = 0x03E00008;
inline constexpr std::uint32_t lui(std::uint32_t rt_, std::uint32_t imm_) noexcept {
    return (op_lui << 26) | (rt_ << 16) | (imm_ & 0xFFFF);
}
inline constexpr std::uint32_t addiu(std::uint32_t rt_, std::uint32_t rs_, std::uint32_t imm_) noexcept {
    return (op_addiu << 26) | (rs_ << 21) | (rt_ << 16) | (imm_ & 0xFFFF);
}
// %hi with the carry rule: the LO16 immediate is sign-extended by the CPU.
inline constexpr std::uint32_t hi16(std::uint32_t address) noexcept {
    return ((address >> 16) + ((address & 0x8000) ? 1 : 0)) & 0xFFFF;
}
inline constexpr std::uint32_t lo16(std::uint32_t address) noexcept { return address & 0xFFFF; }
// The address a LUI/LO16 pair forms.
inline constexpr std::uint32_t pair_address(std::uint32_t lui_insn, std::uint32_t lo_insn) noexcept {
    return (imm(lui_insn) << 16) + static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int16_t>(imm(lo_insn))));
}
// R_MIPS_26 target as the game computes it: ((word·4) & 0x0FFFFFFC) + 0x80000000.
inline constexpr std::uint32_t jump_target(std::uint32_t insn) noexcept {
    return ((insn << 2) & 0x0FFFFFFCu) + 0x80000000u;
}
inline constexpr std::uint32_t with_jump_target(std::uint32_t insn, std::uint32_t target) noexcept {
    return (insn & 0xFC000000u) | ((target & 0x0FFFFFFFu) >> 2);
}
}  // namespace mips

// Whether the game's map() would translate `address` (0x81000000 <= a < 0x90000000).
inline constexpr bool is_fragment_address(std::uint32_t address) noexcept {
    return address >= 0x81000000u && address < 0x90000000u;
}

}  // namespace mod::stadium
