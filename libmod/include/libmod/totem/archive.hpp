#pragma once
// The TotemTech data archive (.DGC / .DPS / .DPC). Spec: doc/formats/totem-archive.md.
//
//   +0x000 legal notice, 0x100 bytes (NUL-padded text)
//   +0x100 u32 chunk size
//   +0x104 0x6FC bytes of padding (zero in every file Chum World writes; kept verbatim here)
//   +0x800 chunks, each `chunk size` bytes: u32 record count, the records back to back,
//          then padding to the chunk size (kept verbatim)
//   record: u32 total size (16-byte header included), i32 type ID, i32 name ID,
//           i32 subtype ID, payload (total size − 16 bytes)
//
// GameCube files are big-endian, PS2 and PC little-endian; nothing else differs.

#include "libmod/core/bytes.hpp"
#include "libmod/totem/names.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mod::totem {

enum class Platform { gamecube, ps2, pc };

const char* to_string(Platform p) noexcept;
Endian endian_of(Platform p) noexcept;
// From the extension (case-insensitive): .DGC/.NGC GameCube, .DPS/.NPS PS2, .DPC/.NPC PC.
std::optional<Platform> platform_from_path(const std::filesystem::path& path);
// The data/name-table extensions of a platform (".DGC", ".NGC"…).
const char* data_extension(Platform p) noexcept;
const char* names_extension(Platform p) noexcept;

inline constexpr std::size_t header_size = 0x800;
inline constexpr std::size_t legal_notice_size = 0x100;
inline constexpr std::size_t header_padding_size = 0x6FC;
inline constexpr std::size_t record_header_size = 16;
inline constexpr std::size_t chunk_header_size = 4;
// Every chunk size seen (and every one Chum World writes) is a multiple of this.
inline constexpr std::uint32_t chunk_granularity = 0x800;
// Our limit on the chunk size word (doc/formats/totem-archive.md, "Limits"): 16 MiB, more than
// half the main memory of the consoles that load a whole chunk (GameCube 24 MiB, PS2 32 MiB).
// A larger word is refused before anything is allocated: a lone short chunk under a huge chunk
// size would otherwise make a repack pad it to that size (0xFFFFF800 from a 10 KB file).
inline constexpr std::uint32_t max_chunk_size = 16u << 20;

struct Record {
    std::int32_t type_id = 0;
    std::int32_t name_id = 0;
    std::int32_t subtype_id = 0;
    Bytes payload;
    std::uint64_t offset = 0;  // file offset of the record header when decoded (informational)

    std::uint64_t total_size() const noexcept { return record_header_size + payload.size(); }
};

struct Chunk {
    std::vector<std::size_t> records;  // indices into Archive::records, in file order
    Bytes padding;                     // the bytes after the last record, verbatim
};

struct Archive {
    Endian endian = Endian::big;
    Bytes legal_notice = Bytes(legal_notice_size, 0);
    std::uint32_t chunk_size = chunk_granularity;
    Bytes header_padding = Bytes(header_padding_size, 0);
    std::vector<Record> records;  // file order (chunk by chunk)
    std::vector<Chunk> chunks;

    // The legal notice up to its first NUL.
    std::string legal_text() const;
    // Bytes one chunk's header and records take.
    std::uint64_t chunk_used(const Chunk& c) const;
};

struct ByteOrderDetection {
    Endian endian = Endian::big;
    std::string reason;  // one line saying how it was decided
};

// Decides the byte order from the chunk size word at 0x100 and the first chunk's records;
// `hint` (from the extension) settles the rare case where both orders look valid. Throws
// format when neither order gives a plausible layout, usage when both do and there is no hint.
ByteOrderDetection detect_byte_order(ByteView data, std::optional<Platform> hint = std::nullopt);

// Decodes the archive in the given byte order. Checks: header present, chunk size non-zero and
// at most max_chunk_size (limit error otherwise),
// every record inside its chunk with size >= 16. A final chunk shorter than the chunk size is
// accepted and kept short (see notes()). Errors name the offset and `dgc.chunk[i].record[j]`.
Archive decode_archive(const ByteReader& data);

// Writes the archive: header, then each chunk's count, records and stored padding. Throws
// limit when a chunk's records overflow the chunk size, usage when a chunk's padding does not
// fill it exactly (only the last chunk may stay short, as it was read).
Bytes encode_archive(const Archive& archive);

// Observations worth telling the user (chunk size not a multiple of 0x800, short last chunk,
// non-zero header or chunk padding), one line each.
std::vector<std::string> archive_notes(const Archive& archive);

// The index of the record whose name ID is `name_id` (first match), if any.
std::optional<std::size_t> find_record(const Archive& archive, std::int32_t name_id);

// The record a text names: "#index" (parse_id after the '#'; nullopt when out of range), else
// the first record whose name ID is id_from_text(names, text) (a name, "0xHASH" or a signed
// decimal ID). nullopt when there is none.
std::optional<std::size_t> find_record_by_text(const Archive& archive, const NameTable& names, std::string_view text);

}  // namespace mod::totem
