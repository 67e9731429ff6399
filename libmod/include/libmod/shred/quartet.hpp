#pragma once
// SHRED model quartets: the four PAK entries of a model sharing a base name (MMP, MGP, SCP and
// the file holding the mesh metadata) and OUR working layout for the metadata file and the
// index slices: the hypothesis "shred-quartet/1", defined ONLY here (namespace quartet_v1) and
// in doc/formats/shred-quartet.md, and used identically by the reader, the writer, the
// replacement and the sample forge. Where a real file does not fit, read_quartet() refuses
// with a message that starts "shred-quartet/1 does not match <file>: " and says what differed.
//
// Proven facts used (seed): ep at +0x9C (stream offset from the record start S), processed
// flag bit 0 at +0xB4, descriptor stride 36 and format mask 0x8007F, a 16-byte footer after
// the stream, indices in the MMP slice, an empty MGP slice for skinned meshes.
// Everything else below is hypothesis.

#include "libmod/core/bytes.hpp"
#include "libmod/shred/mesh.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/shred/preprocess.hpp"
#include "libmod/shred/scan.hpp"
#include "libmod/shred/skeleton.hpp"
#include "libmod/shred/stream.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mod::shred {

namespace quartet_v1 {
inline constexpr const char* name = "shred-quartet/1";
// Metadata file header.
inline constexpr std::size_t mesh_count_field = 0x00;    // u32
inline constexpr std::size_t table_offset_field = 0x04;  // u32, offset of mesh_count x u32 record offsets
inline constexpr std::size_t file_size_field = 0x08;     // u32, the metadata file's size
inline constexpr std::size_t header_bytes = 0x20;        // 0x0C..0x1F unknown, kept
// Mesh record, relative to its start S (16-byte aligned).
inline constexpr std::size_t name_hash = 0x00;           // u32, kept
inline constexpr std::size_t material_hash = 0x04;       // u32, kept
inline constexpr std::size_t box_min = 0x10;             // f32[3], bounds of the positions
inline constexpr std::size_t box_max = 0x1C;             // f32[3]
inline constexpr std::size_t descriptor = 0x40;          // primary stream descriptor:
inline constexpr std::size_t descriptor_vertex_count = 0x40;  //   u32
inline constexpr std::size_t descriptor_stride = 0x44;        //   u32 (36, proven value)
inline constexpr std::size_t descriptor_format_mask = 0x48;   //   u32 (0x8007F, proven value)
inline constexpr std::size_t mgp_offset = 0x4C;               //   u32, MGP slice
inline constexpr std::size_t mgp_size = 0x50;                 //   u32 (0 for skinned meshes)
inline constexpr std::size_t mmp_offset = 0x60;          // u32, index slice offset in the MMP
inline constexpr std::size_t index_count = 0x64;         // u32, 3 per triangle
inline constexpr std::size_t index_format = 0x68;        // u32, 2 = big-endian u16
inline constexpr std::uint32_t index_format_u16 = 2;
inline constexpr std::size_t record_head_bytes = 0xC0;   // our writer's ep
inline constexpr std::size_t alignment = 16;             // records and MMP slices, zero padded
}  // namespace quartet_v1

// Entries of one quartet inside a PAK (indices into Pak::entries).
struct QuartetEntries {
    std::string base;      // shared base name (as the first member spells it)
    std::size_t meta = 0;  // the member that is not .mmp/.mgp/.scp
    std::size_t mmp = 0, mgp = 0, scp = 0;
};
// True when the metadata file's header and table can be read (count >= 1, table inside the
// file) and every record it lists has ep = 0xFFFFFFFF at +0x9C: a quartet of static
// (non-skinned) meshes, outside shred-quartet/1's scope (which covers skinned quartets).
// `modkit shred show` lists such quartets as not skinned instead of as failures.
bool is_static_quartet(ByteView meta) noexcept;

// Groups entries by base name (text before the last '.', case-insensitive); a group with
// exactly one .mmp, one .mgp, one .scp and one other entry is a quartet. Ordered by `meta`.
std::vector<QuartetEntries> find_quartets(const Pak& pak);

// The quartet whose base name is `quartet_base` (case-insensitive), if any.
std::optional<QuartetEntries> find_quartet(const Pak& pak, std::string_view quartet_base);

struct QuartetFiles {
    Bytes meta, mmp, mgp, scp;
};
QuartetFiles quartet_files(const Pak& pak, const QuartetEntries& q);

// One mesh of the metadata file under shred-quartet/1.
struct QuartetMesh {
    std::uint64_t offset = 0;  // S in the metadata file
    Bytes head;                // [S, S + ep): raw, fields below patched in on write
    Stream stream;
    std::array<std::uint8_t, 16> footer{};
    std::uint32_t mmp_offset = 0;
    std::vector<std::array<std::uint32_t, 3>> triangles;  // from the MMP slice
};

struct QuartetModel {
    std::string name;  // for messages
    Bytes meta_header;  // [0, table_offset): raw, count and file size patched on write
    std::uint32_t table_offset = 0;
    std::vector<QuartetMesh> meshes;
    Skeleton skeleton;
    // The MMP outside the slices: the bytes before the first slice and after the last one's
    // padding, raw. The slices themselves are rebuilt from QuartetMesh::triangles, in mesh order.
    Bytes mmp_prefix, mmp_suffix;
    Bytes mgp;  // raw (skinned meshes have empty MGP slices)
};

// Reads and checks the hypothesis (header, table, every record's descriptor and slices, every
// stream with the descriptor's vertex count and the skeleton's bone count, zero padding) and
// that write_quartet would give back the same bytes (compared in place, not laid out: the
// error's path names the header, table, record, stream, footer or slice holding the first
// difference). Throws format errors as described above.
QuartetModel read_quartet(const QuartetFiles& files, const std::string& name = {});
// read_quartet on the quartet's entries inside `pak` (not copied), the model named
// pak.file + ":" + q.base.
QuartetModel read_pak_entries(const Pak& pak, const QuartetEntries& q);

// Lays the model out: records back to back in model order (16-aligned, zero padding), the
// table and header words updated, the MMP rebuilt slice by slice. Same bytes when unchanged.
// Usage error when the model cannot be laid out: meta_header shorter than 0x20 bytes or not
// table_offset bytes long, a record head shorter than 0xB8 bytes.
QuartetFiles write_quartet(const QuartetModel& model);

// A new quartet from scratch (forge, tests): our SCP writer, one record per mesh with the
// given hashes, streams made by the preprocessor with `rule`.
struct NewQuartetMesh {
    std::uint32_t name_hash = 0;
    std::uint32_t material_hash = 0;
    SkinnedMesh mesh;
    std::uint32_t flags = metadata_field::processed_bit;  // the word at +0xB4 (shred-flags/1)
};
QuartetFiles build_quartet(std::span<const BoneSpec> bones, std::span<const NewQuartetMesh> meshes,
                           OrderingRule rule = OrderingRule::weight_desc);

struct ReplaceOptions {
    OrderingRule rule = OrderingRule::weight_desc;
};
struct ReplaceReport {
    std::uint32_t old_vertices = 0, new_vertices = 0;
    std::uint32_t old_batches = 0, new_batches = 0;
    std::uint32_t old_triangles = 0, new_triangles = 0;
    std::int64_t meta_size_change = 0, mmp_size_change = 0;
};

// Full mesh replacement: preprocesses `mesh` (the old stream's envelope and terminal records
// kept as templates), writes the new record (descriptor count, box, index count updated; the
// other head words and the footer kept), the new MMP slice, and moves every later record and
// slice (table, file size and other records' MMP offsets fixed). Refused (format, with the
// read_quartet message) when the files do not fit shred-quartet/1, and (format) when the mesh
// names a bone outside the skeleton, has more than 65,535 vertices (u16 indices) or no
// triangles. `name` names the quartet in messages.
QuartetFiles replace_mesh(const QuartetFiles& files, std::size_t mesh_index, const SkinnedMesh& mesh,
                          const ReplaceOptions& options = {}, const std::string& name = {},
                          ReplaceReport* report = nullptr);

// What replace_mesh_in_model gives: the new files (as write_quartet lays them out; the MGP and
// SCP are the input's) and the model its self-check proved they hold, so callers need not
// read them again. It is what read_quartet gives on the new files: the replaced mesh is read
// back from them in full, the other meshes are the input model's (moved, with their new
// offsets and head words), and the files are checked to be exactly that model's layout (see
// check_pak_replacement for what that proves); the skeleton is the input's, which a
// replacement does not rewrite.
struct QuartetReplacement {
    QuartetFiles files;
    QuartetModel model;
};

// replace_mesh for a model read_quartet has already read from the files being replaced (they
// are not read again; the model is consumed). Same checks, errors and bytes as replace_mesh;
// messages name the quartet by `model.name`.
QuartetReplacement replace_mesh_in_model(QuartetModel model, std::size_t mesh_index, const SkinnedMesh& mesh,
                                         const ReplaceOptions& options = {}, ReplaceReport* report = nullptr);

// The same inside a PAK: finds the quartet whose base name is `quartet_base` (case-insensitive),
// replaces its metadata and MMP entries, repacks (repack_pak's layout). Usage error when no
// such quartet.
Bytes replace_mesh_in_pak(const Pak& pak, std::string_view quartet_base, std::size_t mesh_index,
                          const SkinnedMesh& mesh, const ReplaceOptions& options = {},
                          ReplaceReport* report = nullptr);

// replace_mesh_in_pak for the quartet `entries` of `pak` whose model read_quartet has already
// read from those entries (read_pak_entries; the input is not read again): the new PAK and the
// self-check's model of the new quartet (as QuartetReplacement::model), made on the new PAK
// itself. The new metadata file and MMP are laid out straight into the new PAK
// (repack_pak_in_place). Usage error when an entry index is not in the PAK.
struct PakReplacement {
    Bytes pak;
    QuartetModel model;
};
PakReplacement replace_mesh_in_pak(const Pak& pak, const QuartetEntries& entries, QuartetModel model,
                                   std::size_t mesh_index, const SkinnedMesh& mesh, const ReplaceOptions& options = {},
                                   ReplaceReport* report = nullptr);

// The self-check replace_mesh_in_pak runs on the PAK it wrote (public so that it can be run on
// a damaged copy). `model` is the quartet read from the input PAK's `entries`
// (read_pak_entries; consumed; its mesh `mesh_index` may hold anything: that mesh is read back).
// The four entries are found through `written`'s own table; then
//  * the MGP and SCP entries must equal the model's bytes (they are copies of the input's);
//  * the metadata header and table are checked as read_quartet does, and record `mesh_index`
//    and its index slice are read and checked in full (stream decoded with the skeleton's bone
//    count, descriptor, footer, indices below the vertex count);
//  * the metadata file and the MMP must be byte for byte the layout of the model made of
//    that record and the input's other records: every other record and slice is thus the one
//    the input's reading decoded and checked, at its new offset, with zero padding and nothing
//    else in between.
// Returns that model (= read_quartet on the written entries). Errors are read_quartet's
// ("shred-quartet/1 does not match <model.name> (metadata|MMP|MGP|SCP): ...", offsets in that
// entry, paths such as meta.mesh[2].stream), and pak_entry_data's naming `file`.
QuartetModel check_pak_replacement(ByteView written, const QuartetEntries& entries, QuartetModel model,
                                   std::size_t mesh_index, const std::string& file = {});

}  // namespace mod::shred
