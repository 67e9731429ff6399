// Quartets (shred-quartet/1), full replacement, scan, same-topology edits and the CLI.
#include "shred_util.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/core/file.hpp"
#include "libmod/shred/edit.hpp"
#include "libmod/shred/quartet.hpp"
#include "libmod/shred/scan.hpp"

#include <cstring>

using namespace mod::shred;
namespace fs = std::filesystem;

namespace {

Pak char_pak() {
    auto p = shredtest::sample_dir() / "char_sample.pak";
    return read_pak(mod::read_file(p), p.string());
}

void all_valid(mod::ByteView data, std::size_t expected) {
    auto found = scan(data, "scan");
    BOOST_CHECK_EQUAL(found.size(), expected);
    for (const auto& m : found) BOOST_CHECK_MESSAGE(m.error.empty(), m.error);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shred_quartet)

BOOST_AUTO_TEST_CASE(sample_quartets_fit_the_hypothesis) {
    auto pak = char_pak();
    auto qs = find_quartets(pak);
    BOOST_REQUIRE_EQUAL(qs.size(), 4u);  // skater01, skater02, skater03, board01 (static)
    BOOST_CHECK_EQUAL(qs[0].base, "skater01");
    auto files = quartet_files(pak, qs[0]);
    auto m = read_quartet(files, "skater01");
    BOOST_CHECK_EQUAL(m.skeleton.bones.size(), 120u);
    BOOST_CHECK_EQUAL(m.skeleton.bones[82].name, "LeftLeg");
    BOOST_CHECK_EQUAL(m.skeleton.bones[83].name, "LeftLegRoll");
    BOOST_CHECK_EQUAL(m.skeleton.bones[84].name, "LeftFoot");
    BOOST_REQUIRE_EQUAL(m.meshes.size(), 4u);
    // The "STR" mesh: the stream's first batch header spells STR\xFF, the second YZX\xFF.
    auto meta = files.meta;
    auto str = meta.data() + m.meshes[0].offset + m.meshes[0].head.size() + 64;
    BOOST_CHECK(std::memcmp(str, "STR\xFF", 4) == 0);
    BOOST_CHECK(m.meshes[0].stream.vertices[0].weights() == (std::array<std::uint8_t, 4>{139, 113, 3, 0}));
    BOOST_CHECK(m.meshes[0].stream.batches[1].header.bones() == (std::array<std::uint8_t, 4>{'Y', 'Z', 'X', 255}));
    // NaN normals in one mesh, accepted.
    StreamReport rep;
    validate_stream(m.meshes[3].stream, {}, &rep);
    BOOST_CHECK_EQUAL(rep.non_finite_normals, 3u);
    auto out = write_quartet(m);
    BOOST_CHECK(out.meta == files.meta);
    BOOST_CHECK(out.mmp == files.mmp);
    BOOST_CHECK(out.scp == files.scp);
    // Crowd skeletons have 40 bones.
    auto lp = shredtest::sample_dir() / "layer_sample.pak";
    auto layer = read_pak(mod::read_file(lp), lp.string());
    for (const auto& q : find_quartets(layer)) BOOST_CHECK_EQUAL(read_quartet(quartet_files(layer, q)).skeleton.bones.size(), 40u);
}

BOOST_AUTO_TEST_CASE(full_replacement_grows_and_shrinks) {
    auto pak = char_pak();
    auto q = find_quartets(pak)[0];
    auto files = quartet_files(pak, q);
    auto before = read_quartet(files);
    for (std::uint32_t n : {900u, 30u}) {
        auto mesh = shredtest::random_mesh(n, 120, n);
        ReplaceReport rep;
        auto out = replace_mesh(files, 1, mesh, {}, "skater01", &rep);
        BOOST_CHECK_EQUAL(rep.new_vertices, n);
        BOOST_CHECK_EQUAL(rep.old_vertices, before.meshes[1].stream.vertices.size());
        if (n == 900) BOOST_CHECK_GT(rep.meta_size_change, 0);
        else BOOST_CHECK_LT(rep.meta_size_change, 0);
        auto after = read_quartet(out);
        BOOST_REQUIRE_EQUAL(after.meshes.size(), 4u);
        BOOST_CHECK_EQUAL(after.meshes[1].stream.vertices.size(), n);
        BOOST_CHECK_EQUAL(after.meshes[1].triangles.size(), mesh.triangles.size());
        // Unchanged meshes keep their streams, triangles and footers byte for byte.
        for (std::size_t i : {0u, 2u, 3u}) {
            BOOST_CHECK(encode_stream(after.meshes[i].stream) == encode_stream(before.meshes[i].stream));
            BOOST_CHECK(after.meshes[i].triangles == before.meshes[i].triangles);
            BOOST_CHECK(after.meshes[i].footer == before.meshes[i].footer);
            BOOST_CHECK(std::equal(after.meshes[i].head.begin() + 0x70, after.meshes[i].head.end(),
                                   before.meshes[i].head.begin() + 0x70));
        }
        // The new triangles are the input's, renumbered.
        auto s = after.meshes[1].stream;
        for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
            for (int c = 0; c < 3; ++c)
                BOOST_REQUIRE(s.vertices[after.meshes[1].triangles[t][c]].position() ==
                              mesh.vertices[mesh.triangles[t][c]].position);
        all_valid(out.meta, 4);
        // Whole PAK route, then re-scan the PAK.
        auto pak_bytes = replace_mesh_in_pak(pak, "SKATER01", 1, mesh);
        auto pak2 = read_pak(pak_bytes, "new.pak");
        all_valid(pak_bytes, 8);
        auto again = read_quartet(quartet_files(pak2, find_quartets(pak2)[0]));
        BOOST_CHECK_EQUAL(again.meshes[1].stream.vertices.size(), n);
        // Entries outside the quartet are untouched.
        BOOST_CHECK(std::equal(pak2.data(0).begin(), pak2.data(0).end(), pak.data(0).begin(), pak.data(0).end()));
    }
}

BOOST_AUTO_TEST_CASE(replacement_box_is_min_and_max_in_stream_order_with_signed_zero_ties) {
    // Coordinates that tie between +0 and -0 at the extremes, in both orders, and one-vertex
    // meshes: the stored box must be what std::min / std::max give walking the new stream in
    // order (the earlier of two tied values is kept), bit for bit.
    auto pak = char_pak();
    auto files = quartet_files(pak, find_quartets(pak)[0]);
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        modtest::Rng rng(seed);
        auto mesh = shredtest::random_mesh(seed % 4 == 0 ? 3 : 60, 120, seed);
        if (seed % 4 == 0) mesh.vertices.resize(1), mesh.triangles = {{0, 0, 0}};
        // Per axis, zeros of both signs and values on one side only: the minimum (odd seeds)
        // or the maximum (even seeds) is then a tie between +0 and -0.
        for (auto& v : mesh.vertices)
            for (auto& c : v.position) {
                const std::uint32_t pick = rng.below(3);
                const float magnitude = std::abs(c) + 0.5f;
                c = pick == 0 ? 0.0f : pick == 1 ? -0.0f : seed % 2 ? magnitude : -magnitude;
            }
        auto out = replace_mesh(files, 1, mesh, {}, "skater01");
        auto after = read_quartet(out);
        const auto& stream = after.meshes[1].stream;
        BOOST_REQUIRE(!stream.vertices.empty());
        std::array<float, 3> lo = stream.vertices[0].position(), hi = lo;
        for (const auto& v : stream.vertices) {
            const auto p = v.position();
            for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
        }
        const auto& head = after.meshes[1].head;
        for (int k = 0; k < 3; ++k) {
            BOOST_TEST(mod::endian::load_be32(head.data() + quartet_v1::box_min + 4 * k) == std::bit_cast<std::uint32_t>(lo[k]));
            BOOST_TEST(mod::endian::load_be32(head.data() + quartet_v1::box_max + 4 * k) == std::bit_cast<std::uint32_t>(hi[k]));
        }
    }
}

BOOST_AUTO_TEST_CASE(replacement_from_a_read_model_matches_the_files_route) {
    auto pak = char_pak();
    auto q = *find_quartet(pak, "Skater01");
    BOOST_CHECK_EQUAL(q.base, "skater01");
    BOOST_CHECK(!find_quartet(pak, "nope"));
    auto files = quartet_files(pak, q);
    auto mesh = shredtest::random_mesh(700, 120, 7);
    ReplaceReport by_files, by_model;
    auto out = replace_mesh(files, 1, mesh, {}, "skater01", &by_files);
    // A replacement rewrites only the metadata file and the MMP.
    BOOST_CHECK(out.mgp == files.mgp);
    BOOST_CHECK(out.scp == files.scp);
    auto done = replace_mesh_in_model(read_quartet(files, "skater01"), 1, mesh, {}, &by_model);
    BOOST_CHECK(done.files.meta == out.meta);
    BOOST_CHECK(done.files.mmp == out.mmp);
    BOOST_CHECK(done.files.mgp == files.mgp);
    BOOST_CHECK(done.files.scp == files.scp);
    BOOST_CHECK_EQUAL(by_model.meta_size_change, by_files.meta_size_change);
    BOOST_CHECK_EQUAL(by_model.mmp_size_change, std::int64_t(out.mmp.size()) - std::int64_t(files.mmp.size()));
    BOOST_CHECK_EQUAL(by_model.meta_size_change, std::int64_t(out.meta.size()) - std::int64_t(files.meta.size()));
    // The self-check's model is what reading the new files gives.
    auto again = read_quartet(out, "skater01");
    BOOST_REQUIRE_EQUAL(done.model.meshes.size(), again.meshes.size());
    for (std::size_t i = 0; i < again.meshes.size(); ++i) {
        BOOST_CHECK(encode_stream(done.model.meshes[i].stream) == encode_stream(again.meshes[i].stream));
        BOOST_CHECK(done.model.meshes[i].triangles == again.meshes[i].triangles);
        BOOST_CHECK(done.model.meshes[i].head == again.meshes[i].head);
    }
    BOOST_CHECK(done.model.skeleton.raw == again.skeleton.raw);
    BOOST_CHECK(write_quartet(done.model).meta == out.meta);
    // The PAK route with the model gives the PAK replace_mesh_in_pak gives by name.
    auto by_name = replace_mesh_in_pak(pak, "SKATER01", 1, mesh);
    auto with_model = replace_mesh_in_pak(pak, q, read_quartet(files, pak.file + ":" + q.base), 1, mesh);
    BOOST_CHECK(with_model.pak == by_name);
    // Errors keep naming the quartet.
    auto e = modtest::catch_error([&] { replace_mesh_in_model(read_quartet(files, "skater01"), 9, mesh); });
    BOOST_REQUIRE(e);
    BOOST_CHECK(e->kind() == mod::ErrorKind::usage);
    BOOST_CHECK_EQUAL(e->file(), "skater01");
}

BOOST_AUTO_TEST_CASE(replacement_refused_where_the_hypothesis_does_not_fit) {
    auto pak = char_pak();
    auto files = quartet_files(pak, find_quartets(pak)[0]);
    auto mesh = shredtest::random_mesh(50, 120, 3);
    auto expect = [&](const QuartetFiles& f, const std::string& words) {
        auto e = modtest::catch_error([&] { replace_mesh(f, 0, mesh, {}, "q"); });
        BOOST_REQUIRE_MESSAGE(e, "expected a refusal mentioning: " + words);
        BOOST_CHECK_MESSAGE(e->message().rfind("shred-quartet/1 does not match", 0) == 0, e->what());
        BOOST_CHECK_MESSAGE(e->message().find(words) != std::string::npos, e->what());
    };
    auto m = read_quartet(files);
    auto f = files;
    mod::endian::store_be32(f.meta.data() + 8, 12);
    expect(f, "the word at 0x08");
    f = files;
    mod::endian::store_be32(f.meta.data() + m.meshes[1].offset + quartet_v1::descriptor_stride, 32);
    expect(f, "stride 36");
    f = files;
    mod::endian::store_be32(f.meta.data() + m.meshes[1].offset + quartet_v1::descriptor_format_mask, 0x7F);
    expect(f, "format mask");
    f = files;
    mod::endian::store_be32(f.meta.data() + m.meshes[2].offset + quartet_v1::mmp_offset, 0x20);
    expect(f, "back to back");
    f = files;
    mod::endian::store_be32(f.meta.data() + m.meshes[0].offset + quartet_v1::descriptor_vertex_count, 7);
    expect(f, "stream holds");
    f = files;
    f.meta.resize(f.meta.size() + 16, 0x55);  // bytes after the last record the layout does not know
    mod::endian::store_be32(f.meta.data() + 8, static_cast<std::uint32_t>(f.meta.size()));
    expect(f, "re-laying out");
    // A mesh outside the skeleton, or too big for u16 indices, is refused too.
    auto far = mesh;
    far.vertices[7].influences[0].bone = 150;  // the skeleton has 120 bones
    auto e = modtest::catch_error([&] { replace_mesh(files, 0, far); });
    BOOST_REQUIRE(e);
    BOOST_CHECK_NE(e->message().find("outside the skeleton"), std::string::npos);
    BOOST_CHECK_EQUAL(e->path(), "mesh.vertex[7]");
    BOOST_CHECK(modtest::catch_error([&] { replace_mesh(files, 9, mesh); }));
    BOOST_CHECK(modtest::catch_error([&] { replace_mesh_in_pak(pak, "nope", 0, mesh); }));
}

BOOST_AUTO_TEST_CASE(scan_finds_meshes_in_any_file) {
    auto pak = char_pak();
    all_valid(pak.raw, 8);  // skater01: 4, skater02: 2, skater03: 2 (board01 is not skinned)
    auto found = scan(pak.raw, "char");
    for (const auto& m : found) {
        // skater03's second mesh is the forge's unprocessed one (flag word 0).
        BOOST_CHECK_EQUAL(m.processed, m.metadata_offset != found[7].metadata_offset);
        BOOST_CHECK(m.footer_present);
        BOOST_REQUIRE(!m.format_mask_at.empty());
        BOOST_CHECK_EQUAL(m.format_mask_at[0], quartet_v1::descriptor_format_mask);
    }
    BOOST_CHECK_EQUAL(found[3].report.non_finite_normals, 3u);
    // An extracted metadata entry alone.
    auto meta = pak.data(*pak.find("skater01.rmg"));
    all_valid(meta, 4);
    // A broken stream is reported, not thrown.
    mod::Bytes broken(meta.begin(), meta.end());
    auto f0 = scan(broken)[0];
    broken[f0.stream_offset + 64 + 64 + 0x0C] ^= 1;
    auto f1 = scan(broken);
    BOOST_REQUIRE_EQUAL(f1.size(), 4u);
    BOOST_CHECK_NE(f1[0].error.find("weight-sum"), std::string::npos);
    // Hostile input: never throws.
    modtest::byte_flip_loop(mod::Bytes(meta.begin(), meta.begin() + 4000), [](mod::ByteView v) { scan(v); }, 7);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(shred_edit)

BOOST_AUTO_TEST_CASE(csv_parsing) {
    auto e = parse_edit_csv("# comment\n0,5,position,1,2,3\n0,5,uv0,0.5,0.25\n\n1,2,weights,0.5,0.5,0,0\n", "e.csv");
    BOOST_REQUIRE_EQUAL(e.size(), 2u);
    BOOST_CHECK(e[0].position && (*e[0].position)[2] == 3.0f);
    BOOST_CHECK(e[0].uv0 && (*e[0].uv0)[1] == 0.25f);
    BOOST_CHECK(e[1].weights && e[1].mesh == 1 && e[1].vertex == 2);
    auto err = modtest::catch_error([] { parse_edit_csv("0,1,colour,1\n", "e.csv"); });
    BOOST_REQUIRE(err);
    BOOST_CHECK_EQUAL(err->path(), "line[1]");
    BOOST_CHECK(modtest::catch_error([] { parse_edit_csv("0,1,position,1,2\n"); }));
    BOOST_CHECK(modtest::catch_error([] { parse_edit_csv("x,1,position,1,2,3\n"); }));
}

BOOST_AUTO_TEST_CASE(same_topology_edit_in_place) {
    auto pak = char_pak();
    auto found = scan(pak.raw);
    std::vector<VertexEdit> edits(3);
    edits[0].mesh = 1, edits[0].vertex = 10;
    edits[0].position = std::array<float, 3>{9.5f, -1.0f, 0.25f};
    edits[0].uv1 = std::array<float, 2>{0.75f, 0.5f};
    edits[1].mesh = 0, edits[1].vertex = 0;
    edits[1].weights = std::array<float, 4>{1, 1, 1, 0};  // palette 83,84,82,255 kept
    edits[2].mesh = 3, edits[2].vertex = 1;
    edits[2].normal = std::array<float, 3>{0, 0, 1};
    edits[2].tangent_sign = -1.0f;
    EditReport rep;
    auto out = apply_edits(pak.raw, edits, "char", {}, &rep);
    BOOST_CHECK_EQUAL(rep.meshes_found, 8u);
    BOOST_CHECK_GE(rep.vertices_changed, 2u);
    BOOST_CHECK_EQUAL(out.size(), pak.raw.size());
    all_valid(out, 8);
    // Only the edited streams' bytes changed.
    std::size_t diff_outside = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        bool inside = false;
        for (std::size_t m : {0u, 1u, 3u})
            inside |= i >= found[m].stream_offset && i < found[m].stream_offset + found[m].stream_size;
        diff_outside += !inside && out[i] != pak.raw[i];
    }
    BOOST_CHECK_EQUAL(diff_outside, 0u);
    mod::ByteReader r(out, mod::Endian::big);
    auto s1 = decode_stream(r.sub(found[1].stream_offset, out.size() - found[1].stream_offset));
    BOOST_CHECK(s1.vertices[10].position() == (std::array<float, 3>{9.5f, -1.0f, 0.25f}));
    BOOST_CHECK(s1.vertices[10].uv(1) == (std::array<float, 2>{0.75f, 0.5f}));
    auto s0 = decode_stream(r.sub(found[0].stream_offset, out.size() - found[0].stream_offset));
    BOOST_CHECK(s0.vertices[0].weights() == (std::array<std::uint8_t, 4>{85, 85, 85, 0}));
    // The PAK and its quartets still read, and the quartet hypothesis still fits.
    auto pak2 = read_pak(out, "edited");
    BOOST_CHECK_NO_THROW(read_quartet(quartet_files(pak2, find_quartets(pak2)[0])));
    // Refusals: palette change, broken invariant, missing mesh/vertex.
    std::vector<VertexEdit> bad(1);
    bad[0].mesh = 0, bad[0].vertex = 0, bad[0].weights = std::array<float, 4>{1, 1, 1, 1};
    BOOST_CHECK(modtest::catch_error([&] { apply_edits(pak.raw, bad); }));
    bad[0] = {};
    bad[0].mesh = 0, bad[0].position = std::array<float, 3>{std::numeric_limits<float>::infinity(), 0, 0};
    auto e = modtest::catch_error([&] { apply_edits(pak.raw, bad); });
    BOOST_REQUIRE(e);
    BOOST_CHECK(is_violation(*e, Invariant::position_finite));
    bad[0] = {};
    bad[0].mesh = 40;
    BOOST_CHECK(modtest::catch_error([&] { apply_edits(pak.raw, bad); }));
    bad[0].mesh = 0, bad[0].vertex = 100000;
    BOOST_CHECK(modtest::catch_error([&] { apply_edits(pak.raw, bad); }));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(shred_cli)

BOOST_AUTO_TEST_CASE(scan_show_list_conformance) {
    auto pak = (shredtest::sample_dir() / "char_sample.pak").string();
    auto r = modtest::run_cli({"shred", "scan", pak, "--json"});
    BOOST_CHECK_EQUAL(r.exit_code, 0);
    BOOST_CHECK_NE(r.out.find("\"meshes_found\": 8"), std::string::npos);
    r = modtest::run_cli({"shred", "show", pak});
    BOOST_CHECK_EQUAL(r.exit_code, 0);
    BOOST_CHECK_NE(r.out.find("skeleton: 120 bones"), std::string::npos);
    r = modtest::run_cli({"shred", "pak", "list", pak, "--json"});
    BOOST_CHECK_EQUAL(r.exit_code, 0);
    BOOST_CHECK_NE(r.out.find("\"quartets\""), std::string::npos);
    BOOST_CHECK_NE(r.out.find("\"vertices\""), std::string::npos);
    r = modtest::run_cli({"shred", "conformance", pak, (shredtest::sample_dir() / "layer_sample.pak").string()});
    BOOST_CHECK_EQUAL(r.exit_code, 0);
    BOOST_CHECK_NE(r.out.find("weight-desc  reproduces 14 of 14 streams"), std::string::npos);
    BOOST_CHECK_NE(r.out.find("count-desc   reproduces 0 of 14"), std::string::npos);
    r = modtest::run_cli({"shred", "pak", "list", (shredtest::sample_dir() / "nothing.pak").string()});
    BOOST_CHECK_EQUAL(r.exit_code, 4);
}

BOOST_AUTO_TEST_CASE(pak_extract_repack_and_edit) {
    modtest::TempDir tmp;
    auto pak = (shredtest::sample_dir() / "char_sample.pak").string();
    auto r = modtest::run_cli({"shred", "pak", "extract", pak, (tmp / "x").string()});
    BOOST_REQUIRE_EQUAL(r.exit_code, 0);
    BOOST_CHECK(fs::exists(tmp / "x" / "skater01.rmg"));
    r = modtest::run_cli({"shred", "pak", "repack", pak, (tmp / "x").string(), (tmp / "same.pak").string()});
    BOOST_REQUIRE_EQUAL(r.exit_code, 0);
    BOOST_CHECK(mod::read_file(tmp / "same.pak") == mod::read_file(pak));
    // Edit the extracted metadata entry, repack, and the PAK still scans valid.
    mod::write_file_atomic(tmp / "e.csv", std::string_view("0,3,position,0.5,0.5,0.5\n0,0,weights,3,1,1,0\n"));
    r = modtest::run_cli({"shred", "edit", (tmp / "x" / "skater01.rmg").string(), (tmp / "y.rmg").string(), "--changes",
                          (tmp / "e.csv").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    fs::rename(tmp / "y.rmg", tmp / "x" / "skater01.rmg");
    r = modtest::run_cli({"shred", "pak", "repack", pak, (tmp / "x").string(), (tmp / "edited.pak").string()});
    BOOST_REQUIRE_EQUAL(r.exit_code, 0);
    all_valid(mod::read_file(tmp / "edited.pak"), 8);
    BOOST_CHECK(mod::read_file(tmp / "edited.pak") != mod::read_file(pak));
    r = modtest::run_cli({"shred", "edit", pak, pak, "--changes", (tmp / "e.csv").string()});
    BOOST_CHECK_EQUAL(r.exit_code, 3);  // refuses to overwrite its input
}

BOOST_AUTO_TEST_SUITE_END()
