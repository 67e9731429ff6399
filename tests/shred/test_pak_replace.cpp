// Mesh replacement inside a PAK: the in-place repack (the new entries laid out straight into
// the output), the self-check's model, and what the self-check catches in a written PAK.
#include "shred_util.hpp"

#include "libmod/core/file.hpp"
#include "libmod/shred/quartet.hpp"

#include <cstring>
#include <tuple>

using namespace mod::shred;

namespace {

Pak char_pak() {
    auto p = shredtest::sample_dir() / "char_sample.pak";
    return read_pak(mod::read_file(p), p.string());
}

std::vector<PakBuildEntry> small_entries() {
    std::vector<PakBuildEntry> e;
    for (std::size_t i = 0; i < 5; ++i) {
        PakBuildEntry x;
        x.name = "dir/file" + std::to_string(i) + ".bin";
        x.hash = 0x1000u + static_cast<std::uint32_t>(i);
        x.data.assign(40 + 29 * i, static_cast<std::uint8_t>('k' + i));
        e.push_back(x);
    }
    return e;
}

// repack_pak_in_place fed with the replacements' bytes; counts the writer's calls.
mod::Bytes in_place(const Pak& pak, const std::vector<std::optional<mod::Bytes>>& r, std::size_t* calls = nullptr) {
    std::vector<std::optional<std::size_t>> sizes(r.size());
    for (std::size_t i = 0; i < r.size(); ++i)
        if (r[i]) sizes[i] = r[i]->size();
    std::size_t n = 0;
    auto made = repack_pak_in_place(pak, sizes, [&](std::size_t i, mod::Bytes& out) {
        ++n;
        out.insert(out.end(), r[i]->begin(), r[i]->end());
    });
    if (calls) *calls = n;
    return made;
}

void require_same_stream(const Stream& a, const Stream& b, const std::string& what) {
    BOOST_CHECK_MESSAGE(a.envelope == b.envelope, what + ": envelope");
    BOOST_CHECK_MESSAGE(a.terminal == b.terminal, what + ": terminal");
    BOOST_CHECK_MESSAGE(a.vertices == b.vertices, what + ": vertices");
    BOOST_REQUIRE_EQUAL(a.batches.size(), b.batches.size());
    for (std::size_t k = 0; k < a.batches.size(); ++k) {
        BOOST_CHECK_MESSAGE(a.batches[k].header == b.batches[k].header, what + ": batch header");
        BOOST_CHECK_EQUAL(a.batches[k].first_vertex, b.batches[k].first_vertex);
        BOOST_CHECK_EQUAL(a.batches[k].vertex_count, b.batches[k].vertex_count);
    }
}

// Every field of two quartet models.
void require_same_model(const QuartetModel& a, const QuartetModel& b) {
    BOOST_CHECK_EQUAL(a.name, b.name);
    BOOST_CHECK(a.meta_header == b.meta_header);
    BOOST_CHECK_EQUAL(a.table_offset, b.table_offset);
    BOOST_CHECK(a.skeleton.raw == b.skeleton.raw);
    BOOST_CHECK_EQUAL(a.skeleton.bones.size(), b.skeleton.bones.size());
    BOOST_CHECK(a.mmp_prefix == b.mmp_prefix);
    BOOST_CHECK(a.mmp_suffix == b.mmp_suffix);
    BOOST_CHECK(a.mgp == b.mgp);
    BOOST_REQUIRE_EQUAL(a.meshes.size(), b.meshes.size());
    for (std::size_t i = 0; i < a.meshes.size(); ++i) {
        const auto& x = a.meshes[i];
        const auto& y = b.meshes[i];
        std::string what = "mesh " + std::to_string(i);
        BOOST_CHECK_EQUAL(x.offset, y.offset);
        BOOST_CHECK_MESSAGE(x.head == y.head, what + ": head");
        BOOST_CHECK_MESSAGE(x.footer == y.footer, what + ": footer");
        BOOST_CHECK_EQUAL(x.mmp_offset, y.mmp_offset);
        BOOST_CHECK_MESSAGE(x.triangles == y.triangles, what + ": triangles");
        require_same_stream(x.stream, y.stream, what);
    }
}

struct Written {
    std::uint64_t meta = 0, mmp = 0;  // entry offsets in the written PAK
    QuartetModel model;               // its reading
};

Written locate(const mod::Bytes& pak_bytes, const QuartetEntries& q, const std::string& file) {
    auto pak = read_pak(pak_bytes, file);
    return {pak.entries[q.meta].data_offset, pak.entries[q.mmp].data_offset, read_pak_entries(pak, q)};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shred_pak_in_place)

BOOST_AUTO_TEST_CASE(in_place_repack_gives_repack_pak_bytes) {
    auto bytes = build_pak(small_entries(), 1, 2, 64);
    auto pak = read_pak(bytes, "t.pak");
    auto data = [&](std::size_t i) { return mod::Bytes(pak.data(i).begin(), pak.data(i).end()); };
    std::vector<std::vector<std::optional<mod::Bytes>>> cases;
    auto add = [&](std::vector<std::pair<std::size_t, mod::Bytes>> changes) {
        std::vector<std::optional<mod::Bytes>> r(5);
        for (auto& [i, b] : changes) r[i] = std::move(b);
        cases.push_back(std::move(r));
    };
    add({{1, mod::Bytes(500, 0x42)}});
    add({{3, mod::Bytes(3, 0x43)}});
    add({{0, mod::Bytes(pak.data(0).size(), 0x44)}});  // same size, other bytes
    add({{2, data(2)}});                               // same bytes
    add({{0, data(0)}, {1, data(1)}, {2, data(2)}, {3, data(3)}, {4, data(4)}});
    add({{4, mod::Bytes(200, 1)}, {0, mod::Bytes(1, 2)}, {2, mod::Bytes()}});
    add({});
    auto longer = data(1);  // the old bytes and more: not the same entry
    longer.push_back(0x45);
    add({{1, longer}});
    for (const auto& r : cases) {
        std::size_t calls = 0;
        auto out = in_place(pak, r, &calls);
        BOOST_CHECK(out == repack_pak(pak, r));
        BOOST_CHECK_EQUAL(calls, static_cast<std::size_t>(std::count_if(r.begin(), r.end(), [](const auto& x) {
                              return x.has_value();
                          })));
    }
    // The unchanged and the all-same cases give the input back.
    BOOST_CHECK(in_place(pak, cases[3]) == bytes);
    BOOST_CHECK(in_place(pak, cases[4]) == bytes);
    // A writer that appends another size than announced, or fails, is reported.
    std::vector<std::optional<std::size_t>> sizes(5);
    sizes[1] = 10;
    auto wrong = modtest::catch_error([&] {
        repack_pak_in_place(pak, sizes, [](std::size_t, mod::Bytes& out) { out.resize(out.size() + 9); });
    });
    BOOST_REQUIRE(wrong);
    BOOST_CHECK(wrong->kind() == mod::ErrorKind::usage);
    BOOST_CHECK_NE(wrong->message().find("9 bytes"), std::string::npos);
    // One that shrinks the output (removes bytes before its entry) is told so, with the real
    // count rather than a wrapped-around size.
    auto shrinking = modtest::catch_error([&] {
        repack_pak_in_place(pak, sizes, [](std::size_t, mod::Bytes& out) { out.resize(out.size() - 5); });
    });
    BOOST_REQUIRE(shrinking);
    BOOST_CHECK(shrinking->kind() == mod::ErrorKind::usage);
    BOOST_CHECK_MESSAGE(shrinking->message().find("removed 5 bytes") != std::string::npos, shrinking->message());
    BOOST_CHECK_EQUAL(shrinking->file(), "t.pak");
    auto failing = modtest::catch_error([&] {
        repack_pak_in_place(pak, sizes, [](std::size_t, mod::Bytes&) {
            throw mod::Error(mod::ErrorKind::limit, "writer says no", "w");
        });
    });
    BOOST_REQUIRE(failing);
    BOOST_CHECK(failing->kind() == mod::ErrorKind::limit);
    BOOST_CHECK_EQUAL(failing->file(), "w");
    std::vector<std::optional<std::size_t>> too_many(6);
    BOOST_CHECK(modtest::catch_error([&] { repack_pak_in_place(pak, too_many, {}); }));
}

// An empty entry may point before the name table's end; any repack lays it out after the
// names, so an unchanged repack gives the input back only because nothing changed.
BOOST_AUTO_TEST_CASE(in_place_repack_of_unchanged_entries_gives_the_input_where_a_layout_would_differ) {
    auto entries = small_entries();
    entries[2].data.clear();
    auto bytes = build_pak(entries);
    mod::endian::store_be32(bytes.data() + 0x10 + 2 * 24 + 16, 0);
    auto pak = read_pak(bytes, "early-empty.pak");
    std::vector<std::optional<mod::Bytes>> same(5);
    same[3] = mod::Bytes(pak.data(3).begin(), pak.data(3).end());
    BOOST_CHECK(in_place(pak, same) == bytes);
    std::vector<std::optional<mod::Bytes>> other = same;
    other[3]->back() ^= 1;
    auto changed = in_place(pak, other);
    BOOST_CHECK(changed == repack_pak(pak, other));
    // Laid out once: the bytes before the first data are not copied again after the empty entry.
    BOOST_CHECK_EQUAL(changed.size(), bytes.size());
    auto again = read_pak(changed);
    for (std::size_t i = 0; i < 5; ++i) {
        auto want = i == 3 ? mod::ByteView(*other[3]) : pak.data(i);
        BOOST_CHECK(std::ranges::equal(again.data(i), want));
    }
}

BOOST_AUTO_TEST_CASE(in_place_repack_of_overlapping_data_decides_as_repack_pak) {
    auto bytes = build_pak(small_entries());
    auto pak0 = read_pak(bytes);
    mod::endian::store_be32(bytes.data() + 0x10 + 24 + 16, pak0.entries[0].data_offset + 4);
    auto pak = read_pak(bytes, "overlap.pak");
    std::vector<std::optional<mod::Bytes>> same(5);
    same[3] = mod::Bytes(pak.data(3).begin(), pak.data(3).end());
    std::size_t calls = 0;
    BOOST_CHECK(in_place(pak, same, &calls) == bytes);
    BOOST_CHECK_EQUAL(calls, 1u);
    std::vector<std::optional<mod::Bytes>> changed(5);
    changed[3] = mod::Bytes(7, 7);
    auto e = modtest::catch_error([&] { in_place(pak, changed); });
    BOOST_REQUIRE(e);
    BOOST_CHECK(e->kind() == mod::ErrorKind::conflict);
    BOOST_CHECK_EQUAL(e->path(), "pak.entry[1]");
}

BOOST_AUTO_TEST_CASE(in_place_repack_of_the_sample_paks) {
    for (const char* name : {"char_sample.pak", "layer_sample.pak"}) {
        auto bytes = mod::read_file(shredtest::sample_dir() / name);
        auto pak = read_pak(bytes, name);
        std::vector<std::optional<mod::Bytes>> r(pak.entries.size());
        for (std::size_t i = 0; i < r.size(); ++i) r[i] = mod::Bytes(pak.data(i).begin(), pak.data(i).end());
        BOOST_CHECK(in_place(pak, r) == bytes);
        r[2] = mod::Bytes(3000, 9);
        r[0] = mod::Bytes(1, 8);
        BOOST_CHECK(in_place(pak, r) == repack_pak(pak, r));
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(shred_pak_replace)

BOOST_AUTO_TEST_CASE(self_check_model_is_the_reading_of_the_written_pak) {
    auto pak = char_pak();
    auto q = *find_quartet(pak, "skater01");
    for (std::size_t mesh_index = 0; mesh_index < 4; ++mesh_index)
        for (std::uint32_t n : {900u, 30u}) {
            auto mesh = shredtest::random_mesh(n, 120, n + mesh_index);
            ReplaceReport rep, by_files;
            auto out = replace_mesh_in_pak(pak, q, read_pak_entries(pak, q), mesh_index, mesh, {}, &rep);
            auto written = locate(out.pak, q, pak.file);
            require_same_model(out.model, written.model);
            BOOST_CHECK_EQUAL(out.model.meshes[mesh_index].stream.vertices.size(), n);
            // The same bytes and report as the files route through repack_pak.
            auto files = replace_mesh(quartet_files(pak, q), mesh_index, mesh, {}, "q", &by_files);
            std::vector<std::optional<mod::Bytes>> r(pak.entries.size());
            r[q.meta] = files.meta;
            r[q.mmp] = files.mmp;
            BOOST_CHECK(out.pak == repack_pak(pak, r));
            BOOST_CHECK_EQUAL(rep.meta_size_change, by_files.meta_size_change);
            BOOST_CHECK_EQUAL(rep.mmp_size_change, by_files.mmp_size_change);
            BOOST_CHECK_EQUAL(rep.new_batches, by_files.new_batches);
            BOOST_CHECK_EQUAL(rep.old_triangles, by_files.old_triangles);
            // The files route's model is the reading of its files, too.
            auto done = replace_mesh_in_model(read_quartet(quartet_files(pak, q), "q"), mesh_index, mesh);
            require_same_model(done.model, read_quartet(done.files, "q"));
        }
}

BOOST_AUTO_TEST_CASE(replacing_a_mesh_by_itself_gives_the_input_pak) {
    auto pak = char_pak();
    auto q = *find_quartet(pak, "skater01");
    auto input = read_pak_entries(pak, q);
    for (std::size_t mesh_index = 0; mesh_index < input.meshes.size(); ++mesh_index) {
        auto mesh = mesh_from_stream(input.meshes[mesh_index].stream);
        mesh.triangles = input.meshes[mesh_index].triangles;
        auto out = replace_mesh_in_pak(pak, q, read_pak_entries(pak, q), mesh_index, mesh);
        BOOST_CHECK(out.pak == pak.raw);
        require_same_model(out.model, input);
    }
}

BOOST_AUTO_TEST_CASE(self_check_catches_damage_in_the_written_pak) {
    auto pak = char_pak();
    auto q = *find_quartet(pak, "skater01");
    const std::size_t r = 1;
    auto out = replace_mesh_in_pak(pak, q, read_pak_entries(pak, q), r, shredtest::random_mesh(700, 120, 11), {});
    auto w = locate(out.pak, q, pak.file);
    const std::string name = pak.file + ":skater01";
    auto check = [&](const mod::Bytes& bytes) { return check_pak_replacement(bytes, q, read_pak_entries(pak, q), r, "w.pak"); };
    require_same_model(check(out.pak), w.model);

    // One damaged byte at a time: the error names the entry, the offset in it and the part.
    struct Damage {
        std::uint64_t at;  // in the written PAK
        std::string file, path;
        std::uint64_t offset;  // in the named entry
    };
    const auto& m = w.model.meshes;
    auto meta = [&](std::uint64_t off, const std::string& path) {
        return Damage{w.meta + off, name + " (metadata)", path, off};
    };
    auto stream_at = [&](std::size_t i) { return m[i].offset + m[i].head.size(); };
    std::vector<Damage> damages = {
        meta(0x10, "meta.header"),
        meta(m[2].offset + 0x08, "meta.mesh[2]"),
        meta(stream_at(2) + 64 * 5 + 3, "meta.mesh[2].stream"),
        meta(stream_at(0) + 64 * 2 + 0x20, "meta.mesh[0].stream"),
        meta(stream_at(3) + m[3].stream.stream_size() + 5, "meta.mesh[3].footer"),
        meta(m[3].offset + 0x70, "meta.mesh[3]"),
        meta(m[2].offset + quartet_v1::mmp_offset, "meta.mesh[2]"),
        {w.mmp + m[3].mmp_offset + 7, name + " (MMP)", "meta.mesh[3].mmp_slice", m[3].mmp_offset + 7},
        {w.mmp + 3, name + " (MMP)", "mmp.prefix", 3},
    };
    for (const auto& d : damages) {
        auto bad = out.pak;
        bad[d.at] ^= 0x10;
        auto e = modtest::catch_error([&] { check(bad); });
        BOOST_REQUIRE_MESSAGE(e, "not caught: " + d.path);
        BOOST_CHECK_MESSAGE(e->message().rfind("shred-quartet/1 does not match", 0) == 0, e->what());
        BOOST_CHECK_EQUAL(e->file(), d.file);
        BOOST_CHECK_EQUAL(e->path(), d.path);
        BOOST_CHECK_EQUAL(e->offset(), d.offset);
    }
    // The replaced record is decoded again: a broken weight is the stream codec's error.
    {
        auto bad = out.pak;
        bad[w.meta + stream_at(r) + 64 + 64 + 0x0C] ^= 1;
        auto e = modtest::catch_error([&] { check(bad); });
        BOOST_REQUIRE(e);
        BOOST_CHECK(is_violation(*e, Invariant::weight_sum));
        BOOST_CHECK_EQUAL(e->path().rfind("meta.mesh[1].stream.batch[0].vertex[0]", 0), 0u);
        BOOST_CHECK_EQUAL(e->file(), name + " (metadata)");
    }
    // The copied entries are compared with the input's.
    auto pak2 = read_pak(out.pak, "w.pak");
    for (auto [entry, file, path] : {std::tuple{q.mgp, name + " (MGP)", "mgp"}, std::tuple{q.scp, name + " (SCP)", "scp"}}) {
        auto bad = out.pak;
        bad[pak2.entries[entry].data_offset + 2] ^= 0x40;
        auto e = modtest::catch_error([&] { check(bad); });
        BOOST_REQUIRE(e);
        BOOST_CHECK_EQUAL(e->file(), file);
        BOOST_CHECK_EQUAL(e->path(), path);
        BOOST_CHECK_EQUAL(e->offset(), 2u);
    }
    // Header words, table and the PAK's own table.
    auto word = [&](std::uint64_t at, std::uint32_t v) {
        auto bad = out.pak;
        mod::endian::store_be32(bad.data() + at, v);
        return modtest::catch_error([&] { check(bad); });
    };
    auto e = word(w.meta + 8, 0x100);
    BOOST_REQUIRE(e);
    BOOST_CHECK_EQUAL(e->path(), "meta.file_size");
    e = word(w.meta + w.model.table_offset + 4 * 3, static_cast<std::uint32_t>(m[3].offset + 4));
    BOOST_REQUIRE(e);
    BOOST_CHECK_EQUAL(e->path(), "meta.table[3]");
    e = word(w.meta + w.model.table_offset + 4 * 2, static_cast<std::uint32_t>(m[2].offset + 16));
    BOOST_REQUIRE(e);
    BOOST_CHECK_EQUAL(e->path(), "meta.table");
    e = word(0x10 + 24 * q.mmp + 16, static_cast<std::uint32_t>(out.pak.size()));
    BOOST_REQUIRE(e);
    BOOST_CHECK_EQUAL(e->file(), "w.pak");
    BOOST_CHECK_EQUAL(e->path(), "pak.entry[" + std::to_string(q.mmp) + "].data_offset");
    // A few truncations of the written PAK.
    for (std::size_t n : {std::size_t(0), std::size_t(20), std::size_t(w.meta + 100), std::size_t(w.mmp + 10)})
        BOOST_CHECK(modtest::catch_error([&] { check(mod::Bytes(out.pak.begin(), out.pak.begin() + static_cast<std::ptrdiff_t>(n))); }));
}

// The replaced mesh of the model handed to the self-check may hold anything (it is read back
// from the written PAK): empty, or a head too short to be laid out and a slice of another size.
BOOST_AUTO_TEST_CASE(self_check_ignores_the_replaced_mesh_of_its_model) {
    auto pak = char_pak();
    auto q = *find_quartet(pak, "skater01");
    for (std::size_t r = 0; r < 4; ++r) {
        BOOST_TEST_CONTEXT("mesh " << r) {
            auto out = replace_mesh_in_pak(pak, q, read_pak_entries(pak, q), r, shredtest::random_mesh(200, 120, r), {});
            auto expected = locate(out.pak, q, pak.file).model;
            auto empty = read_pak_entries(pak, q);
            empty.meshes[r] = {};
            require_same_model(check_pak_replacement(out.pak, q, std::move(empty), r), expected);
            auto odd = read_pak_entries(pak, q);
            odd.meshes[r].head.assign(3, 0x77);
            odd.meshes[r].triangles.resize(odd.meshes[r].triangles.size() + 5);
            odd.meshes[r].stream = {};
            require_same_model(check_pak_replacement(out.pak, q, std::move(odd), r), expected);
        }
    }
}

BOOST_AUTO_TEST_CASE(no_damaged_byte_of_an_unchanged_record_passes) {
    auto pak = char_pak();
    auto q = *find_quartet(pak, "skater01");
    const std::size_t r = 2;
    auto out = replace_mesh_in_pak(pak, q, read_pak_entries(pak, q), r, shredtest::random_mesh(300, 120, 5), {});
    auto w = locate(out.pak, q, "w.pak");
    const auto& rec = w.model.meshes[r];
    const std::uint64_t rec_begin = rec.offset;
    const std::uint64_t rec_end = rec.offset + rec.head.size() + rec.stream.stream_size() + rec.footer.size();
    const std::uint64_t slice_begin = rec.mmp_offset, slice_end = rec.mmp_offset + 6 * rec.triangles.size();
    auto pak2 = read_pak(out.pak, "w.pak");
    const std::uint64_t meta_size = pak2.entries[q.meta].size, mmp_size = pak2.entries[q.mmp].size;
    std::size_t caught = 0, passed_in_replaced = 0;
    auto sweep = [&](std::uint64_t base, std::uint64_t size, std::uint64_t begin, std::uint64_t end, bool is_meta) {
        for (std::uint64_t off = 0; off < size; off += 97) {
            auto bad = out.pak;
            bad[base + off] ^= 0x01;
            std::optional<QuartetModel> model;
            try {
                model = check_pak_replacement(bad, q, read_pak_entries(pak, q), r, "w.pak");
            } catch (const mod::Error&) {
                ++caught;
                continue;
            }
            // Only the replaced record (read back as it is) may change and still pass, and then
            // the returned model is exactly what the damaged PAK holds.
            BOOST_REQUIRE_MESSAGE(off >= begin && off < end, "damage at " + std::to_string(off) + " in the " +
                                                                 (is_meta ? "metadata file" : "MMP") + " passed");
            ++passed_in_replaced;
            auto files = write_quartet(*model);
            auto entry = pak_entry_data(bad, is_meta ? q.meta : q.mmp, "w.pak");
            const auto& made = is_meta ? files.meta : files.mmp;
            BOOST_REQUIRE(std::equal(entry.begin(), entry.end(), made.begin(), made.end()));
        }
    };
    sweep(w.meta, meta_size, rec_begin, rec_end, true);
    sweep(w.mmp, mmp_size, slice_begin, slice_end, false);
    BOOST_CHECK_GT(caught, 400u);
    BOOST_CHECK_GT(passed_in_replaced, 100u);
}

BOOST_AUTO_TEST_CASE(layout_errors_name_the_part_that_differs) {
    auto pak = char_pak();
    // Mesh 2 with 10 triangles: its slice (60 bytes) has 4 bytes of padding.
    auto files = replace_mesh(quartet_files(pak, *find_quartet(pak, "skater01")), 2, shredtest::random_mesh(30, 120, 2));
    auto m = read_quartet(files, "q");
    // A non-zero byte in a slice's padding.
    auto padded = std::find_if(m.meshes.begin(), m.meshes.end(), [](const auto& qm) { return qm.triangles.size() % 8 != 0; });
    BOOST_REQUIRE(padded != m.meshes.end());
    std::size_t i = static_cast<std::size_t>(padded - m.meshes.begin()), tris = padded->triangles.size();
    auto f = files;
    f.mmp[padded->mmp_offset + 6 * tris] = 1;
    auto e = modtest::catch_error([&] { read_quartet(f, "q"); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_NE(e->message().find("re-laying out the MMP"), std::string::npos);
    BOOST_CHECK_EQUAL(e->path(), "meta.mesh[" + std::to_string(i) + "].mmp_slice");
    BOOST_CHECK_EQUAL(e->offset(), padded->mmp_offset + 6 * tris);
    BOOST_CHECK_EQUAL(e->file(), "q (MMP)");
    // Bytes after the last record, with the size word saying so.
    f = files;
    f.meta.resize(f.meta.size() + 16, 0);
    mod::endian::store_be32(f.meta.data() + 8, static_cast<std::uint32_t>(f.meta.size()));
    e = modtest::catch_error([&] { read_quartet(f, "q"); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_NE(e->message().find("re-laying out the metadata file"), std::string::npos);
    BOOST_CHECK_EQUAL(e->path(), "meta.header");
    BOOST_CHECK_EQUAL(e->offset(), 0x0Bu);  // the size word's low byte (big-endian) is the first to differ
    // A model whose header is not table_offset bytes long cannot be laid out.
    auto bad = m;
    bad.meta_header.resize(bad.meta_header.size() + 4);
    e = modtest::catch_error([&] { write_quartet(bad); });
    BOOST_REQUIRE(e);
    BOOST_CHECK(e->kind() == mod::ErrorKind::usage);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(shred_replace_preprocess)

// The replacement's preprocessor computes each distinct influence list once (FBX meshes repeat
// them): every vertex must still get exactly the palette and weights it gets alone.
BOOST_AUTO_TEST_CASE(repeated_influence_lists_give_the_vertex_by_vertex_palettes) {
    using List = std::pair<std::array<Influence, 4>, std::uint8_t>;
    std::vector<List> pool;
    auto base = shredtest::random_mesh(30, 120, 21);
    for (const auto& v : base.vertices) pool.push_back({v.influences, v.influence_count});
    // Lists that differ only in ways the memo must not merge, or must not confuse.
    pool.push_back({{{{3, 0.5f}, {7, 0.5f}}}, 2});
    pool.push_back({{{{7, 0.5f}, {3, 0.5f}}}, 2});                 // the same pairs, permuted
    pool.push_back({{{{3, 0.0f}, {7, 1.0f}}}, 2});
    pool.push_back({{{{3, -0.0f}, {7, 1.0f}}}, 2});                // other weight bits, same value
    pool.push_back({{{{3, 1.0f}, {3, 1.0f}, {9, 1.0f}}}, 3});      // a bone listed twice: merged
    pool.push_back({{{{3, 1.0f}, {9, 1.0f}, {0, 0.0f}, {0, 0.0f}}}, 2});  // unused slots differ...
    pool.push_back({{{{3, 1.0f}, {9, 1.0f}, {4, 2.0f}, {5, 3.0f}}}, 2});  // ...and are not the list
    pool.push_back({{{{5, 1e-8f}, {6, 1.0f}}}, 2});
    pool.push_back({{{{5, 1.0f / 3}, {6, 1.0f / 3}, {8, 1.0f / 3}}}, 3});
    // The entries above give the same bytes when merged (so cannot show a wrong merge); these
    // pairs give different palettes or weights, so a memo that merged them fails below.
    pool.push_back({{{{3, 0.25f}, {7, 0.75f}}}, 2});               // same bones, other weights
    pool.push_back({{{{3, 0.75f}, {7, 0.25f}}}, 2});
    pool.push_back({{{{3, 0.5f}, {7, 0.5004f}}}, 2});              // weights 0.5 apart after x255:
    //                                                              (127, 128) instead of (128, 127)
    pool.push_back({{{{3, 1.0f}, {8, 1.0f}}}, 2});                 // one bone differs from {3, 7}
    pool.push_back({{{{8, 1.0f}, {3, 1.0f}}}, 2});
    pool.push_back({{{{3, 0.5f}, {7, 0.5f}, {9, 1.0f}}}, 3});      // {3, 7} and a third bone
    pool.push_back({{{{3, 0.5f}, {7, 0.5f}, {9, 1.0f}, {4, 1.0f}}}, 4});
    auto mesh = shredtest::random_mesh(700, 120, 22);
    modtest::Rng rng(23);
    for (auto& v : mesh.vertices) {
        const auto& l = pool[rng.below(static_cast<std::uint32_t>(pool.size()))];
        v.influences = l.first;
        v.influence_count = l.second;
    }
    for (OrderingRule rule : all_ordering_rules) {
        PreprocessOptions opt;
        opt.rule = rule;
        auto r = preprocess(mesh, opt);
        BOOST_REQUIRE_EQUAL(r.order.size(), mesh.vertices.size());
        for (std::size_t k = 0; k < r.order.size(); ++k) {
            SkinnedMesh alone;
            alone.vertices.push_back(mesh.vertices[r.order[k]]);
            auto one = preprocess(alone, opt);
            BOOST_REQUIRE(r.stream.vertices[k] == one.stream.vertices[0]);
            const auto& header = r.stream.batches[r.stream.batch_of(static_cast<std::uint32_t>(k))].header;
            BOOST_REQUIRE(header.bones() == one.stream.batches[0].header.bones());
            BOOST_REQUIRE_EQUAL(header.influence_count(), one.stream.batches[0].header.influence_count());
        }
    }
    // A failing list fails at its first vertex, whatever repeats it.
    mesh.vertices[5].influences = {{{4, 0.0f}, {6, 0.0f}}};
    mesh.vertices[5].influence_count = 2;
    mesh.vertices[9] = mesh.vertices[5];
    auto e = modtest::catch_error([&] { preprocess(mesh, {}); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_EQUAL(e->path(), "mesh.vertex[5]");
}

BOOST_AUTO_TEST_SUITE_END()
