// NODE links, LOD records, and the character tree (NODE → LOD → SKIN/MESH).
#include "libmod/totem/node.hpp"

#include "libmod/totem/names.hpp"
#include "libmod/totem/skin.hpp"
#include "libmod/totem/verify.hpp"

#include <set>

namespace mod::totem {

namespace {

struct TypeIds {
    std::int32_t node = name_id("NODE"), lod = name_id("LOD"), skin = name_id("SKIN"), mesh = name_id("MESH");
};
const TypeIds& types() {
    static const TypeIds t;
    return t;
}

// Optional blocks before the resources, in order: body size of each, 0 = a u8 that must be 0
// (an optional nobody has seen present).
constexpr std::size_t max_tree_depth = 64;

constexpr std::size_t lod_blocks[] = {16, 16, 36, 80, 16, 0, 80, 16, 0, 80, 16, 0, 0, 16, 20, 16, 16};

std::vector<LodEntry> read_entries(ByteReader& r, const char* what) {
    const std::uint32_t n = r.u32();
    r.require_array(n, 8);
    std::vector<LodEntry> out(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        out[i].symbol = r.u32();
        out[i].id = r.i32();
    }
    (void)what;
    return out;
}

}  // namespace

NodeLinks decode_node_links(const ByteReader& payload) {
    ByteReader r = payload.with_path(payload.path() + ".node");
    NodeLinks n;
    n.parent = r.i32();
    for (auto& u : n.unknown) u = r.i32();
    n.resource = r.i32();
    n.tag = r.i32();
    return n;
}

const char* node_tag_name(std::int32_t tag) noexcept {
    static const std::pair<std::int32_t, const char*> tags[] = {
        {name_id("MESHDATA"), "MESHDATA"},   {name_id("SKEL"), "SKEL"},
        {name_id("LODDATA"), "LODDATA"},     {name_id("SURFACEDATAS"), "SURFACEDATAS"},
        {name_id("ROTSHAPEDATA"), "ROTSHAPEDATA"}, {name_id("PARTICLESDATA"), "PARTICLESDATA"}};
    if (tag == 0) return "none";
    for (const auto& [id, name] : tags)
        if (id == tag) return name;
    return "";
}

Lod decode_lod(const ByteReader& payload) {
    ByteReader r = payload.with_path(payload.path() + ".lod");
    Lod lod;
    lod.header = read_object_header(r);
    if (lod.header.item_type != item_lod)
        r.fail_at(0x60, "item type " + std::to_string(lod.header.item_type) + ", expected 5 (LOD)");
    if (lod.header.item_subtype != 0 && lod.header.item_subtype != 2)
        r.fail_at(0x62, "subtype " + std::to_string(lod.header.item_subtype) +
                            " (0 without a sound table, 2 with one; Chum World refuses others)");
    const std::size_t start = r.tell();
    for (std::size_t i = 0; i < std::size(lod_blocks); ++i) {
        const std::size_t at = r.tell();
        const std::uint8_t flag = r.u8();
        if (lod_blocks[i] == 0) {
            if (flag != 0)
                r.fail_at_path(at, index_path(".blocks", i),
                               "an optional block nobody has seen present is present (flag " + std::to_string(flag) +
                                   "): its layout is unknown");
            continue;
        }
        if (flag > 1) r.fail_at_path(at, index_path(".blocks", i), "optional flag " + std::to_string(flag) + " (0 or 1)");
        if (flag) r.skip(lod_blocks[i]);
    }
    r.skip(10);  // 2 × f32, u16
    lod.blocks.assign(payload.data().begin() + std::ptrdiff_t(start), payload.data().begin() + std::ptrdiff_t(r.tell()));
    const std::uint32_t n = r.u32();
    r.require_array(n, 4);
    for (std::uint32_t i = 0; i < n; ++i) lod.resources.push_back(r.i32());
    lod.anims = read_entries(r, "anims");
    if (lod.header.item_subtype == 2) lod.sounds = read_entries(r, "sounds");
    r.expect_end();
    return lod;
}

Bytes encode_lod(const Lod& lod, Endian endian) {
    if (lod.sounds.has_value() != (lod.header.item_subtype == 2))
        throw Error(ErrorKind::usage, "a LOD has a sound table exactly when its subtype is 2");
    ByteWriter w(endian);
    write_object_header(w, lod.header);
    w.bytes(lod.blocks);
    auto count = [&](std::size_t n) {
        if (n > 0xFFFFFFFFu) throw Error(ErrorKind::limit, "LOD list too long");
        w.u32(static_cast<std::uint32_t>(n));
    };
    count(lod.resources.size());
    for (auto id : lod.resources) w.i32(id);
    for (const auto* list : {&lod.anims, lod.sounds ? &*lod.sounds : nullptr}) {
        if (!list) continue;
        count(list->size());
        for (const auto& e : *list) {
            w.u32(e.symbol);
            w.i32(e.id);
        }
    }
    return w.take();
}

Bytes empty_lod_blocks(Endian endian, float f0, float f1, std::uint16_t u) {
    ByteWriter w(endian);
    w.fill(std::size(lod_blocks));
    w.f32(f0);
    w.f32(f1);
    w.u16(u);
    return w.take();
}

namespace {

struct TreeBuilder {
    const ByteReader& dgc;
    const Archive& a;
    std::set<std::size_t> seen;

    CharacterNode missing(std::int32_t id) {
        CharacterNode c;
        c.missing = true;
        c.missing_id = id;
        c.note = "not a record of this archive";
        return c;
    }

    void add_child(CharacterNode& parent, std::int32_t id, std::size_t depth) {
        if (id == 0) return;
        if (auto i = find_record(a, id)) parent.children.push_back(build(*i, depth));
        else parent.children.push_back(missing(id));
    }

    CharacterNode build(std::size_t index, std::size_t depth = 0) {
        CharacterNode c;
        c.record = index;
        const Record& rec = a.records[index];
        const auto& t = types();
        c.kind = rec.type_id == t.node ? "NODE" : rec.type_id == t.lod ? "LOD" : rec.type_id == t.skin ? "SKIN"
               : rec.type_id == t.mesh ? "MESH" : "";
        if (!seen.insert(index).second) {
            c.note = "already listed above";
            return c;
        }
        if (depth >= max_tree_depth) {
            c.note = "deeper than " + std::to_string(max_tree_depth) + " levels: not followed";
            return c;
        }
        try {
            const ByteReader p = payload_reader(dgc, a, index);
            if (rec.type_id == t.node) {
                const NodeLinks n = decode_node_links(p);
                add_child(c, n.resource, depth + 1);
                for (std::size_t j = 0; j < a.records.size(); ++j)
                    if (a.records[j].type_id == t.node && j != index && a.records[j].payload.size() >= node_links_size &&
                        decode_node_links(payload_reader(dgc, a, j)).parent == rec.name_id)
                        c.children.push_back(build(j, depth + 1));
            } else if (rec.type_id == t.lod) {
                for (auto id : decode_lod(p).resources) add_child(c, id, depth + 1);
            } else if (rec.type_id == t.skin) {
                for (auto id : decode_skin(p).mesh_ids) add_child(c, id, depth + 1);
            }
        } catch (const Error& e) {
            c.note = e.what();
        }
        return c;
    }
};

void collect_meshes(const ByteReader& dgc, const Archive& a, std::size_t index, std::set<std::size_t>& seen,
                    std::vector<std::size_t>& out, std::size_t depth) {
    if (!seen.insert(index).second) return;  // each record once
    if (depth >= max_tree_depth)
        throw Error(ErrorKind::format, "the chain of resources under this record is deeper than " +
                                           std::to_string(max_tree_depth) + " levels (a loop through NODE records?)",
                    {}, no_offset, "dgc.record[" + std::to_string(index) + "]");
    const Record& rec = a.records[index];
    const auto& t = types();
    const ByteReader p = payload_reader(dgc, a, index);
    std::vector<std::int32_t> next;
    if (rec.type_id == t.mesh) {
        out.push_back(index);
        return;
    }
    if (rec.type_id == t.node) next = {decode_node_links(p).resource};
    else if (rec.type_id == t.lod) next = decode_lod(p).resources;
    else if (rec.type_id == t.skin) next = decode_skin(p).mesh_ids;
    for (auto id : next)
        if (id != 0)
            if (auto i = find_record(a, id)) collect_meshes(dgc, a, *i, seen, out, depth + 1);
}

}  // namespace

CharacterNode character_tree(const ByteReader& dgc, const Archive& archive, std::size_t index) {
    TreeBuilder b{dgc, archive, {}};
    return b.build(index);
}

std::vector<std::size_t> character_meshes(const ByteReader& dgc, const Archive& archive, std::size_t index) {
    std::set<std::size_t> seen;
    std::vector<std::size_t> out;
    collect_meshes(dgc, archive, index, seen, out, 0);
    return out;
}

}  // namespace mod::totem
