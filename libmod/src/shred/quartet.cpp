// Quartets under the hypothesis shred-quartet/1 (quartet.hpp, doc/formats/shred-quartet.md):
// grouping PAK entries, reading/checking the metadata file and MMP slices, writing them back.
#include "libmod/shred/quartet.hpp"

#include "libmod/shred/scan.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

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

QuartetFiles lay_out(const QuartetModel& m, bool mgp_and_scp);

// The four files as read: owned (QuartetFiles) or inside a PAK.
struct FileViews {
    ByteView meta, mmp, mgp, scp;
};

FileViews views(const QuartetFiles& f) { return {f.meta, f.mmp, f.mgp, f.scp}; }

// read_quartet, with the skeleton given when it is already decoded from the same SCP bytes
// (a replacement's self-check: the SCP entry is not rewritten, so the new quartet's SCP is
// the input's, which the input's reading decoded).
QuartetModel read_checked(const FileViews& files, const std::string& name, std::optional<Skeleton> skeleton) {
    QuartetModel m;
    m.name = name;
    const std::string meta_file = name.empty() ? "meta" : name + " (metadata)";
    const std::string mmp_file = name.empty() ? "mmp" : name + " (MMP)";
    const ByteView meta = files.meta;
    m.skeleton = skeleton ? std::move(*skeleton)
                          : decode_skeleton(ByteReader(files.scp, Endian::big, name.empty() ? "scp" : name + " (SCP)", "scp"));
    const auto bone_count = static_cast<std::uint32_t>(m.skeleton.bones.size());

    if (meta.size() < q1::header_bytes)
        mismatch(meta_file, 0, "meta.header", "the metadata file has " + std::to_string(meta.size()) +
                                                  " bytes, fewer than the 0x20-byte header");
    std::uint32_t count = be32(meta, q1::mesh_count_field);
    m.table_offset = be32(meta, q1::table_offset_field);
    std::uint32_t fsize = be32(meta, q1::file_size_field);
    if (fsize != meta.size())
        mismatch(meta_file, q1::file_size_field, "meta.file_size",
                 "the word at 0x08 is " + std::to_string(fsize) + ", the file has " + std::to_string(meta.size()) + " bytes");
    if (count == 0) mismatch(meta_file, 0, "meta.mesh_count", "the mesh count at 0x00 is 0");
    if (m.table_offset < q1::header_bytes || m.table_offset % 4 != 0 ||
        std::uint64_t(m.table_offset) + 4ull * count > meta.size())
        mismatch(meta_file, q1::table_offset_field, "meta.table_offset",
                 "a table of " + std::to_string(count) + " record offsets at " + hex(m.table_offset) +
                     " does not fit after the header");
    m.meta_header.assign(meta.begin(), meta.begin() + m.table_offset);

    std::vector<std::uint32_t> starts(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        starts[i] = be32(meta, m.table_offset + 4 * i);
        std::uint64_t prev_end = i == 0 ? m.table_offset + 4ull * count : starts[i - 1];
        if (starts[i] % q1::alignment != 0 || starts[i] < prev_end || starts[i] >= meta.size())
            mismatch(meta_file, m.table_offset + 4 * i, "meta.table[" + std::to_string(i) + "]",
                     "record offset " + hex(starts[i]) + " is not 16-aligned, ascending and inside the file");
    }
    ByteReader whole(meta, Endian::big, meta_file);
    m.meshes.resize(count);
    std::uint64_t previous_slice_end = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint64_t s = starts[i];
        const std::string path = mesh_path(i);
        auto& qm = m.meshes[i];
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
        if (i > 0 && qm.mmp_offset != previous_slice_end)
            mismatch(mmp_file, qm.mmp_offset, path + ".mmp_slice",
                     "slices are not back to back in mesh order (16-byte steps): this one starts at " + hex(qm.mmp_offset) +
                         ", the previous one ends at " + hex(previous_slice_end));
        previous_slice_end = align_up(std::uint64_t(qm.mmp_offset) + 2ull * index_count, q1::alignment);
        qm.triangles.resize(index_count / 3);
        for (std::uint32_t t = 0; t < index_count / 3; ++t)
            for (std::uint32_t c = 0; c < 3; ++c) {
                std::uint32_t v = endian::load_be16(files.mmp.data() + qm.mmp_offset + 2 * (3 * t + c));
                if (v >= vc)
                    mismatch(mmp_file, qm.mmp_offset + 2 * (3 * t + c), path + ".index[" + std::to_string(3 * t + c) + "]",
                             "index " + std::to_string(v) + " is not below the vertex count " + std::to_string(vc));
                qm.triangles[t][c] = v;
            }
    }
    std::size_t first_slice = m.meshes.front().mmp_offset;
    std::size_t slices_end = std::min<std::size_t>(previous_slice_end, files.mmp.size());
    m.mmp_prefix.assign(files.mmp.begin(), files.mmp.begin() + static_cast<std::ptrdiff_t>(first_slice));
    m.mmp_suffix.assign(files.mmp.begin() + static_cast<std::ptrdiff_t>(slices_end), files.mmp.end());
    m.mgp.assign(files.mgp.begin(), files.mgp.end());

    // The layout must give back exactly these bytes, or edits would rewrite what we do not know
    // (the MGP and SCP are copied and patched verbatim by write_quartet: not compared).
    QuartetFiles again = lay_out(m, false);
    auto check_same = [&](ByteView have, const Bytes& made, const std::string& file, const char* what) {
        // memcmp for the verdict; the byte-by-byte search only for the message.
        if (have.size() == made.size() && (have.empty() || std::memcmp(have.data(), made.data(), have.size()) == 0))
            return;
        auto mm = std::mismatch(have.begin(), have.end(), made.begin(), made.end());
        auto at = static_cast<std::uint64_t>(mm.first - have.begin());
        mismatch(file, at, what,
                 std::string("re-laying out the ") + what + " gives different bytes from offset " + hex(at) +
                     " (file " + std::to_string(have.size()) + " bytes, layout " + std::to_string(made.size()) +
                     " bytes): gaps, padding or record order differ from the hypothesis");
    };
    check_same(meta, again.meta, meta_file, "metadata file");
    check_same(files.mmp, again.mmp, mmp_file, "MMP");
    return m;
}

// write_quartet; the MGP and SCP only when `mgp_and_scp` (the layout check compares the
// metadata file and the MMP alone).
QuartetFiles lay_out(const QuartetModel& m, bool mgp_and_scp) {
    QuartetFiles out;
    Bytes& meta = out.meta;
    if (m.meta_header.size() < q1::header_bytes)
        throw Error(ErrorKind::usage, "quartet model: header shorter than 0x20 bytes");
    std::size_t count = m.meshes.size();
    // Both files are allocated once at their final size (append_stream reserves only what it
    // appends, so a growing metadata file would otherwise be reallocated for every record).
    std::uint64_t meta_total = align_up(std::uint64_t(m.table_offset) + 4 * count, q1::alignment);
    std::uint64_t mmp_total = m.mmp_prefix.size();
    for (const auto& qm : m.meshes) {
        meta_total = align_up(meta_total + qm.head.size() + qm.stream.stream_size() + qm.footer.size(), q1::alignment);
        mmp_total = align_up(mmp_total + 6 * qm.triangles.size(), q1::alignment);
    }
    mmp_total += m.mmp_suffix.size();
    if (meta_total <= 0xFFFFFFFFull) meta.reserve(static_cast<std::size_t>(meta_total));  // else refused below
    meta.assign(m.meta_header.begin(), m.meta_header.end());
    meta.resize(m.table_offset + 4 * count, 0);
    meta.resize(static_cast<std::size_t>(align_up(meta.size(), q1::alignment)), 0);

    // MMP slices first: the records need their offsets.
    Bytes& mmp = out.mmp;
    mmp.reserve(static_cast<std::size_t>(mmp_total));
    mmp.assign(m.mmp_prefix.begin(), m.mmp_prefix.end());
    std::vector<std::uint32_t> slice_at(count);
    for (std::size_t i = 0; i < count; ++i) {
        slice_at[i] = static_cast<std::uint32_t>(mmp.size());
        for (const auto& t : m.meshes[i].triangles)
            for (std::uint32_t v : t) {
                if (v > 0xFFFF) throw Error(ErrorKind::limit, "index " + std::to_string(v) + " does not fit u16", m.name);
                mmp.push_back(static_cast<std::uint8_t>(v >> 8));
                mmp.push_back(static_cast<std::uint8_t>(v));
            }
        mmp.resize(static_cast<std::size_t>(align_up(mmp.size(), q1::alignment)), 0);
    }
    mmp.insert(mmp.end(), m.mmp_suffix.begin(), m.mmp_suffix.end());

    for (std::size_t i = 0; i < count; ++i) {
        const auto& qm = m.meshes[i];
        std::size_t s = meta.size();
        endian::store_be32(meta.data() + m.table_offset + 4 * i, static_cast<std::uint32_t>(s));
        if (qm.head.size() < q1::record_head_bytes - 0x08 || qm.head.size() < metadata_field::min_stream_offset)
            throw Error(ErrorKind::usage, "quartet model: mesh " + std::to_string(i) + " head is too short", m.name);
        meta.insert(meta.end(), qm.head.begin(), qm.head.end());
        std::uint8_t* h = meta.data() + s;
        endian::store_be32(h + q1::descriptor_vertex_count, static_cast<std::uint32_t>(qm.stream.vertices.size()));
        endian::store_be32(h + q1::mmp_offset, slice_at[i]);
        endian::store_be32(h + q1::index_count, static_cast<std::uint32_t>(3 * qm.triangles.size()));
        endian::store_be32(h + metadata_field::stream_offset, static_cast<std::uint32_t>(qm.head.size()));
        append_stream(qm.stream, meta);
        meta.insert(meta.end(), qm.footer.begin(), qm.footer.end());
        meta.resize(static_cast<std::size_t>(align_up(meta.size(), q1::alignment)), 0);
    }
    if (meta.size() > 0xFFFFFFFFull) throw Error(ErrorKind::limit, "metadata file exceeds 4 GiB", m.name);
    endian::store_be32(meta.data() + q1::mesh_count_field, static_cast<std::uint32_t>(count));
    endian::store_be32(meta.data() + q1::table_offset_field, m.table_offset);
    endian::store_be32(meta.data() + q1::file_size_field, static_cast<std::uint32_t>(meta.size()));
    if (mgp_and_scp) {
        out.mgp = m.mgp;
        out.scp = encode_skeleton(m.skeleton);
    }
    return out;
}

}  // namespace

QuartetModel read_quartet(const QuartetFiles& files, const std::string& name) {
    return read_checked(views(files), name, std::nullopt);
}

QuartetModel read_pak_entries(const Pak& pak, const QuartetEntries& q) {
    return read_checked({pak.data(q.meta), pak.data(q.mmp), pak.data(q.mgp), pak.data(q.scp)}, pak.file + ":" + q.base,
                        std::nullopt);
}

QuartetFiles write_quartet(const QuartetModel& m) { return lay_out(m, true); }

namespace {

void set_box(Bytes& head, const std::vector<VertexRecord>& vertices) {
    std::array<float, 3> lo{}, hi{};
    for (std::size_t k = 0; k < 3; ++k) {
        lo[k] = vertices.empty() ? 0.0f : vertices[0].position()[k];
        hi[k] = lo[k];
    }
    for (const auto& v : vertices) {
        auto p = v.position();
        for (std::size_t k = 0; k < 3; ++k) {
            lo[k] = std::min(lo[k], p[k]);
            hi[k] = std::max(hi[k], p[k]);
        }
    }
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
        endian::store_be32(h + metadata_field::flags, metadata_field::processed_bit);
        set_box(qm.head, r.stream.vertices);
        qm.stream = std::move(r.stream);
        qm.triangles = std::move(r.triangles);
        endian::store_be32(qm.footer.data(), nm.name_hash);
        endian::store_be32(qm.footer.data() + 4, nm.material_hash);
        m.meshes.push_back(std::move(qm));
    }
    return write_quartet(m);
}

namespace {

// The replacement proper, up to the laid-out metadata file and MMP (the MGP and SCP are left
// empty: a replacement does not change them). Releases the model's streams once laid out, so
// that the self-check's allocations reuse their memory instead of touching fresh pages.
QuartetFiles replace_and_lay_out(QuartetModel& m, std::size_t mesh_index, const SkinnedMesh& mesh,
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
    auto slice_bytes = [](std::size_t triangles) { return align_up(std::uint64_t(6) * triangles, q1::alignment); };
    const std::uint64_t old_slice = slice_bytes(qm.triangles.size());
    rep = {};
    rep.old_vertices = static_cast<std::uint32_t>(qm.stream.vertices.size());
    rep.old_batches = static_cast<std::uint32_t>(qm.stream.batches.size());
    rep.old_triangles = static_cast<std::uint32_t>(qm.triangles.size());
    set_box(qm.head, r.stream.vertices);
    endian::store_be32(qm.head.data() + metadata_field::flags,
                       be32(qm.head, metadata_field::flags) | metadata_field::processed_bit);
    qm.stream = std::move(r.stream);
    qm.triangles = std::move(r.triangles);
    rep.new_vertices = static_cast<std::uint32_t>(qm.stream.vertices.size());
    rep.new_batches = static_cast<std::uint32_t>(qm.stream.batches.size());
    rep.new_triangles = static_cast<std::uint32_t>(qm.triangles.size());
    QuartetFiles files = lay_out(m, false);
    // The input's sizes, from what read_quartet checked: the header's file size word (the
    // header is at least 0x20 bytes, or lay_out has refused it), and the MMP as prefix +
    // 16-aligned slices + suffix, so only the replaced slice changes its size.
    const std::uint64_t old_meta_size = be32(m.meta_header, q1::file_size_field);
    rep.meta_size_change = static_cast<std::int64_t>(files.meta.size()) - static_cast<std::int64_t>(old_meta_size);
    rep.mmp_size_change = static_cast<std::int64_t>(slice_bytes(qm.triangles.size())) - static_cast<std::int64_t>(old_slice);
    m.meshes = {};
    return files;
}

}  // namespace

QuartetReplacement replace_mesh_in_model(QuartetModel m, std::size_t mesh_index, const SkinnedMesh& mesh,
                                         const ReplaceOptions& options, ReplaceReport* report) {
    ReplaceReport rep;
    QuartetReplacement out;
    out.files = replace_and_lay_out(m, mesh_index, mesh, options, rep);
    // What write_quartet gives: the MGP is the model's, and the SCP the skeleton's raw bytes
    // (encode_skeleton writes back the very bits decode_skeleton read, at the same offsets).
    out.files.mgp = std::move(m.mgp);
    out.files.scp = m.skeleton.raw;
    // Self-check: what we wrote must read back under the same hypothesis (every record and
    // stream decoded again, the layout giving back the same bytes).
    out.model = read_checked(views(out.files), m.name, std::move(m.skeleton));
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

PakReplacement replace_mesh_in_pak(const Pak& pak, const QuartetEntries& entries, QuartetModel model,
                                   std::size_t mesh_index, const SkinnedMesh& mesh, const ReplaceOptions& options,
                                   ReplaceReport* report) {
    ReplaceReport rep;
    PakReplacement out;
    {
        QuartetFiles files = replace_and_lay_out(model, mesh_index, mesh, options, rep);
        std::vector<std::optional<Bytes>> repl(pak.entries.size());
        repl[entries.meta] = std::move(files.meta);
        repl[entries.mmp] = std::move(files.mmp);
        out.pak = repack_pak(pak, repl);
    }
    // Self-check on the PAK itself, once the laid-out files are released: its four entries,
    // found through the new PAK's own table, must read back under the same hypothesis.
    const std::string file = pak.file.empty() ? "the new PAK" : pak.file + " (as written)";
    FileViews written{pak_entry_data(out.pak, entries.meta, file), pak_entry_data(out.pak, entries.mmp, file),
                      pak_entry_data(out.pak, entries.mgp, file), pak_entry_data(out.pak, entries.scp, file)};
    out.model = read_checked(written, model.name, std::move(model.skeleton));
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
