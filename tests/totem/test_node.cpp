// NODE links, LOD records and the character tree, on hand-written bytes and on the sample.
#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/sample/totem.hpp"
#include "libmod/totem/node.hpp"
#include "libmod/totem/verify.hpp"

using namespace mod::totem;
using namespace modtest;
using namespace totemtest;

namespace {

// A LOD written field by field: optional block 0 present (4 floats), block 3 present (matrix +
// 16 bytes), the rest absent; 2 floats + u16; resources, anims, and sounds when subtype 2.
Bytes lod_payload(Endian e, std::uint16_t subtype, std::uint8_t flag0 = 1) {
    ByteWriter w(e);
    header(w, 5, subtype);
    w.u8(flag0);
    if (flag0 == 1) for (int i = 0; i < 4; ++i) w.f32(float(i));
    w.u8(0); w.u8(0);
    w.u8(1); for (int i = 0; i < 16; ++i) w.f32(1); w.fill(16);
    for (int i = 4; i < 17; ++i) w.u8(0);
    w.f32(1.5f); w.f32(2.5f); w.u16(9);
    w.u32(2); w.i32(name_id("SKIN_A")); w.i32(name_id("MESH_B"));
    w.u32(1); w.u32(4); w.i32(name_id("ANIM_A"));
    if (subtype == 2) { w.u32(1); w.u32(6); w.i32(name_id("SOUND_A")); }
    return w.take();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_node)

BOOST_AUTO_TEST_CASE(lod_decodes_by_hand_and_round_trips) {
    for (Endian e : {Endian::big, Endian::little})
        for (const std::uint16_t subtype : {std::uint16_t{0}, std::uint16_t{2}}) {
            const Bytes p = lod_payload(e, subtype);
            const Lod lod = decode_lod(mod::ByteReader(p, e));
            BOOST_TEST((lod.resources == std::vector<std::int32_t>{name_id("SKIN_A"), name_id("MESH_B")}));
            BOOST_TEST((lod.anims == std::vector<LodEntry>{{4, name_id("ANIM_A")}}));
            BOOST_TEST(lod.sounds.has_value() == (subtype == 2));
            if (lod.sounds) BOOST_TEST((*lod.sounds == std::vector<LodEntry>{{6, name_id("SOUND_A")}}));
            // blocks: 1+16, 1, 1, 1+80, 13 absent flags, 10 bytes.
            BOOST_TEST(lod.blocks.size() == 17u + 2u + 81u + 13u + 10u);
            BOOST_TEST((encode_lod(lod, e) == p));
        }
}

BOOST_AUTO_TEST_CASE(hostile_lods_are_clear_errors) {
    auto e = catch_error([] { decode_lod(mod::ByteReader(lod_payload(Endian::big, 0, 2), Endian::big, "x.DGC", "dgc")); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->offset() == 0x64u);
    BOOST_TEST(e->path().find("lod.blocks[0]") != std::string::npos);
    Bytes sub3 = lod_payload(Endian::big, 0);
    sub3[0x63] = 3;
    BOOST_TEST(catch_error([&] { decode_lod(mod::ByteReader(sub3, Endian::big)); }).has_value());
    // A huge resource count is refused before allocating.
    Bytes huge = lod_payload(Endian::big, 0);
    const std::size_t at = 0x64 + 17 + 2 + 81 + 13 + 10;
    huge[at] = 0x7F;
    BOOST_TEST(catch_error([&] { decode_lod(mod::ByteReader(huge, Endian::big)); }).has_value());
    const Bytes valid = lod_payload(Endian::little, 2);
    truncation_loop(valid, [](mod::ByteView d) { decode_lod(mod::ByteReader(d, Endian::little)); });
    byte_flip_loop(valid, [](mod::ByteView d) { decode_lod(mod::ByteReader(d, Endian::little)); }, 3);
    BOOST_TEST(catch_error([] { decode_node_links(mod::ByteReader(Bytes(0x17, 0), Endian::big)); }).has_value());
}

BOOST_AUTO_TEST_CASE(node_links_by_hand) {
    ByteWriter w(Endian::little);
    w.i32(name_id("PARENT"));
    w.i32(1); w.i32(2); w.i32(3);
    w.i32(name_id("LOD_A"));
    w.i32(name_id("LODDATA"));
    w.fill(40);
    const NodeLinks n = decode_node_links(mod::ByteReader(w.data(), Endian::little));
    BOOST_TEST(n.parent == name_id("PARENT"));
    BOOST_TEST((n.unknown == std::array<std::int32_t, 3>{1, 2, 3}));
    BOOST_TEST(n.resource == name_id("LOD_A"));
    BOOST_TEST(std::string(node_tag_name(n.tag)) == "LODDATA");
    // The documented tag hashes (totem_records.md §5.1).
    BOOST_TEST(name_id("LODDATA") == -141015160);
    BOOST_TEST(name_id("MESHDATA") == -1724712303);
    BOOST_TEST(name_id("SKEL") == 1985457034);
    BOOST_TEST(name_id("NODE") == -1276508687);
    BOOST_TEST(name_id("LOD") == -2137949195);
}

BOOST_AUTO_TEST_CASE(sample_character_tree) {
    for (auto p : {Platform::gamecube, Platform::ps2}) {
        const auto files = mod::sample::totem_sample(p);
        const mod::ByteReader dgc(files.data, endian_of(p), "SAMPLE", "dgc");
        const Archive a = decode_archive(dgc);
        const auto node = find_record(a, name_id("DB:>SAMPLE>CHARACTERS>HERO>HERO.TNODE"));
        BOOST_REQUIRE(node);
        const CharacterNode t = character_tree(dgc, a, *node);
        // NODE -> LOD -> SKIN -> (body, head); and the child NODE -> head MESH (listed once).
        BOOST_TEST(t.kind == "NODE");
        BOOST_REQUIRE(t.children.size() == 2u);
        const auto& lod = t.children[0];
        BOOST_TEST(lod.kind == "LOD");
        BOOST_REQUIRE(lod.children.size() == 1u);
        const auto& skin = lod.children[0];
        BOOST_TEST(skin.kind == "SKIN");
        BOOST_TEST(a.records[skin.record].name_id == name_id(mod::sample::totem_skin_seed_name));
        BOOST_REQUIRE(skin.children.size() == 2u);
        BOOST_TEST(a.records[skin.children[0].record].name_id == name_id(mod::sample::totem_body_mesh_name));
        BOOST_TEST(a.records[skin.children[1].record].name_id == name_id(mod::sample::totem_head_mesh_name));
        const auto& hat = t.children[1];
        BOOST_TEST(hat.kind == "NODE");
        BOOST_REQUIRE(hat.children.size() == 1u);
        BOOST_TEST(hat.children[0].note == "already listed above");
        // The MESHes a replace follows (resources only).
        const auto meshes = character_meshes(dgc, a, *node);
        BOOST_REQUIRE(meshes.size() == 2u);
        BOOST_TEST(a.records[meshes[0]].name_id == name_id(mod::sample::totem_body_mesh_name));
        // Every LOD of the sample round-trips.
        for (std::size_t i = 0; i < a.records.size(); ++i)
            if (a.records[i].type_id == name_id("LOD")) {
                const Lod l = decode_lod(payload_reader(dgc, a, i));
                BOOST_TEST((encode_lod(l, a.endian) == a.records[i].payload));
            }
    }
}

BOOST_AUTO_TEST_CASE(a_node_loop_ends) {
    // Two NODEs naming each other as resource and parent: the tree lists each once.
    std::vector<RawRecord> recs;
    for (auto [self, other] : {std::pair{"N1", "N2"}, std::pair{"N2", "N1"}}) {
        ByteWriter w(Endian::big);
        w.i32(name_id(other));
        w.fill(12);
        w.i32(name_id(other));
        w.i32(0);
        recs.push_back({"NODE", self, "", w.take()});
    }
    const Bytes data = archive_bytes(Endian::big, 0x800, {recs});
    const mod::ByteReader dgc(data, Endian::big);
    const Archive a = decode_archive(dgc);
    const CharacterNode t = character_tree(dgc, a, 0);
    BOOST_TEST(t.children.size() == 2u);  // N2 as resource, N2 as child (already listed)
    BOOST_TEST(character_meshes(dgc, a, 0).empty());
}

BOOST_AUTO_TEST_CASE(show_prints_the_tree) {
    TempDir dir;
    mod::sample::write_totem_sample(dir.path());
    const auto r = run_cli({"totem", "show", (dir / "SAMPLE.DGC").string(), (dir / "SAMPLE.NGC").string(),
                            "DB:>SAMPLE>CHARACTERS>HERO>HERO.TNODE"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("resource DB:>SAMPLE>CHARACTERS>HERO>HERO.TLOD, union LODDATA") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("|-- LOD DB:>SAMPLE>CHARACTERS>HERO>HERO.TLOD") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("|   `-- SKIN DB:>SAMPLE>CHARACTERS>HERO>HERO.TSKIN") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("|       |-- MESH DB:>SAMPLE>CHARACTERS>HERO>HERO_BODY.TMESH") != std::string::npos, r.out);
    const auto lod = run_cli({"totem", "show", (dir / "SAMPLE.DGC").string(), (dir / "SAMPLE.NGC").string(),
                              "DB:>SAMPLE>PROPS>CRATE.TLOD", "--json"});
    BOOST_REQUIRE_MESSAGE(lod.exit_code == 0, lod.err);
    BOOST_TEST(lod.out.find("\"round_trip\": true") != std::string::npos, lod.out);
}

BOOST_AUTO_TEST_SUITE_END()
