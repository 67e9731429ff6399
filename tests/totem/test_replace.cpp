// modkit totem replace on the sample: a character replaced from modkit's own export, and from a
// generated FBX/glTF with its own bones and materials.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/sample/totem.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/scene/weights.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/mesh.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/skin.hpp"
#include "libmod/totem/verify.hpp"

#include <bit>
#include <fstream>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

using namespace mod::totem;
using namespace modtest;
namespace sample = mod::sample;

namespace {

const std::string hero_node = "DB:>SAMPLE>CHARACTERS>HERO>HERO.TNODE";

struct Loaded {
    mod::Bytes data;
    Archive archive;
    NameTable names;
    mod::ByteReader reader() const { return mod::ByteReader(data, archive.endian, "dgc", "dgc"); }
    const Record& record(const std::string& name) const { return archive.records.at(*find_record(archive, name_id(name))); }
    std::size_t index(const std::string& name) const { return *find_record(archive, name_id(name)); }
    Mesh mesh(const std::string& name) const { return decode_mesh(payload_reader(reader(), archive, index(name))); }
    Skin skin(const std::string& name) const { return decode_skin(payload_reader(reader(), archive, index(name))); }
};

Loaded load(const fs::path& dgc, const fs::path& ngc) {
    Loaded l;
    l.data = read(dgc);
    l.archive = decode_archive(mod::ByteReader(l.data, detect_byte_order(l.data, platform_from_path(dgc)).endian, dgc.string(), "dgc"));
    const auto n = read(ngc);
    l.names = NameTable::parse(mod::ByteReader(n, mod::Endian::big, ngc.string(), "names"));
    return l;
}

// A triangle as values: corners (position, UV, normal bits), rotated so the smallest comes first.
using Corner = std::array<std::uint32_t, 8>;
using ValueTri = std::array<Corner, 3>;

std::multiset<ValueTri> value_triangles(const Mesh& m, bool gltf_v = false) {
    std::multiset<ValueTri> out;
    for (const auto& t : build_triangles(m)) {
        ValueTri v;
        for (int c = 0; c < 3; ++c) {
            const auto& k = t.corners[c];
            const auto& p = m.positions[k.position];
            const auto& uv = m.texcoords.at(k.texcoord);
            const auto& n = m.normals.at(k.normal);
            const float flipped = 1.0f - uv[1].value();
            const std::uint32_t v_bits = gltf_v ? std::bit_cast<std::uint32_t>(1.0f - flipped) : uv[1].bits;
            v[c] = {p[0].bits, p[1].bits, p[2].bits, uv[0].bits, v_bits, n[0].bits, n[1].bits, n[2].bits};
        }
        const int r = v[0] <= v[1] && v[0] <= v[2] ? 0 : (v[1] <= v[2] ? 1 : 2);
        out.insert({v[r], v[(r + 1) % 3], v[(r + 2) % 3]});
    }
    return out;
}

// Weights of each position value (bits) by group, from the SKIN's lists on `mesh_id`.
std::map<std::array<std::uint32_t, 3>, std::map<std::int32_t, float>> weights_by_position(const Skin& s, std::int32_t mesh_id,
                                                                                           const Mesh& m) {
    std::map<std::array<std::uint32_t, 3>, std::map<std::int32_t, float>> out;
    for (const auto& sec : s.sections)
        for (const auto& sub : sec.subsections)
            if (s.mesh_ids.at(sub.mesh_index) == mesh_id)
                for (const auto& e : sub.vertices) {
                    const auto& p = m.positions.at(e.id);
                    out[{p[0].bits, p[1].bits, p[2].bits}][sec.group_id] += e.weight.value();
                }
    return out;
}

std::size_t mismatches(const Loaded& l) {
    std::size_t n = 0;
    for (const auto& v : verify_archive(l.reader(), l.archive)) {
        BOOST_TEST(v.decoded);
        BOOST_TEST(v.round_trip);
        for (const auto& f : v.findings) n += f.level == Finding::Level::mismatch;
    }
    return n;
}

struct SampleDir {
    TempDir dir;
    fs::path dgc, ngc;
    SampleDir() {
        sample::write_totem_sample(dir.path());
        dgc = dir / "SAMPLE.DGC";
        ngc = dir / "SAMPLE.NGC";
    }
};

void run_ok(const std::vector<std::string>& args) {
    const auto r = run_cli(args);
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_replace)

BOOST_AUTO_TEST_CASE(character_replaced_from_its_own_export) {
    SampleDir s;
    const fs::path glb = s.dir / "hero.glb", r1 = s.dir / "R1.DGC", glb1 = s.dir / "hero1.glb", r2 = s.dir / "R2.DGC";
    run_ok({"totem", "export", s.dgc.string(), s.ngc.string(), sample::totem_skin_seed_name, glb.string()});
    // The user names the character (its NODE), not each record. The unedited export draws what
    // the archive has: a no-op, byte for byte (issue 30 item 4; it rewrote 8,750 bytes before).
    const fs::path r0 = s.dir / "R0.DGC";
    auto same = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), hero_node, glb.string(), r0.string(), "--json"});
    BOOST_TEST_REQUIRE(same.exit_code == 0, same.err);
    BOOST_TEST(same.out.find("\"unchanged\": true") != std::string::npos, same.out);
    BOOST_TEST((read(r0) == read(s.dgc)));
    // --rebuild rebuilds anyway: what a rebuild keeps and changes is checked on that.
    run_ok({"totem", "replace", s.dgc.string(), s.ngc.string(), hero_node, glb.string(), r1.string(), "--rebuild"});
    const Loaded a = load(s.dgc, s.ngc), b = load(r1, s.ngc);

    // Untouched records: byte for byte.
    const std::set<std::string> changed = {sample::totem_body_mesh_name, sample::totem_head_mesh_name,
                                           sample::totem_skin_seed_name, sample::totem_skin_chum_name};
    BOOST_TEST(a.archive.records.size() == b.archive.records.size());
    for (const auto& r : a.archive.records) {
        const auto name = a.names.display(r.name_id);
        const auto j = find_record(b.archive, r.name_id);
        BOOST_REQUIRE(j);
        if (!changed.count(name)) BOOST_TEST((b.archive.records[*j].payload == r.payload), name);
    }
    // Decodes with our readers, verify finds nothing new.
    BOOST_TEST(mismatches(b) == mismatches(a));

    // Same triangles (positions, UVs, normals to the bit, same orientation); same materials;
    // weights within the 1/255 the glTF export quantises them to.
    for (const char* mesh : {sample::totem_body_mesh_name, sample::totem_head_mesh_name}) {
        const Mesh ma = a.mesh(mesh), mb = b.mesh(mesh);
        // The glTF export stores V as 1 - v (float): a V below 0.5 comes back as 1 - (1 - v),
        // within one ulp; that is the format's precision, and what the original is compared at.
        BOOST_TEST((value_triangles(ma, true) == value_triangles(mb)), mesh);
        BOOST_TEST((ma.materials == mb.materials));
        BOOST_TEST((ma.header.matrix == mb.header.matrix));
        BOOST_TEST((ma.strip_groups.has_value() == mb.strip_groups.has_value()));
        BOOST_TEST(ma.spheres.size() == mb.spheres.size());
        BOOST_TEST(check_mesh(mb).empty());
        for (const char* skin : {sample::totem_skin_seed_name, sample::totem_skin_chum_name}) {
            const Skin sa = a.skin(skin), sb = b.skin(skin);
            if (std::find(sa.mesh_ids.begin(), sa.mesh_ids.end(), name_id(mesh)) == sa.mesh_ids.end()) continue;
            const auto wa = weights_by_position(sa, name_id(mesh), ma), wb = weights_by_position(sb, name_id(mesh), mb);
            BOOST_TEST(wa.size() == wb.size());
            for (const auto& [p, groups] : wa) {
                BOOST_REQUIRE(wb.count(p));
                for (const auto& [g, w] : groups) {
                    const auto it = wb.at(p).find(g);
                    const float got = it == wb.at(p).end() ? 0.0f : it->second;
                    BOOST_TEST(std::fabs(got - w) <= 1.0f / 255.0f + 1e-6f);
                }
            }
            // Kept: groups, their order, the anims and the zero2 reading.
            BOOST_TEST(sa.sections.size() == sb.sections.size());
            for (std::size_t i = 0; i < sa.sections.size(); ++i) BOOST_TEST(sa.sections[i].group_id == sb.sections[i].group_id);
            BOOST_TEST((sa.anims == sb.anims));
            BOOST_TEST((sa.reading == sb.reading));
        }
    }

    // An export of the result matches the source: the same triangles, vertex values to the bit.
    run_ok({"totem", "export", r1.string(), s.ngc.string(), sample::totem_skin_seed_name, glb1.string()});
    mod::scene::ImportOptions in_process;
    in_process.contained = false;
    const auto src = mod::scene::import_file(glb, in_process), back = mod::scene::import_file(glb1, in_process);
    auto scene_tris = [](const mod::scene::Scene& sc) {
        std::multiset<std::tuple<std::string, std::array<std::uint32_t, 9>>> out;
        for (const auto& m : sc.meshes)
            for (const auto& t : m.triangles) {
                std::array<std::array<std::uint32_t, 3>, 3> c;
                for (int k = 0; k < 3; ++k)
                    for (int d = 0; d < 3; ++d) c[k][d] = std::bit_cast<std::uint32_t>(m.positions[t[k]][d]);
                const int r = c[0] <= c[1] && c[0] <= c[2] ? 0 : (c[1] <= c[2] ? 1 : 2);
                std::array<std::uint32_t, 9> flat;
                for (int k = 0; k < 3; ++k)
                    for (int d = 0; d < 3; ++d) flat[k * 3 + d] = c[(r + k) % 3][d];
                out.emplace(m.name, flat);
            }
        return out;
    };
    BOOST_TEST((scene_tris(src) == scene_tris(back)));

    // Rebuilding again from the result's own export is a fixpoint: the same archive, byte for byte.
    run_ok({"totem", "replace", r1.string(), s.ngc.string(), hero_node, glb1.string(), r2.string(), "--rebuild"});
    BOOST_TEST((read(r2) == read(r1)));
}

// The no-op is only for a source that draws what the archive has: one vertex moved by 0.01, or
// one vertex's weights moved from one group to another, rebuilds (issue 30 item 4).
BOOST_AUTO_TEST_CASE(an_edited_export_is_rebuilt) {
    SampleDir s;
    const fs::path glb = s.dir / "hero.glb";
    run_ok({"totem", "export", s.dgc.string(), s.ngc.string(), sample::totem_skin_seed_name, glb.string()});
    mod::scene::ImportOptions in_process;
    in_process.contained = false;
    const auto base = mod::scene::import_file(glb, in_process);
    auto moved = base;
    BOOST_REQUIRE(!moved.meshes.empty() && !moved.meshes[0].positions.empty());
    moved.meshes[0].positions[0][0] += 0.01f;
    auto reweighted = base;
    {
        // Every vertex at vertex 0's position (a MESH position is one weight, seams or not):
        // all of its weight to a bone other than its main one.
        const auto at = reweighted.meshes[0].positions[0];
        std::size_t changed = 0;
        for (auto& m : reweighted.meshes)
            for (std::size_t v = 0; v < m.positions.size() && v < m.influences.size(); ++v) {
                if (m.positions[v] != at) continue;
                auto inf = m.influences[v];
                BOOST_REQUIRE(!inf.empty());
                std::size_t largest = 0;
                for (std::size_t k = 1; k < inf.size(); ++k)
                    if (inf[k].weight > inf[largest].weight) largest = k;
                const std::uint32_t other = inf[largest].bone == 0 ? 1 : 0;
                for (auto& i : inf) i.bone = other;  // all of its weight to one other bone
                ++changed;
            }
        BOOST_TEST_REQUIRE(changed >= 1u);
        mod::scene::process_weights(reweighted);  // the skin bytes the writer stores
    }
    int n = 0;
    for (const auto* sc : {&moved, &reweighted}) {
        const fs::path edited = s.dir / ("edited" + std::to_string(n) + ".glb"), out = s.dir / ("E" + std::to_string(n) + ".DGC");
        mod::scene::export_file(*sc, edited);
        const auto r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), hero_node, edited.string(), out.string(), "--json"});
        BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
        BOOST_TEST(r.out.find("\"unchanged\": false") != std::string::npos, r.out);
        BOOST_TEST(!(read(out) == read(s.dgc)), "edit " << n);
        ++n;
    }
}

BOOST_AUTO_TEST_CASE(generated_fbx_and_gltf_sources_by_group_name) {
    SampleDir s;
    // A 4 × 4 grid in the x-y plane (counter-clockwise seen from +z), bones named like the
    // SKIN's groups: weight of HERO_SPINE = y / 4, HERO_PELVIS the rest.
    mod::scene::Scene sc;
    sc.source = "generated";
    for (const char* b : {"HERO_PELVIS", "HERO_SPINE"}) {
        mod::scene::Bone bone;
        bone.name = b;
        sc.skeleton.bones.push_back(bone);
    }
    mod::scene::derive_bone_matrices(sc.skeleton);
    sc.materials = {"DB:>SAMPLE>MATERIALS>CLOTH.TMAT"};
    mod::scene::Mesh m;
    m.name = "new body";
    const int n = 4;
    for (int y = 0; y <= n; ++y)
        for (int x = 0; x <= n; ++x) {
            m.positions.push_back({float(x) * 0.25f, float(y) * 0.5f, 0.0f});
            m.normals.push_back({0, 0, 1});
            m.tangents.push_back({1, 0, 0, 1});
            m.uv0.push_back({float(x) / n, float(y) / n});
            m.uv1.push_back(m.uv0.back());
            const float spine = float(y) / n;
            std::vector<mod::scene::Influence> inf;
            if (spine < 1) inf.push_back({0, 1 - spine});
            if (spine > 0) inf.push_back({1, spine});
            m.influences.push_back(std::span<const mod::scene::Influence>(inf));
        }
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const std::uint32_t a = std::uint32_t(y * (n + 1) + x), b = a + 1, c = a + n + 1, d = c + 1;
            m.triangles.push_back({a, b, d});
            m.triangles.push_back({a, d, c});
        }
    sc.meshes.push_back(m);

    for (const char* ext : {".fbx", ".glb"}) {
        const fs::path src = s.dir / (std::string("gen") + ext), out = s.dir / (std::string("OUT") + ext + ".DGC");
        mod::scene::export_file(sc, src);
        // The ALT SKIN moves only the body: every source mesh goes into it.
        run_ok({"totem", "replace", s.dgc.string(), s.ngc.string(), sample::totem_skin_chum_name, src.string(), out.string()});
        const Loaded b = load(out, s.ngc);
        const Mesh body = b.mesh(sample::totem_body_mesh_name);
        BOOST_TEST(check_mesh(body).empty());
        // 25 positions (distinct weights per row), the CLOTH material. The body has subtype 4 and
        // the source does not use SKIN.TMAT (the list's first): the list is reordered so CLOTH
        // comes first and both public strip-index rules read it (totem-mesh.md, issue 33).
        BOOST_TEST(body.positions.size() == 25u);
        BOOST_TEST((body.materials == std::vector<std::int32_t>{name_id("DB:>SAMPLE>MATERIALS>CLOTH.TMAT"),
                                                               name_id("DB:>SAMPLE>MATERIALS>SKIN.TMAT")}));
        const auto tris = build_triangles(body);
        BOOST_TEST(tris.size() == 32u);
        for (const auto& t : tris) {
            BOOST_TEST(t.material_index == 0u);
            BOOST_TEST(strip_material_noclip(body, t.material_index) == 0u);
            // Game order (0, 1, 2) is the source's (0, 2, 1): clockwise seen from +z.
            auto p = [&](int c) { return body.positions[t.corners[c].position]; };
            const double cz = (p(1)[0].value() - p(0)[0].value()) * (p(2)[1].value() - p(0)[1].value()) -
                              (p(1)[1].value() - p(0)[1].value()) * (p(2)[0].value() - p(0)[0].value());
            BOOST_TEST(cz < 0);
        }
        // Weights by group name, within the 1/255 the export quantises to; other groups emptied.
        for (const char* skin : {sample::totem_skin_chum_name, sample::totem_skin_seed_name}) {
            const Skin sk = b.skin(skin);
            const auto w = weights_by_position(sk, name_id(sample::totem_body_mesh_name), body);
            BOOST_TEST(w.size() == 25u);
            for (const auto& [bits, groups] : w) {
                const float y = std::bit_cast<float>(bits[1]);
                const float spine = y / 2.0f;
                BOOST_TEST(groups.size() == std::size_t(spine > 0 && spine < 1 ? 2 : 1));
                for (const auto& [g, x] : groups) {
                    BOOST_TEST((g == name_id("HERO_PELVIS") || g == name_id("HERO_SPINE")));
                    const float want = g == name_id("HERO_SPINE") ? spine : 1 - spine;
                    BOOST_TEST(std::fabs(x - want) <= 1.0f / 255.0f + 1e-6f);
                }
            }
        }
        // Bounding sphere: the grid spans x 0..1, y 0..2: centre (0.5, 1, 0), radius sqrt(1.25).
        BOOST_REQUIRE(body.spheres.size() == 1u);
        BOOST_TEST(body.spheres[0].centre[0].value() == 0.5f);
        BOOST_TEST(body.spheres[0].centre[1].value() == 1.0f);
        BOOST_TEST(std::fabs(body.spheres[0].radius.value() - std::sqrt(1.25)) < 1e-6);
        BOOST_TEST(mismatches(b) == 0u);
    }

    // A bone that maps to no vertex group: an error naming it with its weight; a bone map fixes it.
    sc.skeleton.bones[1].name = "Spine";
    const fs::path src = s.dir / "renamed.glb", out = s.dir / "OUT_MAP.DGC", map = s.dir / "bones.txt";
    mod::scene::export_file(sc, src);
    const auto r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), sample::totem_skin_chum_name,
                            src.string(), out.string()});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.err.find("Spine") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(out));
    {
        std::ofstream f(map);
        f << "Spine = HERO_SPINE\n";
    }
    run_ok({"totem", "replace", s.dgc.string(), s.ngc.string(), sample::totem_skin_chum_name, src.string(), out.string(),
            "--bone-map", map.string()});

    // A material the MESH does not know and the archive has no record for: taken by order onto
    // the MESH's own first material (issue 29), said in a warning and in the pairings.
    sc.skeleton.bones[1].name = "HERO_SPINE";
    sc.materials = {"Material.001"};
    const fs::path bad = s.dir / "badmat.glb";
    mod::scene::export_file(sc, bad);
    auto rm = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), sample::totem_skin_chum_name, bad.string(),
                       (s.dir / "OUT_ORDER.DGC").string()});
    BOOST_TEST(rm.exit_code == 0, rm.err);
    BOOST_TEST(rm.err.find("taken by order of first use") != std::string::npos, rm.err);
    const Mesh old_body = load(s.dgc, s.ngc).mesh(sample::totem_body_mesh_name);
    BOOST_TEST(rm.out.find("source material 'Material.001' -> " + load(s.dgc, s.ngc).names.display(old_body.materials.at(0)) +
                           " (order, MESH ") != std::string::npos, rm.out);
    // A material map naming a record that is no material: refused (usage), naming it.
    {
        std::ofstream f(s.dir / "mat.txt");
        f << "Material.001 = DB:>NO>SUCH.TMAT\n";
    }
    rm = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), sample::totem_skin_chum_name, bad.string(),
                  (s.dir / "OUT_BAD.DGC").string(), "--material-map", (s.dir / "mat.txt").string()});
    BOOST_TEST(rm.exit_code == 1, rm.err);
    BOOST_TEST(rm.err.find("DB:>NO>SUCH.TMAT") != std::string::npos, rm.err);
    BOOST_TEST(!fs::exists(s.dir / "OUT_BAD.DGC"));
}

// Issue 29 item 3, the size rule and units on TotemTech (../shared/reference/real-clients-t3.md
// §3.2: Blender's default FBX became a hero 100x too large, exit 0, no warning). A Blender-like
// FBX is made here from modkit's own export: positions x100 and UnitScaleFactor 1 (centimetres).
BOOST_AUTO_TEST_CASE(centimetre_fbx_comes_out_the_right_size_and_100x_is_refused) {
    SampleDir s;
    const fs::path glb = s.dir / "hero.glb", fbx = s.dir / "hero_cm.fbx";
    run_ok({"totem", "export", s.dgc.string(), s.ngc.string(), sample::totem_skin_seed_name, glb.string()});
    mod::scene::Scene sc = mod::scene::import_file(glb);
    for (auto& m : sc.meshes)
        for (auto& p : m.positions)
            for (auto& c : p) c *= 100.0f;
    mod::scene::export_file(sc, fbx);
    // modkit's FBX writer declares metres (UnitScaleFactor 100); make it Blender's centimetres.
    const mod::Bytes bytes = read(fbx);
    std::string text(bytes.begin(), bytes.end());
    const std::size_t at = text.find("\"UnitScaleFactor\"");
    BOOST_REQUIRE(at != std::string::npos);
    const std::size_t eol = text.find('\n', at), comma = text.rfind(',', eol);
    BOOST_REQUIRE(text.substr(comma + 1, 3) == "100");
    text.replace(comma + 1, 3, "1");
    mod::write_file_atomic(fbx, text);

    const Loaded a = load(s.dgc, s.ngc);
    const auto box_of = [](const Mesh& m) {
        std::array<float, 6> b{1e30f, 1e30f, 1e30f, -1e30f, -1e30f, -1e30f};
        for (const auto& p : m.positions)
            for (int i = 0; i < 3; ++i) {
                b[i] = std::min(b[i], p[i].value());
                b[3 + i] = std::max(b[3 + i], p[i].value());
            }
        return b;
    };
    const auto before = box_of(a.mesh(sample::totem_body_mesh_name));
    // Default (--units metres): the declared centimetres are converted, the body keeps its size.
    const fs::path out = s.dir / "CM.DGC";
    run_ok({"totem", "replace", s.dgc.string(), s.ngc.string(), hero_node, fbx.string(), out.string()});
    const auto after = box_of(load(out, s.ngc).mesh(sample::totem_body_mesh_name));
    for (int i = 0; i < 6; ++i) BOOST_TEST(std::fabs(after[i] - before[i]) < 1e-4f, i << ": " << after[i] << " vs " << before[i]);
    // --units file keeps the numbers: 100x, refused (exit 3) with the fix for an FBX, nothing written.
    const fs::path refused = s.dir / "REFUSED.DGC";
    auto r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), hero_node, fbx.string(), refused.string(), "--units",
                      "file"});
    BOOST_TEST(r.exit_code == 3, r.err);
    for (const char* word : {"100 times larger", "declares 1 unit = 0.01 m", "--units metres", "--allow-scale-change"})
        BOOST_TEST(r.err.find(word) != std::string::npos, word << " in " << r.err);
    BOOST_TEST(!fs::exists(refused));
    // A glTF scaled 100x by --scale 100 (glTF is metres by definition): refused, the fix is --scale 1;
    // allowed, it is written with the same text as a warning.
    r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), hero_node, glb.string(), refused.string(), "--scale", "100"});
    BOOST_TEST(r.exit_code == 3, r.err);
    BOOST_TEST(r.err.find("glTF positions are metres") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("--scale 1 instead of 100") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(refused));
    r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), hero_node, glb.string(), refused.string(), "--scale", "100",
                 "--allow-scale-change"});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("100 times larger") != std::string::npos, r.err);
    const auto big = box_of(load(refused, s.ngc).mesh(sample::totem_body_mesh_name));
    BOOST_TEST(std::fabs(big[4] - 100.0f * before[4]) < 1e-3f * std::fabs(100.0f * before[4]) + 1e-3f);
}

// Issue 29 item 1: a source whose meshes and materials are named like nothing in the archive
// (a fox: "fox0", "fox_material0") goes in through mesh and material maps, giving the same
// archive as the names would; the result lists every pairing. Bad maps: one clear line.
BOOST_AUTO_TEST_CASE(foreign_names_through_mesh_and_material_maps) {
    SampleDir s;
    const fs::path glb = s.dir / "hero.glb", fox = s.dir / "fox.glb", r1 = s.dir / "R1.DGC", r2 = s.dir / "R2.DGC";
    run_ok({"totem", "export", s.dgc.string(), s.ngc.string(), sample::totem_skin_seed_name, glb.string()});
    run_ok({"totem", "replace", s.dgc.string(), s.ngc.string(), hero_node, glb.string(), r1.string()});
    mod::scene::Scene sc = mod::scene::import_file(glb);
    std::string mesh_map, material_map;
    for (std::size_t k = 0; k < sc.meshes.size(); ++k) {
        const std::string name = sc.meshes[k].name;
        mesh_map += "fox" + std::to_string(k) + " = " + name.substr(0, name.find('/')) + "\n";
        sc.meshes[k].name = "fox" + std::to_string(k);
    }
    for (std::size_t j = 0; j < sc.materials.size(); ++j) {
        material_map += "fox_material" + std::to_string(j) + " = " + sc.materials[j] + "\n";
        sc.materials[j] = "fox_material" + std::to_string(j);
    }
    mod::scene::export_file(sc, fox);
    mod::write_file_atomic(s.dir / "meshes.txt", mesh_map);
    mod::write_file_atomic(s.dir / "materials.txt", material_map);
    // Without maps the names decide nothing.
    auto r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), hero_node, fox.string(), r2.string()});
    BOOST_TEST_MESSAGE("without maps: exit " << r.exit_code << ": " << r.err);
    if (sc.meshes.size() != 2) {  // more source meshes than MESHes: not by order
        BOOST_TEST(r.exit_code == 2, r.err);
        BOOST_TEST(r.err.find("--mesh-map") != std::string::npos, r.err);
        BOOST_TEST(!fs::exists(r2));
    }
    // With both maps: the same archive as the original names give, every pairing printed.
    fs::remove(r2);
    r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), hero_node, fox.string(), r2.string(), "--mesh-map",
                 (s.dir / "meshes.txt").string(), "--material-map", (s.dir / "materials.txt").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST((read(r2) == read(r1)));
    for (std::size_t k = 0; k < sc.meshes.size(); ++k)
        BOOST_TEST(r.out.find("source mesh 'fox" + std::to_string(k) + "' -> MESH ") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("(mesh map)") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("(material map, MESH ") != std::string::npos, r.out);
    // A map naming a record that is not one of the character's MESHes: usage, named, nothing written.
    mod::write_file_atomic(s.dir / "bad.txt", std::string_view("fox0 = DB:>NOPE.TMESH\n"));
    const fs::path r3 = s.dir / "R3.DGC";
    r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), hero_node, fox.string(), r3.string(), "--mesh-map",
                 (s.dir / "bad.txt").string()});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(r.err.find("'DB:>NOPE.TMESH', which is not one of the 2 MESHes") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(r3));
}

// By order: two source meshes named after nothing onto the two MESHes of the HERO node, and a
// source material named after nothing onto the MESH's own material (warnings say so).
BOOST_AUTO_TEST_CASE(foreign_names_by_order) {
    SampleDir s;
    const fs::path glb = s.dir / "hero.glb", fox = s.dir / "fox.glb", r1 = s.dir / "R1.DGC", r2 = s.dir / "R2.DGC";
    run_ok({"totem", "export", s.dgc.string(), s.ngc.string(), sample::totem_skin_seed_name, glb.string()});
    mod::scene::Scene sc = mod::scene::import_file(glb);
    // One source mesh per MESH, in the MESHes' order (body, head), one material each.
    std::map<std::string, mod::scene::Mesh> by_target;
    std::vector<std::string> order;
    for (const auto& m : sc.meshes) {
        const std::string t = m.name.substr(0, m.name.find('/'));
        if (!by_target.count(t)) {
            order.push_back(t);
            by_target[t] = m;
        }
    }
    BOOST_REQUIRE(order.size() == 2u);
    mod::scene::Scene two = sc;
    two.meshes.clear();
    for (const auto& t : order) two.meshes.push_back(by_target[t]);
    mod::scene::Scene named = two;
    mod::scene::export_file(named, s.dir / "named.glb");
    for (std::size_t k = 0; k < two.meshes.size(); ++k) two.meshes[k].name = "fox" + std::to_string(k);
    for (auto& m : two.materials) m = "fox_" + m.substr(m.rfind('>') + 1);
    mod::scene::export_file(two, fox);
    run_ok({"totem", "replace", s.dgc.string(), s.ngc.string(), hero_node, (s.dir / "named.glb").string(), r1.string()});
    const auto r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), hero_node, fox.string(), r2.string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("went into the MESHes by order") != std::string::npos, r.err);
    BOOST_TEST(r.out.find("source mesh 'fox0' -> MESH " + order[0] + " (order)") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("source mesh 'fox1' -> MESH " + order[1] + " (order)") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("(order, MESH ") != std::string::npos, r.out);
    BOOST_TEST(r.err.find("taken by order of first use") != std::string::npos, r.err);
    // The MESHes' own materials taken by order are the ones the names gave.
    const Loaded a = load(r1, s.ngc), b = load(r2, s.ngc);
    for (const auto& t : order) BOOST_TEST((a.mesh(t).materials == b.mesh(t).materials), t);
}

// Issue 29 item 5 (../shared/reference/real-clients-t3.md §3.1): CRATE's own unedited export was
// refused ("CRATE_LID.TSKIN: weights name vertex group(s) the SKIN has no section for"). Two
// SKINs list CRATE.TMESH: the export's weights belong to CRATE.TSKIN's groups, and
// CRATE_LID.TSKIN's CRATE_HINGE (not in the export) keeps its weights on the same positions.
BOOST_AUTO_TEST_CASE(crate_replaced_from_its_own_export) {
    SampleDir s;
    const std::string crate_node = "DB:>SAMPLE>PROPS>CRATE.TNODE", lid_skin = "DB:>SAMPLE>PROPS>CRATE_LID.TSKIN";
    const fs::path glb = s.dir / "crate.glb", out = s.dir / "CRATE.DGC";
    run_ok({"totem", "export", s.dgc.string(), s.ngc.string(), sample::totem_skin_plain_name, glb.string()});
    const auto r = run_cli({"totem", "replace", s.dgc.string(), s.ngc.string(), crate_node, glb.string(), out.string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("group CRATE_HINGE has no weight in the source: 7 old vertex weight(s) kept") != std::string::npos,
               r.out);
    BOOST_TEST(r.out.find("group CRATE_ROOT is stored by another SKIN listing the MESH") != std::string::npos, r.out);
    const Loaded a = load(s.dgc, s.ngc), b = load(out, s.ngc);
    BOOST_TEST(mismatches(b) == mismatches(a));
    // Every SKIN's weights, by position value, are what they were: within the export's 1/255
    // weight bytes for CRATE.TSKIN (glTF WEIGHTS_0 from the processed weights), exactly for the
    // carried CRATE_HINGE of CRATE_LID.TSKIN.
    const std::int32_t crate = name_id(sample::totem_crate_mesh_name);
    for (const std::string skin : {std::string(sample::totem_skin_plain_name), lid_skin}) {
        const float tolerance = skin == lid_skin ? 0.0f : 0.5f / 255.0f + 1e-6f;
        const auto before = weights_by_position(a.skin(skin), crate, a.mesh(sample::totem_crate_mesh_name));
        const auto after = weights_by_position(b.skin(skin), crate, b.mesh(sample::totem_crate_mesh_name));
        BOOST_TEST(before.size() == after.size(), skin);
        for (const auto& [pos, groups] : before) {
            const auto it = after.find(pos);
            BOOST_TEST_REQUIRE((it != after.end()), skin);
            for (const auto& [g, w] : groups)
                BOOST_TEST(std::fabs(it->second.at(g) - w) <= tolerance, skin << " " << w << " -> " << it->second.at(g));
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
