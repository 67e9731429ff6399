#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/totem/archive.hpp"
#include "libmod/totem/extract.hpp"
#include "libmod/totem/repack.hpp"

#include <algorithm>
#include <set>

using namespace mod::totem;
using namespace totemtest;

namespace {

std::vector<std::vector<RawRecord>> sample_chunks() {
    return {{{"SKIN", "S1", "LVL", filler(100, 1)}, {"MESH", "M1", "LVL", filler(300, 2)}},
            {{"BITMAP", "B1", "B1", filler(1500, 3)}},
            {{"NODE", "N1", "LVL", filler(10, 4)}}};
}

Archive decode(const Bytes& b, Endian e) { return decode_archive(mod::ByteReader(b, e, "test.DGC", "dgc")); }

// Every record lies inside one chunk: decode_archive enforces it; this re-derives it from the
// bytes independently (records chained from each chunk start must end inside the chunk).
void require_no_record_crosses(const Bytes& b, Endian e) {
    mod::ByteReader r(b, e);
    const std::uint32_t chunk = r.u32_at(0x100);
    BOOST_REQUIRE((b.size() - 0x800) % chunk == 0);
    for (std::size_t c = 0x800; c < b.size(); c += chunk) {
        std::size_t p = c + 4;
        for (std::uint32_t i = 0, n = r.u32_at(c); i < n; ++i) {
            p += r.u32_at(p);
            BOOST_REQUIRE(p <= c + chunk);
        }
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_archive)

BOOST_AUTO_TEST_CASE(both_byte_orders_decode_and_round_trip_byte_exact) {
    for (Endian e : {Endian::big, Endian::little}) {
        auto bytes = archive_bytes(e, 0x800, sample_chunks());
        auto d = detect_byte_order(bytes);
        BOOST_TEST((d.endian == e));
        Archive a = decode(bytes, e);
        BOOST_TEST(a.chunk_size == 0x800u);
        BOOST_TEST(a.chunks.size() == 3u);
        BOOST_TEST(a.records.size() == 4u);
        BOOST_TEST(a.records[1].type_id == name_id("MESH"));
        BOOST_TEST(a.records[1].name_id == name_id("M1"));
        BOOST_TEST(a.records[1].subtype_id == name_id("LVL"));
        BOOST_TEST(a.records[1].payload == filler(300, 2));
        BOOST_TEST(a.records[0].offset == 0x804u);
        BOOST_TEST(a.legal_text() == "test notice");
        BOOST_TEST(encode_archive(a) == bytes);
    }
}

BOOST_AUTO_TEST_CASE(unknown_padding_bytes_survive) {
    auto bytes = archive_bytes(Endian::big, 0x800, sample_chunks(), 0x5A, 0xC3);
    Archive a = decode(bytes, Endian::big);
    BOOST_TEST(encode_archive(a) == bytes);
    BOOST_TEST(archive_notes(a).size() == 4u);  // header padding + three chunks' padding
    // A repack that touches nothing keeps every padding byte too.
    BOOST_TEST(encode_archive(repack(a, items_of(a))) == bytes);
}

BOOST_AUTO_TEST_CASE(short_last_chunk_is_kept_short) {
    auto bytes = archive_bytes(Endian::little, 0x800, sample_chunks());
    bytes.resize(bytes.size() - 0x400);  // last chunk holds 4 + 26 bytes of records
    Archive a = decode(bytes, Endian::little);
    BOOST_TEST(a.chunks.back().padding.size() == 0x400u - 30u);
    BOOST_TEST(encode_archive(a) == bytes);
    BOOST_TEST(encode_archive(repack(a, items_of(a))) == bytes);
}

BOOST_AUTO_TEST_CASE(extension_settles_only_true_ties) {
    // Chunk size 0x00080000 reads 0x800 little-endian: here only big-endian gives a layout.
    auto bytes = archive_bytes(Endian::big, 0x800, sample_chunks());
    BOOST_TEST((detect_byte_order(bytes, Platform::ps2).endian == Endian::big));
    BOOST_TEST((platform_from_path("A/b.dps") == Platform::ps2));
    BOOST_TEST((platform_from_path("x.NGC") == Platform::gamecube));
    BOOST_TEST((platform_from_path("x.DPC") == Platform::pc));
    BOOST_TEST(!platform_from_path("x.bin").has_value());
    Bytes zeros(0x900, 0);
    BOOST_CHECK_THROW(detect_byte_order(zeros), mod::Error);
    Bytes tiny(0x10, 0);
    BOOST_CHECK_THROW(detect_byte_order(tiny), mod::Error);
}

BOOST_AUTO_TEST_CASE(corrupt_archives_fail_cleanly_with_offsets) {
    auto bytes = archive_bytes(Endian::big, 0x800, sample_chunks());
    auto decode_view = [](mod::ByteView v) { decode_archive(mod::ByteReader(v, Endian::big, "t", "dgc")); };
    BOOST_TEST(modtest::truncation_loop(bytes, decode_view) > 0u);
    BOOST_TEST(modtest::byte_flip_loop(bytes, decode_view, 7) > 0u);
    // A record size that crosses its chunk.
    auto bad = bytes;
    mod::endian::store_be32(&bad[0x804 + 116], 0x7FF);  // second record of chunk 0
    auto err = modtest::catch_error([&] { decode_view(bad); });
    BOOST_REQUIRE(err);
    BOOST_TEST(err->offset() == 0x804u + 116u);
    BOOST_TEST(err->path() == "dgc.chunk[0].record[1]");
    mod::endian::store_be32(&bad[0x804 + 116], 8);
    err = modtest::catch_error([&] { decode_view(bad); });
    BOOST_REQUIRE(err);
    BOOST_TEST(err->message().find("smaller than its 16-byte header") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(repack_keeps_unchanged_records_in_place_and_edits_that_fit) {
    auto bytes = archive_bytes(Endian::big, 0x800, sample_chunks());
    Archive a = decode(bytes, Endian::big);
    auto items = items_of(a);
    items[0].record.payload = filler(120, 9);  // S1 grows a little: chunk 0 still fits
    RepackReport report;
    Archive b = repack(a, items, &report);
    BOOST_TEST(report.unchanged == 3u);
    BOOST_TEST(report.changed_in_place == 1u);
    BOOST_TEST(report.moved == 0u);
    BOOST_TEST(report.chunks_rewritten == 1u);
    BOOST_TEST(!report.chunk_size_grew());
    auto out = encode_archive(b);
    BOOST_TEST(out.size() == bytes.size());
    // Chunks 1 and 2 are untouched: identical bytes.
    BOOST_TEST(std::equal(out.begin() + 0x1000, out.end(), bytes.begin() + 0x1000));
    Archive c = decode(out, Endian::big);
    BOOST_TEST(c.records[0].payload == filler(120, 9));
    BOOST_TEST(c.chunks[0].records.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_record_that_outgrows_its_chunk_moves_without_growing_the_chunk_size) {
    auto bytes = archive_bytes(Endian::little, 0x800, sample_chunks());
    Archive a = decode(bytes, Endian::little);
    auto items = items_of(a);
    items[1].record.payload = filler(1950, 5);  // M1 no longer fits beside S1; fits beside N1
    RepackReport report;
    auto out = encode_archive(repack(a, items, &report));
    BOOST_TEST(!report.chunk_size_grew());
    BOOST_TEST(report.moved == 1u);
    require_no_record_crosses(out, Endian::little);
    Archive c = decode(out, Endian::little);
    BOOST_TEST(c.chunks.size() == 3u);  // first fit: the chunk holding N1 has room
    BOOST_TEST(c.chunks[0].records.size() == 1u);
    BOOST_TEST(c.records[c.chunks[0].records[0]].name_id == name_id("S1"));
    BOOST_TEST(c.records[c.chunks[2].records[1]].name_id == name_id("M1"));
    // The untouched chunk 1 keeps its bytes.
    BOOST_TEST(std::equal(out.begin() + 0x1000, out.begin() + 0x1800, bytes.begin() + 0x1000));
}

BOOST_AUTO_TEST_CASE(chunk_size_grows_only_when_a_record_cannot_fit_any_chunk) {
    for (Endian e : {Endian::big, Endian::little}) {
        auto bytes = archive_bytes(e, 0x800, sample_chunks(), 0, 0x11);
        Archive a = decode(bytes, e);
        auto items = items_of(a);
        items[2].record.payload = filler(5000, 6);  // B1: 5016 bytes > 0x800
        RepackReport report;
        auto out = encode_archive(repack(a, items, &report));
        BOOST_TEST(report.chunk_size_grew());
        BOOST_TEST(report.new_chunk_size == 0x1800u);  // 4 + 5016 rounded up to 0x800
        BOOST_TEST(!report.notes.empty());
        require_no_record_crosses(out, e);
        Archive c = decode(out, e);
        BOOST_TEST(c.chunk_size == 0x1800u);
        BOOST_TEST(c.records.size() == 4u);
        // Untouched chunks keep their (non-zero) padding, extended with zeros.
        BOOST_TEST(c.chunks[0].padding[0] == 0x11);
        BOOST_TEST(c.chunks[0].padding.back() == 0);
        BOOST_TEST(c.records[c.chunks[1].records[0]].payload == filler(5000, 6));
    }
}

BOOST_AUTO_TEST_CASE(removed_and_added_records) {
    auto bytes = archive_bytes(Endian::big, 0x800, sample_chunks());
    Archive a = decode(bytes, Endian::big);
    auto items = items_of(a);
    items.erase(items.begin() + 3);  // N1 goes: chunk 2 empties and is dropped
    Record fresh;
    fresh.type_id = name_id("NODE");
    fresh.name_id = name_id("N2");
    fresh.subtype_id = name_id("LVL");
    fresh.payload = filler(400, 8);
    items.push_back({fresh, std::nullopt});
    RepackReport report;
    Archive c = decode(encode_archive(repack(a, items, &report)), Endian::big);
    BOOST_TEST(report.removed == 1u);
    BOOST_TEST(report.added == 1u);
    BOOST_TEST(c.records.size() == 4u);
    BOOST_TEST(c.chunks.size() == 2u);  // N2 fits into chunk 0 (first fit)
    BOOST_TEST(c.records[c.chunks[0].records.back()].name_id == name_id("N2"));
    auto dup = items_of(a);
    dup[1].origin = 0;
    BOOST_CHECK_THROW(repack(a, dup), mod::Error);
}

BOOST_AUTO_TEST_CASE(chunks_that_were_already_empty_survive_a_repack) {
    // decode_archive accepts a chunk whose record count is 0 (here in the middle and last);
    // an unchanged repack must give the input back, not drop them.
    for (Endian e : {Endian::big, Endian::little}) {
        auto chunks = sample_chunks();
        chunks.insert(chunks.begin() + 1, std::vector<RawRecord>{});
        chunks.push_back({});
        auto bytes = archive_bytes(e, 0x800, chunks, 0, 0x3C);
        Archive a = decode(bytes, e);
        BOOST_REQUIRE(a.chunks.size() == 5u);
        RepackReport report;
        BOOST_TEST(encode_archive(repack(a, items_of(a), &report)) == bytes);
        BOOST_TEST(report.chunks_rewritten == 0u);
        BOOST_TEST(report.notes.empty());
        // Removing N1 empties its chunk, which goes; the chunks that were empty stay verbatim.
        auto items = items_of(a);
        items.pop_back();
        auto out = encode_archive(repack(a, items));
        BOOST_TEST(out.size() == bytes.size() - 0x800);
        BOOST_TEST(std::equal(out.begin(), out.begin() + 0x2000, bytes.begin()));
        BOOST_TEST(std::equal(out.begin() + 0x2000, out.end(), bytes.begin() + 0x2800));
    }
}

BOOST_AUTO_TEST_CASE(records_that_fill_a_chunk_exactly) {
    // A record ending on the last byte of its chunk (no padding) is valid to read, write and
    // place: none of the size comparisons may be off by one.
    auto bytes = archive_bytes(Endian::big, 0x800, {{{"SKIN", "A", "L", filler(0x800 - 4 - 16, 1)}},
                                                    {{"NODE", "B", "L", filler(10, 2)}}});
    Archive a = decode(bytes, Endian::big);
    BOOST_TEST(a.chunks[0].padding.empty());
    BOOST_TEST(encode_archive(a) == bytes);
    BOOST_TEST(encode_archive(repack(a, items_of(a))) == bytes);

    // An edit that makes a record fill its chunk exactly: it stays, and nothing grows.
    auto two = archive_bytes(Endian::big, 0x800, {{{"SKIN", "A", "L", filler(100, 1)}, {"MESH", "C", "L", filler(100, 3)}},
                                                  {{"NODE", "B", "L", filler(10, 2)}}});
    Archive b = decode(two, Endian::big);
    auto items = items_of(b);
    items[0].record.payload = filler(0x800 - 4 - 16 - 116, 4);
    RepackReport report;
    Archive c = decode(encode_archive(repack(b, items, &report)), Endian::big);
    BOOST_TEST(!report.chunk_size_grew());
    BOOST_TEST(report.moved == 0u);
    BOOST_TEST(c.chunks.size() == 2u);
    BOOST_TEST(c.chunks[0].padding.empty());

    // A record that leaves its chunk and fits another one's free space exactly goes there.
    items = items_of(b);
    items[1].record.payload = filler(0x800 - 4 - 26 - 16, 5);  // chunk 1 holds 4 + 26 bytes
    c = decode(encode_archive(repack(b, items, &report)), Endian::big);
    BOOST_TEST(report.moved == 1u);
    BOOST_TEST(!report.chunk_size_grew());
    BOOST_REQUIRE(c.chunks.size() == 2u);
    BOOST_TEST(c.chunks[1].records.size() == 2u);
    BOOST_TEST(c.chunks[1].padding.empty());

    // A record of exactly chunk size - 4 bytes needs no growth; one byte more grows to 0x1000.
    items = items_of(b);
    items[2].record.payload = filler(0x800 - 4 - 16, 6);
    repack(b, items, &report);
    BOOST_TEST(!report.chunk_size_grew());
    BOOST_TEST(report.notes.empty());  // not even a "grows to 0x800" note
    items[2].record.payload.push_back(0);
    repack(b, items, &report);
    BOOST_TEST(report.new_chunk_size == 0x1000u);
}

BOOST_AUTO_TEST_CASE(a_short_last_chunk_that_stops_being_last_is_padded_out) {
    auto bytes = archive_bytes(Endian::little, 0x800, sample_chunks());
    bytes.resize(bytes.size() - 0x400);
    Archive a = decode(bytes, Endian::little);
    auto items = items_of(a);
    Record fresh;
    fresh.type_id = name_id("NODE");
    fresh.name_id = name_id("N2");
    fresh.payload = filler(2010, 8);  // fits no existing chunk: a new last chunk
    items.push_back({fresh, std::nullopt});
    auto out = encode_archive(repack(a, items));
    BOOST_TEST(out.size() == 0x800u + 4u * 0x800u);
    require_no_record_crosses(out, Endian::little);
    // The old short chunk, untouched, keeps its bytes and is completed with zeros.
    BOOST_TEST(std::equal(bytes.begin(), bytes.end(), out.begin()));
    BOOST_TEST(std::all_of(out.begin() + bytes.size(), out.begin() + 0x2000, [](std::uint8_t b) { return b == 0; }));
}

BOOST_AUTO_TEST_CASE(a_chunk_size_that_divides_the_body_decides_a_near_tie) {
    // One empty chunk: its count reads 0 in both orders. The word 0x800 big-endian is
    // 0x80000 little-endian, also a multiple of 0x800 but larger than the body: only the
    // big-endian reading divides the body into whole chunks, and that decides.
    auto bytes = archive_bytes(Endian::big, 0x800, {{}});
    BOOST_TEST((detect_byte_order(bytes).endian == Endian::big));
    auto le = archive_bytes(Endian::little, 0x800, {{}});
    BOOST_TEST((detect_byte_order(le).endian == Endian::little));
}

BOOST_AUTO_TEST_CASE(extract_paths_never_put_a_file_where_a_folder_must_go) {
    // "DB:>P" of type SKIN is the file P.SKIN, so "DB:>P.SKIN>Q" cannot be P.SKIN/Q.SKIN (and
    // the other way round). Every planned path must be creatable: no file is also a folder.
    std::string table;
    for (const char* n : {"SKIN", "L", "DB:>P", "DB:>P.SKIN>Q", "DB:>R.SKIN>S", "DB:>R", "DB:>P.SKIN_Q"})
        table += std::to_string(name_id(n)) + " \"" + n + "\"\n";
    auto table_bytes = text(table);
    const NameTable names = NameTable::parse(mod::ByteReader(table_bytes, Endian::big));
    auto bytes = archive_bytes(Endian::big, 0x800,
                               {{{"SKIN", "DB:>P", "L", filler(4, 1)}, {"SKIN", "DB:>P.SKIN>Q", "L", filler(4, 2)},
                                 {"SKIN", "DB:>R.SKIN>S", "L", filler(4, 3)}, {"SKIN", "DB:>R", "L", filler(4, 4)},
                                 {"SKIN", "DB:>P.SKIN_Q", "L", filler(4, 5)}}});
    const auto plan = plan_extract(decode(bytes, Endian::big), names);
    BOOST_REQUIRE(plan.size() == 5u);
    std::set<std::string> files, folders;
    for (const auto& e : plan) {
        BOOST_TEST(files.insert(e.file).second, e.file);
        for (std::size_t slash = e.file.find('/'); slash != std::string::npos; slash = e.file.find('/', slash + 1))
            folders.insert(e.file.substr(0, slash));
    }
    for (const auto& f : files) BOOST_TEST(!folders.count(f), f << " is both a file and a folder");
    BOOST_TEST(plan[0].file == "P.SKIN");
    BOOST_TEST(plan[1].file == "P.SKIN_Q.SKIN");    // flattened below a file
    BOOST_TEST(plan[2].file == "R.SKIN/S.SKIN");
    BOOST_TEST(plan[3].file == "R~2.SKIN");         // R.SKIN is already a folder
    BOOST_TEST(plan[4].file == "P.SKIN_Q~2.SKIN");  // clashes with the flattened name
}

BOOST_AUTO_TEST_CASE(the_extract_index_reads_back_and_refuses_paths_that_leave_the_folder) {
    auto bytes = archive_bytes(Endian::big, 0x800, sample_chunks());
    Archive a = decode(bytes, Endian::big);
    std::string table;
    for (const char* n : {"SKIN", "S1", "LVL"}) table += std::to_string(name_id(n)) + " \"" + n + "\"\n";
    auto table_bytes = text(table);
    const NameTable names = NameTable::parse(mod::ByteReader(table_bytes, Endian::big));
    const auto plan = plan_extract(a, names);
    const auto items = read_extract_index(extract_index_json(a, names, plan, Platform::gamecube), "index.json");
    BOOST_REQUIRE(items.size() == a.records.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        BOOST_TEST(*items[i].origin == i);
        BOOST_TEST(items[i].file == plan[i].file);
        BOOST_TEST(items[i].type_id == a.records[i].type_id);
        BOOST_TEST(items[i].name_id == a.records[i].name_id);
        BOOST_TEST(items[i].subtype_id == a.records[i].subtype_id);
        BOOST_TEST(items[i].new_names.empty());  // ids given: nothing to add
    }
    // A new record named by text only: its ids are hashed and the names handed back.
    auto added = read_extract_index(R"({"records": [{"file": "N/x.NODE", "type": "NODE", "name": "DB:>N", "subtype": "L"}]})");
    BOOST_REQUIRE(added.size() == 1u);
    BOOST_TEST(!added[0].origin.has_value());
    BOOST_TEST(added[0].name_id == name_id("DB:>N"));
    BOOST_TEST(added[0].new_names.size() == 3u);
    for (const char* file : {"../x.BIN", "a/../../x.BIN", "/etc/x.BIN", "a//x.BIN", "./x.BIN", "a/.", "a\\\\x.BIN" /* JSON for a\x.BIN */, ""}) {
        const std::string json = std::string(R"({"records": [{"index": 0, "file": ")") + file +
                                 R"(", "type_id": 1, "name_id": 2, "subtype_id": 3}]})";
        auto err = modtest::catch_error([&] { read_extract_index(json, "index.json"); });
        BOOST_REQUIRE_MESSAGE(err, file);
        BOOST_TEST(err->path() == "index.records[0]");
        BOOST_TEST(err->file() == "index.json");
    }
    for (const char* json : {R"({"records": [{"index": -1, "file": "a", "type_id": 1, "name_id": 2, "subtype_id": 3}]})",
                             R"({"records": [{"file": "a", "type_id": 1, "name_id": 2}]})",
                             R"({"records": [{"file": "a", "type_id": 1.5, "name_id": 2, "subtype_id": 3}]})",
                             R"({"records": {}})", R"({"records": [)"})
        BOOST_CHECK_THROW(read_extract_index(json), mod::Error);
}

BOOST_AUTO_TEST_SUITE_END()

// Issue 34 (1): a chunk size word is capped before anything is allocated. The archive is built
// byte by byte from doc/formats/totem-archive.md: 0x100-byte notice, u32 chunk size at 0x100,
// 0x6FC bytes of padding, then one (short) chunk: u32 record count 1, one record (u32 total
// size, three i32 IDs, payload).
namespace {
Bytes lone_short_chunk(Endian e, std::uint32_t chunk_size, std::size_t payload) {
    mod::ByteWriter w(e);
    w.fill(0x100);
    w.u32(chunk_size);
    w.fill(0x6FC);
    w.u32(1);
    w.u32(static_cast<std::uint32_t>(16 + payload));
    w.i32(name_id("SKIN"));
    w.i32(name_id("DB:>X.TSKIN"));
    w.i32(name_id("LVL"));
    w.bytes(filler(payload, 9));
    return w.take();
}
}  // namespace

BOOST_AUTO_TEST_SUITE(totem_archive_caps)

BOOST_AUTO_TEST_CASE(a_chunk_size_word_beyond_the_limit_is_refused_before_allocating) {
    BOOST_TEST(max_chunk_size == 0x1000000u);  // 16 MiB, as the doc's Limits section says
    for (Endian e : {Endian::big, Endian::little})
        for (std::uint32_t word : {0xFFFFF800u, 0xFFFFFFFFu, 0x80000000u, 0x1000800u, 0x1000001u}) {
            const Bytes bomb = lone_short_chunk(e, word, 10 * 1024 - 0x800 - 20);
            BOOST_TEST(bomb.size() == 10u * 1024u);
            auto err = modtest::catch_error([&] { decode(bomb, e); });
            BOOST_REQUIRE(err);
            BOOST_TEST((err->kind() == mod::ErrorKind::limit));
            BOOST_TEST(err->offset() == 0x100u);
            BOOST_TEST(err->path() == "dgc.header.chunk_size");
            BOOST_TEST(err->message().find("limit of 0x1000000") != std::string::npos);
            // Detection does not take the word either: no order explains the file.
            BOOST_CHECK_THROW(detect_byte_order(bomb), mod::Error);
        }
}

BOOST_AUTO_TEST_CASE(an_edit_of_a_lone_short_chunk_writes_at_most_the_limit) {
    // The largest accepted word: an edit rewrites the short chunk whole (rule 4), 16 MiB.
    const Bytes at_limit = lone_short_chunk(Endian::big, max_chunk_size, 100);
    Archive a = decode(at_limit, Endian::big);
    BOOST_TEST(encode_archive(a) == at_limit);
    auto items = items_of(a);
    items[0].record.payload[0] ^= 0xFF;
    const Bytes edited = encode_archive(repack(a, std::move(items)));
    BOOST_TEST(edited.size() == 0x800u + max_chunk_size);
    // A record that needs a chunk beyond the limit is refused (limit), not written.
    auto grow = items_of(a);
    grow[0].record.payload.assign(max_chunk_size, 1);
    auto err = modtest::catch_error([&] { repack(a, grow); });
    BOOST_REQUIRE(err);
    BOOST_TEST((err->kind() == mod::ErrorKind::limit));
}

BOOST_AUTO_TEST_SUITE_END()
