// The shred-quartet/1 layout on files the sample forge does not make: MMP prefixes that are
// not a multiple of 16 (slices pad to 16-byte boundaries OF THE MMP), and metadata tables whose
// records overlap (refused before any record is decoded twice).
#include "shred_util.hpp"

#include "libmod/core/file.hpp"
#include "libmod/shred/quartet.hpp"

using namespace mod::shred;

namespace {

QuartetFiles sample_files() {
    auto p = shredtest::sample_dir() / "char_sample.pak";
    auto pak = read_pak(mod::read_file(p), p.string());
    return quartet_files(pak, *find_quartet(pak, "skater01"));
}

// The MMP of `m` as the hypothesis describes it, written out here independently of the
// library: the prefix, then each mesh's indices (big-endian u16) followed by zeros up to the
// next offset of the file that is a multiple of 16, then the suffix. `starts` receives each
// slice's offset.
mod::Bytes expected_mmp(const QuartetModel& m, std::vector<std::uint32_t>& starts) {
    mod::Bytes out = m.mmp_prefix;
    starts.clear();
    for (const auto& qm : m.meshes) {
        starts.push_back(static_cast<std::uint32_t>(out.size()));
        for (const auto& t : qm.triangles)
            for (std::uint32_t v : t) {
                out.push_back(static_cast<std::uint8_t>(v >> 8));
                out.push_back(static_cast<std::uint8_t>(v));
            }
        while (out.size() % 16 != 0) out.push_back(0);
    }
    out.insert(out.end(), m.mmp_suffix.begin(), m.mmp_suffix.end());
    return out;
}

// The sample quartet with an MMP prefix of `n` bytes (non-zero, so that it is seen to be kept).
QuartetModel with_prefix(std::size_t n) {
    auto m = read_quartet(sample_files(), "q");
    m.mmp_prefix.resize(n);
    for (std::size_t k = 0; k < n; ++k) m.mmp_prefix[k] = static_cast<std::uint8_t>(0xA0 + k);
    return m;
}

std::uint32_t mmp_offset_word(const mod::Bytes& meta, const QuartetMesh& qm) {
    return mod::endian::load_be32(meta.data() + qm.offset + quartet_v1::mmp_offset);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shred_quartet_layout)

BOOST_AUTO_TEST_CASE(slices_pad_to_16_byte_boundaries_of_the_mmp) {
    for (std::size_t prefix : {4u, 20u, 16u, 0u}) {
        BOOST_TEST_CONTEXT("prefix " << prefix) {
            auto m = with_prefix(prefix);
            std::vector<std::uint32_t> starts;
            const auto mmp = expected_mmp(m, starts);
            auto files = write_quartet(m);
            BOOST_REQUIRE(files.mmp == mmp);
            // The records point at those slices.
            auto again = read_quartet(files, "q");
            BOOST_REQUIRE_EQUAL(again.meshes.size(), starts.size());
            for (std::size_t i = 0; i < starts.size(); ++i) {
                BOOST_CHECK_EQUAL(again.meshes[i].mmp_offset, starts[i]);
                BOOST_CHECK_EQUAL(mmp_offset_word(files.meta, again.meshes[i]), starts[i]);
                BOOST_CHECK(again.meshes[i].triangles == m.meshes[i].triangles);
            }
            BOOST_CHECK(again.mmp_prefix == m.mmp_prefix);
            BOOST_CHECK(again.mmp_suffix == m.mmp_suffix);
            // Round trip, byte for byte.
            auto twice = write_quartet(again);
            BOOST_CHECK(twice.meta == files.meta);
            BOOST_CHECK(twice.mmp == files.mmp);
            // Padding measured from the slice's length instead is not this layout: refused.
            if (prefix % 16 != 0) {
                auto f = files;
                f.mmp = again.mmp_prefix;
                std::uint32_t at = static_cast<std::uint32_t>(prefix);
                for (std::size_t i = 0; i < again.meshes.size(); ++i) {
                    mod::endian::store_be32(f.meta.data() + again.meshes[i].offset + quartet_v1::mmp_offset, at);
                    const auto& t = again.meshes[i].triangles;
                    std::size_t bytes = 6 * t.size(), padded = (bytes + 15) / 16 * 16;
                    f.mmp.insert(f.mmp.end(), files.mmp.begin() + starts[i], files.mmp.begin() + starts[i] + bytes);
                    f.mmp.resize(f.mmp.size() + padded - bytes, 0);
                    at += static_cast<std::uint32_t>(padded);
                }
                auto e = modtest::catch_error([&] { read_quartet(f, "q"); });
                BOOST_REQUIRE(e);
                BOOST_CHECK_EQUAL(e->path(), "meta.mesh[1].mmp_slice");
                BOOST_CHECK_EQUAL(e->file(), "q (MMP)");
            }
        }
    }
}

// Indices are converted eight at a time (quartet.cpp, encode_indices / decode_indices): each
// one must still be checked on its own, wherever it falls in a group of eight or the tail.
BOOST_AUTO_TEST_CASE(every_index_is_checked_on_its_own) {
    const auto files = sample_files();
    const auto m = read_quartet(files, "q");
    const auto& qm = m.meshes[1];
    const auto vc = static_cast<std::uint32_t>(qm.stream.vertices.size());
    const std::size_t count = 3 * qm.triangles.size();
    BOOST_REQUIRE_GT(count, 24u);
    std::vector<std::size_t> positions;
    for (std::size_t k = 0; k < 20; ++k) positions.push_back(k);
    for (std::size_t k = count - 10; k < count; ++k) positions.push_back(k);
    for (std::size_t k : positions) {
        BOOST_TEST_CONTEXT("index " << k) {
            // Reading: the first index not below the vertex count is named, at its offset.
            for (std::uint32_t bad : {vc, vc + 1, 0xFFFFu}) {
                auto f = files;
                mod::endian::store_be16(f.mmp.data() + qm.mmp_offset + 2 * k, static_cast<std::uint16_t>(bad));
                auto e = modtest::catch_error([&] { read_quartet(f, "q"); });
                BOOST_REQUIRE(e);
                BOOST_CHECK_EQUAL(e->path(), "meta.mesh[1].index[" + std::to_string(k) + "]");
                BOOST_CHECK_EQUAL(e->offset(), qm.mmp_offset + 2 * k);
                BOOST_CHECK_EQUAL(e->file(), "q (MMP)");
            }
            // The largest good index is read back as it is.
            auto f = files;
            mod::endian::store_be16(f.mmp.data() + qm.mmp_offset + 2 * k, static_cast<std::uint16_t>(vc - 1));
            auto back = read_quartet(f, "q");
            BOOST_CHECK_EQUAL(back.meshes[1].triangles[k / 3][k % 3], vc - 1);
            // Writing: an index past u16 is refused, 0xFFFF is written as it is.
            auto edited = m;
            edited.meshes[1].triangles[k / 3][k % 3] = 0x10000;
            auto e = modtest::catch_error([&] { write_quartet(edited); });
            BOOST_REQUIRE(e);
            BOOST_CHECK(e->kind() == mod::ErrorKind::limit);
            edited.meshes[1].triangles[k / 3][k % 3] = 0xFFFF;
            auto written = write_quartet(edited);
            BOOST_CHECK_EQUAL(mod::endian::load_be16(written.mmp.data() + qm.mmp_offset + 2 * k), 0xFFFFu);
            BOOST_CHECK(std::equal(written.mmp.begin(), written.mmp.begin() + qm.mmp_offset + 2 * k, files.mmp.begin()));
        }
    }
}

BOOST_AUTO_TEST_CASE(replacement_with_an_unaligned_mmp_prefix) {
    for (std::size_t prefix : {4u, 20u}) {
        auto files = write_quartet(with_prefix(prefix));
        std::vector<PakBuildEntry> entries(4);
        const char* names[] = {"odd.rmg", "odd.mmp", "odd.mgp", "odd.scp"};
        const mod::Bytes* data[] = {&files.meta, &files.mmp, &files.mgp, &files.scp};
        for (std::size_t k = 0; k < 4; ++k) {
            entries[k].name = names[k];
            entries[k].hash = 0x100u + static_cast<std::uint32_t>(k);
            entries[k].data = *data[k];
        }
        auto pak = read_pak(build_pak(entries), "odd.pak");
        const auto q = *find_quartet(pak, "odd");
        // Replacements that change the replaced slice's length by amounts that are not
        // multiples of 16 (10, 11 and 300 triangles), so every later slice's padding changes.
        for (std::size_t mesh_index : {0u, 1u, 3u})
            for (std::uint32_t n : {30u, 33u, 900u}) {
                BOOST_TEST_CONTEXT("prefix " << prefix << ", mesh " << mesh_index << ", " << n << " vertices") {
                    auto mesh = shredtest::random_mesh(n, 120, n + mesh_index);
                    ReplaceReport rep;
                    auto out = replace_mesh_in_pak(pak, q, read_pak_entries(pak, q), mesh_index, mesh, {}, &rep);
                    auto written = read_pak(out.pak, "out.pak");
                    auto back = read_pak_entries(written, q);
                    BOOST_CHECK_EQUAL(back.meshes[mesh_index].triangles.size(), mesh.triangles.size());
                    BOOST_CHECK(back.mmp_prefix == with_prefix(prefix).mmp_prefix);
                    std::vector<std::uint32_t> starts;
                    auto mmp = expected_mmp(back, starts);
                    auto entry = written.data(q.mmp);
                    BOOST_REQUIRE(std::equal(entry.begin(), entry.end(), mmp.begin(), mmp.end()));
                    for (std::size_t i = 0; i < starts.size(); ++i) {
                        BOOST_CHECK_EQUAL(back.meshes[i].mmp_offset, starts[i]);
                        BOOST_CHECK_EQUAL(out.model.meshes[i].mmp_offset, starts[i]);
                    }
                    BOOST_CHECK_EQUAL(rep.mmp_size_change,
                                      std::int64_t(written.entries[q.mmp].size) - std::int64_t(files.mmp.size()));
                    BOOST_CHECK_EQUAL(rep.meta_size_change,
                                      std::int64_t(written.entries[q.meta].size) - std::int64_t(files.meta.size()));
                    // The files route lays out the same MMP and reports the same change.
                    ReplaceReport by_files;
                    auto f = replace_mesh(files, mesh_index, mesh, {}, "odd", &by_files);
                    BOOST_CHECK(f.mmp == mmp);
                    BOOST_CHECK_EQUAL(by_files.mmp_size_change, rep.mmp_size_change);
                }
            }
    }
}

// Hostile tables: records that start inside (or at) an earlier record are refused before they
// are decoded, naming the table word; otherwise each of them would decode the same stream again.
BOOST_AUTO_TEST_CASE(overlapping_records_are_refused_at_their_table_word) {
    const auto files = sample_files();
    const auto m = read_quartet(files, "q");
    auto expect = [](const QuartetFiles& f, std::size_t entry, std::uint64_t table_offset) {
        auto e = modtest::catch_error([&] { read_quartet(f, "q"); });
        BOOST_REQUIRE(e);
        BOOST_CHECK(e->kind() == mod::ErrorKind::format);
        BOOST_CHECK_MESSAGE(e->message().find("records must not overlap") != std::string::npos, e->what());
        BOOST_CHECK_EQUAL(e->file(), "q (metadata)");
        BOOST_CHECK_EQUAL(e->path(), "meta.table[" + std::to_string(entry) + "]");
        BOOST_CHECK_EQUAL(e->offset(), table_offset + 4 * entry);
    };
    // 1000 table entries all pointing at the first record (the records follow the table).
    {
        const std::uint32_t count = 1000, table = 0x20;
        const std::uint32_t first = (table + 4 * count + 15) / 16 * 16;
        mod::Bytes meta(files.meta.begin(), files.meta.begin() + table);
        meta.resize(first, 0);
        for (std::uint32_t i = 0; i < count; ++i) mod::endian::store_be32(meta.data() + table + 4 * i, first);
        meta.insert(meta.end(), files.meta.begin() + static_cast<std::ptrdiff_t>(m.meshes[0].offset), files.meta.end());
        // Room for 1000 of the smallest records (0x150 bytes), so that the count passes the
        // header's check and the table is what is refused.
        meta.resize(std::max<std::size_t>(meta.size(), first + count * 0x150), 0);
        mod::endian::store_be32(meta.data() + quartet_v1::mesh_count_field, count);
        mod::endian::store_be32(meta.data() + quartet_v1::table_offset_field, table);
        mod::endian::store_be32(meta.data() + quartet_v1::file_size_field, static_cast<std::uint32_t>(meta.size()));
        auto f = files;
        f.meta = meta;
        expect(f, 1, table);
    }
    // A record starting at the previous one, inside its head, or at its footer.
    const auto& r1 = m.meshes[1];
    const std::uint64_t r1_end = r1.offset + r1.head.size() + r1.stream.stream_size() + r1.footer.size();
    for (std::uint64_t start : {r1.offset, r1.offset + 0x40, r1_end - 16}) {
        auto f = files;
        mod::endian::store_be32(f.meta.data() + m.table_offset + 4 * 2, static_cast<std::uint32_t>(start));
        expect(f, 2, m.table_offset);
    }
    // Records whose heads interleave at 0x30-byte steps (no checked head word of one lands on a
    // checked word of another) and whose stream offsets all reach one stream: every record is
    // valid on its own, so without the check each would decode that stream in full.
    {
        const std::uint32_t count = 1000, table = 0x20, step = 0x30;
        const std::uint32_t base = (table + 4 * count + 15) / 16 * 16;
        const std::uint32_t stream_at = (base + step * (count - 1) + 0xC0 + 15) / 16 * 16;
        const auto& r0 = m.meshes[0];
        const auto stream = files.meta.begin() + static_cast<std::ptrdiff_t>(r0.offset + r0.head.size());
        const auto stream_end = stream + static_cast<std::ptrdiff_t>(r0.stream.stream_size() + r0.footer.size());
        mod::Bytes meta(stream_at, 0);
        meta.insert(meta.end(), stream, stream_end);
        meta.resize(std::max<std::size_t>((meta.size() + 15) / 16 * 16, base + count * 0x150), 0);
        auto put = [&](std::uint64_t at, std::uint32_t v) { mod::endian::store_be32(meta.data() + at, v); };
        put(quartet_v1::mesh_count_field, count);
        put(quartet_v1::table_offset_field, table);
        put(quartet_v1::file_size_field, static_cast<std::uint32_t>(meta.size()));
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::uint32_t at = base + step * i;
            put(table + 4 * i, at);
            put(at + quartet_v1::descriptor_vertex_count, static_cast<std::uint32_t>(r0.stream.vertices.size()));
            put(at + quartet_v1::descriptor_stride, 36);
            put(at + quartet_v1::descriptor_format_mask, 0x8007F);
            put(at + quartet_v1::mmp_offset, 16 * i);  // one triangle (0, 0, 0) per 16-byte slice
            put(at + quartet_v1::index_count, 3);
            put(at + quartet_v1::index_format, quartet_v1::index_format_u16);
            put(at + 0x9C, stream_at - at);
        }
        auto f = files;
        f.meta = meta;
        f.mmp.assign(16 * count, 0);
        expect(f, 1, table);
        // Each record alone is valid: the same file with a table of one record reads.
        put(quartet_v1::mesh_count_field, 1);
        auto one = files;
        one.meta = meta;
        one.mmp.assign(16, 0);
        auto e = modtest::catch_error([&] { read_quartet(one, "q"); });
        // Refused only by the final layout check (after the record was read and decoded):
        // the 999 other table words are bytes the layout does not hold.
        BOOST_REQUIRE(e);
        BOOST_CHECK_NE(e->message().find("re-laying out the metadata file"), std::string::npos);
        BOOST_CHECK_EQUAL(e->path(), "meta.header");
    }
    // Starting exactly where the previous record's padding ends is the layout (the sample's).
    BOOST_CHECK_EQUAL(m.meshes[2].offset, (r1_end + 15) / 16 * 16);
}

// A mesh count the bytes after the table cannot hold (each record takes at least 0x150 bytes)
// is refused at the count, before the reader sizes its model by it: a 4-byte table word per
// mesh would otherwise have a small file make the reader build a model of a quarter million
// meshes (about 256 bytes each) before the second table word is refused.
BOOST_AUTO_TEST_CASE(a_mesh_count_the_records_cannot_hold_is_refused_at_the_count) {
    const auto files = sample_files();
    const auto m = read_quartet(files, "q");
    auto with_count = [&](std::uint32_t count, std::size_t pad_to) {
        const std::uint32_t table = 0x20;
        const std::uint32_t first = (table + 4 * count + 15) / 16 * 16;
        mod::Bytes meta(files.meta.begin(), files.meta.begin() + table);
        meta.resize(first, 0);
        for (std::uint32_t i = 0; i < count; ++i) mod::endian::store_be32(meta.data() + table + 4 * i, first);
        meta.insert(meta.end(), files.meta.begin() + static_cast<std::ptrdiff_t>(m.meshes[0].offset), files.meta.end());
        meta.resize(std::max(meta.size(), pad_to), 0);
        mod::endian::store_be32(meta.data() + quartet_v1::mesh_count_field, count);
        mod::endian::store_be32(meta.data() + quartet_v1::table_offset_field, table);
        mod::endian::store_be32(meta.data() + quartet_v1::file_size_field, static_cast<std::uint32_t>(meta.size()));
        auto f = files;
        f.meta = std::move(meta);
        return f;
    };
    auto e = modtest::catch_error([&] { read_quartet(with_count(250000, 0), "q"); });
    BOOST_REQUIRE(e);
    BOOST_CHECK(e->kind() == mod::ErrorKind::format);
    BOOST_CHECK_EQUAL(e->file(), "q (metadata)");
    BOOST_CHECK_EQUAL(e->path(), "meta.mesh_count");
    BOOST_CHECK_EQUAL(e->offset(), 0u);
    BOOST_CHECK_MESSAGE(e->message().find("mesh count at 0x00 is 250000") != std::string::npos, e->what());
    // One byte short of room for the smallest records: still refused at the count.
    e = modtest::catch_error([&] { read_quartet(with_count(1000, (0x20 + 4000 + 15) / 16 * 16 + 1000 * 0x150 - 1), "q"); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_EQUAL(e->path(), "meta.mesh_count");
    // Exactly enough room: the count passes, and the overlapping table is what is refused.
    e = modtest::catch_error([&] { read_quartet(with_count(1000, (0x20 + 4000 + 15) / 16 * 16 + 1000 * 0x150), "q"); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_EQUAL(e->path(), "meta.table[1]");
}

BOOST_AUTO_TEST_SUITE_END()
