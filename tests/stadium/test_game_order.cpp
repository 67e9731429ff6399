// Issue 35: layouts as the game builds and draws them (pret/pokestadium at 756f7e3):
//  * the root rule (src/geo_layout.c:125-136 func_80017AC4): the first level-0 node is the root,
//    a later level-0 node and everything under it is attached to nothing;
//  * the draw order (src/12D80.c func_80015F64 :1288-1305, func_8001660C :1465-1485, bucket
//    = layer & 0xF :1315-1336): buckets 0 → 9, walk order inside one, one vertex cache;
//  * the sine table (include/math.h:30-31 SINS(x) = gSineTable[(u16)x >> 4]).
// Expected values are computed here by hand from those sources.
#include "stadium_test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/sample/stadium.hpp"
#include "libmod/scene/model.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/game_trig.hpp"
#include "libmod/stadium/model.hpp"
#include "libmod/stadium/model_walk.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <numbers>

using namespace mod::stadium;

namespace {

bool registers_node(std::uint8_t op) { return op > 0x06 && op != 0x08 && op != 0x15 && op != 0x25; }

mod::Bytes command(std::initializer_list<std::uint8_t> head, std::size_t size) {
    mod::Bytes b(head);
    b.resize(size, 0);
    return b;
}

// One triangle list: loads `count` vertices from `first` into slots [slot, slot + count) and
// draws (a, b, c) (slots), or only draws when count is 0.
DlId tri_list(ModelBuilder& m, std::uint32_t first, std::uint32_t count, std::uint32_t slot, std::uint8_t a,
              std::uint8_t b, std::uint8_t c) {
    DisplayList dl;
    if (count) dl.vtx(first, count, slot);
    dl.tri1(a, b, c).end();
    return m.add_display_list(std::move(dl));
}

std::vector<Vertex> numbered_vertices(std::size_t n) {
    std::vector<Vertex> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i].x = static_cast<std::int16_t>(100 * i), v[i].y = static_cast<std::int16_t>(i);
    return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_game_order)

// ---- the sine table ---------------------------------------------------------------------------

// Entries cited from include/trig_tables.inc.c at 756f7e3 (gSineTable line 2: entries 0..3;
// line 257: entries 1020..1023; gCosineTable line 262: its entries 0..3, which SINS reads as
// 1024..1027 since gCosineTable follows gSineTable's 1024 entries in memory).
BOOST_AUTO_TEST_CASE(sine_table_matches_cited_entries) {
    const struct { unsigned i; float v; } cited[] = {
        {0, 0.0f},           {1, 0.0015339801f},  {2, 0.0030679568f},  {3, 0.004601926f},
        {1020, 0.999981165f}, {1021, 0.999989390f}, {1022, 0.999995291f}, {1023, 0.999998808f},
        {1024, 1.0f},        {1025, 0.999998808f}, {1026, 0.999995291f}, {1027, 0.999989390f},
    };
    for (const auto& c : cited) BOOST_TEST(game_sine_entry(c.i) == c.v, "entry " << c.i << " = " << game_sine_entry(c.i));
    // The exact zeros (sin π in double is 1.2e-16) and the symmetry the table has.
    BOOST_TEST(game_sine_entry(2048) == 0.0f);
    BOOST_TEST(game_sine_entry(3072) == -1.0f);
    BOOST_TEST(game_sine_entry(4095) == -0.0015339801f);
    // SINS(x) = table[(u16)x >> 4]: the low 4 bits are dropped, negatives wrap as u16.
    BOOST_TEST(game_sins(0x2F) == game_sine_entry(2));
    BOOST_TEST(game_sins(-16) == game_sine_entry(4095));
    BOOST_TEST(game_coss(0) == 1.0f);
    BOOST_TEST(game_coss(0x4000) == 0.0f);
    // Bound of the difference from the exact angle: one table step (16 units = 2π/4096) of
    // slope at most 1: |Δ| ≤ 2π/4096 = 0.001534.
    double worst = 0;
    for (std::int32_t x = 0; x < 65536; ++x)
        worst = std::max(worst, std::fabs(std::sin(x * std::numbers::pi / 32768.0) - double(game_sins(x))));
    BOOST_TEST(worst <= 2 * std::numbers::pi / 4096);
    BOOST_TEST(worst > 0.0014);  // the truncation is real: up to 15 units (0.082°)
}

// A bone rotated 0x2F (47 units) about z: the game looks up entry 47 >> 4 = 2, so the bind
// matrix holds sin = 0.0030679568 (not the exact 0.0045059...), and the vertex (100, 0, 0)
// exports at y = 100 · 0.0030679568 (row form: (100, 0, 0) · G = 100 · (cz, sz, 0)).
BOOST_AUTO_TEST_CASE(bone_rotation_uses_the_table) {
    ModelBuilder m(3);
    std::vector<Vertex> v(3);
    v[0].x = 100;
    v[1].y = 10;
    const auto first = m.add_vertices(v);
    const auto dl = tri_list(m, first, 3, 0, 0, 1, 2);
    m.layout().model_header().open().bone(0, 0, 0, {}, {0, 0, 0x2F}).open().draw(1, dl).close().close().end();
    const Model model = read_model(m.build());
    BOOST_TEST(model.findings.empty());
    const auto s = model_scene(model);
    const float table_sin = 0.0030679568f;
    BOOST_TEST(std::fabs(std::sin(0x2F * std::numbers::pi / 32768.0) - table_sin) > 0.0014);
    // Column form: bind[4] = row 1, column 0 = the game's G[0][1] = sz.
    BOOST_TEST(std::fabs(s.skeleton.bones[0].bind[4] - table_sin) < 1e-9);
    bool found = false;
    for (const auto& mesh : s.meshes)
        for (const auto& p : mesh.positions)
            if (std::fabs(p[0] - 100.0f) < 0.01f) {
                found = true;
                BOOST_TEST(std::fabs(p[1] - 100.0 * table_sin) < 1e-5, "y = " << p[1]);
            }
    BOOST_TEST(found);
}

// ---- the root rule ----------------------------------------------------------------------------

// Every sample model's layout, walked with the game's root rule: exactly one node registers at
// level 0, the 0x17 header, first; every bone and draw the layout holds is in the model.
BOOST_AUTO_TEST_CASE(every_sample_layout_has_one_root) {
    for (std::size_t i = 0; i < mod::sample::stadium_model_count; ++i) {
        BOOST_TEST_CONTEXT("sample model " << i) {
            const Model model = read_model(mod::sample::stadium_model(i));
            std::size_t level0 = 0, bones = 0, draws = 0;
            for (const auto& c : model.commands) {
                if (registers_node(c.op) && c.depth == 0) {
                    ++level0;
                    BOOST_TEST(c.op == 0x17);
                }
                bones += c.op == 0x1D;
                draws += c.op == 0x1E || c.op == 0x20 || c.op == 0x21 || c.op == 0x22;
            }
            BOOST_TEST(level0 == 1u);
            BOOST_TEST(model.commands.front().op == 0x17);
            BOOST_TEST(model.detached.empty());
            BOOST_TEST(model.findings.empty());
            BOOST_TEST(model.bones.size() == bones);
            BOOST_TEST(model.draws.size() == draws);
            BOOST_TEST(model.root_scale.has_value());
            for (const auto& mt : model.materials) BOOST_TEST(mt.drawn);
            // Every draw is on layer 1: the game's order is the walk order.
            for (std::size_t k = 0; k < model.draw_order.size(); ++k) BOOST_TEST(model.draw_order[k] == k);
        }
    }
}

// The old sample form `17 1C 05 1D 05 23 22 06 06 01`: the 0x1C is a second level-0 node, so
// the bone, its material and its draw hang under a node the game never attaches.
BOOST_AUTO_TEST_CASE(second_level0_node_is_reported_not_drawn) {
    ModelBuilder m(4);
    const auto first = m.add_vertices(numbered_vertices(3));
    const auto tex = m.add_texture(TexFormat::rgba, TexSize::b16, 4, 4, mod::Bytes(32, 0x11));
    const auto mat = m.add_material_dl(tex);
    const auto dl = tri_list(m, first, 3, 0, 0, 1, 2);
    auto& s = m.layout();
    s.model_header();
    s.raw(command({0x1C}, 0x10));  // raw(): not checked by the builder (hostile fixture)
    s.open().bone(0, 0, 0, {}, {}).open().material(1, -1, mat, tex, -1, 0xFFFFFFFF).draw(1, dl).close().close().end();
    const mod::Bytes frag = m.build();
    const Model model = read_model(frag);
    BOOST_REQUIRE_EQUAL(model.detached.size(), 1u);
    BOOST_TEST(model.detached[0].op == 0x1C);
    BOOST_TEST(model.detached[0].command == model.commands[1].offset);
    BOOST_TEST(model.detached[0].bones == 1u);
    BOOST_TEST(model.detached[0].draws == 1u);
    BOOST_TEST(model.detached[0].materials == 1u);
    BOOST_REQUIRE_EQUAL(model.findings.size(), 1u);
    BOOST_TEST(model.findings[0].find("the game draws nothing under the 0x1C at " + mod::hex(model.commands[1].offset)) !=
               std::string::npos, model.findings[0]);
    BOOST_TEST(model.findings[0].find("a second level-0 node") != std::string::npos);
    // Not drawn: no bone, no draw, no triangle; the material stays (data) but is not drawn.
    BOOST_TEST(model.bones.empty());
    BOOST_TEST(model.draws.empty());
    BOOST_TEST(model.triangles.empty());
    BOOST_TEST(!model.root_scale.has_value());
    BOOST_REQUIRE_EQUAL(model.materials.size(), 1u);
    BOOST_TEST(!model.materials[0].drawn);
    // The commands are still read (and their DL still counts as structure for edits).
    BOOST_TEST(model.commands.size() == 10u);
    const auto scene = model_scene(model);
    std::size_t triangles = 0;
    for (const auto& mesh : scene.meshes) triangles += mesh.triangles.size();
    BOOST_TEST(triangles == 0u);
    BOOST_REQUIRE_EQUAL(scene.warnings.size(), 1u);  // the export says what it left out
    BOOST_TEST(scene.warnings[0] == model.findings[0]);
    // The same layout in the drawn form has the triangle.
    ModelBuilder ok(4);
    const auto f2 = ok.add_vertices(numbered_vertices(3));
    const auto d2 = tri_list(ok, f2, 3, 0, 0, 1, 2);
    ok.layout().model_header().open().scale(0x10000, 0x10000, 0x10000).open().bone(0, 0, 0, {}, {}).open().draw(1, d2)
        .close().close().close().end();
    const Model drawn = read_model(ok.build());
    BOOST_TEST(drawn.findings.empty());
    BOOST_TEST(drawn.triangles.size() == 1u);
    BOOST_TEST(drawn.bones.size() == 1u);
}

// A root that is not the 0x17 header, and a node opened where no node is registered.
BOOST_AUTO_TEST_CASE(root_other_than_the_header_is_reported) {
    ModelBuilder m(5);
    const auto first = m.add_vertices(numbered_vertices(3));
    const auto dl = tri_list(m, first, 3, 0, 0, 1, 2);
    auto& s = m.layout();
    s.raw(command({0x1C}, 0x10)).open().model_header().open().draw(1, dl).close().close().end();
    const Model model = read_model(m.build());
    BOOST_REQUIRE_EQUAL(model.findings.size(), 1u);
    BOOST_TEST(model.findings[0].find("the root is the 0x1C") != std::string::npos, model.findings[0]);
    BOOST_TEST(model.triangles.size() == 1u);  // attached: drawn (without the header's tables)

    ModelBuilder n(6);
    const auto f2 = n.add_vertices(numbered_vertices(3));
    const auto d2 = tri_list(n, f2, 3, 0, 0, 1, 2);
    // 05 at level 0 before any node: level 1's parent is NULL (func_80012094 ignores it).
    n.layout().raw(command({0x05}, 4)).raw(command({0x1C}, 0x10)).raw(command({0x06}, 4)).end();
    n.add_layout().model_header().open().draw(1, d2).close().end();
    const Model orphan = read_model(n.build());
    BOOST_REQUIRE_EQUAL(orphan.detached.size(), 1u);
    BOOST_TEST(orphan.detached[0].op == 0x1C);
    bool said = false;
    for (const auto& f : orphan.findings) said |= f.find("no node is registered at the level above") != std::string::npos;
    BOOST_TEST(said);
    BOOST_TEST(orphan.triangles.size() == 1u);  // the header's draw is attached
}

// The CLI reports it: sample model 0 with the 05 after its 0x17 turned into 06 has the old
// form's meaning (17, then 1C at level 0: a second level-0 node, everything under it detached).
// `stadium show` says so and draws nothing; `stadium verify` lists it as a note.
BOOST_AUTO_TEST_CASE(cli_show_and_verify_report_detached_nodes) {
    const stadiumtest::SampleRom r;
    Fragment f = read_model(mod::sample::stadium_model(0)).fragment;
    const Model before = read_model(f);
    BOOST_REQUIRE_EQUAL(before.commands[1].op, 0x05);
    BOOST_REQUIRE_EQUAL(before.commands[2].op, 0x1C);
    f.body[before.commands[1].offset] = 0x06;
    RepackOptions opt;
    opt.threads = 2;
    const mod::Bytes image = write_archive(r.rom, repack_archive(r.archive, {{0, encode_fragment(f)}}, opt));
    modtest::TempDir dir;
    const auto rom = (dir / "old_form.z64").string();
    mod::write_file_atomic(rom, image);
    const std::string want = "the game draws nothing under the 0x1C at " + mod::hex(before.commands[2].offset);
    auto show = modtest::run_cli({"stadium", "show", rom, "0"});
    BOOST_TEST_REQUIRE(show.exit_code == 0, show.err);
    BOOST_TEST(show.err.find(want) != std::string::npos, show.err);
    BOOST_TEST(show.err.find("2 bone(s), 3 draw(s), 2 material(s) under it are left out") != std::string::npos, show.err);
    BOOST_TEST(show.out.find("0 bones") != std::string::npos, show.out);
    BOOST_TEST(show.out.find("0 triangles") != std::string::npos, show.out);
    BOOST_TEST(show.out.find("1 finding(s)") != std::string::npos, show.out);
    auto json = modtest::run_cli({"stadium", "show", rom, "0", "--json"});
    BOOST_TEST(json.out.find("\"findings\": [") != std::string::npos);
    auto verify = modtest::run_cli({"stadium", "verify", rom});
    BOOST_TEST_REQUIRE(verify.exit_code == 0, verify.err);
    BOOST_TEST(verify.out.find("note: archive[0]: layout[0].cmd@") != std::string::npos, verify.out);
    BOOST_TEST(verify.out.find(want) != std::string::npos, verify.out);
}

// The builder refuses the forms the game would not draw.
BOOST_AUTO_TEST_CASE(builder_refuses_a_second_level0_node) {
    auto kind = [](const std::function<void(LayoutScript&)>& f) -> std::optional<mod::ErrorKind> {
        ModelBuilder m(7);
        const auto e = modtest::catch_error([&] { f(m.layout()); });
        if (!e) return std::nullopt;
        return e->kind();
    };
    BOOST_TEST((kind([](LayoutScript& s) { s.model_header().scale(0x10000, 0x10000, 0x10000); }) == std::optional(mod::ErrorKind::usage)));
    BOOST_TEST((kind([](LayoutScript& s) { s.model_header().open().close().bone(0, 0, 0, {}, {}); }) == std::optional(mod::ErrorKind::usage)));
    BOOST_TEST((kind([](LayoutScript& s) { s.bone(0, 0, 0, {}, {}); }) == std::optional(mod::ErrorKind::usage)));
    BOOST_TEST((kind([](LayoutScript& s) { s.model_header().close(); }) == std::optional(mod::ErrorKind::usage)));
    // The drawn form is accepted, and a 0x00 call comes back at its level.
    ModelBuilder ok(7);
    auto& s = ok.layout();
    const auto sub = s.new_label();
    s.model_header().open().scale(0x10000, 0x10000, 0x10000).open().branch_and_link(sub);
    BOOST_TEST((s.level() == std::optional<int>(2)));
    s.close().close().end();
    BOOST_TEST(!s.level().has_value());
    s.place(sub);
    BOOST_TEST((s.level() == std::optional<int>(2)));
    s.bone(0, 0, 0, {}, {}).end();
}

// ---- the draw order ---------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(draw_order_is_by_render_bucket) {
    const std::vector<std::uint8_t> layers{2, 1, 3, 0, 1, 0x12, 0x0B};
    // Buckets 2, 1, 3, 0, 1, 2, 11: 0 → [3], 1 → [1, 4], 2 → [0, 5], 3 → [2], then 11 → [6].
    const std::vector<std::size_t> want{3, 1, 4, 0, 5, 2, 6};
    BOOST_TEST(game_draw_order(layers) == want, boost::test_tools::per_element());
    BOOST_TEST(render_bucket(0x12) == 2u);
}

// Four draws in walk order, each a G_VTX into slots 0..2 and/or one triangle on slots 0..2:
//   d0 layer 2: loads v0..v2, draws them;       d1 layer 1: loads v3..v5, draws them;
//   d2 layer 3: draws slots 0..2 (loads none);  d3 layer 0: draws slots 0..2 (loads none).
// Game order: d3 (L0), d1 (L1), d0 (L2), d2 (L3). d3 runs on an empty cache: its triangle is
// left out with a finding. d2 reuses the slots d0 loaded (v0..v2), not d1's (v3..v5) as the
// layout order would give.
BOOST_AUTO_TEST_CASE(cache_reuse_across_layers_follows_the_game_order) {
    ModelBuilder m(8);
    const auto first = m.add_vertices(numbered_vertices(6));
    const auto d0 = tri_list(m, first, 3, 0, 0, 1, 2);
    const auto d1 = tri_list(m, first + 3, 3, 0, 0, 1, 2);
    const auto d2 = tri_list(m, 0, 0, 0, 0, 1, 2);
    const auto d3 = tri_list(m, 0, 0, 0, 0, 1, 2);
    m.layout().model_header().open().bone(0, 0, 0, {}, {}).open().draw(2, d0).draw(1, d1).draw(3, d2).draw(0, d3)
        .close().close().end();
    const Model model = read_model(m.build());
    BOOST_REQUIRE_EQUAL(model.draws.size(), 4u);
    BOOST_TEST(model.draw_order == (std::vector<std::size_t>{3, 1, 0, 2}), boost::test_tools::per_element());
    BOOST_REQUIRE_EQUAL(model.triangles.size(), 3u);
    const std::uint32_t want_dl[3] = {1, 0, 2};
    const std::uint32_t want_vertex[3][3] = {{3, 4, 5}, {0, 1, 2}, {0, 1, 2}};
    const std::uint32_t want_loader[3] = {1, 0, 0};
    for (int t = 0; t < 3; ++t) {
        BOOST_TEST(model.triangles[t].dl == want_dl[t]);
        for (int c = 0; c < 3; ++c) {
            BOOST_TEST(model.triangles[t].corners[c].vertex == want_vertex[t][c]);
            BOOST_TEST(model.triangles[t].corners[c].dl == want_loader[t]);
        }
    }
    BOOST_REQUIRE_EQUAL(model.findings.size(), 1u);
    BOOST_TEST(model.findings[0].find("draw 3 (0x22") != std::string::npos, model.findings[0]);
    BOOST_TEST(model.findings[0].find("layer 0): 1 triangle(s) use vertex cache slots") != std::string::npos);
    // Export draws what the game draws: 3 triangles, d2's at v0..v2 (x = 0, 100, 200).
    const auto scene = model_scene(model);
    std::size_t triangles = 0;
    for (const auto& mesh : scene.meshes) triangles += mesh.triangles.size();
    BOOST_TEST(triangles == 3u);
}

// The issue's measurement on a sample model: model 0 (two bones) draws 17 triangles: bone 0's
// box (5), bone 1's box (5) + 2 stitched to bone 0's top face still in cache half 0, and the
// 0x1E wrapper re-drawing bone 0's box (5). Bone 0's 0x22 moved to layer 2: the game runs bone
// 1's draw first, so its 2 stitch triangles use slots no draw has loaded yet: 15 drawn, one
// finding naming bone 1's draw.
BOOST_AUTO_TEST_CASE(sample_draw_moved_to_another_layer) {
    const Model model = read_model(mod::sample::stadium_model(0));
    BOOST_REQUIRE_EQUAL(model.bones.size(), 2u);
    BOOST_TEST(model.triangles.size() == 17u);
    Fragment f = model.fragment;
    BOOST_REQUIRE_EQUAL(model.draws[0].op, 0x22);
    BOOST_REQUIRE_EQUAL(f.body[model.draws[0].command + 1], 1);
    f.body[model.draws[0].command + 1] = 2;
    const Model moved = read_model(f);
    BOOST_TEST(moved.draw_order == (std::vector<std::size_t>{1, 2, 0}), boost::test_tools::per_element());
    BOOST_TEST(moved.triangles.size() == 15u);
    BOOST_REQUIRE_EQUAL(moved.findings.size(), 1u);
    BOOST_TEST(moved.findings[0].find("draw 1 (0x22") != std::string::npos, moved.findings[0]);
    BOOST_TEST(moved.findings[0].find(": 2 triangle(s) use vertex cache slots") != std::string::npos);
}

// A layer past the 10 buckets is a finding; the draw runs after bucket 9.
BOOST_AUTO_TEST_CASE(layer_past_the_buckets_is_reported) {
    ModelBuilder m(9);
    const auto first = m.add_vertices(numbered_vertices(3));
    const auto d0 = tri_list(m, first, 3, 0, 0, 1, 2);
    m.layout().model_header().open().draw(0x0C, d0).close().end();
    const Model model = read_model(m.build());
    BOOST_REQUIRE_EQUAL(model.findings.size(), 1u);
    BOOST_TEST(model.findings[0].find("layer 12 selects render bucket 12, past the game's 10") != std::string::npos,
               model.findings[0]);
    BOOST_TEST(model.triangles.size() == 1u);
}

// Hostile layouts: every mutation of a model's layout bytes gives a model (with findings) or
// one clear error, never a crash.
BOOST_AUTO_TEST_CASE(hostile_layouts_give_findings_or_errors) {
    const mod::Bytes base = stadiumtest::small_model();
    const Model model = read_model(base);
    const std::uint32_t start = model.commands.front().offset, end = model.commands.back().offset + 4;
    std::size_t findings = 0, errors = 0, reads = 0;
    for (std::uint32_t at = start; at < end; ++at) {
        for (std::uint8_t v : {std::uint8_t(0x05), std::uint8_t(0x06), std::uint8_t(0x1C), std::uint8_t(0x0F), std::uint8_t(0xFF)}) {
            mod::Bytes b = base;
            b[at] = v;
            try {
                const Model m = read_model(b);
                ++reads;
                findings += !m.findings.empty();
                for (const auto& t : m.triangles) BOOST_TEST_REQUIRE(t.dl < m.draws.size());
                model_scene(m);
            } catch (const mod::Error& e) {
                ++errors;
                BOOST_TEST(std::string(e.what()).size() > 0u);
            }
        }
    }
    BOOST_TEST(reads > 0u);
    BOOST_TEST(findings > 0u);
    BOOST_TEST(errors > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
