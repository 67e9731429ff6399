// Mesh replacement (mesh_replace.hpp) at the library level: the edit-nothing guarantee on the
// sample models, values computed by hand, seams that do not crack when posed, every limit
// refused with its numbers, and bad sources refused in one message.
#include "stadium_test_support.hpp"

#include "libmod/scene/model.hpp"
#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/animation_encode.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/mesh_replace.hpp"
#include "libmod/stadium/palette_edit.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <set>

using namespace mod::stadium;
using mod::Bytes;
using mod::ErrorKind;
namespace sc = mod::scene;

namespace {

using TriKey = std::array<std::int32_t, 12>;

// Every drawn triangle as (drawing bone, s16 x, y, z) per corner, rotated so the smallest corner
// comes first (winding kept), sorted: "the same triangles at the same s16 positions, order aside".
std::vector<TriKey> triangle_keys(const Model& m) {
    std::vector<TriKey> out;
    for (const auto& t : m.triangles) {
        std::array<std::array<std::int32_t, 4>, 3> c{};
        for (int k = 0; k < 3; ++k) {
            const auto& v = m.vertices[t.corners[k].vertex];
            c[k] = {m.draws[t.corners[k].dl].bone, v.position[0], v.position[1], v.position[2]};
        }
        std::size_t f = 0;
        for (std::size_t k = 1; k < 3; ++k)
            if (c[k] < c[f]) f = k;
        TriKey key{};
        for (std::size_t k = 0; k < 3; ++k)
            for (std::size_t j = 0; j < 4; ++j) key[k * 4 + j] = c[(f + k) % 3][j];
        out.push_back(key);
    }
    std::sort(out.begin(), out.end());
    return out;
}

struct Caught {
    ErrorKind kind = ErrorKind::io;
    std::string message;
};
// The error `fn` throws (a failed check when it throws none).
Caught caught(const std::function<void()>& fn) {
    const auto e = modtest::catch_error(fn);
    BOOST_TEST(e.has_value(), "no error was thrown");
    return e ? Caught{e->kind(), e->message()} : Caught{};
}

Model reread(const Bytes& fragment) { return read_model(fragment); }

// A model built here: root scale 2.0, bone 0 at (10, 0, 0), bone 1 (child) at (0, 20, 0), bone 2
// (child of 1) at (0, 20, 0); one textured material; one skeletal animation bending bone 1 and 2.
Bytes chain_model() {
    ModelBuilder m(30);
    auto tex = m.add_texture(TexFormat::rgba, TexSize::b16, 8, 8, Bytes(8 * 8 * 2, 0x7B));
    auto mat = m.add_material_dl(tex);
    std::vector<Vertex> v(3);
    v[1].x = 4;
    v[2].y = 4;
    auto first = m.add_vertices(v);
    DisplayList dl;
    dl.raw(0xD9000000u, 0x00220405u).vtx(first, 3, 0).tri1(0, 1, 2).end();
    auto d = m.add_display_list(std::move(dl));
    std::vector<std::vector<PoseSample>> ch(3, std::vector<PoseSample>(4));
    for (std::size_t f = 0; f < 4; ++f) {
        ch[0][f].translation = {10, 0, 0};
        ch[1][f].translation = ch[2][f].translation = {0, 20, 0};
        ch[1][f].rotation = {0, 0, double(2048 * f)};  // bone 1 bends about z, up to 3 × 11.25°
        ch[2][f].rotation = {double(1024 * f), 0, 0};
    }
    m.add_animation(encode_packed(ch).animation);
    auto& s = m.layout();
    s.model_header().open().scale(0x20000, 0x20000, 0x20000).open();
    s.bone(0, 0, 0, {10, 0, 0}, {0, 0, 0}).open().material(0, -1, mat, tex, -1, 0xFFFFFFFF).draw(1, d);
    s.bone(1, 0, 1, {0, 20, 0}, {0, 0, 0}).open().draw(1, d);
    s.bone(2, 0, 2, {0, 20, 0}, {0, 0, 0}).open().draw(1, d);
    s.close().close().close().close().close().end();
    return m.build();
}

sc::Scene scene_with(std::vector<sc::Vec3> positions, std::vector<std::array<std::uint32_t, 3>> tris,
                     std::vector<std::uint32_t> bone_of, std::vector<std::string> bones) {
    sc::Scene s;
    s.source = "test.glb";
    for (std::size_t i = 0; i < bones.size(); ++i) {
        sc::Bone b;
        b.name = bones[i];
        s.skeleton.bones.push_back(b);
    }
    sc::Mesh m;
    m.name = "body";
    m.positions = std::move(positions);
    m.normals.assign(m.positions.size(), {0, 0, 1});
    m.uv0.assign(m.positions.size(), {0, 0});
    for (std::size_t v = 0; v < m.positions.size(); ++v) m.influences.push_back({{bone_of[v], 1.0f}});
    m.triangles = std::move(tris);
    s.meshes.push_back(std::move(m));
    s.materials.push_back("mat");
    return s;
}

std::vector<std::string> names(const Model& m) {
    std::vector<std::string> n;
    for (const auto& b : target_skeleton(m).bones) n.push_back(b.name);
    return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mesh_replace)

// Guarantee 10: the model's own export scene replaces its mesh with the same triangles at the
// same s16 positions (order aside), on every sample model without 0x20/0x21 transform nodes
// (their vertices are placed with the node's matrix, which a bone-space rewrite folds in).
BOOST_AUTO_TEST_CASE(own_export_gives_the_same_triangles) {
    const stadiumtest::SampleRom r;
    std::size_t checked = 0;
    for (std::size_t e = 0; e < r.archive.entries.size(); ++e) {
        if (!decode_entry(r.archive, e).is_fragment) continue;
        const Model m = read_archive_model(r.archive, e);
        if (!m.nodes.empty() || m.bones.empty()) continue;
        const MeshReplacement rep = replace_mesh(m, model_scene(m));
        const Model now = reread(rep.fragment);
        BOOST_TEST(triangle_keys(now) == triangle_keys(m), "entry " << e);
        BOOST_TEST(rep.plan.triangles == m.triangles.size());
        BOOST_TEST(rep.plan.reassigned_three_bones + rep.plan.reassigned_not_adjacent == 0u);
        BOOST_TEST(rep.plan.seams_blended > 0u, "entry " << e << ": the sample's cross-bone triangles are seams");
        BOOST_TEST(rep.plan.vtx_loads > 0u);
        BOOST_TEST(rep.plan.vertices_loaded <= 32u * rep.plan.vtx_loads);
        // Skeleton and animations kept.
        BOOST_TEST(now.bones.size() == m.bones.size());
        BOOST_TEST(read_animations(now).skeletal.size() == read_animations(m).skeletal.size());
        BOOST_TEST(now.root.model_id == m.root.model_id);
        ++checked;
    }
    BOOST_TEST(checked >= 10u);
}

// Hand values: root scale 2.0, bone 0 at (10, 0, 0): the world point (30, 4, -8) lies at
// (30 / 2 − 10, 4 / 2, −8 / 2) = (5, 2, −4) in bone 0's rest space.
BOOST_AUTO_TEST_CASE(s16_of_a_known_vertex) {
    const Model m = reread(chain_model());
    const auto n = names(m);
    sc::Scene s = scene_with({{30, 4, -8}, {32, 4, -8}, {30, 6, -8}}, {{0, 1, 2}}, {0, 0, 0}, {n[0]});
    MeshReplaceOptions o;
    o.allow_scale_change = true;
    const MeshReplacement rep = replace_mesh(m, s, o);
    const Model now = reread(rep.fragment);
    BOOST_TEST_REQUIRE(now.triangles.size() == 1u);
    const auto& t = now.triangles[0];
    const auto& a = now.vertices[t.corners[0].vertex].position;
    const auto& b = now.vertices[t.corners[1].vertex].position;
    const auto& c = now.vertices[t.corners[2].vertex].position;
    BOOST_TEST((a == std::array<std::int16_t, 3>{5, 2, -4}));
    BOOST_TEST((b == std::array<std::int16_t, 3>{6, 2, -4}));
    BOOST_TEST((c == std::array<std::int16_t, 3>{5, 3, -4}));
    BOOST_TEST(rep.plan.max_coordinate == 6);  // (6, 2, -4)
    BOOST_TEST(rep.plan.root_scale == 0x20000);
    BOOST_TEST(to_s16(-2.5, "x") == -3);
    BOOST_TEST(to_s16(32767.4, "x") == 32767);
    BOOST_TEST(caught([] { to_s16(32767.6, "vertex 9 (x)"); }).kind == ErrorKind::limit);
}

// A seam (triangles on bone 1 and its parent bone 0) is drawn through the vertex cache: its
// corners are loaded with both bones' matrices, and every source vertex lands on one posed point
// in every frame of the animation (no crack). A triangle on bones 0 and 2 (not parent and child)
// is given to one bone and counted.
BOOST_AUTO_TEST_CASE(seams_do_not_crack_when_posed) {
    const Model m = reread(chain_model());
    const auto n = names(m);
    // Bone 0 rests at world (20, 0, 0) (scale 2 × (10, 0, 0)), bone 1 at (20, 40, 0), bone 2 at (20, 80, 0).
    std::vector<sc::Vec3> p;
    std::vector<std::uint32_t> bone;
    for (int row = 0; row < 4; ++row)      // rows at y = 20, 36, 52, 68
        for (int col = 0; col < 3; ++col) {
            p.push_back({float(14 + 6 * col), float(20 + 16 * row), 0});
            bone.push_back(row < 2 ? 0 : 1);
        }
    p.push_back({20, 100, 0});  // on bone 2
    bone.push_back(2);
    std::vector<std::array<std::uint32_t, 3>> t;
    for (std::uint32_t row = 0; row < 3; ++row)
        for (std::uint32_t col = 0; col < 2; ++col) {
            const std::uint32_t a = row * 3 + col;
            t.push_back({a, a + 1, a + 4});
            t.push_back({a, a + 4, a + 3});
        }
    t.push_back({0, 1, 12});  // bones 0, 0, 2: not adjacent
    sc::Scene s = scene_with(p, t, bone, {n[0], n[1], n[2]});
    MeshReplaceOptions o;
    o.allow_scale_change = true;
    const MeshReplacement rep = replace_mesh(m, s, o);
    BOOST_TEST(rep.plan.source_triangles == 13u);
    BOOST_TEST(rep.plan.triangles == 13u);
    BOOST_TEST(rep.plan.seams_blended == 4u);  // the row-1 → row-2 band
    BOOST_TEST(rep.plan.reassigned_not_adjacent == 1u);
    BOOST_TEST(rep.plan.bones[1].seam_triangles == 4u);
    const Model now = reread(rep.fragment);
    const auto anims = read_animations(now);
    BOOST_TEST_REQUIRE(anims.skeletal.size() == 1u);
    const auto rest = bone_globals(now, bind_poses(now));
    std::size_t two_bone_triangles = 0, frames_bent = 0;
    for (std::int32_t f = 0; f < 4; ++f) {
        const auto pose = bone_globals(now, sample_bones(now, anims.skeletal[0], f));
        if (pose[1] != rest[1]) ++frames_bent;
        std::map<std::array<long, 3>, sc::Vec3> at;  // rest point (1/100) → posed point
        for (const auto& tri : now.triangles) {
            std::set<std::int32_t> bones;
            for (const auto& c : tri.corners) {
                const std::int32_t b = now.draws[c.dl].bone;
                bones.insert(b);
                const auto& v = now.vertices[c.vertex].position;
                const sc::Vec3 q{float(v[0]), float(v[1]), float(v[2])};
                const sc::Vec3 r0 = sc::transform_point(rest[std::size_t(b)], q), posed = sc::transform_point(pose[std::size_t(b)], q);
                const std::array<long, 3> key{std::lround(r0[0] * 100), std::lround(r0[1] * 100), std::lround(r0[2] * 100)};
                if (key == std::array<long, 3>{2000, 10000, 0}) continue;  // the reassigned triangle's copy of vertex 12
                auto [it, fresh] = at.emplace(key, posed);
                if (!fresh)
                    for (int k = 0; k < 3; ++k) BOOST_TEST(std::fabs(it->second[k] - posed[k]) < 1e-3, "frame " << f);
            }
            if (f == 0 && bones.size() == 2) ++two_bone_triangles;
        }
    }
    BOOST_TEST(frames_bent >= 2u);
    BOOST_TEST(two_bone_triangles == 4u);  // the seams stretch between the bones (blended)
}

// The writer keeps a texture's alpha whatever the source's alphaMode says: a source that makes a
// cut-out material opaque, or cuts at another threshold, is told so rather than changed silently.
BOOST_AUTO_TEST_CASE(an_alpha_mode_the_texture_does_not_follow_is_said) {
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 1);
    auto warned = [&](const sc::Scene& s, const std::string& what) {
        const RomMeshReplace out = replace_mesh_in_rom(r.rom, r.archive, 1, s, {}, {});
        for (const auto& w : out.plan.warnings)
            if (w.find(what) != std::string::npos) return true;
        return false;
    };
    const sc::Scene own = model_scene(m);
    std::size_t masked = 0;
    for (const auto& info : own.material_info) masked += info.alpha == sc::AlphaMode::mask;
    BOOST_TEST_REQUIRE(masked > 0u);  // the sample's model 1 has a cut-out texture
    BOOST_TEST(!warned(own, "is opaque in the source"));
    BOOST_TEST(!warned(own, "alphaCutoff"));
    sc::Scene opaque = own;
    for (auto& info : opaque.material_info) info.alpha = sc::AlphaMode::opaque;
    BOOST_TEST(warned(opaque, "is opaque in the source"));
    sc::Scene cut = own;
    for (auto& info : cut.material_info)
        if (info.alpha == sc::AlphaMode::mask) info.alpha_cutoff = 0.3f;
    BOOST_TEST(warned(cut, "cuts at alphaCutoff 0.300"));
}

BOOST_AUTO_TEST_CASE(limits_are_refused_with_numbers) {
    const stadiumtest::SampleRom r;
    const Model m = read_archive_model(r.archive, 0);
    const sc::Scene own = model_scene(m);
    auto fails = [&](RuntimeLimits limits) {
        RepackOptions o;
        o.limits = limits;
        MeshReplaceOptions keep;
        keep.keep_unchanged = false;  // its own scene would keep the ROM, and nothing is checked
        return caught([&] { replace_mesh_in_rom(r.rom, r.archive, 0, own, keep, o); });
    };
    RuntimeLimits l;
    l.compressed_buffer = 0x100;
    auto e = fails(l);
    BOOST_TEST(e.kind == ErrorKind::limit);
    BOOST_TEST(e.message.find("0x100-byte load buffer") != std::string::npos, e.message);
    l = {};
    l.model_block = 0x200;
    e = fails(l);
    BOOST_TEST(e.kind == ErrorKind::limit);
    BOOST_TEST(e.message.find("0x200-byte model block") != std::string::npos, e.message);
    l = {};
    l.fragment_max = 0x400;
    e = fails(l);
    BOOST_TEST(e.kind == ErrorKind::limit);
    BOOST_TEST(e.message.find("is not below 0x400") != std::string::npos, e.message);
    // Defaults pass, and the plan reports the sizes against them.
    const RomMeshReplace ok = replace_mesh_in_rom(r.rom, r.archive, 0, own);
    BOOST_TEST(ok.plan.new_entry > 0u);
    BOOST_TEST(ok.plan.new_entry <= 0x28000u);
    BOOST_TEST(ok.plan.new_block == (ok.plan.new_fragment + 15) / 16 * 16 + 0x10);

    // 32767 Vtx entries: 11,000 separate triangles on one bone need 33,000.
    const auto n = names(m);
    std::vector<sc::Vec3> p;
    std::vector<std::array<std::uint32_t, 3>> t;
    for (std::uint32_t i = 0; i < 11000; ++i) {
        const float x = float(i % 100), y = float(i / 100);
        p.push_back({x, y, 0});
        p.push_back({x + 0.5f, y, 0});
        p.push_back({x, y + 0.5f, 0});
        t.push_back({3 * i, 3 * i + 1, 3 * i + 2});
    }
    MeshReplaceOptions o;
    o.allow_scale_change = true;
    e = caught([&] { replace_mesh(m, scene_with(p, t, std::vector<std::uint32_t>(p.size(), 0), {n[0]}), o); });
    BOOST_TEST(e.kind == ErrorKind::limit);
    BOOST_TEST(e.message.find("more than 32767 Vtx entries") != std::string::npos, e.message);
    BOOST_TEST(e.message.find("33000 vertices") != std::string::npos, e.message);

    // 255 textures: 256 materials.
    sc::Scene many = scene_with({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}}, {0, 0, 0}, {n[0]});
    for (std::uint32_t i = 0; i < 256; ++i) {
        sc::Mesh mm = many.meshes[0];
        mm.material = i;
        if (i) many.meshes.push_back(mm);
        if (i) many.materials.push_back("m" + std::to_string(i));
        sc::MaterialInfo info;  // a colour of its own (identical materials share one texture)
        info.base_colour = {float(i) / 255.0f, 0.5f, 0.5f, 1};
        many.material_info.push_back(info);
    }
    e = caught([&] { replace_mesh(m, many, o); });
    BOOST_TEST(e.kind == ErrorKind::limit);
    BOOST_TEST(e.message.find("256 textures") != std::string::npos, e.message);

    // An s16 coordinate: 200000 units from the bone.
    e = caught([&] {
        replace_mesh(m, scene_with({{0, 0, 0}, {200000, 0, 0}, {0, 1, 0}}, {{0, 1, 2}}, {0, 0, 0}, {n[0]}), o);
    });
    BOOST_TEST(e.kind == ErrorKind::limit);
    BOOST_TEST(e.message.find("-32768..32767") != std::string::npos, e.message);
}

BOOST_AUTO_TEST_CASE(bad_sources_are_refused_in_one_message) {
    const Model m = reread(chain_model());
    const auto n = names(m);
    MeshReplaceOptions o;
    o.allow_scale_change = true;
    // Unmapped bones carrying weight: every one listed, with a suggestion where a name is close.
    auto e = caught([&] {
        replace_mesh(m, scene_with({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}}, {0, 1, 2}, {"Hips", "Bone1-ID1", "Tail"}), o);
    });
    BOOST_TEST(e.kind == ErrorKind::format);
    BOOST_TEST(e.message.find("'Hips'") != std::string::npos, e.message);
    BOOST_TEST(e.message.find("'Tail'") != std::string::npos, e.message);
    BOOST_TEST(e.message.find("'Bone1-ID1 = bone1_id1'") != std::string::npos, e.message);
    BOOST_TEST(e.message.find('\n') == std::string::npos);
    // The bone map fixes it.
    o.bone_map = sc::parse_bone_map("Hips = bone0_id0\nBone1-ID1 = bone1_id1\nTail = bone2_id2\n");
    BOOST_CHECK_NO_THROW(replace_mesh(
        m, scene_with({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}}, {0, 1, 2}, {"Hips", "Bone1-ID1", "Tail"}), o));
    o.bone_map = {};
    // NaN position.
    e = caught([&] {
        replace_mesh(m, scene_with({{0, 0, 0}, {NAN, 0, 0}, {0, 1, 0}}, {{0, 1, 2}}, {0, 0, 0}, {n[0]}), o);
    });
    BOOST_TEST(e.kind == ErrorKind::format);
    BOOST_TEST(e.message.find("non-finite") != std::string::npos, e.message);
    // No mesh.
    sc::Scene empty;
    empty.source = "empty.glb";
    e = caught([&] { replace_mesh(m, empty, o); });
    BOOST_TEST(e.kind == ErrorKind::format);
    BOOST_TEST(e.message.find("no triangle mesh") != std::string::npos, e.message);
    // A source 100 times the model's size without allow_scale_change.
    e = caught([&] {
        replace_mesh(m, scene_with({{0, 0, 0}, {3000, 0, 0}, {0, 3000, 0}}, {{0, 1, 2}}, {0, 0, 0}, {n[0]}));
    });
    BOOST_TEST(e.kind == ErrorKind::limit);
    BOOST_TEST(e.message.find("times larger than the mesh it replaces") != std::string::npos, e.message);
    BOOST_TEST(e.message.find("--allow-scale-change") != std::string::npos, e.message);
}

BOOST_AUTO_TEST_SUITE_END()
