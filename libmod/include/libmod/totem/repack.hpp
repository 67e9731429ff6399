#pragma once
// Re-laying out an archive after edits. Spec: doc/formats/totem-archive.md ("Repacking").
//
// The rule (ours; the original packer's is unknown): a record whose ids and payload are
// unchanged stays in its chunk, in its order; a changed record stays in its chunk while the
// chunk still fits, otherwise it moves (largest first) to the first chunk with room, or to a
// new chunk at the end; new records are placed the same way. No record ever crosses a chunk.
// The chunk size grows (to the next multiple of 0x800) only when some record no longer fits
// an empty chunk. Chunks whose contents are untouched keep their padding bytes verbatim.

#include "libmod/totem/archive.hpp"

#include <optional>
#include <string>
#include <vector>

namespace mod::totem {

struct RepackItem {
    Record record;
    // Index of the original record this one replaces (std::nullopt for a new record).
    std::optional<std::size_t> origin;
};

struct RepackReport {
    std::uint32_t old_chunk_size = 0;
    std::uint32_t new_chunk_size = 0;
    std::size_t unchanged = 0;         // same bytes, same chunk
    std::size_t changed_in_place = 0;  // new bytes, same chunk
    std::size_t moved = 0;             // changed records that had to leave their chunk
    std::size_t added = 0;
    std::size_t removed = 0;
    std::size_t chunks_rewritten = 0;  // chunks whose contents (hence padding) changed
    std::vector<std::string> notes;    // one line per noteworthy event (growth, moves, padding)

    bool chunk_size_grew() const noexcept { return new_chunk_size > old_chunk_size; }
};

// Lays out `items` (the complete new record list, at most one item per origin) starting from
// `original`. Throws conflict when two items claim the same origin, usage when an origin is
// out of range, limit when a record cannot fit even a 4 GiB chunk.
Archive repack(const Archive& original, std::vector<RepackItem> items, RepackReport* report = nullptr);

// Items that reproduce `archive` unchanged (origin i for record i): the starting point for edits.
std::vector<RepackItem> items_of(const Archive& archive);

}  // namespace mod::totem
