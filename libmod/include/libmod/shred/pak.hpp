#pragma once
// SHRED PAK, read through the Tony Hawk: RIDE layout (HYPOTHESIS "ride-pak": the only public
// container fact, a 2010 QuickBMS script for RIDE; spec: doc/formats/shred-pak.md). Big-endian.
//   0x00 "PAK\0", 0x04 u16 unknown_a, 0x06 u16 unknown_b, 0x08 u32 count, 0x0C u32 name_table_size
//   0x10 count x 24-byte entries {u32 hash, u32 name_offset (in the name table), u32 unknown1,
//        u32 unknown2, u32 data_offset (absolute), u32 size}
//   0x10 + 24 x count: the name table (NUL-terminated names)
// Everything else in the file (gaps, padding, trailing bytes) is kept verbatim; the hash
// algorithm is unknown, so entries keep theirs.

#include "libmod/core/bytes.hpp"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mod::shred {

inline constexpr std::size_t pak_header_bytes = 0x10;
inline constexpr std::size_t pak_entry_bytes = 24;

struct PakEntry {
    std::uint32_t hash = 0;
    std::uint32_t name_offset = 0;
    std::uint32_t unknown1 = 0;
    std::uint32_t unknown2 = 0;
    std::uint32_t data_offset = 0;
    std::uint32_t size = 0;
    std::string name;
};

struct Pak {
    std::string file;
    Bytes raw;  // the whole PAK as read
    std::uint16_t unknown_a = 0, unknown_b = 0;
    std::uint32_t name_table_size = 0;
    std::vector<PakEntry> entries;  // in table order

    ByteView data(std::size_t entry) const;
    std::optional<std::size_t> find(std::string_view name) const;
    std::size_t name_table_offset() const noexcept { return pak_header_bytes + pak_entry_bytes * entries.size(); }
};

// Reads a PAK under the RIDE hypothesis. A file that does not fit gets mod::Error (format)
// whose message starts "not a RIDE-layout PAK: " and says what differed (magic, table or name
// table past the end, a name offset outside the name table or without NUL, data outside the
// file or inside the tables).
Pak read_pak(Bytes data, std::string file = {});

// Entries whose data is replaced; nullopt keeps the original. With no replacement (or all
// replacements equal to the original) the result is the original bytes. Otherwise entries
// keep their table order, hash, name and unknown words; data keeps its original file order;
// an entry of unchanged size keeps the gap bytes after it, a resized one is followed by zero
// padding to the PAK's data alignment (the largest power of two, up to 2048, dividing every
// original data offset) and later data moves. Throws conflict when the original data ranges
// overlap (the layout then shares bytes between entries and cannot be re-laid out).
Bytes repack_pak(const Pak& pak, std::span<const std::optional<Bytes>> replacements);

// repack_pak with the new data written straight into the output, so that it is neither built
// nor copied apart: `sizes[i]` is the new size of entry i (nullopt keeps the entry), and
// `write(i, out)` must append exactly `sizes[i]` bytes, entry i's new data, to `out` (its
// capacity is already reserved; anything else there must not be touched). The result, and the
// errors, are those of repack_pak with replacements equal to what `write` appends; a writer
// that appends another number of bytes, or removes bytes already there, gets a usage error
// (saying which, with the real count), and its own errors pass through.
// `write` is called once per replaced entry, in data order (or in table order, into separate
// buffers, when original data ranges overlap: repack_pak then decides).
using PakEntryWriter = std::function<void(std::size_t entry, Bytes& out)>;
Bytes repack_pak_in_place(const Pak& pak, std::span<const std::optional<std::size_t>> sizes,
                          const PakEntryWriter& write);

// The data of entry `entry` of the PAK bytes `pak`, found through its own table without reading
// the rest (a repacked PAK checked in place). Format error ("not a RIDE-layout PAK: ...",
// naming `file`) when the header, the table or the data range does not fit; usage error when
// the entry does not exist.
ByteView pak_entry_data(ByteView pak, std::size_t entry, const std::string& file = {});

// The alignment repack_pak uses for this PAK.
std::uint32_t pak_data_alignment(const Pak& pak) noexcept;

// Our writer for new PAKs (forge, tests): unknown_a/b and entry unknown words as given, names
// in table order, data aligned to `alignment`.
struct PakBuildEntry {
    std::string name;
    std::uint32_t hash = 0;
    std::uint32_t unknown1 = 0, unknown2 = 0;
    Bytes data;
};
Bytes build_pak(std::span<const PakBuildEntry> entries, std::uint16_t unknown_a = 0, std::uint16_t unknown_b = 0,
                std::uint32_t alignment = 16);

}  // namespace mod::shred
