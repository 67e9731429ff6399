// F3DEX2 display lists: command round trips, list decoding, the vertex-cache walker.
#include "test_support.hpp"

#include "libmod/n64/gbi.hpp"
#include "libmod/n64/gbi_walk.hpp"

#include <map>
#include <ostream>
#include <tuple>

// Printer for BOOST_TEST diagnostics (internal linkage: other test files may have their own).
namespace mod {
[[maybe_unused]] static std::ostream& boost_test_print_type(std::ostream& os, ErrorKind k) { return os << to_string(k); }
}  // namespace mod

using namespace mod;
using namespace mod::n64;
using namespace mod::n64::gbi;

namespace {

Bytes words(std::initializer_list<std::uint32_t> ws) {
    ByteWriter w(Endian::big);
    for (auto x : ws) w.u32(x);
    return w.take();
}

DisplayList list_of(std::vector<Command> cmds, std::uint64_t origin = 0) {
    DisplayList dl;
    dl.commands = std::move(cmds);
    dl.origin = origin;
    return dl;
}

// Vertex addresses: segment 6, 16 bytes per vertex from 0x06000000.
WalkOptions options(std::uint32_t vertex_count = 1000) {
    WalkOptions o;
    o.vertex_index = [](std::uint32_t a) -> std::optional<std::uint32_t> {
        if ((a >> 24) != 6 || (a & 15)) return std::nullopt;
        return (a & 0xFFFFFF) / 16;
    };
    o.vertex_count = vertex_count;
    return o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gbi_commands)

BOOST_AUTO_TEST_CASE(every_word_round_trips) {
    // Random words under every opcode byte: decode → encode is the identity.
    modtest::Rng rng(0x6B1);
    for (unsigned op = 0; op < 256; ++op) {
        for (int k = 0; k < 64; ++k) {
            Word w{static_cast<std::uint32_t>((op << 24) | (rng.next() & 0xFFFFFF)), static_cast<std::uint32_t>(rng.next())};
            Command c = decode_command(w);
            BOOST_TEST_REQUIRE((encode_command(c) == w));
            BOOST_TEST_REQUIRE(opcode(c) == op);
        }
    }
}

BOOST_AUTO_TEST_CASE(known_encodings) {
    // gsSPVertex(0x06000100, 8, 0) = 01008010 06000100.
    auto v = std::get<Vertex>(decode_command({0x01008010, 0x06000100}));
    BOOST_TEST(v.count == 8);
    BOOST_TEST(v.first() == 0);
    BOOST_TEST(v.end == 8);
    BOOST_TEST((encode_command(make_vertex(0x06000100, 8, 0)) == Word{0x01008010, 0x06000100}));
    // gsSP1Triangle(0, 1, 2, 0) = 05000204 00000000.
    BOOST_TEST((encode_command(make_tri1(0, 1, 2)) == Word{0x05000204, 0}));
    auto t2 = std::get<Tri2>(decode_command({0x06000204, 0x00060402}));
    BOOST_TEST(t2.second[0] == 6);
    BOOST_TEST((encode_command(make_tri2(0, 1, 2, 3, 2, 1)) == Word{0x06000204, 0x00060402}));
    // gsSPEndDisplayList, gsDPPipeSync, gsSPDisplayList / gsSPBranchList.
    BOOST_TEST((encode_command(make_end()) == Word{0xDF000000, 0}));
    BOOST_TEST((encode_command(make_sync(G_RDPPIPESYNC)) == Word{0xE7000000, 0}));
    BOOST_TEST((encode_command(make_call(0x06001000)) == Word{0xDE000000, 0x06001000}));
    BOOST_TEST((encode_command(make_call(0x06001000, true)) == Word{0xDE010000, 0x06001000}));
    // gsSPTexture(0xFFFF, 0xFFFF, 0, G_TX_RENDERTILE, G_ON) = D7000002 FFFFFFFF.
    auto tx = std::get<Texture>(decode_command({0xD7000002, 0xFFFFFFFF}));
    BOOST_TEST(tx.on == 1);
    BOOST_TEST(tx.s == 0xFFFF);
    // gsDPSetCycleType(G_CYC_2CYCLE) = E3000A01 00100000: shift 20, length 2.
    auto om = std::get<SetOtherMode>(decode_command({0xE3000A01, 0x00100000}));
    BOOST_TEST(om.high);
    BOOST_TEST(om.shift() == 20);
    BOOST_TEST(om.length() == 2u);
    // SETTIMG CI 8b width 32.
    auto ti = std::get<SetTextureImage>(decode_command({0xFD48001F, 0x06002000}));
    BOOST_TEST(ti.fmt == 2);
    BOOST_TEST(ti.siz == 1);
    BOOST_TEST(ti.width() == 32u);
    // SETPRIMCOLOR keeps min level / lod fraction.
    auto pc = std::get<SetColor>(decode_command({0xFA0010FF, 0x11223344}));
    BOOST_TEST(pc.min_level == 0x10);
    BOOST_TEST(pc.lod_fraction == 0xFF);
    BOOST_TEST(pc.color == 0x11223344u);
    // Spare bits survive: a G_VTX with bit 0 set.
    auto sv = std::get<Vertex>(decode_command({0x01008011, 0x06000100}));
    BOOST_TEST(sv.spare0 == 1u);
    BOOST_TEST(std::holds_alternative<Unknown>(decode_command({0x03000000, 0})));
    BOOST_TEST(command_name(decode_command({0xAB000000, 0})) == "unknown 0xAB");
    BOOST_TEST(describe(make_vertex(0x06000100, 8, 4)) == "G_VTX 8 vertices -> slots 4..11 from 0x06000100");
    BOOST_TEST(command_name(make_sync(G_RDPLOADSYNC)) == "G_RDPLOADSYNC");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(gbi_lists)

BOOST_AUTO_TEST_CASE(decode_encode_list) {
    Bytes raw = words({0x01008010, 0x06000100, 0x05000204, 0, 0xE7000000, 0, 0xDF000000, 0, 0xABADBEEF, 0xCAFEF00D});
    ByteReader r(raw, Endian::big, "m.bin", "dl[0]");
    DisplayList dl = decode_list(r);
    BOOST_TEST(dl.commands.size() == 4u);  // stops at G_ENDDL
    BOOST_TEST(r.tell() == 32u);
    BOOST_TEST((encode_list(dl) == Bytes(raw.begin(), raw.begin() + 32)));

    ByteReader all(raw, Endian::big);
    DecodeListOptions o;
    o.stop_at_end = false;
    DisplayList whole = decode_list(all, o);
    BOOST_TEST(whole.commands.size() == 5u);
    BOOST_TEST(std::holds_alternative<Unknown>(whole.commands.back()));
    BOOST_TEST((encode_list(whole) == raw));

    // A branch ends the list too.
    Bytes br = words({0xDE010000, 0x06000000, 0xDF000000, 0});
    ByteReader rb(br, Endian::big);
    BOOST_TEST(decode_list(rb).commands.size() == 1u);

    // Little-endian readers still read big-endian commands.
    ByteReader le(raw, Endian::little);
    BOOST_TEST((encode_list(decode_list(le)) == Bytes(raw.begin(), raw.begin() + 32)));
}

BOOST_AUTO_TEST_CASE(hostile_lists) {
    Bytes raw = words({0x01008010, 0x06000100, 0x05000204, 0});
    ByteReader r(raw, Endian::big, "m.bin", "dl[3]");
    auto e = modtest::catch_error([&] { decode_list(r); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->path() == "dl[3].cmd[2]");
    BOOST_TEST(e->offset() == 16u);
    BOOST_TEST(e->message().find("G_ENDDL") != std::string::npos);

    Bytes odd(12, 0);
    ByteReader ro(odd, Endian::big);
    DecodeListOptions o;
    o.stop_at_end = false;
    BOOST_TEST(modtest::catch_error([&] { decode_list(ro, o); }).has_value());

    Bytes many(8 * 20, 0);
    ByteReader rm(many, Endian::big);
    DecodeListOptions lim;
    lim.max_commands = 10;
    BOOST_TEST(modtest::catch_error([&] { decode_list(rm, lim); })->kind() == ErrorKind::limit);

    Bytes valid = words({0x01008010, 0x06000100, 0x06000204, 0x00060402, 0xDF000000, 0});
    modtest::truncation_loop(valid, [](ByteView v) {
        ByteReader rr(v, Endian::big);
        decode_list(rr);
    });
    modtest::byte_flip_loop(valid, [](ByteView v) {
        ByteReader rr(v, Endian::big);
        auto dl = decode_list(rr);
        BOOST_TEST_REQUIRE((encode_list(dl) == Bytes(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(rr.tell()))));
    });
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(gbi_walker)

BOOST_AUTO_TEST_CASE(cache_carries_across_lists) {
    // dl[0] (bone 0) loads vertices 0..7 into slots 0..7 and draws one triangle;
    // dl[1] (bone 1) loads vertices 20..23 into slots 8..11 and draws a triangle joining
    // slots from both loads: corners keep the list that loaded them.
    std::vector<DisplayList> lists = {
        list_of({make_vertex(0x06000000, 8, 0), make_tri1(0, 1, 2), make_end()}, 0x100),
        list_of({make_vertex(0x06000140, 4, 8), make_tri2(6, 7, 8, 9, 10, 11), make_end()}, 0x200),
    };
    auto tris = walk_lists(lists, options());
    BOOST_REQUIRE(tris.size() == 3u);
    BOOST_TEST((tris[0].corners[2] == Corner{0, 2}));
    BOOST_TEST(tris[1].dl == 1u);
    BOOST_TEST(tris[1].command == 1u);
    BOOST_TEST((tris[1].corners[0] == Corner{0, 6}));
    BOOST_TEST((tris[1].corners[1] == Corner{0, 7}));
    BOOST_TEST((tris[1].corners[2] == Corner{1, 20}));
    BOOST_TEST((tris[2].corners[2] == Corner{1, 23}));

    // Reloading a slot replaces it.
    VertexCacheWalker w(options());
    w.run(0, lists[0]);
    w.run(5, list_of({make_vertex(0x06000300, 2, 1), make_tri1(0, 1, 2), make_end()}));
    BOOST_TEST((w.slot(1) == Corner{5, 48}));
    BOOST_TEST((w.triangles().back().corners[0] == Corner{0, 0}));
    BOOST_TEST((w.triangles().back().corners[1] == Corner{5, 48}));
    BOOST_TEST(!w.slot(63).has_value());
}

BOOST_AUTO_TEST_CASE(geometry_mode_and_nested_calls) {
    DisplayList sub = list_of({make_tri1(0, 1, 2), make_end()}, 0x800);
    GeometryMode lit;
    lit.clear = 0xFFFFFF;
    lit.set = g_lighting;
    WalkOptions o = options();
    o.resolve_call = [&](std::uint32_t a) -> const DisplayList* { return a == 0x06008000 ? &sub : nullptr; };
    std::vector<DisplayList> lists = {
        list_of({make_vertex(0x06000000, 3, 0), lit, make_call(0x06008000), make_tri1(2, 1, 0), make_end()})};
    auto tris = walk_lists(lists, o);
    BOOST_REQUIRE(tris.size() == 2u);
    BOOST_TEST(tris[0].command == 2u);  // the G_DL that drew it
    BOOST_TEST(tris[0].geometry_mode == g_lighting);

    // Branch: nothing after the G_DL in the caller runs.
    lists[0].commands[2] = make_call(0x06008000, true);
    BOOST_TEST(walk_lists(lists, o).size() == 1u);

    // A branch to itself is stopped by the step budget.
    DisplayList loop = list_of({make_call(0x06009000, true)});
    o.resolve_call = [&](std::uint32_t) -> const DisplayList* { return &loop; };
    o.max_steps = 1000;
    std::vector<DisplayList> looping = {loop};
    BOOST_TEST(modtest::catch_error([&] { walk_lists(looping, o); })->kind() == ErrorKind::limit);

    // Unresolvable call, and no resolver at all.
    o.resolve_call = [](std::uint32_t) -> const DisplayList* { return nullptr; };
    std::vector<DisplayList> calls = {list_of({make_call(0x06001234), make_end()}, 0x40)};
    auto e = modtest::catch_error([&] { walk_lists(calls, o); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->path() == "dl[0].cmd[0]");
    BOOST_TEST(e->offset() == 0x40u);
    BOOST_TEST(modtest::catch_error([&] { walk_lists(calls, options()); }).has_value());
}

BOOST_AUTO_TEST_CASE(hostile_geometry) {
    struct Case {
        std::vector<Command> cmds;
        std::string path;
        std::string words;
    };
    Tri1 odd;
    odd.index = {0, 1, 2};
    Vertex empty;
    empty.count = 0;
    empty.end = 4;
    std::vector<Case> cases = {
        {{make_vertex(0x06000000, 8, 60), make_end()}, "dl[3].cmd[0]", "outside the 64-entry"},
        {{make_vertex(0x06000000, 3, 0), make_tri1(0, 1, 5), make_end()}, "dl[3].cmd[1]", "no G_VTX loaded"},
        {{make_vertex(0x06000000, 3, 0), odd, make_end()}, "dl[3].cmd[1]", "odd"},
        {{make_vertex(0x06000000, 3, 0), make_tri1(0, 1, 70), make_end()}, "dl[3].cmd[1]", "beyond the 64-entry"},
        {{make_vertex(0x07000000, 3, 0), make_end()}, "dl[3].cmd[0]", "not in the vertex array"},
        {{make_vertex(0x06000000 + 16 * 998, 3, 0), make_end()}, "dl[3].cmd[0]", "1000-vertex array"},
        {{empty, make_end()}, "dl[3].cmd[0]", "no vertices"},
    };
    for (const auto& c : cases) {
        VertexCacheWalker w(options());
        DisplayList dl = list_of(c.cmds, 0x1000);
        auto e = modtest::catch_error([&] { w.run(3, dl); });
        BOOST_REQUIRE(e);
        BOOST_TEST(e->path() == c.path);
        BOOST_TEST_INFO(e->what());
        BOOST_TEST(e->message().find(c.words) != std::string::npos);
    }
    // The error offset is the command's position.
    VertexCacheWalker w(options());
    BOOST_CHECK_NO_THROW(w.run(3, list_of({make_end(), make_tri1(0, 1, 2)}, 0x1000)));  // nothing runs after G_ENDDL
    auto e = modtest::catch_error([&] { w.run(3, list_of({make_sync(G_RDPPIPESYNC), make_tri1(0, 1, 2)}, 0x1000)); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->offset() == 0x1008u);
    BOOST_TEST(e->path() == "dl[3].cmd[1]");
}

// WalkOptions::on_unloaded_slot: a triangle on a slot not loaded yet is left out and reported
// (the list index, the command's offset, a message naming path and slot); the rest still runs.
BOOST_AUTO_TEST_CASE(unloaded_slots_reported_when_asked) {
    WalkOptions o = options();
    std::vector<std::tuple<std::uint32_t, std::uint64_t, std::string>> seen;
    o.on_unloaded_slot = [&](std::uint32_t dl, std::uint64_t offset, const std::string& m) { seen.emplace_back(dl, offset, m); };
    VertexCacheWalker w(o);
    Tri2 pair;
    pair.first = {0, 2, 4};     // slots 0, 1, 2: loaded
    pair.second = {0, 2, 10};   // slot 5: not loaded
    w.run(4, list_of({make_vertex(0x06000000, 3, 0), make_tri1(0, 1, 5), pair, make_tri1(2, 1, 0), make_end()}, 0x2000));
    BOOST_TEST(w.triangles().size() == 2u);  // the pair's first and the last TRI1
    BOOST_REQUIRE_EQUAL(seen.size(), 2u);
    BOOST_TEST(std::get<0>(seen[0]) == 4u);
    BOOST_TEST(std::get<1>(seen[0]) == 0x2008u);
    BOOST_TEST(std::get<2>(seen[0]).find("dl[4].cmd[1]: triangle uses vertex cache slot 5") != std::string::npos, std::get<2>(seen[0]));
    BOOST_TEST(std::get<1>(seen[1]) == 0x2010u);
}

BOOST_AUTO_TEST_CASE(decoded_lists_walk) {
    // Bytes → lists → walker, as a model importer will run it.
    Bytes raw = words({0x01003006, 0x06000000, 0x05000204, 0, 0xDF000000, 0, 0x01001008, 0x06000030, 0x06000204,
                       0x00020406, 0xDF000000, 0});
    ByteReader r(raw, Endian::big, "m.bin", "model");
    std::vector<DisplayList> lists;
    lists.push_back(decode_list(r));
    lists.push_back(decode_list(r));
    BOOST_TEST(lists[1].origin == 24u);
    auto tris = walk_lists(lists, options());
    BOOST_REQUIRE(tris.size() == 3u);
    BOOST_TEST((tris[2].corners[2] == Corner{1, 3}));
    BOOST_TEST((tris[2].corners[0] == Corner{0, 1}));
}

BOOST_AUTO_TEST_SUITE_END()
