// Issue 33 (fidelity review t3, T17 and T13): strip material indices past the material list
// (Chum World's index % n against noclip's minus-the-smallest rule), and the MATERIAL UV
// transform in `totem export` / `totem replace`. Hand-built meshes and the sample's sign
// (doc/formats/totem-sample.md).
#include "test_support.hpp"

#include "../scene/glb_test_reader.hpp"
#include "libmod/sample/totem.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/mesh.hpp"
#include "libmod/totem/mesh_build.hpp"
#include "libmod/totem/material.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/texture_scene.hpp"
#include "libmod/totem/verify.hpp"

#include "libmod/core/rapidjson.hpp"

#include <bit>
#include <cmath>
#include <set>

using namespace mod::totem;
using namespace modtest;

namespace {

const char* const sign_mesh = "DB:>SAMPLE>PROPS>SIGN.TMESH";
const char* const sign_skin = "DB:>SAMPLE>PROPS>SIGN.TSKIN";
const char* const sign_material = "DB:>SAMPLE>MATERIALS>SIGN.TMAT";
const char* const skin_material = "DB:>SAMPLE>MATERIALS>SKIN.TMAT";

// Two materials, strips with the given indices (each strip one triangle), item subtype given.
Mesh two_material_mesh(std::uint16_t subtype, std::vector<std::uint32_t> indices) {
    Mesh m;
    m.header.item_type = item_mesh;
    m.header.item_subtype = subtype;
    for (int i = 0; i < 3; ++i) m.positions.push_back({F32::of(float(i)), F32::of(0), F32::of(0)});
    m.materials = {name_id("A.TMAT"), name_id("B.TMAT")};
    for (auto index : indices) m.strips.push_back({{0, 1, 2}, index, 1});
    if (subtype & 4) m.strip_groups = std::vector<std::int32_t>(indices.size(), 0);
    return m;
}

// Findings about strip material indices only (the hand-built meshes have no corner lists,
// which check_mesh notes too).
std::size_t count(const std::vector<Finding>& f, Finding::Level level) {
    std::size_t n = 0;
    for (const auto& x : f) n += x.level == level && x.path.find(".material_index") != std::string::npos;
    return n;
}

struct Sample {
    TempDir dir;
    fs::path dgc, ngc;
    Sample() {
        mod::sample::write_totem_sample(dir.path());
        dgc = dir / "SAMPLE.DGC";
        ngc = dir / "SAMPLE.NGC";
    }
};

Mesh mesh_of(const fs::path& dgc, const char* name) {
    const mod::Bytes data = read(dgc);
    const Archive a = decode_archive(mod::ByteReader(data, mod::Endian::big, dgc.string(), "dgc"));
    return decode_mesh(payload_reader(mod::ByteReader(data, a.endian, "dgc", "dgc"), a, *find_record(a, name_id(name))));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_issue33)

// Chum World: materials[index % n]; noclip: (index − smallest) % n in subtype-4 MESHes only.
BOOST_AUTO_TEST_CASE(strip_material_rules_on_hand_built_meshes) {
    // Subtype 4, indices 1 and 2 of 2 materials: Chum World 1, 0; noclip (first 1) 0, 1.
    const Mesh differ = two_material_mesh(4, {1, 2});
    BOOST_TEST(smallest_strip_index(differ) == 1u);
    BOOST_TEST(strip_material(differ, 1) == 1u);
    BOOST_TEST(strip_material(differ, 2) == 0u);
    BOOST_TEST(strip_material_noclip(differ, 1) == 0u);
    BOOST_TEST(strip_material_noclip(differ, 2) == 1u);
    const StripIndexCensus c = strip_index_census(differ);
    BOOST_TEST(c.strips == 2u);
    BOOST_TEST(c.strips_past_list == 1u);
    BOOST_TEST(c.strips_rules_differ == 2u);
    BOOST_TEST(c.meshes_rules_differ == 1u);
    const auto f = check_mesh(differ);
    BOOST_TEST(count(f, Finding::Level::mismatch) == 2u);  // one per strip the rules disagree on
    for (const auto& x : f)
        if (x.path.find(".material_index") != std::string::npos)
            BOOST_TEST(x.message.find("totem-strip-material-index/1") != std::string::npos, x.message);

    // Subtype 0, indices 2 and 3: both rules read 0 and 1 (noclip subtracts nothing): notes only.
    const Mesh plain = two_material_mesh(0, {2, 3});
    BOOST_TEST(strip_material(plain, 3) == 1u);
    BOOST_TEST(strip_material_noclip(plain, 3) == 1u);
    const auto g = check_mesh(plain);
    BOOST_TEST(count(g, Finding::Level::mismatch) == 0u);
    BOOST_TEST(count(g, Finding::Level::note) == 2u);
    BOOST_TEST(strip_index_census(plain).strips_past_list == 2u);
    BOOST_TEST(strip_index_census(plain).strips_rules_differ == 0u);

    // Subtype 4 with the smallest index a multiple of n (the sample's sign): the rules agree.
    const Mesh agree = two_material_mesh(4, {2, 3});
    BOOST_TEST(strip_material_noclip(agree, 2) == 0u);
    BOOST_TEST(strip_index_census(agree).strips_rules_differ == 0u);
    BOOST_TEST(count(check_mesh(agree), Finding::Level::mismatch) == 0u);

    // No materials: nothing to resolve.
    Mesh none = plain;
    none.materials.clear();
    BOOST_TEST(strip_material(none, 3) == no_index);
    BOOST_TEST(strip_material_noclip(none, 3) == no_index);
}

// Rebuilding keeps the old record's index base, and a subtype-4 MESH keeps its first material used.
BOOST_AUTO_TEST_CASE(rebuild_keeps_the_index_base) {
    MeshSourcePart p;
    p.name = "tri";
    p.material = name_id("B.TMAT");
    p.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    p.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    p.uvs = {{0, 0}, {1, 0}, {0, 1}};
    p.triangles = {{0, 1, 2}};
    // Subtype 0, old indices 4 and 5 of 2 materials: base 4; B (position 1) is written as 5.
    const BuiltMesh plain = build_mesh(two_material_mesh(0, {4, 5}), std::vector<MeshSourcePart>{p}, "M");
    BOOST_TEST_REQUIRE(!plain.mesh.strips.empty());
    for (const auto& st : plain.mesh.strips) BOOST_TEST(st.material_index == 5u);
    BOOST_TEST((plain.mesh.materials == std::vector<std::int32_t>{name_id("A.TMAT"), name_id("B.TMAT")}));
    // Subtype 4, old indices 2 and 3: base 2; only B is used, so the list becomes {B, A} and B
    // is written as 2 = the smallest index: noclip's rule and Chum World's both read B.
    const BuiltMesh four = build_mesh(two_material_mesh(4, {2, 3}), std::vector<MeshSourcePart>{p}, "M");
    BOOST_TEST((four.mesh.materials == std::vector<std::int32_t>{name_id("B.TMAT"), name_id("A.TMAT")}));
    for (const auto& st : four.mesh.strips) {
        BOOST_TEST(st.material_index == 2u);
        BOOST_TEST(strip_material(four.mesh, st.material_index) == strip_material_noclip(four.mesh, st.material_index));
    }
    BOOST_TEST(strip_index_census(four.mesh).strips_rules_differ == 0u);
}

// Review §5 item 7: Chum World's enum reads interpolation 0 ("Invalid") and refuses 4 and up.
BOOST_AUTO_TEST_CASE(interpolation_zero_is_a_note_four_a_mismatch) {
    MaterialAnim a;
    a.length = F32::of(1.0f);
    for (auto& t : a.tracks) t.interpolation = 1;
    a.tracks[track_alpha] = {0, {AnimKey{0, 0, {F32::of(0.5f)}}}};
    auto f = check_material_anim(a);
    BOOST_TEST_REQUIRE(f.size() == 1u);
    BOOST_TEST((f[0].level == Finding::Level::note));
    BOOST_TEST(f[0].message.find("Invalid") != std::string::npos, f[0].message);
    a.tracks[track_alpha].interpolation = 4;
    f = check_material_anim(a);
    BOOST_TEST_REQUIRE(f.size() == 1u);
    BOOST_TEST((f[0].level == Finding::Level::mismatch));
    a.tracks[track_alpha].interpolation = 3;
    BOOST_TEST(check_material_anim(a).empty());
}

// The UV transform both readers apply: (u, v, 1) x M; stored_uvs takes it back.
BOOST_AUTO_TEST_CASE(uv_transform_and_its_inverse) {
    // The sign's transform: u' = -v + 0.25, v' = 2u + 0.5.
    const UvTransform m = {0, 2, 0, -1, 0, 0, 0.25f, 0.5f, 1};
    BOOST_TEST(!is_identity(m));
    BOOST_TEST(is_identity(UvTransform{1, 0, 0, 0, 1, 0, 0, 0, 1}));
    const auto t = apply_uv_transform(m, {0.25f, 0.5f});
    BOOST_TEST(t[0] == -0.25f);  // -0.5 + 0.25
    BOOST_TEST(t[1] == 1.0f);    // 0.5 + 0.5
    // Unchanged vertex: uv1 back exactly; edited vertex: through the inverse.
    const std::vector<mod::scene::Vec2> uv1 = {{0.25f, 0.5f}, {0.75f, 0.0f}};
    std::vector<mod::scene::Vec2> uv0 = {apply_uv_transform(m, uv1[0]), {0.1f, 0.2f}};
    const StoredUvs s = stored_uvs(m, uv0, uv1, "mesh");
    BOOST_TEST(s.kept == 1u);
    BOOST_TEST(s.inverted == 1u);
    BOOST_TEST(s.uvs[0][0] == 0.25f);
    BOOST_TEST(s.uvs[0][1] == 0.5f);
    // Inverse by hand: v = 0.25 - u' = 0.15, u = (v' - 0.5) / 2 = -0.15.
    BOOST_TEST(std::fabs(s.uvs[1][0] - -0.15f) < 1e-6f);
    BOOST_TEST(std::fabs(s.uvs[1][1] - 0.15f) < 1e-6f);
    // A singular transform cannot take an edited UV back.
    const UvTransform flat = {1, 0, 0, 0, 0, 0, 0, 0, 1};
    auto e = catch_error([&] { stored_uvs(flat, uv0, uv1, "mesh 'x'"); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->kind() == mod::ErrorKind::format);
    BOOST_TEST(std::string(e->what()).find("mesh 'x'") != std::string::npos);
}

// totem verify counts the sample's strips by item subtype; the sign's strips are past the list.
BOOST_AUTO_TEST_CASE(verify_counts_strip_indices_by_subtype) {
    Sample s;
    const Mesh sign = mesh_of(s.dgc, sign_mesh);
    BOOST_TEST(sign.header.item_subtype == 4u);
    BOOST_TEST(sign.strips.size() == 2u);
    BOOST_TEST(sign.strips[0].material_index == 2u);
    BOOST_TEST(sign.strips[1].material_index == 3u);
    BOOST_TEST((sign.materials == std::vector<std::int32_t>{name_id(sign_material), name_id(skin_material)}));
    auto r = run_cli({"totem", "verify", s.dgc.string(), s.ngc.string(), "--json"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    rapidjson::Document d;
    d.Parse(r.out.c_str());
    BOOST_TEST_REQUIRE(d["strip_material_indices"].IsArray());
    // Subtype 0: head (3 strips) and crate (2); subtype 4: body (7) and sign (2, both past).
    const auto& c = d["strip_material_indices"];
    BOOST_TEST_REQUIRE(c.Size() == 2u);
    BOOST_TEST(c[0]["item_subtype"].GetUint() == 0u);
    BOOST_TEST(c[0]["meshes"].GetUint() == 2u);
    BOOST_TEST(c[0]["strips"].GetUint() == 5u);
    BOOST_TEST(c[0]["strips_past_list"].GetUint() == 0u);
    BOOST_TEST(c[1]["item_subtype"].GetUint() == 4u);
    BOOST_TEST(c[1]["meshes"].GetUint() == 2u);
    BOOST_TEST(c[1]["strips"].GetUint() == 9u);
    BOOST_TEST(c[1]["strips_past_list"].GetUint() == 2u);
    BOOST_TEST(c[1]["meshes_past_list"].GetUint() == 1u);
    BOOST_TEST(c[1]["strips_rules_differ"].GetUint() == 0u);
    BOOST_TEST(d["mismatches"].GetUint() == 0u);
    r = run_cli({"totem", "verify", s.dgc.string(), s.ngc.string()});
    BOOST_TEST(r.out.find("strip material indices, MESH subtype 4: 2 MESHes, 9 strips, 2 past the material list (in 1 "
                          "MESHes), 0 where Chum World's and noclip's rules differ") != std::string::npos,
               r.out);
}

// Export names the sign's materials after their MATERIALs (not "material 2"), applies SIGN.TMAT's
// transform to TEXCOORD_0, keeps the stored UVs in TEXCOORD_1; replace from that export gives
// the same triangle values back with the old index base (2).
BOOST_AUTO_TEST_CASE(sign_export_and_replace) {
    Sample s;
    const fs::path glb = s.dir / "sign.glb", out = s.dir / "OUT.DGC";
    auto r = run_cli({"totem", "export", s.dgc.string(), s.ngc.string(), sign_skin, glb.string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("UV transform") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("past its 2 materials") != std::string::npos, r.err);
    const auto g = glbtest::read_glb(read(glb));
    std::set<std::string> names;
    for (const auto& m : g.json["materials"].GetArray()) names.insert(m["name"].GetString());
    BOOST_TEST((names == std::set<std::string>{sign_material, skin_material}));
    std::size_t transformed = 0, plain = 0;
    for (const auto& mesh : g.json["meshes"].GetArray())
        for (const auto& p : mesh["primitives"].GetArray()) {
            const std::string material = g.json["materials"][p["material"].GetUint()]["name"].GetString();
            const auto tc0 = g.floats(p["attributes"]["TEXCOORD_0"].GetUint());
            const auto tc1 = g.floats(p["attributes"]["TEXCOORD_1"].GetUint());
            BOOST_TEST_REQUIRE(tc0.size() == tc1.size());
            for (std::size_t i = 0; i < tc0.size(); i += 2) {
                // glTF holds (u, 1 - v); the sign's ring UVs are u = k/4, v = k/2 (exact).
                const float u = tc1[i], v = 1.0f - tc1[i + 1];
                if (material == sign_material) {
                    BOOST_TEST(tc0[i] == -v + 0.25f);
                    BOOST_TEST(tc0[i + 1] == 1.0f - (2.0f * u + 0.5f));
                    ++transformed;
                } else {
                    BOOST_TEST(tc0[i] == tc1[i]);
                    BOOST_TEST(tc0[i + 1] == tc1[i + 1]);
                    ++plain;
                }
            }
        }
    BOOST_TEST(transformed > 0u);
    BOOST_TEST(plain > 0u);

    r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), sign_skin, glb.string(), out.string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const Mesh a = mesh_of(s.dgc, sign_mesh), b = mesh_of(out, sign_mesh);
    BOOST_TEST((a.materials == b.materials));
    for (const auto& strip : b.strips) BOOST_TEST((strip.material_index == 2u || strip.material_index == 3u));
    BOOST_TEST(count(check_mesh(b), Finding::Level::mismatch) == 0u);
    // Triangle values (resolved material, position, UV, normal bits) are the same set.
    auto values = [](const Mesh& m) {
        std::multiset<std::array<std::uint32_t, 25>> out;
        for (const auto& t : build_triangles(m)) {
            std::array<std::array<std::uint32_t, 8>, 3> c;
            for (int k = 0; k < 3; ++k) {
                const auto& p = m.positions[t.corners[k].position];
                const auto& uv = m.texcoords[t.corners[k].texcoord];
                const auto& n = m.normals[t.corners[k].normal];
                c[k] = {p[0].bits, p[1].bits, p[2].bits, uv[0].bits, uv[1].bits, n[0].bits, n[1].bits, n[2].bits};
            }
            const int r = c[0] <= c[1] && c[0] <= c[2] ? 0 : (c[1] <= c[2] ? 1 : 2);
            std::array<std::uint32_t, 25> flat{};
            flat[0] = strip_material(m, t.material_index);
            for (int k = 0; k < 3; ++k)
                for (int d = 0; d < 8; ++d) flat[std::size_t(1 + 8 * k + d)] = c[(r + k) % 3][d];
            out.insert(flat);
        }
        return out;
    };
    BOOST_TEST((values(a) == values(b)));
}

BOOST_AUTO_TEST_SUITE_END()
