#include "libmod/sample/totem.hpp"

#include "libmod/core/file.hpp"
#include "libmod/sample/payload.hpp"
#include "totem_cases.hpp"
#include "totem_nodes.hpp"
#include "totem_textures.hpp"
#include "libmod/totem/mesh.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/repack.hpp"
#include "libmod/totem/skin.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

namespace mod::sample {

namespace {

using namespace mod::totem;

const char* const level_name = "SAMPLE_LVL";
// A vertex group whose name the table does not list (the seed: names may be missing).
const char* const unlisted_bone = "HERO_TAIL";
const char* const unlisted_subtype = "SAMPLE_UNLISTED_GROUP";

ObjectHeader make_header(std::uint16_t type, std::uint16_t subtype, std::uint32_t salt) {
    ObjectHeader h;
    h.unknown = {F32::of(1.0f), F32::of(0.5f), F32::of(0.0f), F32::of(float(salt % 7))};
    for (int i = 0; i < 16; ++i) h.matrix[i] = F32::of(i % 5 == 0 ? 1.0f : 0.0f);
    h.matrix[12] = F32::of(0.25f * float(salt % 3));  // a translation row, as stored in file order
    h.junk[3] = static_cast<std::uint8_t>(salt);      // non-zero junk: must survive verbatim
    h.item_type = type;
    h.item_subtype = subtype;
    return h;
}

// A ring mesh (a capped-less cylinder): rings × (segments + 1) positions, one strip per band.
// Normals are a separate array of the same length (normal k belongs to position k).
Mesh ring_mesh(int rings, int segments, float radius, float y0, float height, bool strip_groups,
               bool corners, std::uint32_t salt) {
    Mesh m;
    m.header = make_header(item_mesh, strip_groups ? 4 : 0, salt);
    const int cols = segments + 1;
    for (int r = 0; r < rings; ++r)
        for (int s = 0; s < cols; ++s) {
            const float a = 6.2831853f * float(s) / float(segments);
            const float y = y0 + height * float(r) / float(rings - 1);
            m.positions.push_back({F32::of(radius * std::cos(a)), F32::of(y), F32::of(radius * std::sin(a))});
            m.texcoords.push_back({F32::of(float(s) / float(segments)), F32::of(float(r) / float(rings - 1))});
            m.normals.push_back({F32::of(std::cos(a)), F32::of(0.0f), F32::of(std::sin(a))});
        }
    for (int r = 0; r + 1 < rings; ++r) {
        MeshStrip strip;
        std::vector<StripCorner> list;
        for (int s = 0; s < cols; ++s)
            for (int k = 0; k < 2; ++k) {
                const auto id = static_cast<std::uint16_t>((r + k) * cols + s);
                strip.vertex_ids.push_back(id);
                list.push_back({id, id});
            }
        strip.material_index = static_cast<std::uint32_t>(r % 2);
        strip.tri_order = r % 2 == 0 ? 1 : 2;
        m.strips.push_back(std::move(strip));
        if (corners) m.strip_corners.push_back(std::move(list));
    }
    if (strip_groups) {
        std::vector<std::int32_t> groups;
        for (std::size_t i = 0; i < m.strips.size(); ++i) groups.push_back(static_cast<std::int32_t>(i / 2));
        m.strip_groups = std::move(groups);
    }
    m.materials = {name_id("DB:>SAMPLE>MATERIALS>SKIN.TMAT"), name_id("DB:>SAMPLE>MATERIALS>CLOTH.TMAT")};
    if (strip_groups) {
        m.spheres.push_back({{F32::of(0), F32::of(y0 + height / 2), F32::of(0)}, F32::of(radius * 1.5f)});
        MeshCuboid c;
        for (int i = 0; i < 16; ++i) c.matrix[i] = F32::of(i % 5 == 0 ? radius : 0.0f);
        m.cuboids.push_back(c);
        m.cylinders.push_back({{F32::of(0), F32::of(y0), F32::of(0)}, F32::of(height),
                               {F32::of(0), F32::of(1), F32::of(0)}, 0, F32::of(radius)});
    }
    for (std::size_t i = m.strips.size(); i-- > 0;) m.strip_order.push_back(static_cast<std::uint32_t>(i));
    return m;
}

struct Bone {
    std::string name;
    float y;  // height of the joint: weights fall off with the distance to it
};

// Weights of a position at height y: the two nearest bones, linear blend, summing to 1.
std::map<std::size_t, float> weights_at(const std::vector<Bone>& bones, float y) {
    std::vector<std::pair<float, std::size_t>> by_distance;
    for (std::size_t b = 0; b < bones.size(); ++b) by_distance.emplace_back(std::fabs(bones[b].y - y), b);
    std::sort(by_distance.begin(), by_distance.end());
    const float d0 = by_distance[0].first, d1 = by_distance[1].first;
    std::map<std::size_t, float> w;
    if (d0 + d1 <= 0) {
        w[by_distance[0].second] = 1.0f;
        return w;
    }
    // Quantised to 1/64 so the weights are exact in binary and sum exactly to 1.
    const float w0 = std::round(64.0f * d1 / (d0 + d1)) / 64.0f;
    if (w0 > 0) w[by_distance[0].second] = w0;
    if (w0 < 1) w[by_distance[1].second] = 1.0f - w0;
    return w;
}

Skin make_skin(const std::vector<Bone>& bones, const std::vector<std::pair<std::int32_t, const Mesh*>>& meshes,
               bool anims, Zero2Reading reading, std::uint32_t salt) {
    Skin s;
    s.header = make_header(item_skin, anims ? 2 : 0, salt);
    for (auto& [id, _] : meshes) s.mesh_ids.push_back(id);
    for (std::size_t b = 0; b < bones.size(); ++b) {
        SkinSection sec;
        sec.group_id = name_id(bones[b].name);
        for (std::size_t mi = 0; mi < meshes.size(); ++mi) {
            const Mesh& m = *meshes[mi].second;
            SkinSubsection sub;
            sub.mesh_index = static_cast<std::uint16_t>(mi);
            for (std::size_t k = 0; k < m.positions.size(); ++k) {
                auto w = weights_at(bones, m.positions[k][1].value());
                auto it = w.find(b);
                if (it == w.end()) continue;
                sub.vertices.push_back({static_cast<std::uint32_t>(k), F32::of(it->second)});
                sub.normals.push_back({static_cast<std::uint32_t>(k), F32::of(it->second)});
            }
            if (!sub.vertices.empty()) sec.subsections.push_back(std::move(sub));
        }
        s.sections.push_back(std::move(sec));
    }
    if (anims) {
        s.has_anims = 1;
        s.reading = reading;
        s.anims = {{0, name_id("DB:>SAMPLE>ANIMS>HERO_IDLE.TANIM")},
                   {1, name_id("DB:>SAMPLE>ANIMS>HERO_WALK.TANIM")},
                   {7, name_id("DB:>SAMPLE>ANIMS>HERO_JUMP.TANIM")}};
    }
    // Unknown entries as the seed constrains them: one per section, one value per subsection,
    // each value <= that subsection's list length.
    for (const auto& sec : s.sections) {
        SkinUnknownEntry u;
        for (const auto& sub : sec.subsections) {
            u.vertices.push_back(static_cast<std::uint32_t>(sub.vertices.size() / 2));
            u.normals.push_back(static_cast<std::uint32_t>(sub.normals.size() / 3));
        }
        s.unknown.push_back(std::move(u));
    }
    return s;
}

struct Content {
    std::vector<std::tuple<std::string, std::string, std::string, Bytes>> records;  // type, name, subtype, payload
    std::vector<std::string> names;
};

Content build(Platform platform) {
    const Endian e = endian_of(platform);
    Content c;
    const std::vector<Bone> hero = {{"HERO_PELVIS", 0.0f}, {"HERO_SPINE", 0.8f}, {"HERO_NECK", 1.4f},
                                    {"HERO_HEAD", 1.8f}, {unlisted_bone, -0.6f}};
    const std::vector<Bone> crate = {{"CRATE_ROOT", 0.0f}, {"CRATE_LID", 0.5f}};
    Mesh body = ring_mesh(8, 8, 0.4f, -0.6f, 2.0f, true, true, 1);
    Mesh head = ring_mesh(4, 6, 0.25f, 1.5f, 0.5f, false, true, 2);
    Mesh prop = ring_mesh(3, 4, 0.5f, 0.0f, 0.5f, false, platform != Platform::ps2, 3);
    const std::int32_t body_id = name_id(totem_body_mesh_name), head_id = name_id(totem_head_mesh_name),
                       crate_id = name_id(totem_crate_mesh_name);
    auto add = [&](std::string type, std::string name, std::string subtype, Bytes payload) {
        c.records.emplace_back(std::move(type), std::move(name), std::move(subtype), std::move(payload));
    };
    add("MESH", totem_body_mesh_name, level_name, encode_mesh(body, e));
    add("MESH", totem_head_mesh_name, level_name, encode_mesh(head, e));
    add("MESH", totem_crate_mesh_name, totem_crate_mesh_name, encode_mesh(prop, e));
    add("SKIN", totem_skin_seed_name, level_name,
        encode_skin(make_skin(hero, {{body_id, &body}, {head_id, &head}}, true, Zero2Reading::seed, 4), e));
    add("SKIN", totem_skin_chum_name, level_name,
        encode_skin(make_skin(hero, {{body_id, &body}}, true, Zero2Reading::chum_world, 5), e));
    add("SKIN", totem_skin_plain_name, unlisted_subtype,
        encode_skin(make_skin(crate, {{crate_id, &prop}}, false, Zero2Reading::no_anim_block, 6), e));
    add("SKIN", totem_lid_skin_name, level_name, lid_skin_payload(prop, crate_id, e));  // names a SURFACE (totem_cases.cpp)
    // Issue 33 (T17, T13): the sign's strips name materials 2 and 3 of a 2-entry list (subtype
    // 4, smallest index 2: Chum World's index % n and noclip's minus-the-smallest agree), and
    // its first material has a non-identity UV transform (totem_textures.cpp).
    Mesh sign = ring_mesh(3, 4, 0.3f, 0.0f, 0.6f, true, true, 7);
    for (auto& strip : sign.strips) strip.material_index += totem_sign_index_base;
    sign.materials = {name_id(totem_sign_material_name), name_id("DB:>SAMPLE>MATERIALS>SKIN.TMAT")};
    const std::vector<Bone> sign_bones = {{"SIGN_POST", 0.0f}, {"SIGN_BOARD", 0.6f}};
    add("MESH", totem_sign_mesh_name, level_name, encode_mesh(sign, e));
    add("SKIN", totem_sign_skin_name, level_name,
        encode_skin(make_skin(sign_bones, {{name_id(totem_sign_mesh_name), &sign}}, false, Zero2Reading::no_anim_block, 8), e));
    std::vector<TotemRecordSpec> textures;  // BITMAPs and MATERIAL chains (totem_textures.cpp)
    totem_texture_records(platform, level_name, textures);
    for (auto& t : textures) add(t.type, t.name, t.subtype, std::move(t.payload));
    add("SURFACE", "DB:>SAMPLE>PROPS>CRATE_LID.TSURFACE", level_name, synthetic_payload(900, 13));
    totem_node_records(platform, level_name, c.records);  // NODE / LOD trees (totem_nodes.cpp)
    add("ANIMATION", "DB:>SAMPLE>ANIMS>HERO_IDLE.TANIM", level_name, synthetic_payload(1200, 17));
    add("ANIMATION", "DB:>SAMPLE>ANIMS>HERO_WALK.TANIM", level_name, synthetic_payload(1500, 18));
    add("ANIMATION", "DB:>SAMPLE>ANIMS>HERO_JUMP.TANIM", level_name, synthetic_payload(700, 19));
    for (const auto& [type, name, subtype, _] : c.records)
        for (const auto* n : {&type, &name, &subtype})
            if (*n != unlisted_subtype) c.names.push_back(*n);
    for (const auto& b : hero)
        if (b.name != unlisted_bone) c.names.push_back(b.name);
    for (const auto& b : crate) c.names.push_back(b.name);
    for (const auto& b : sign_bones) c.names.push_back(b.name);
    c.names.push_back(totem_lid_group_name);
    return c;
}

}  // namespace

TotemSampleFiles totem_sample(Platform platform) {
    Content c = build(platform);
    NameTable names;
    for (const auto& n : c.names) names.add(n);
    Archive empty;
    empty.endian = endian_of(platform);
    const std::string notice = "modkit synthetic TotemTech sample archive (not game data)";
    std::copy(notice.begin(), notice.end(), empty.legal_notice.begin());
    empty.chunk_size = 0x2000;
    std::vector<RepackItem> items;
    for (auto& [type, name, subtype, payload] : c.records) {
        Record r;
        r.type_id = name_id(type);
        r.name_id = name_id(name);
        r.subtype_id = name_id(subtype);
        r.payload = std::move(payload);
        items.push_back({std::move(r), std::nullopt});
    }
    Archive archive = repack(empty, std::move(items));
    // The PC sample (byte order: hypothesis, totem-archive.md) ends with a short last chunk, as
    // Chum World tolerates: its padding stops 0x20 bytes after the last record.
    if (platform == Platform::pc && archive.chunks.back().padding.size() > 0x20) archive.chunks.back().padding.resize(0x20);
    return {encode_archive(archive), names.encode()};
}

std::vector<std::filesystem::path> write_totem_sample(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> out;
    for (Platform p : {Platform::gamecube, Platform::ps2, Platform::pc}) {
        auto files = totem_sample(p);
        auto data = dir / (std::string("SAMPLE") + data_extension(p));
        auto names = dir / (std::string("SAMPLE") + names_extension(p));
        write_file_atomic(data, files.data);
        write_file_atomic(names, files.names);
        out.push_back(data);
        out.push_back(names);
    }
    return out;
}

}  // namespace mod::sample
