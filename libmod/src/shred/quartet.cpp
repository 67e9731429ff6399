// Quartets under the hypothesis shred-quartet/1 (quartet.hpp, doc/formats/shred-quartet.md):
// grouping PAK entries, reading/checking the metadata file and MMP slices, writing them back.
#include "libmod/shred/quartet.hpp"

#include "libmod/shred/scan.hpp"
#include "shred/stream_pieces.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstring>
#include <map>

#include "shred/sse2_lanes.hpp"

namespace mod::shred {

namespace q1 = quartet_v1;

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::pair<std::string, std::string> split_name(const std::string& name) {
    auto dot = name.rfind('.');
    if (dot == std::string::npos) return {name, ""};
    return {name.substr(0, dot), lower(name.substr(dot + 1))};
}

// The one message shape for "the hypothesis does not fit this file".
[[noreturn]] void mismatch(const std::string& file, std::uint64_t at, const std::string& path, const std::string& what) {
    throw Error(ErrorKind::format, std::string(q1::name) + " does not match " + (file.empty() ? "the quartet" : file) +
                                       ": " + what,
                file, at, path);
}

std::uint32_t be32(ByteView b, std::size_t at) { return endian::load_be32(b.data() + at); }

std::string mesh_path(std::size_t i) { return "meta.mesh[" + std::to_string(i) + "]"; }

// ---- Index slices: triangle corners (u32 in the model) <-> big-endian u16 in the MMP ----------
// Both directions take the u32 side as bytes (a vector of std::array<u32, 3> is 12 bytes per
// triangle, back to back), eight indices at a time where SSE2 is there. On failure they
// return false having written an unspecified part: the caller then finds the index to name.
static_assert(sizeof(std::array<std::uint32_t, 3>) == 12);

#if defined(__SSE2__)
using sse2::byte_swap_16;
#endif

// `count` u32 at `in` as big-endian u16 at `out`; false when one does not fit u16.
bool encode_indices(const std::uint8_t* in, std::size_t count, std::uint8_t* out) {
    std::size_t i = 0;
#if defined(__SSE2__)
    for (; i + 8 <= count; i += 8) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 4 * i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 4 * i + 16));
        const __m128i high = _mm_srli_epi32(_mm_or_si128(a, b), 16);
        if (_mm_movemask_epi8(_mm_cmpeq_epi32(high, _mm_setzero_si128())) != 0xFFFF) return false;
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * i), byte_swap_16(sse2::low_halves(a, b)));
    }
#endif
    for (; i < count; ++i) {
        const std::uint32_t v = endian::load_native<std::uint32_t>(in + 4 * i);
        if (v > 0xFFFF) return false;
        endian::store_be16(out + 2 * i, static_cast<std::uint16_t>(v));
    }
    return true;
}

// `count` big-endian u16 at `in` as u32 at `out`; false when one is not below `limit`.
bool decode_indices(const std::uint8_t* in, std::size_t count, std::uint32_t limit, std::uint8_t* out) {
    std::size_t i = 0;
#if defined(__SSE2__)
    if (limit > 0) {
        // Unsigned 16-bit "below": SSE2 compares signed, so both sides are offset by 0x8000.
        const __m128i bias = _mm_set1_epi16(static_cast<short>(0x8000));
        const __m128i last = _mm_set1_epi16(static_cast<short>(std::min<std::uint32_t>(limit - 1, 0xFFFF) ^ 0x8000));
        for (; i + 8 <= count; i += 8) {
            const __m128i v = byte_swap_16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * i)));
            if (_mm_movemask_epi8(_mm_cmpgt_epi16(_mm_xor_si128(v, bias), last)) != 0) return false;
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 4 * i), _mm_unpacklo_epi16(v, _mm_setzero_si128()));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 4 * i + 16), _mm_unpackhi_epi16(v, _mm_setzero_si128()));
        }
    }
#endif
    for (; i < count; ++i) {
        const std::uint32_t v = endian::load_be16(in + 2 * i);
        if (v >= limit) return false;
        std::memcpy(out + 4 * i, &v, 4);
    }
    return true;
}

}  // namespace

std::vector<QuartetEntries> find_quartets(const Pak& pak) {
    std::map<std::string, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < pak.entries.size(); ++i) groups[lower(split_name(pak.entries[i].name).first)].push_back(i);
    std::vector<QuartetEntries> out;
    for (const auto& [key, members] : groups) {
        if (members.size() != 4) continue;
        QuartetEntries q;
        int mmp = 0, mgp = 0, scp = 0, other = 0;
        for (std::size_t i : members) {
            auto ext = split_name(pak.entries[i].name).second;
            if (ext == "mmp") q.mmp = i, ++mmp;
            else if (ext == "mgp") q.mgp = i, ++mgp;
            else if (ext == "scp") q.scp = i, ++scp;
            else q.meta = i, ++other;
        }
        if (mmp != 1 || mgp != 1 || scp != 1 || other != 1) continue;
        q.base = split_name(pak.entries[members.front()].name).first;
        out.push_back(q);
    }
    std::sort(out.begin(), out.end(), [](const QuartetEntries& a, const QuartetEntries& b) { return a.meta < b.meta; });
    return out;
}

QuartetFiles quartet_files(const Pak& pak, const QuartetEntries& q) {
    auto copy = [&](std::size_t i) {
        ByteView d = pak.data(i);
        return Bytes(d.begin(), d.end());
    };
    return {copy(q.meta), copy(q.mmp), copy(q.mgp), copy(q.scp)};
}

namespace {

// ---- The layout (write_quartet's contract), planned from the model alone ----------------------

// Where every record and slice goes, so that the files can be written or compared in one pass.
struct Layout {
    std::vector<std::uint64_t> record_at;  // S of each record in the metadata file
    std::vector<std::uint64_t> slice_at;   // offset of each index slice in the MMP
    std::uint64_t meta_size = 0, mmp_size = 0;
};

// How messages name the files of the quartet `name`.
struct FileNames {
    std::string meta, mmp, mgp, scp;
    explicit FileNames(const std::string& name)
        : meta(name.empty() ? "meta" : name + " (metadata)"), mmp(name.empty() ? "mmp" : name + " (MMP)"),
          mgp(name.empty() ? "mgp" : name + " (MGP)"), scp(name.empty() ? "scp" : name + " (SCP)") {}
};

// The MMP slice rule, in one place for the reader, the planner and the self-check: a slice of
// `index_count` u16 indices starting at `start` is followed by zero padding to the next
// 16-byte boundary OF THE MMP (not a padding of the slice's length: the two differ when the
// prefix is not a multiple of 16). Returns where the next slice (or the suffix) starts.
std::uint64_t slice_end(std::uint64_t start, std::uint64_t index_count) {
    return align_up(start + 2 * index_count, q1::alignment);
}

// Where mesh `i`'s slice starts (i == count: where the suffix starts) in the layout of `m`:
// after the prefix and the slices of meshes 0..i-1. Looks at nothing of mesh i or later.
std::uint64_t slice_start(const QuartetModel& m, std::size_t i) {
    std::uint64_t at = m.mmp_prefix.size();
    for (std::size_t k = 0; k < i; ++k) at = slice_end(at, 3 * std::uint64_t(m.meshes[k].triangles.size()));
    return at;
}

// Where the record of `qm` starting at `s` ends in the layout: after its head, stream and
// footer, zero-padded to the next 16-byte boundary of the metadata file. The next record may
// start there at the earliest (the reader requires it before decoding that record).
std::uint64_t record_end(std::uint64_t s, const QuartetMesh& qm) {
    return align_up(s + qm.head.size() + qm.stream.stream_size() + qm.footer.size(), q1::alignment);
}

// The head words the layout writes (everything else in a record is the model's raw bytes), in
// file order: the emitters below copy the raw runs between them.
static_assert(q1::descriptor_vertex_count + 4 <= q1::mmp_offset && q1::index_count == q1::mmp_offset + 4 &&
              q1::index_count + 4 <= metadata_field::stream_offset);
constexpr std::size_t min_head_bytes = std::max(q1::record_head_bytes - 0x08, metadata_field::min_stream_offset);
// The smallest record a file can hold: the smallest head, a stream of envelope and terminal
// only, the footer, padded to 16 bytes (what record_end gives for it).
constexpr std::uint64_t min_record_bytes =
    (metadata_field::min_stream_offset + 2 * record_bytes + metadata_field::footer_bytes + q1::alignment - 1) /
    q1::alignment * q1::alignment;
static_assert(min_record_bytes == 0x150);

// Throws usage when the model cannot be laid out (header shorter than 0x20 bytes or not
// table_offset bytes long, a head too short) and limit past 4 GiB (naming the file, and the
// record or slice that crosses the limit with the offset it would start at).
Layout plan_layout(const QuartetModel& m) {
    if (m.meta_header.size() < q1::header_bytes)
        throw Error(ErrorKind::usage, "quartet model: header shorter than 0x20 bytes", m.name);
    if (m.meta_header.size() != m.table_offset)
        throw Error(ErrorKind::usage, "quartet model: the header holds " + std::to_string(m.meta_header.size()) +
                                          " bytes but the table offset is " + hex(m.table_offset),
                    m.name);
    const std::size_t count = m.meshes.size();
    Layout l;
    l.record_at.resize(count);
    l.slice_at.resize(count);
    std::uint64_t meta = align_up(std::uint64_t(m.table_offset) + 4 * count, q1::alignment);
    std::uint64_t mmp = m.mmp_prefix.size();
    for (std::size_t i = 0; i < count; ++i) {
        const auto& qm = m.meshes[i];
        if (qm.head.size() < min_head_bytes)
            throw Error(ErrorKind::usage, "quartet model: mesh " + std::to_string(i) + " head is too short", m.name);
        l.record_at[i] = meta;
        l.slice_at[i] = mmp;
        meta = record_end(meta, qm);
        mmp = slice_end(mmp, 3 * std::uint64_t(qm.triangles.size()));
        // Checked per record, so that the error names the one that crosses the limit.
        if (meta > 0xFFFFFFFFull)
            throw Error(ErrorKind::limit, "the metadata file would exceed 4 GiB (mesh " + std::to_string(i) + " at " +
                                              hex(l.record_at[i]) + " ends at " + hex(meta) + ")",
                        FileNames(m.name).meta, l.record_at[i], mesh_path(i));
        if (mmp > 0xFFFFFFFFull)
            throw Error(ErrorKind::limit, "the MMP would exceed 4 GiB (mesh " + std::to_string(i) + "'s slice at " +
                                              hex(l.slice_at[i]) + " ends at " + hex(mmp) + ")",
                        FileNames(m.name).mmp, l.slice_at[i], mesh_path(i) + ".mmp_slice");
    }
    l.meta_size = meta;
    l.mmp_size = mmp + m.mmp_suffix.size();
    if (l.mmp_size > 0xFFFFFFFFull)
        throw Error(ErrorKind::limit, "the MMP would exceed 4 GiB (its suffix at " + hex(mmp) + ")",
                    FileNames(m.name).mmp, mmp, "mmp.suffix");
    return l;
}

// What a byte of the layout belongs to, for the comparer's error path.
enum class Part { header, table, record, stream, footer, padding, prefix, slice, suffix, end };

std::string part_path(Part part, std::size_t i) {
    switch (part) {
    case Part::header: return "meta.header";
    case Part::table: return "meta.table";
    case Part::record: return mesh_path(i);
    case Part::stream: return mesh_path(i) + ".stream";
    case Part::footer: return mesh_path(i) + ".footer";
    case Part::padding: return mesh_path(i) + ".padding";
    case Part::prefix: return "mmp.prefix";
    case Part::slice: return mesh_path(i) + ".mmp_slice";
    case Part::suffix: return "mmp.suffix";
    case Part::end: return "end";
    }
    return {};
}

// The layout written: appended to a byte vector whose capacity is already reserved.
class Appender {
public:
    explicit Appender(Bytes& out) : out_(out) {}
    void raw(const std::uint8_t* p, std::size_t n) { out_.insert(out_.end(), p, p + n); }
    void be32(std::uint32_t v) {
        std::uint8_t b[4];
        endian::store_be32(b, v);
        raw(b, 4);
    }
    void zeros(std::size_t n) { out_.resize(out_.size() + n, 0); }
    void stream(const Stream& s) { append_stream(s, out_); }
    void mark(Part, std::size_t) {}

private:
    Bytes& out_;
};

// The layout compared with bytes already there (a file being read, or one just written),
// without building it: finds the first differing offset (or, when one is a prefix of the
// other, the shorter length), as std::mismatch would on the laid-out bytes.
class Comparer {
public:
    explicit Comparer(ByteView have) : have_(have) {}
    void raw(const std::uint8_t* p, std::size_t n) {
        if (!diff_) {
            std::size_t avail = pos_ < have_.size() ? std::min<std::size_t>(n, have_.size() - pos_) : 0;
            const std::uint8_t* h = avail ? have_.data() + pos_ : nullptr;
            if (avail && std::memcmp(h, p, avail) != 0)
                diff_ = pos_ + static_cast<std::uint64_t>(std::mismatch(h, h + avail, p).first - h);
            else if (avail < n)
                diff_ = pos_ + avail;
        }
        pos_ += n;
    }
    void be32(std::uint32_t v) {
        std::uint8_t b[4];
        endian::store_be32(b, v);
        raw(b, 4);
    }
    void zeros(std::size_t n) {
        static constexpr std::uint8_t zero[64] = {};
        for (; n > sizeof zero; n -= sizeof zero) raw(zero, sizeof zero);
        raw(zero, n);
    }
    void stream(const Stream& s) {
        if (diff_) {
            pos_ += s.stream_size();
            return;
        }
        stream_pieces(s, [this](const std::uint8_t* p, std::size_t n) { raw(p, n); });
    }
    void mark(Part part, std::size_t index) {
        if (!diff_) part_ = part, index_ = index;
    }

    // After the whole layout: where the bytes differ from it, if they do.
    std::optional<std::uint64_t> difference() const {
        if (diff_) return diff_;
        if (pos_ != have_.size()) return std::min<std::uint64_t>(pos_, have_.size());
        return std::nullopt;
    }
    std::string path() const { return part_path(part_, index_); }

private:
    ByteView have_;
    std::uint64_t pos_ = 0;
    std::optional<std::uint64_t> diff_;
    Part part_ = Part::header;
    std::size_t index_ = 0;
};

template <class Sink>
void emit_meta(const QuartetModel& m, const Layout& l, Sink& out) {
    const std::size_t count = m.meshes.size();
    out.mark(Part::header, 0);
    out.be32(static_cast<std::uint32_t>(count));
    out.be32(m.table_offset);
    out.be32(static_cast<std::uint32_t>(l.meta_size));
    out.raw(m.meta_header.data() + q1::file_size_field + 4, m.table_offset - (q1::file_size_field + 4));
    out.mark(Part::table, 0);
    for (std::size_t i = 0; i < count; ++i) out.be32(static_cast<std::uint32_t>(l.record_at[i]));
    std::uint64_t table_end = std::uint64_t(m.table_offset) + 4 * count;
    out.zeros(static_cast<std::size_t>(align_up(table_end, q1::alignment) - table_end));
    for (std::size_t i = 0; i < count; ++i) {
        const auto& qm = m.meshes[i];
        const std::uint8_t* h = qm.head.data();
        out.mark(Part::record, i);
        out.raw(h, q1::descriptor_vertex_count);
        out.be32(static_cast<std::uint32_t>(qm.stream.vertices.size()));
        out.raw(h + q1::descriptor_vertex_count + 4, q1::mmp_offset - (q1::descriptor_vertex_count + 4));
        out.be32(static_cast<std::uint32_t>(l.slice_at[i]));
        out.be32(static_cast<std::uint32_t>(3 * qm.triangles.size()));
        out.raw(h + q1::index_count + 4, metadata_field::stream_offset - (q1::index_count + 4));
        out.be32(static_cast<std::uint32_t>(qm.head.size()));
        out.raw(h + metadata_field::stream_offset + 4, qm.head.size() - (metadata_field::stream_offset + 4));
        out.mark(Part::stream, i);
        out.stream(qm.stream);
        out.mark(Part::footer, i);
        out.raw(qm.footer.data(), qm.footer.size());
        out.mark(Part::padding, i);
        std::uint64_t end = l.record_at[i] + qm.head.size() + qm.stream.stream_size() + qm.footer.size();
        out.zeros(static_cast<std::size_t>(record_end(l.record_at[i], qm) - end));
    }
    out.mark(Part::end, 0);
}

template <class Sink>
void emit_mmp(const QuartetModel& m, const Layout& l, Sink& out) {
    out.mark(Part::prefix, 0);
    out.raw(m.mmp_prefix.data(), m.mmp_prefix.size());
    // Indices go through a small buffer: one copy or comparison per 64 triangles.
    constexpr std::size_t chunk = 64;
    std::uint8_t buf[6 * chunk];
    for (std::size_t i = 0; i < m.meshes.size(); ++i) {
        const auto& triangles = m.meshes[i].triangles;
        out.mark(Part::slice, i);
        for (std::size_t t0 = 0; t0 < triangles.size(); t0 += chunk) {
            std::size_t n = std::min(chunk, triangles.size() - t0);
            if (!encode_indices(reinterpret_cast<const std::uint8_t*>(triangles.data() + t0), 3 * n, buf))
                // The scalar conversion in full (names the index; the buffer is right even if
                // the fast test said no for nothing).
                for (std::size_t t = 0; t < n; ++t)
                    for (std::size_t c = 0; c < 3; ++c) {
                        const std::uint32_t v = triangles[t0 + t][c];
                        if (v > 0xFFFF)
                            throw Error(ErrorKind::limit, "index " + std::to_string(v) + " does not fit u16", m.name);
                        endian::store_be16(buf + 6 * t + 2 * c, static_cast<std::uint16_t>(v));
                    }
            out.raw(buf, 6 * n);
        }
        const std::uint64_t end = l.slice_at[i] + 6 * std::uint64_t(triangles.size());
        out.zeros(static_cast<std::size_t>(slice_end(l.slice_at[i], 3 * std::uint64_t(triangles.size())) - end));
    }
    out.mark(Part::suffix, 0);
    out.raw(m.mmp_suffix.data(), m.mmp_suffix.size());
    out.mark(Part::end, 0);
}

// write_quartet; the MGP and SCP only when `mgp_and_scp`.
QuartetFiles lay_out(const QuartetModel& m, const Layout& l, bool mgp_and_scp) {
    QuartetFiles out;
    out.meta.reserve(static_cast<std::size_t>(l.meta_size));
    Appender meta(out.meta);
    emit_meta(m, l, meta);
    out.mmp.reserve(static_cast<std::size_t>(l.mmp_size));
    Appender mmp(out.mmp);
    emit_mmp(m, l, mmp);
    if (mgp_and_scp) {
        out.mgp = m.mgp;
        out.scp = encode_skeleton(m.skeleton);
    }
    return out;
}

// ---- Reading ----------------------------------------------------------------------------------

// The four files as read: owned (QuartetFiles) or inside a PAK.
struct FileViews {
    ByteView meta, mmp, mgp, scp;
};

FileViews views(const QuartetFiles& f) { return {f.meta, f.mmp, f.mgp, f.scp}; }

struct MetaHeader {
    std::uint32_t table_offset = 0;
    std::vector<std::uint32_t> starts;  // record offsets, checked 16-aligned, ascending, inside
};

MetaHeader read_header(ByteView meta, const std::string& meta_file) {
    if (meta.size() < q1::header_bytes)
        mismatch(meta_file, 0, "meta.header", "the metadata file has " + std::to_string(meta.size()) +
                                                  " bytes, fewer than the 0x20-byte header");
    MetaHeader h;
    std::uint32_t count = be32(meta, q1::mesh_count_field);
    h.table_offset = be32(meta, q1::table_offset_field);
    std::uint32_t fsize = be32(meta, q1::file_size_field);
    if (fsize != meta.size())
        mismatch(meta_file, q1::file_size_field, "meta.file_size",
                 "the word at 0x08 is " + std::to_string(fsize) + ", the file has " + std::to_string(meta.size()) + " bytes");
    if (count == 0) mismatch(meta_file, 0, "meta.mesh_count", "the mesh count at 0x00 is 0");
    if (h.table_offset < q1::header_bytes || h.table_offset % 4 != 0 ||
        std::uint64_t(h.table_offset) + 4ull * count > meta.size())
        mismatch(meta_file, q1::table_offset_field, "meta.table_offset",
                 "a table of " + std::to_string(count) + " record offsets at " + hex(h.table_offset) +
                     " does not fit after the header");
    // Every record takes at least min_record_bytes (a 0xB8-byte head, a stream with no batch,
    // the footer, padded to 16) and records do not overlap: a count the bytes after the table
    // cannot hold is refused here, before the reader sizes its model by it.
    const std::uint64_t records_at = align_up(std::uint64_t(h.table_offset) + 4ull * count, q1::alignment);
    if (records_at + std::uint64_t(count) * min_record_bytes > meta.size())
        mismatch(meta_file, q1::mesh_count_field, "meta.mesh_count",
                 "the mesh count at 0x00 is " + std::to_string(count) + ": that many records need at least " +
                     std::to_string(std::uint64_t(count) * min_record_bytes) + " bytes after the table (" +
                     hex(min_record_bytes) + " each), the file has " +
                     std::to_string(meta.size() > records_at ? meta.size() - records_at : 0));
    h.starts.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        h.starts[i] = be32(meta, h.table_offset + 4 * i);
        std::uint64_t prev_end = i == 0 ? h.table_offset + 4ull * count : h.starts[i - 1];
        if (h.starts[i] % q1::alignment != 0 || h.starts[i] < prev_end || h.starts[i] >= meta.size())
            mismatch(meta_file, h.table_offset + 4 * i, "meta.table[" + std::to_string(i) + "]",
                     "record offset " + hex(h.starts[i]) + " is not 16-aligned, ascending and inside the file");
    }
    return h;
}

// Reads and checks record `i` at S = `s` (its stream with the skeleton's bone count, its
// footer, its index slice, which must start at `expected_slice` when given). Returns the end of
// its slice, 16-aligned.
std::uint64_t read_record(const FileViews& files, const ByteReader& whole, std::uint32_t bone_count, std::size_t i,
                          std::uint64_t s, std::optional<std::uint64_t> expected_slice, const FileNames& names,
                          QuartetMesh& qm) {
    const ByteView meta = files.meta;
    const std::string& meta_file = names.meta;
    const std::string path = mesh_path(i);
    qm.offset = s;
    if (s + q1::record_head_bytes > meta.size())
        mismatch(meta_file, s, path, "the record at " + hex(s) + " is shorter than the 0xC0-byte head");
    std::uint32_t ep = be32(meta, s + metadata_field::stream_offset);
    if (ep == metadata_field::not_skinned)
        mismatch(meta_file, s + metadata_field::stream_offset, path + ".stream_offset",
                 "mesh " + std::to_string(i) + " is not skinned (0xFFFFFFFF at +0x9C); the hypothesis covers skinned quartets");
    if (ep < metadata_field::min_stream_offset || s + ep + 2 * record_bytes > meta.size())
        mismatch(meta_file, s + metadata_field::stream_offset, path + ".stream_offset",
                 "stream offset " + hex(ep) + " at +0x9C does not point inside the file");
    std::uint32_t stride = be32(meta, s + q1::descriptor_stride);
    std::uint32_t mask = be32(meta, s + q1::descriptor_format_mask);
    if (stride != metadata_field::descriptor_stride)
        mismatch(meta_file, s + q1::descriptor_stride, path + ".descriptor.stride",
                 "the word at +0x44 is " + std::to_string(stride) + ", expected the descriptor stride 36");
    if (mask != metadata_field::descriptor_format_mask)
        mismatch(meta_file, s + q1::descriptor_format_mask, path + ".descriptor.format_mask",
                 "the word at +0x48 is " + hex(mask, 8) + ", expected the format mask 0x0008007F");
    if (be32(meta, s + q1::mgp_size) != 0)
        mismatch(meta_file, s + q1::mgp_size, path + ".descriptor.mgp_size",
                 "the MGP slice size at +0x50 is " + std::to_string(be32(meta, s + q1::mgp_size)) +
                     ", expected 0 for a skinned mesh");
    std::uint32_t vc = be32(meta, s + q1::descriptor_vertex_count);
    qm.head.assign(meta.begin() + static_cast<std::ptrdiff_t>(s), meta.begin() + static_cast<std::ptrdiff_t>(s + ep));
    StreamContext ctx;
    ctx.bone_count = bone_count;
    qm.stream = decode_stream(whole.sub(s + ep, meta.size() - s - ep, path + ".stream"), ctx);
    if (qm.stream.vertices.size() != vc)
        mismatch(meta_file, s + q1::descriptor_vertex_count, path + ".descriptor.vertex_count",
                 "the word at +0x40 is " + std::to_string(vc) + " but the stream holds " +
                     std::to_string(qm.stream.vertices.size()) + " vertices");
    std::uint64_t footer_at = s + ep + qm.stream.stream_size();
    if (footer_at + metadata_field::footer_bytes > meta.size())
        mismatch(meta_file, footer_at, path + ".footer", "no room for the 16-byte footer after the stream");
    std::memcpy(qm.footer.data(), meta.data() + footer_at, metadata_field::footer_bytes);

    // Index slice.
    const std::string& mmp_file = names.mmp;
    if (be32(meta, s + q1::index_format) != q1::index_format_u16)
        mismatch(meta_file, s + q1::index_format, path + ".index_format",
                 "the word at +0x68 is " + std::to_string(be32(meta, s + q1::index_format)) + ", expected 2 (u16 indices)");
    qm.mmp_offset = be32(meta, s + q1::mmp_offset);
    std::uint32_t index_count = be32(meta, s + q1::index_count);
    if (index_count % 3 != 0 || index_count == 0)
        mismatch(meta_file, s + q1::index_count, path + ".index_count",
                 "index count " + std::to_string(index_count) + " is not a positive multiple of 3");
    if (std::uint64_t(qm.mmp_offset) + 2ull * index_count > files.mmp.size())
        mismatch(mmp_file, qm.mmp_offset, path + ".mmp_slice",
                 "the slice of " + std::to_string(index_count) + " indices at " + hex(qm.mmp_offset) +
                     " runs past the MMP (" + std::to_string(files.mmp.size()) + " bytes)");
    if (expected_slice && qm.mmp_offset != *expected_slice)
        mismatch(mmp_file, qm.mmp_offset, path + ".mmp_slice",
                 "slices are not back to back in mesh order (16-byte steps): this one starts at " + hex(qm.mmp_offset) +
                     ", the previous one ends at " + hex(*expected_slice));
    qm.triangles.resize(index_count / 3);
    const std::uint8_t* idx = files.mmp.data() + qm.mmp_offset;
    if (!decode_indices(idx, index_count, vc, reinterpret_cast<std::uint8_t*>(qm.triangles.data())))
        // The scalar conversion in full (names the index; the triangles are right even if the
        // fast test said no for nothing).
        for (std::uint32_t k = 0; k < index_count; ++k) {
            std::uint32_t v = endian::load_be16(idx + 2 * k);
            if (v >= vc)
                mismatch(mmp_file, qm.mmp_offset + 2 * k, path + ".index[" + std::to_string(k) + "]",
                         "index " + std::to_string(v) + " is not below the vertex count " + std::to_string(vc));
            qm.triangles[k / 3][k % 3] = v;
        }
    return slice_end(qm.mmp_offset, index_count);
}

// The files must be exactly the model's layout, or edits would rewrite what we do not know.
// Decided in one pass over the bytes, without laying them out (the MGP and SCP are copied
// verbatim by write_quartet: not compared here).
void require_layout(const QuartetModel& m, const Layout& l, const FileViews& files, const FileNames& names) {
    auto check = [](ByteView have, std::uint64_t layout_size, const Comparer& c, const std::string& file,
                    const char* what) {
        auto at = c.difference();
        if (!at) return;
        mismatch(file, *at, c.path(),
                 std::string("re-laying out the ") + what + " gives different bytes from offset " + hex(*at) +
                     " (file " + std::to_string(have.size()) + " bytes, layout " + std::to_string(layout_size) +
                     " bytes): gaps, padding or record order differ from the hypothesis");
    };
    Comparer meta(files.meta);
    emit_meta(m, l, meta);
    check(files.meta, l.meta_size, meta, names.meta, "metadata file");
    Comparer mmp(files.mmp);
    emit_mmp(m, l, mmp);
    check(files.mmp, l.mmp_size, mmp, names.mmp, "MMP");
}

QuartetModel read_checked(const FileViews& files, const std::string& name) {
    QuartetModel m;
    m.name = name;
    const FileNames names(name);
    const ByteView meta = files.meta;
    m.skeleton = decode_skeleton(ByteReader(files.scp, Endian::big, names.scp, "scp"));
    const auto bone_count = static_cast<std::uint32_t>(m.skeleton.bones.size());
    MetaHeader header = read_header(meta, names.meta);
    m.table_offset = header.table_offset;
    m.meta_header.assign(meta.begin(), meta.begin() + m.table_offset);
    ByteReader whole(meta, Endian::big, names.meta);
    m.meshes.resize(header.starts.size());
    std::optional<std::uint64_t> next_slice;
    for (std::size_t i = 0; i < m.meshes.size(); ++i) {
        // Before decoding a record: it must start where the previous one ends or later. Table
        // entries pointing into (or at) an earlier record would otherwise have the same bytes
        // decoded again and again (count x file size), before the layout check refuses them.
        if (i > 0) {
            const std::uint64_t previous_end = record_end(header.starts[i - 1], m.meshes[i - 1]);
            if (header.starts[i] < previous_end)
                mismatch(names.meta, header.table_offset + 4 * i, "meta.table[" + std::to_string(i) + "]",
                         "record offset " + hex(header.starts[i]) + " is inside record " + std::to_string(i - 1) +
                             " (at " + hex(header.starts[i - 1]) + ", ending at " + hex(previous_end) +
                             " with its footer and padding): records must not overlap");
        }
        next_slice = read_record(files, whole, bone_count, i, header.starts[i], next_slice, names, m.meshes[i]);
    }
    std::size_t first_slice = m.meshes.front().mmp_offset;
    std::size_t slices_end = static_cast<std::size_t>(std::min<std::uint64_t>(*next_slice, files.mmp.size()));
    m.mmp_prefix.assign(files.mmp.begin(), files.mmp.begin() + static_cast<std::ptrdiff_t>(first_slice));
    m.mmp_suffix.assign(files.mmp.begin() + static_cast<std::ptrdiff_t>(slices_end), files.mmp.end());
    m.mgp.assign(files.mgp.begin(), files.mgp.end());
    require_layout(m, plan_layout(m), files, names);
    return m;
}

// A file a replacement copies (MGP, SCP) must be the model's bytes.
void require_copy(ByteView written, const Bytes& expected, const std::string& file, const char* path,
                  const char* what) {
    Comparer compare(written);
    compare.raw(expected.data(), expected.size());
    const std::optional<std::uint64_t> differs = compare.difference();
    if (!differs) return;
    const std::uint64_t at = *differs;
    mismatch(file, at, path,
             std::string("the written ") + what + " differs from the quartet's from offset " + hex(at) + " (written " +
                 std::to_string(written.size()) + " bytes, expected " + std::to_string(expected.size()) + ")");
}

// The self-check of a replacement (check_pak_replacement's contract): `m` is the quartet read
// from the input with any content in mesh `r`, `written` the files written for it.
QuartetModel check_written(const FileViews& written, QuartetModel m, std::size_t r) {
    if (r >= m.meshes.size())
        throw Error(ErrorKind::usage, "mesh " + std::to_string(r) + " does not exist (the quartet has " +
                                          std::to_string(m.meshes.size()) + ")",
                    m.name);
    const FileNames names(m.name);
    require_copy(written.mgp, m.mgp, names.mgp, "mgp", "MGP");
    require_copy(written.scp, m.skeleton.raw, names.scp, "scp", "SCP");
    // Where mesh r's slice must start depends only on the prefix and the meshes before it;
    // mesh r itself may hold anything (the contract), so nothing of it is looked at here.
    const std::uint64_t r_slice = slice_start(m, r);
    MetaHeader header = read_header(written.meta, names.meta);
    if (header.starts.size() != m.meshes.size())
        mismatch(names.meta, q1::mesh_count_field, "meta.mesh_count",
                 "the written file has " + std::to_string(header.starts.size()) + " meshes, the quartet " +
                     std::to_string(m.meshes.size()));
    // Mesh r is read back in full. Its laid-out stream is released first, so that decoding
    // reuses that memory instead of touching fresh pages.
    m.meshes[r] = {};
    ByteReader whole(written.meta, Endian::big, names.meta);
    read_record(written, whole, static_cast<std::uint32_t>(m.skeleton.bones.size()), r, header.starts[r],
                r == 0 ? std::nullopt : std::optional(r_slice), names, m.meshes[r]);
    // The other meshes are the input's, read and checked when the input was read: they take
    // their new places (the words the layout writes), and the whole files must then be
    // exactly their layout, so each of their records is byte for byte the one that was read.
    const Layout l = plan_layout(m);
    for (std::size_t i = 0; i < m.meshes.size(); ++i) {
        auto& qm = m.meshes[i];
        if (i == r) continue;
        qm.offset = l.record_at[i];
        qm.mmp_offset = static_cast<std::uint32_t>(l.slice_at[i]);
        std::uint8_t* h = qm.head.data();
        endian::store_be32(h + q1::descriptor_vertex_count, static_cast<std::uint32_t>(qm.stream.vertices.size()));
        endian::store_be32(h + q1::mmp_offset, qm.mmp_offset);
        endian::store_be32(h + q1::index_count, static_cast<std::uint32_t>(3 * qm.triangles.size()));
        endian::store_be32(h + metadata_field::stream_offset, static_cast<std::uint32_t>(qm.head.size()));
    }
    endian::store_be32(m.meta_header.data() + q1::mesh_count_field, static_cast<std::uint32_t>(m.meshes.size()));
    endian::store_be32(m.meta_header.data() + q1::table_offset_field, m.table_offset);
    endian::store_be32(m.meta_header.data() + q1::file_size_field, static_cast<std::uint32_t>(l.meta_size));
    require_layout(m, l, written, names);
    return m;
}

}  // namespace

QuartetModel read_quartet(const QuartetFiles& files, const std::string& name) {
    return read_checked(views(files), name);
}

QuartetModel read_pak_entries(const Pak& pak, const QuartetEntries& q) {
    return read_checked({pak.data(q.meta), pak.data(q.mmp), pak.data(q.mgp), pak.data(q.scp)}, pak.file + ":" + q.base);
}

QuartetFiles write_quartet(const QuartetModel& m) { return lay_out(m, plan_layout(m), true); }

namespace {

// The box of the stored positions, as std::min / std::max give it walking the stream in order
// (ties between -0 and +0 keep the earlier one). Taken from the preprocessor's input through
// its order (the records hold the very same float bits, big-endian): no byte swapping.
// Positions are finite (the preprocessor checked them), so no NaN reaches the comparisons.
void set_box(Bytes& head, const SkinnedMesh& mesh, const std::vector<std::uint32_t>& order) {
    std::array<float, 3> lo{}, hi{};
    if (!order.empty()) lo = hi = mesh.vertices[order[0]].position;
#if defined(__SSE2__)
    // Lane 3 (the float after the position) is loaded and ignored. _mm_min_ps(p, lo) is
    // p < lo ? p : lo, which is std::min(lo, p); likewise for max.
    static_assert(sizeof(SkinnedVertex) >= offsetof(SkinnedVertex, position) + 16);
    auto load = [&](std::uint32_t v) {
        return _mm_loadu_ps(reinterpret_cast<const float*>(reinterpret_cast<const unsigned char*>(&mesh.vertices[v]) +
                                                           offsetof(SkinnedVertex, position)));
    };
    __m128 vlo = _mm_setr_ps(lo[0], lo[1], lo[2], 0), vhi = _mm_setr_ps(hi[0], hi[1], hi[2], 0);
    for (std::uint32_t v : order) {
        const __m128 p = load(v);
        vlo = _mm_min_ps(p, vlo);
        vhi = _mm_max_ps(p, vhi);
    }
    alignas(16) float out_lo[4], out_hi[4];
    _mm_store_ps(out_lo, vlo);
    _mm_store_ps(out_hi, vhi);
    for (std::size_t k = 0; k < 3; ++k) lo[k] = out_lo[k], hi[k] = out_hi[k];
#else
    for (std::uint32_t v : order) {
        const auto& p = mesh.vertices[v].position;
        for (std::size_t k = 0; k < 3; ++k) {
            lo[k] = std::min(lo[k], p[k]);
            hi[k] = std::max(hi[k], p[k]);
        }
    }
#endif
    for (std::size_t k = 0; k < 3; ++k) {
        endian::store_be32(head.data() + q1::box_min + 4 * k, std::bit_cast<std::uint32_t>(lo[k]));
        endian::store_be32(head.data() + q1::box_max + 4 * k, std::bit_cast<std::uint32_t>(hi[k]));
    }
}

void check_new_mesh(const SkinnedMesh& mesh, const std::string& name) {
    if (mesh.vertices.empty() || mesh.triangles.empty())
        throw Error(ErrorKind::format, "the new mesh has no vertices or no triangles", name);
    if (mesh.vertices.size() > 0xFFFF)
        throw Error(ErrorKind::format, "the new mesh has " + std::to_string(mesh.vertices.size()) +
                                           " vertices; MMP slices hold u16 indices (at most 65,535 vertices)",
                    name);
}

}  // namespace

bool is_static_quartet(ByteView meta) noexcept {
    if (meta.size() < 8) return false;
    const std::uint64_t count = be32(meta, 0), table = be32(meta, 4);
    if (count == 0 || table + 4 * count > meta.size()) return false;
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint64_t s = be32(meta, table + 4 * i);
        if (s + metadata_field::stream_offset + 4 > meta.size()) return false;
        if (be32(meta, s + metadata_field::stream_offset) != metadata_field::not_skinned) return false;
    }
    return true;
}

QuartetFiles build_quartet(std::span<const BoneSpec> bones, std::span<const NewQuartetMesh> meshes, OrderingRule rule) {
    QuartetModel m;
    Bytes scp = build_skeleton(bones);
    m.skeleton = decode_skeleton(ByteReader(scp, Endian::big, "new skeleton", "scp"));
    m.meta_header.assign(q1::header_bytes, 0);
    m.table_offset = q1::header_bytes;
    m.mmp_prefix.assign(q1::alignment, 0);
    m.mgp.assign(q1::alignment, 0);
    for (const auto& nm : meshes) {
        check_new_mesh(nm.mesh, "new quartet");
        PreprocessOptions opt;
        opt.rule = rule;
        opt.bone_count = static_cast<std::uint32_t>(bones.size());
        auto r = preprocess(nm.mesh, opt);
        QuartetMesh qm;
        qm.head.assign(q1::record_head_bytes, 0);
        std::uint8_t* h = qm.head.data();
        endian::store_be32(h + q1::name_hash, nm.name_hash);
        endian::store_be32(h + q1::material_hash, nm.material_hash);
        endian::store_be32(h + q1::descriptor_stride, metadata_field::descriptor_stride);
        endian::store_be32(h + q1::descriptor_format_mask, metadata_field::descriptor_format_mask);
        endian::store_be32(h + q1::mgp_offset, static_cast<std::uint32_t>(m.mgp.size()));
        endian::store_be32(h + q1::mgp_size, 0);
        endian::store_be32(h + q1::index_format, q1::index_format_u16);
        endian::store_be32(h + metadata_field::flags, nm.flags);
        set_box(qm.head, nm.mesh, r.order);
        qm.stream = std::move(r.stream);
        qm.triangles = std::move(r.triangles);
        endian::store_be32(qm.footer.data(), nm.name_hash);
        endian::store_be32(qm.footer.data() + 4, nm.material_hash);
        m.meshes.push_back(std::move(qm));
    }
    return write_quartet(m);
}

namespace {

// The replacement proper, in the model: mesh `mesh_index` preprocessed from `mesh` (the old
// stream's envelope and terminal records as templates), its box and processed flag set; the
// report's counts (report_sizes adds the size changes once the new layout is planned).
// Returns the MMP's size before the replacement (the input's, which its reading checked to be
// the model's layout).
std::uint64_t replace_in_model(QuartetModel& m, std::size_t mesh_index, const SkinnedMesh& mesh,
                               const ReplaceOptions& options, ReplaceReport& rep) {
    const std::string& name = m.name;
    if (mesh_index >= m.meshes.size())
        throw Error(ErrorKind::usage, "mesh " + std::to_string(mesh_index) + " does not exist (the quartet has " +
                                          std::to_string(m.meshes.size()) + ")",
                    name);
    check_new_mesh(mesh, name);
    auto& qm = m.meshes[mesh_index];
    PreprocessOptions opt;
    opt.rule = options.rule;
    opt.envelope = qm.stream.envelope;
    opt.terminal = qm.stream.terminal;
    opt.bone_count = static_cast<std::uint32_t>(m.skeleton.bones.size());
    PreprocessResult r;
    try {
        r = preprocess(mesh, opt);
    } catch (Error& e) {
        e.set_file_if_empty(name);
        throw;
    }
    const std::uint64_t old_mmp_size = slice_start(m, m.meshes.size()) + m.mmp_suffix.size();
    rep = {};
    rep.old_vertices = static_cast<std::uint32_t>(qm.stream.vertices.size());
    rep.old_batches = static_cast<std::uint32_t>(qm.stream.batches.size());
    rep.old_triangles = static_cast<std::uint32_t>(qm.triangles.size());
    set_box(qm.head, mesh, r.order);
    endian::store_be32(qm.head.data() + metadata_field::flags,
                       be32(qm.head, metadata_field::flags) | metadata_field::processed_bit);
    qm.stream = std::move(r.stream);
    qm.triangles = std::move(r.triangles);
    rep.new_vertices = static_cast<std::uint32_t>(qm.stream.vertices.size());
    rep.new_batches = static_cast<std::uint32_t>(qm.stream.batches.size());
    rep.new_triangles = static_cast<std::uint32_t>(qm.triangles.size());
    return old_mmp_size;
}

// The size changes, from what the input's reading checked: the header's file size word (the
// model's header is the input's until the self-check), and the MMP's size before (from
// replace_in_model) and in the new layout. Not the change of the replaced slice's padded
// length: every later slice's padding depends on where it now starts.
void report_sizes(const QuartetModel& m, const Layout& l, std::uint64_t old_mmp_size, ReplaceReport& rep) {
    const std::uint64_t old_meta_size = be32(m.meta_header, q1::file_size_field);
    rep.meta_size_change = static_cast<std::int64_t>(l.meta_size) - static_cast<std::int64_t>(old_meta_size);
    rep.mmp_size_change = static_cast<std::int64_t>(l.mmp_size) - static_cast<std::int64_t>(old_mmp_size);
}

}  // namespace

QuartetReplacement replace_mesh_in_model(QuartetModel m, std::size_t mesh_index, const SkinnedMesh& mesh,
                                         const ReplaceOptions& options, ReplaceReport* report) {
    ReplaceReport rep;
    QuartetReplacement out;
    const std::uint64_t old_mmp_size = replace_in_model(m, mesh_index, mesh, options, rep);
    const Layout l = plan_layout(m);
    report_sizes(m, l, old_mmp_size, rep);
    out.files = lay_out(m, l, false);
    // What write_quartet gives: the MGP is the model's, and the SCP the skeleton's raw bytes
    // (encode_skeleton writes back the very bits decode_skeleton read, at the same offsets).
    out.files.mgp = m.mgp;
    out.files.scp = m.skeleton.raw;
    out.model = check_written(views(out.files), std::move(m), mesh_index);
    if (report) *report = rep;
    return out;
}

QuartetFiles replace_mesh(const QuartetFiles& files, std::size_t mesh_index, const SkinnedMesh& mesh,
                          const ReplaceOptions& options, const std::string& name, ReplaceReport* report) {
    return replace_mesh_in_model(read_quartet(files, name), mesh_index, mesh, options, report).files;
}

std::optional<QuartetEntries> find_quartet(const Pak& pak, std::string_view quartet_base) {
    for (auto& q : find_quartets(pak))
        if (lower(q.base) == lower(quartet_base)) return std::move(q);
    return std::nullopt;
}

QuartetModel check_pak_replacement(ByteView written, const QuartetEntries& entries, QuartetModel model,
                                   std::size_t mesh_index, const std::string& file) {
    const std::string where = file.empty() ? "the new PAK" : file;
    FileViews files{pak_entry_data(written, entries.meta, where), pak_entry_data(written, entries.mmp, where),
                    pak_entry_data(written, entries.mgp, where), pak_entry_data(written, entries.scp, where)};
    return check_written(files, std::move(model), mesh_index);
}

PakReplacement replace_mesh_in_pak(const Pak& pak, const QuartetEntries& entries, QuartetModel model,
                                   std::size_t mesh_index, const SkinnedMesh& mesh, const ReplaceOptions& options,
                                   ReplaceReport* report) {
    for (std::size_t e : {entries.meta, entries.mmp, entries.mgp, entries.scp})
        if (e >= pak.entries.size())
            throw Error(ErrorKind::usage, "quartet entry " + std::to_string(e) + " does not exist (the PAK has " +
                                              std::to_string(pak.entries.size()) + ")",
                        pak.file);
    ReplaceReport rep;
    const std::uint64_t old_mmp_size = replace_in_model(model, mesh_index, mesh, options, rep);
    const Layout l = plan_layout(model);
    report_sizes(model, l, old_mmp_size, rep);
    // The new metadata file and MMP are laid out straight into the new PAK.
    std::vector<std::optional<std::size_t>> sizes(pak.entries.size());
    sizes[entries.meta] = static_cast<std::size_t>(l.meta_size);
    sizes[entries.mmp] = static_cast<std::size_t>(l.mmp_size);
    PakReplacement out;
    out.pak = repack_pak_in_place(pak, sizes, [&](std::size_t entry, Bytes& bytes) {
        Appender sink(bytes);
        if (entry == entries.meta) emit_meta(model, l, sink);
        else emit_mmp(model, l, sink);
    });
    // Self-check on the PAK itself: its four entries, found through the new PAK's own table.
    out.model = check_pak_replacement(out.pak, entries, std::move(model), mesh_index,
                                      pak.file.empty() ? std::string() : pak.file + " (as written)");
    if (report) *report = rep;
    return out;
}

Bytes replace_mesh_in_pak(const Pak& pak, std::string_view quartet_base, std::size_t mesh_index,
                          const SkinnedMesh& mesh, const ReplaceOptions& options, ReplaceReport* report) {
    auto q = find_quartet(pak, quartet_base);
    if (!q) throw Error(ErrorKind::usage, "no quartet named '" + std::string(quartet_base) + "' in the PAK", pak.file);
    return replace_mesh_in_pak(pak, *q, read_pak_entries(pak, *q), mesh_index, mesh, options, report).pak;
}

}  // namespace mod::shred
