#pragma once
// A pointer-aware FRAGMENT image: edit the body (insert, remove, resize a byte range, append
// new data) and every relocated pointer keeps pointing at the same object.
//
// Rebasing rule: an edit at body offset `at` moves every byte at or after `at`. A pointer whose
// target (as an offset in this fragment) is at or after `at` is rebased by the same amount:
//   * R_MIPS_32 words holding an address of this fragment (same 1 MiB link window);
//   * R_MIPS_26 jumps (target = ((w·4) & 0x0FFFFFFC) + 0x80000000, low 26 bits rewritten);
//   * HI16/LO16 pairs (paired as the game pairs them, by register), written back with the
//     carry rule: hi = (t >> 16) + (t & 0x8000 ? 1 : 0), lo = t & 0xFFFF.
// Words that hold addresses outside this fragment (main RAM, other fragments) are left alone.
// Relocation words the game skips (relocs_the_game_skips) get the game's effect: a type other
// than 2/4/5/6 stays verbatim (never moved, dropped or applied); a LO16 with no HI16 before it
// moves with its word, which is never rewritten.
// Relocation entries move with their words; entries whose word is removed are dropped. The
// table keeps its order; new R_MIPS_32 entries are inserted in offset order. build() rewrites
// the header sizes and the table (zero padding to 16), and returns the original fragment,
// byte for byte, when nothing was edited.
//
// Inserted and removed sizes must be multiples of 8 so every later display list, vertex and
// texel block keeps the RDP's 8-byte alignment; `at` must be 4-aligned and past the 0x20-byte
// header. Errors: usage for bad arguments, conflict when an edit would orphan a pointer (a
// pointer into removed bytes) or split a HI16 shared by LO16s that now need different halves
// (a refused edit leaves the image as it was); limit when body + bss would reach 1 MiB (the
// fragment's pointer window, fragment_max_size).

#include "libmod/stadium/fragment.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mod::stadium {

class FragmentImage {
public:
    explicit FragmentImage(Fragment fragment);

    const Fragment& original() const noexcept { return original_; }
    std::uint32_t base() const noexcept { return base_; }
    const Bytes& body() const noexcept { return body_; }
    std::uint32_t body_size() const noexcept { return static_cast<std::uint32_t>(body_.size()); }
    const std::vector<Reloc>& relocs() const noexcept { return relocs_; }
    bool modified() const noexcept { return modified_; }

    std::uint32_t word(std::uint32_t offset) const;
    // Link address of a body offset.
    std::uint32_t address_of(std::uint32_t offset) const noexcept { return base_ + offset; }
    // Body offset of a link address of this fragment, or nothing.
    std::optional<std::uint32_t> offset_of(std::uint32_t address) const noexcept;

    // Inserts `data` before body offset `at` (0x20 <= at <= body size).
    void insert(std::uint32_t at, ByteView data);
    // Removes [at, at + size).
    void remove(std::uint32_t at, std::uint32_t size);
    // The object [at, at + old_size) becomes new_size bytes long: grows by inserting `fill`
    // bytes at its end, shrinks by removing its tail.
    void resize(std::uint32_t at, std::uint32_t old_size, std::uint32_t new_size, std::uint8_t fill = 0);
    // Overwrites bytes in place (no layout change). Relocation entries inside the range stay:
    // the caller writes link addresses into pointer words (see set_pointer).
    void write(std::uint32_t at, ByteView data);
    // Overwrites plain data in place (texels, palette colours, descriptor and command fields):
    // as write(), but a conflict error naming `what` when the range holds a relocated word
    // (data overlapping a pointer or the getter's code would corrupt it; only hostile input
    // lays data out that way).
    void write_data(std::uint32_t at, ByteView data, const std::string& what);
    // Appends `data` at the end of the body, aligned to `alignment` (zero fill), and returns
    // its link address. Like insert(body_size(), fill + data): pointers at or past the old end
    // (into the bss, which follows the body) move with it.
    std::uint32_t append(ByteView data, std::uint32_t alignment = 16);

    // Registers an R_MIPS_32 site at `site` (4-aligned word in the body). No-op when one exists.
    void add_pointer(std::uint32_t site);
    // Writes base + target_offset into the word at `site` and registers the site.
    void set_pointer(std::uint32_t site, std::uint32_t target_offset);
    // Drops the R_MIPS_32 entry at `site` (the word is left as is).
    void remove_pointer(std::uint32_t site);
    bool has_pointer(std::uint32_t site) const noexcept;

    // The current target offsets of every relocated pointer: {site offset, target offset} for
    // R_MIPS_32 and R_MIPS_26 sites and for each LO16 of a pair (site = the LO16). Pointers
    // outside this fragment are omitted.
    struct Target {
        std::uint32_t site;
        std::uint32_t target;
        RelocType type;
    };
    std::vector<Target> targets() const;

    // The edited fragment: header sizes follow (relocOffset = body size, sizeInRom = table end
    // padded to 16, sizeInRam keeps the original bss size), table rewritten. Unmodified: the
    // original, including its table padding and trailing bytes.
    Fragment build() const;

private:
    // Applies a layout change: every target t >= at moves by `delta` (t in the removed range
    // [at, at - delta) is a conflict); every site >= at moves too; `edit` changes the bytes.
    void shift(std::uint32_t at, std::int64_t delta, const std::function<void()>& edit);
    void check_site(std::uint32_t site, const char* what) const;
    // Limit error when growing the body by `growth` would put body + bss at or past 1 MiB.
    void check_growth(std::uint64_t growth, const char* what) const;

    Fragment original_;
    std::uint32_t base_;
    Bytes body_;
    std::vector<Reloc> relocs_;
    bool modified_ = false;
};

}  // namespace mod::stadium
