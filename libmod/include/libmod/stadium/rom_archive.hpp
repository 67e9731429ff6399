#pragma once
// The model archive inside a Pokémon Stadium ROM image: load a ROM in any byte order, read the
// archive region, write a repacked region back, save in the input's order, extract to a folder
// and repack from it, and the self-test that proves an unchanged repack is the identity.
// Specs: doc/formats/binarchive.md, doc/formats/pers-szp.md, doc/formats/fragment.md.

#include "libmod/n64/rom.hpp"
#include "libmod/stadium/archive.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace mod::stadium {

struct StadiumRom {
    n64::ByteOrder order = n64::ByteOrder::z64;
    Bytes z64;         // normalised image
    std::string file;  // for messages
};

// Reads a ROM file in any byte order (format error when it is not an N64 image).
StadiumRom load_rom(const std::filesystem::path& path);
// Takes the image by value: a z64 image moved in is kept without a copy.
StadiumRom load_rom_bytes(Bytes image, std::string file = {});

// The archive at `rom_start`; its region runs to min(image size, region_end). Errors name
// `archive…` with offsets relative to the archive start.
Archive read_archive(const StadiumRom& rom, std::uint32_t rom_start = model_archive_rom,
                     std::uint32_t region_end = model_archive_rom_end);
// The same from a z64 image held elsewhere (no StadiumRom, so no copy of it); `file` names it.
Archive read_archive(ByteView z64, const std::string& file, std::uint32_t rom_start = model_archive_rom,
                     std::uint32_t region_end = model_archive_rom_end);
// The same as a view of `z64` (Archive::region points into it: no copy, and only the header
// and the table are read). `owner` keeps the image alive for the archive and its copies; when
// empty, the caller guarantees the image outlives them. Bytes of the image changed meanwhile
// are read as they are then, but the entries are those parsed here: parse again after a
// change that may touch the table.
Archive view_archive(ByteView z64, std::shared_ptr<const void> owner, const std::string& file,
                     std::uint32_t rom_start = model_archive_rom, std::uint32_t region_end = model_archive_rom_end);

// The archive of the ROM file at `path`, for commands that read only the archive (list, show,
// animations): a z64 image is not read whole, only its boot area (the byte order) and the
// archive up to its last entry's end, read straight into Archive::region (which is then
// shorter than the region: not for repacking). Any other image (v64, n64, a size that is
// not a multiple of 4, too short) is read as load_rom + read_archive do, with the same errors:
// the result and the messages are those of read_archive(load_rom(path)). `order`, when not
// null, receives the image's byte order.
Archive read_rom_archive(const std::filesystem::path& path, n64::ByteOrder* order = nullptr,
                         std::uint32_t rom_start = model_archive_rom, std::uint32_t region_end = model_archive_rom_end);

// The ROM with the archive region replaced (same size), converted back to `rom.order`.
Bytes write_archive(const StadiumRom& rom, const RepackResult& repacked,
                    std::uint32_t rom_start = model_archive_rom);
// The same without copying the image: the region is written into rom.z64 in place, and
// take_image() hands the bytes out in the input's order (moved out for z64 input).
void apply_archive(StadiumRom& rom, const RepackResult& repacked, std::uint32_t rom_start = model_archive_rom);
Bytes take_image(StadiumRom&& rom);
// The image in the input's order, copied (an edit that found nothing to change returns it).
Bytes image_of(const StadiumRom& rom);

// ---- extraction folder -------------------------------------------------------------------
// DIR/index.json records the ROM (order, md5), the archive header, and per entry: model id,
// the four descriptor words, the kind, the PERS-SZP header, the sha1 of the original blob and
// of the extracted content, and the content file name (DIR/entries/NNN.<kind>). Entries are
// decoded: PERS-SZP → the unpacked buffer (a FRAGMENT for models), others → the blob itself.

struct ExtractSummary {
    std::size_t entries = 0;
    std::size_t fragments = 0;
    std::uint64_t bytes = 0;
};

ExtractSummary extract_archive(const StadiumRom& rom, const Archive& archive, const std::filesystem::path& dir,
                               unsigned threads = 0);

// Reads DIR back: checks index.json describes this archive (same count, descriptors and
// original blob hashes; conflict error otherwise) and returns a replacement for every entry
// whose file no longer matches its recorded hash. A changed file of an entry that decoded to a
// FRAGMENT must parse as one (the error, kind as parse_fragment's, names the file, the entry
// index `archive[i].fragment…` and says nothing was written).
std::vector<Replacement> read_extracted(const Archive& archive, const std::filesystem::path& dir);

// ---- self-test ----------------------------------------------------------------------------
struct VerifyReport {
    std::size_t entries = 0;
    std::size_t pers_szp = 0, fragments = 0, raw_fragments = 0, presjpeg = 0, raw = 0;
    // Repacking with no change, and with every entry "replaced" by its own decoded content,
    // reproduces the region byte for byte.
    bool identity_unchanged = false;
    bool identity_same_content = false;
    // PERS-SZP entries whose Yay0 stream the nintendo-mode encoder reproduces byte for byte.
    std::size_t nintendo_matches = 0;
    std::vector<std::size_t> nintendo_mismatches;
    // Fragments whose relocation table matches the structure walk; problems one line each.
    std::size_t crosscheck_ok = 0;
    std::vector<std::string> crosscheck_problems;
    std::vector<std::string> audit;  // audit_archive notes
    // Per fragment: relocation words the game skips or cannot resolve (relocs_the_game_skips)
    // and root pointer arrays without their NULL terminator (ModelMap::notes). Reported, never
    // a failure.
    std::vector<std::string> fidelity_notes;
    bool ok() const noexcept { return identity_unchanged && identity_same_content; }
};

VerifyReport verify_archive(const Archive& archive, unsigned threads = 0);

}  // namespace mod::stadium
