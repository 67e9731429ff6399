#pragma once
// TotemTech name IDs and the name table (.NGC / .NPS / .NPC). Spec: doc/formats/totem-archive.md.
//
// Every type, name and subtype string is identified by the CRC-32 (IEEE, as zlib) of its
// exact bytes — no case folding, no trimming — stored as a signed 32-bit integer; the empty
// string hashes to 0. The name table is text: one `ID "name"` line per entry (ID in signed
// decimal), read until an empty line, a line starting with NUL, or the end of the data.

#include "libmod/core/bytes.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mod::totem {

// CRC-32 (IEEE) of the exact bytes of `name`, as the signed 32-bit value the files store.
std::int32_t name_id(std::string_view name) noexcept;

// "0x1A2B3C4D": how an ID without a name is shown (its hash as unsigned hexadecimal).
std::string hash_text(std::int32_t id);

// Parses "0x1A2B3C4D" (hexadecimal, as hash_text writes it) or a signed decimal ID.
std::optional<std::int32_t> parse_id(std::string_view text) noexcept;

struct NameEntry {
    std::int32_t id = 0;
    std::string name;
    std::uint64_t offset = 0;  // byte offset of the line in the table
};

class NameTable {
public:
    NameTable() = default;

    // Parses the table. Malformed lines (no space, unquoted name, ID not a signed 32-bit
    // decimal) are format errors naming the line's offset and `names.line[i]`. IDs that are
    // not the CRC-32 of their name, and IDs listed twice, are not errors: they are kept and
    // reported by findings().
    static NameTable parse(const ByteReader& text);

    // The table's bytes: the original bytes when nothing was added, else the original entry
    // lines, the added lines (same line ending as the file), then the original terminator.
    Bytes encode() const;

    const std::vector<NameEntry>& entries() const noexcept { return entries_; }
    // The name of `id`, if listed (for an ID listed twice the LAST line wins, as in Chum World's
    // reader; findings() names both lines).
    std::optional<std::string_view> find(std::int32_t id) const;
    // The name of `id`, or hash_text(id) when the table does not list it.
    std::string display(std::int32_t id) const;
    bool contains(std::int32_t id) const { return index_.count(id) != 0; }

    // Adds `name` (ID = name_id(name)) unless already listed; returns whether a line was
    // added. Throws conflict when another name already owns that ID (a CRC collision).
    bool add(std::string_view name);
    std::size_t added_count() const noexcept { return added_; }

    // Lines that disagree with the documented facts (ID != CRC-32 of the name, duplicates).
    const std::vector<std::string>& findings() const noexcept { return findings_; }

private:
    Bytes original_;
    std::size_t body_end_ = 0;        // end of the last entry line (terminator included)
    bool last_line_terminated_ = true;
    std::string newline_ = "\n";
    std::vector<NameEntry> entries_;
    std::size_t added_ = 0;
    std::unordered_map<std::int32_t, std::size_t> index_;
    std::vector<std::string> findings_;
};

// The ID a name-or-ID text stands for: name_id(text) when the table lists that name, else the
// ID parse_id reads ("0x1A2B3C4D" or signed decimal), else name_id(text) (a name the table
// does not list). How every command and manifest operation names types, records and meshes.
std::int32_t id_from_text(const NameTable& names, std::string_view text);

}  // namespace mod::totem
