// The TotemTech sample's NODE / LOD character trees. Layouts: doc/formats/totem-node.md.
#include "totem_nodes.hpp"

#include "libmod/sample/totem.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/node.hpp"

namespace mod::sample {

namespace {

using namespace mod::totem;

void identity(ByteWriter& w) {
    for (int i = 0; i < 16; ++i) w.f32(i % 5 == 0 ? 1.0f : 0.0f);
}

// A whole NODE: links, the union payload `body` (after its tag), then the fields after the
// union (lights, 18 unknown floats, local matrix and TRS, 60 unknown bytes, global matrix and
// its inverse; identity transforms with translation (0, y, 0)).
Bytes node(Endian e, std::int32_t parent, std::int32_t resource, const char* tag, const Bytes& body, float y) {
    ByteWriter w(e);
    w.i32(parent);
    for (int i = 0; i < 3; ++i) w.i32(0);
    w.i32(resource);
    w.i32(name_id(tag));
    w.bytes(body);
    for (int i = 0; i < 3; ++i) w.i32(0);         // LIGHT, HFOG, USERDEFINE
    for (int i = 0; i < 18; ++i) w.f32(0.0f);     // unknown
    for (int i = 0; i < 16; ++i) w.f32(i % 5 == 0 ? 1.0f : i == 13 ? y : 0.0f);  // local (row vectors)
    w.f32(0); w.f32(y); w.f32(0); w.u32(0);       // translation, junk
    w.f32(0); w.f32(0); w.f32(0); w.f32(1);       // rotation (i, j, k, w)
    w.f32(1); w.f32(1); w.f32(1); w.u32(0);       // scale, junk
    w.fill(60);                                   // 2 f32, 8 u32, 4 f32, 2 u16
    for (int i = 0; i < 16; ++i) w.f32(i % 5 == 0 ? 1.0f : i == 13 ? y : 0.0f);   // global
    for (int i = 0; i < 16; ++i) w.f32(i % 5 == 0 ? 1.0f : i == 13 ? -y : 0.0f);  // its inverse
    return w.take();
}

// Union payloads: ref path, ref subtype, 5 f32, then per tag.
Bytes loddata(Endian e) {
    ByteWriter w(e);
    w.i32(0); w.i32(0);
    for (int i = 0; i < 5; ++i) w.f32(0);
    w.u32(0);       // nested unions
    w.fill(100);
    w.i32(0); w.i32(0); w.i32(0);  // NODE, LIGHT, LIGHT
    w.u32(0);       // NODE refs
    w.u32(0);       // u32s
    return w.take();
}
Bytes meshdata(Endian e) {
    ByteWriter w(e);
    w.i32(0); w.i32(0);
    for (int i = 0; i < 5; ++i) w.f32(0);
    return w.take();
}

ObjectHeader lod_header(std::uint16_t subtype) {
    ObjectHeader h;
    for (int i = 0; i < 16; ++i) h.matrix[i] = F32::of(i % 5 == 0 ? 1.0f : 0.0f);
    h.item_type = item_lod;
    h.item_subtype = subtype;
    return h;
}

}  // namespace

void totem_node_records(Platform platform, const std::string& subtype,
                        std::vector<std::tuple<std::string, std::string, std::string, Bytes>>& out) {
    const Endian e = endian_of(platform);
    const std::string crate_node = "DB:>SAMPLE>PROPS>CRATE.TNODE", crate_lod = "DB:>SAMPLE>PROPS>CRATE.TLOD";
    const std::string hat_node = "DB:>SAMPLE>CHARACTERS>HERO>HERO_HEAD.TNODE";

    // The hero's LOD: optional blocks 0 (4 floats) and 3 (matrix + 16 bytes) present.
    Lod hero;
    hero.header = lod_header(0);
    {
        ByteWriter w(e);
        w.u8(1);
        for (float f : {0.0f, 0.7f, 0.0f, 1.6f}) w.f32(f);
        w.u8(0); w.u8(0);
        w.u8(1);
        identity(w);
        w.fill(16);
        for (int i = 4; i < 17; ++i) w.u8(0);
        w.f32(10.0f); w.f32(40.0f); w.u16(3);
        hero.blocks = w.take();
    }
    hero.resources = {name_id(totem_skin_seed_name)};
    hero.anims = {{0, name_id("DB:>SAMPLE>ANIMS>HERO_IDLE.TANIM")}, {1, name_id("DB:>SAMPLE>ANIMS>HERO_WALK.TANIM")},
                  {7, name_id("DB:>SAMPLE>ANIMS>HERO_JUMP.TANIM")}};

    Lod crate;
    crate.header = lod_header(2);
    crate.blocks = empty_lod_blocks(e, 5.0f, 25.0f, 1);
    crate.resources = {name_id(totem_crate_mesh_name)};
    crate.sounds = std::vector<LodEntry>{{2, name_id("DB:>SAMPLE>SOUNDS>CRATE_BREAK.TSOUND")}};

    out.emplace_back("NODE", totem_hero_node_name, subtype,
                     node(e, 0, name_id(totem_hero_lod_name), "LODDATA", loddata(e), 0.0f));
    out.emplace_back("NODE", hat_node, subtype,
                     node(e, name_id(totem_hero_node_name), name_id(totem_head_mesh_name), "MESHDATA", meshdata(e), 1.5f));
    out.emplace_back("LOD", totem_hero_lod_name, subtype, encode_lod(hero, e));
    out.emplace_back("NODE", crate_node, subtype, node(e, 0, name_id(crate_lod), "LODDATA", loddata(e), 0.0f));
    out.emplace_back("LOD", crate_lod, subtype, encode_lod(crate, e));
}

}  // namespace mod::sample
