#pragma once
// Decoding every record we understand, checking it, and proving the byte-exact round trip:
// the command that tests our hypotheses (zero2, unknown entries, MESH layout) on real files.

#include "libmod/totem/archive.hpp"
#include "libmod/totem/mesh.hpp"
#include "libmod/totem/skin.hpp"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mod::totem {

enum class RecordKind { skin, mesh, opaque };
const char* to_string(RecordKind k) noexcept;
// SKIN / MESH by type ID (CRC-32 of "SKIN" / "MESH"); everything else (SURFACE included) is
// kept opaque.
RecordKind record_kind(const Record& record) noexcept;

// A reader over record `index`'s payload inside the whole archive file `dgc` (so error
// offsets are file offsets), path "dgc.record[index]". Uses Record::offset, so only for
// records as decoded from that file.
ByteReader payload_reader(const ByteReader& dgc, const Archive& archive, std::size_t index);

struct RecordVerdict {
    std::size_t index = 0;
    RecordKind kind = RecordKind::opaque;
    bool decoded = false;     // false: `error` says why
    bool round_trip = false;  // encode(decode(payload)) == payload
    std::string error;
    Zero2Reading reading = Zero2Reading::no_anim_block;  // SKIN only
    bool ambiguous = false;                              // SKIN only
    // MESH only (decoded): its item subtype ("item flags") and strip material-index census.
    std::uint16_t mesh_subtype = 0;
    StripIndexCensus strip_census;
    std::vector<Finding> findings;
};

// For check_skin: the type id of the record named `id` in `archive` (a MESH when any record of
// that name is one, else the first record's type), nullopt when none has that name.
TargetTypeLookup target_types(const Archive& archive);
// MESH extents of every MESH record that decodes, by name ID (for SKIN range checks).
std::unordered_map<std::int32_t, MeshExtent> mesh_extents(const ByteReader& dgc, const Archive& archive,
                                                          unsigned threads = 0);

// Verdicts for every SKIN and MESH record (opaque records are skipped), in record order.
// Never throws for a bad record: its verdict carries the error. Deterministic for any
// thread count.
std::vector<RecordVerdict> verify_archive(const ByteReader& dgc, const Archive& archive, unsigned threads = 0);

}  // namespace mod::totem
