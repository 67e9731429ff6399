#pragma once
// BinArchive: the asset archive format of Pokémon Stadium, and the Pokémon model archive at
// ROM 0x920000. Spec: doc/formats/binarchive.md.
//
//   +0x00 u16 flags (0 in ROM)   +0x02 u16 fragment id (0xEF for the model archive)
//   +0x04 u32 0 in ROM           +0x08 u32 total_size   +0x0C u32 count
//   +0x10 count × {u32 offset (from the archive start), u32 size, u32 cache (0 in ROM),
//                  u32 unknown (never read by the game)}
//
// An entry's payload is PERS-SZP (Yay0 inside), PRESJPEG (kept opaque), a raw FRAGMENT, or
// other raw data. Repacking keeps every unchanged entry's blob and descriptor words byte for
// byte and re-encodes only what changed (see RepackOptions / repack_archive).

#include "libmod/codec/szp.hpp"
#include "libmod/core/bytes.hpp"
#include "libmod/core/progress.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mod::stadium {

// ROM placement of the model archive [decomp rom.yaml, 19840.c]: the address is a constant in
// main code and the audio archive starts at the limit.
inline constexpr std::uint32_t model_archive_rom = 0x920000;
inline constexpr std::uint32_t model_archive_rom_end = 0x15C0000;
inline constexpr std::uint16_t model_fragment_id = 0xEF;
inline constexpr std::uint32_t archive_header_size = 0x10;
inline constexpr std::uint32_t descriptor_size = 0x10;
inline constexpr std::uint32_t entry_alignment = 16;

// Runtime limits of the model thread [decomp 19840.c, memmap.c].
struct RuntimeLimits {
    std::uint32_t compressed_buffer = 0x28000;  // ALIGN16(stored size) must fit
    std::uint32_t model_block = 0x3C000;        // ALIGN16(decompressed) + 0x10 header must fit
    std::uint32_t model_block_header = 0x10;
    std::uint32_t fragment_max = 0x100000;      // a fragment must stay below
};

struct ArchiveHeader {
    std::uint16_t flags = 0;
    std::uint16_t fragment_id = 0;
    std::uint32_t word4 = 0;
    std::uint32_t total_size = 0;
    std::uint32_t count = 0;
};

struct Descriptor {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
    std::uint32_t cache = 0;
    std::uint32_t unknown = 0;
};

enum class PayloadKind { pers_szp, presjpeg, fragment, raw };
const char* to_string(PayloadKind kind) noexcept;
// Parses "pers-szp" / "presjpeg" / "fragment" / "raw" (format error otherwise).
PayloadKind parse_payload_kind(std::string_view name);

// Classifies a blob by its first bytes as the game's loader does.
PayloadKind classify_payload(ByteView blob) noexcept;

// The bytes of an archive's region, read-only: held by the archive itself, or a view of a
// buffer it shares ownership of (the image it was parsed from: view_archive, no copy). Copies
// of a RegionBytes share the bytes.
class RegionBytes {
public:
    RegionBytes() = default;
    // Takes the bytes over (moved, not copied).
    explicit RegionBytes(Bytes owned);
    // `bytes` lie in a buffer `owner` keeps alive (an empty owner: the caller guarantees they
    // outlive every copy). Nothing may change them while a copy exists.
    RegionBytes(std::shared_ptr<const void> owner, ByteView bytes) noexcept
        : owner_(std::move(owner)), bytes_(bytes) {}

    const std::uint8_t* data() const noexcept { return bytes_.data(); }
    std::size_t size() const noexcept { return bytes_.size(); }
    bool empty() const noexcept { return bytes_.empty(); }
    auto begin() const noexcept { return bytes_.begin(); }
    auto end() const noexcept { return bytes_.end(); }
    std::uint8_t operator[](std::size_t i) const noexcept { return bytes_[i]; }
    std::uint8_t back() const noexcept { return bytes_.back(); }
    operator ByteView() const noexcept { return bytes_; }
    Bytes copy() const { return Bytes(bytes_.begin(), bytes_.end()); }

    friend bool operator==(const RegionBytes& a, const RegionBytes& b) noexcept { return same(a.bytes_, b.bytes_); }
    friend bool operator==(const RegionBytes& a, const Bytes& b) noexcept { return same(a.bytes_, b); }

private:
    static bool same(ByteView a, ByteView b) noexcept;
    std::shared_ptr<const void> owner_;
    ByteView bytes_;
};

struct Archive {
    ArchiveHeader header;
    std::vector<Descriptor> entries;
    // The whole region the archive was read from (ROM[start, region end)): entries, the gaps
    // between them and the tail padding, kept so unchanged bytes are copied, never rebuilt.
    RegionBytes region;
    std::string file;  // for messages
    // Where `region` starts in `file` (the archive's ROM address in a z64 image): errors give
    // file offsets, region-relative offsets plus this.
    std::uint64_t base = 0;

    ByteView blob(std::size_t i) const;
    // End of the data: the largest offset + size, and at least the descriptor table's end.
    std::uint32_t data_end() const noexcept;
};

// Parses the header and descriptors from `region` (which starts at the archive). Checks the
// table fits, every entry lies inside the region and entries do not overlap; offsets that are
// not 16-aligned, non-zero cache words and a total_size that disagrees with hypothesis U6 are
// reported by audit_archive, not rejected. Errors name `archive[i]`.
Archive parse_archive(const ByteReader& region);
// The same, keeping `region` itself as Archive::region (moved in, no copy); `file` and `base`
// (where the region starts in the file) are what messages name. For a region just built, such
// as RepackResult::region.
Archive parse_archive(Bytes&& region, std::string file, std::uint64_t base);
// The same, with Archive::region a view of `region`'s bytes, which `owner` keeps alive (see
// RegionBytes): no copy. For an image that stays unchanged while the archive is used.
Archive parse_archive(const ByteReader& region, std::shared_ptr<const void> owner);

// Hypothesis U6 (one place): total_size = ALIGN16(end of the last entry's data), relative to
// the archive start. `audit_archive` says when a real archive disagrees.
std::uint32_t total_size_u6(std::uint32_t data_end) noexcept;

// Observations about an archive that contradict a documented expectation (hypotheses U2, U4,
// U5, U6): one line each, empty when everything matches.
std::vector<std::string> audit_archive(const Archive& archive);

// A decoded entry: what the game has in RAM before relocation.
struct DecodedEntry {
    PayloadKind kind = PayloadKind::raw;
    std::optional<szp::Header> szp;  // for PERS-SZP
    std::uint32_t yay0_stream_bytes = 0;
    // PERS-SZP: the size2-byte buffer after fix-ups; fragment/raw/PRESJPEG: the blob itself.
    Bytes content;
    bool is_fragment = false;  // "FRAGMENT" at +8 of content
};

DecodedEntry decode_entry(const Archive& archive, std::size_t index);

// For an error raised while reading entry `index`'s decoded content (offsets relative to
// `content`): an entry stored as is gets file offsets back; for a PERS-SZP entry the message
// says the offset is in the data decompressed from archive[index]. Fills in the file.
void locate_entry_error(Error& e, const Archive& archive, std::size_t index, const DecodedEntry& entry);

// One changed entry for repack_archive: the entry's new decoded content (what decode_entry
// returns in `content`). Raw kinds are stored as given; PERS-SZP entries are re-encoded.
struct Replacement {
    std::size_t index = 0;
    Bytes content;
};

struct RepackOptions {
    yay0::Mode mode = yay0::Mode::nintendo;
    unsigned threads = 0;          // 0 = all cores; output identical for any value
    bool reencode_all = false;     // re-encode every PERS-SZP entry (benchmarks, self-tests)
    RuntimeLimits limits;
    // Absolute ROM address of the archive and the highest allowed end (limit check).
    std::uint32_t rom_start = model_archive_rom;
    std::uint32_t rom_end_limit = model_archive_rom_end;
    // Check the model-thread limits (compressed buffer, model block, fragment size) for
    // re-encoded entries. Off for archives that are not loaded by the model thread.
    bool model_limits = true;
    // Advanced by one per entry examined (thread-safe); null for none.
    Progress* progress = nullptr;
};

struct EntryOutcome {
    bool reencoded = false;
    bool moved = false;
    Descriptor descriptor;
};

struct RepackResult {
    Bytes region;  // same length as the input region
    ArchiveHeader header;
    std::vector<EntryOutcome> entries;
    std::size_t reencoded = 0;
};

// Lays the archive out again. Rules (doc/formats/binarchive.md § repack):
//  * entries keep their order; an entry whose content did not change keeps its blob and all
//    four descriptor words (only the offset follows when an earlier entry grew);
//  * a changed PERS-SZP entry becomes szp::pack(content) (header 0x18, no fix-ups); a changed
//    raw entry is stored as given (usage error when it starts with "PERS-SZP": the loader would
//    decompress it); a non-zero stored size that was a multiple of 16 stays one (zero pad);
//  * an entry stays at its original offset when everything before it fits there, otherwise it
//    goes to the next 16-aligned offset; bytes of the original region that are not covered by
//    a moved or resized entry (gaps, tail padding) are kept;
//  * total_size follows hypothesis U6 via total_size_after_repack;
//  * limits: ALIGN16(stored) <= 0x28000, ALIGN16(decompressed) + 0x10 <= 0x3C000, fragment <
//    0x100000 (each naming `archive[i]`), and rom_start + end <= rom_end_limit.
// Re-encoding runs in parallel through mod::parallel_map; the bytes do not depend on threads.
RepackResult repack_archive(const Archive& archive, const std::vector<Replacement>& replacements,
                            const RepackOptions& options = {});
// The same written over `region` instead of a copy of the region (RepackResult::region stays
// empty): `region` holds the bytes of archive.region and may be the very memory it views (a
// workspace ROM; view_archive), so a repack costs no second region. Every check runs before
// the first byte is written: on an error `region` is unchanged. Afterwards `archive` no longer
// describes a region it views. The bytes are those repack_archive returns.
RepackResult repack_archive_into(const Archive& archive, const std::vector<Replacement>& replacements,
                                 const RepackOptions& options, std::span<std::uint8_t> region);

// total_size for a repacked archive (hypothesis U6, one place): the original value when the
// data end did not move, else total_size_u6(new_end) plus whatever the original exceeded
// total_size_u6(original_end) by (so a real archive's convention carries over).
std::uint32_t total_size_after_repack(std::uint32_t original_total, std::uint32_t original_end,
                                      std::uint32_t new_end) noexcept;

// Checks the runtime limits for one entry; limit error naming `archive[index]`.
void check_entry_limits(std::size_t index, std::uint32_t stored_size, std::uint32_t decompressed_size,
                        std::optional<std::uint32_t> fragment_size, const RuntimeLimits& limits);

}  // namespace mod::stadium
