// Import of generated FBX/glTF fixtures and of the two real FBX files of the shared corpus.
#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/scene/import.hpp"
#include "libmod/scene/validate.hpp"
#include "libmod/scene/weights.hpp"
#include "libmod/scene/weld.hpp"
#include "libmod/core/file.hpp"

#include <cmath>
#include <cstring>
#include <map>
#include <set>

using namespace mod::scene;
using scenetest::FixtureSpec;

namespace {

float sum_of(std::span<const Influence> list) {
    float s = 0;
    for (const auto& i : list) s += i.weight;
    return s;
}

// Every imported vertex matches a fixture vertex (by baked position) and carries the same
// influences, by bone name, as the fixture wrote.
void check_against_fixture(const Scene& scene, const scenetest::Fixture& f, float position_scale) {
    BOOST_TEST_REQUIRE(scene.meshes.size() == 1u);
    const Mesh& m = scene.meshes[0];
    BOOST_TEST_REQUIRE(m.influences.size() == m.vertex_count());
    for (std::size_t v = 0; v < m.vertex_count(); ++v) {
        Vec3 p = m.positions[v];
        for (auto& c : p) c /= position_scale;
        auto [fv, d] = scenetest::nearest_vertex(f, p);
        BOOST_TEST_REQUIRE(d < 1e-3f);
        std::map<std::string, float> expected(f.vertices[fv].influences.begin(), f.vertices[fv].influences.end());
        std::map<std::string, float> got;
        for (const auto& inf : m.influences[v]) got[scene.skeleton.bones[inf.bone].name] += inf.weight;
        BOOST_TEST_REQUIRE(got.size() == expected.size());
        for (const auto& [name, w] : expected) {
            BOOST_TEST_REQUIRE(got.count(name) == 1u);
            BOOST_TEST(std::abs(got[name] - w) < 1e-5f);
        }
    }
}

// Fraction of triangles whose winding (counter-clockwise) agrees with their vertex normals.
double winding_agreement(const Mesh& m) {
    std::size_t agree = 0;
    for (const auto& t : m.triangles) {
        const auto &a = m.positions[t[0]], &b = m.positions[t[1]], &c = m.positions[t[2]];
        double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        double d = 0;
        for (auto v : t)
            for (int i = 0; i < 3; ++i) d += n[i] * m.normals[v][i];
        if (d > 0) ++agree;
    }
    return m.triangles.empty() ? 0.0 : double(agree) / double(m.triangles.size());
}

std::map<std::size_t, std::size_t> influence_histogram(const Mesh& m) {
    std::map<std::size_t, std::size_t> h;
    for (const auto& list : m.influences) ++h[list.size()];
    return h;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_import)

BOOST_AUTO_TEST_CASE(generated_tangents_follow_each_corners_own_normal) {
    // Consecutive corners whose normals differ in one component only (x, y, z, or a sign bit):
    // the converter and the tangent generator reuse work for repeated normal bits, so a
    // comparison that looked at part of the normal would orthogonalise against the previous
    // corner's. Every generated tangent must be unit, perpendicular to its own normal, and its
    // sign must match the triangle's UV handedness (computed here directly).
    const char* obj =
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 2 0 0\nv 3 0 0\nv 2 1 0\n"
        "vt 0 0\nvt 1 0\nvt 0 1\nvt 0 0\nvt 0 1\nvt 1 0\n"
        "vn 0.6 0 0.8\nvn 0.6 0 -0.8\nvn 0.6 0.3 -0.8\nvn -0.6 0.3 -0.8\nvn -0.6 0.3 0.8\nvn -0.6 -0.3 0.8\n"
        "f 1/1/1 2/2/2 3/3/3\nf 4/4/4 5/5/5 6/6/6\n";
    const mod::Bytes bytes(obj, obj + std::strlen(obj));
    const Scene scene = import_memory(bytes, "corners.obj");
    BOOST_TEST_REQUIRE(scene.meshes.size() == 1u);
    const Mesh& m = scene.meshes[0];
    BOOST_TEST_REQUIRE(m.vertex_count() == 6u);
    BOOST_TEST_REQUIRE(m.tangents.size() == 6u);
    // Each corner keeps its own normal's direction (the file's; corners in face order).
    const double file_normals[6][3] = {{0.6, 0, 0.8},    {0.6, 0, -0.8},   {0.6, 0.3, -0.8},
                                       {-0.6, 0.3, -0.8}, {-0.6, 0.3, 0.8}, {-0.6, -0.3, 0.8}};
    for (std::size_t v = 0; v < 6; ++v) {
        const double* f = file_normals[v];
        const double length = std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        const auto& n = m.normals[v];
        const double stored = std::sqrt(double(n[0]) * n[0] + double(n[1]) * n[1] + double(n[2]) * n[2]);
        for (int i = 0; i < 3; ++i) BOOST_TEST(std::abs(n[i] / stored - f[i] / length) < 1e-6, "vertex " << v);
    }
    // Under an axis conversion the normals are transformed corner by corner (repeated bits
    // reuse the previous result): a rotation keeps the angle between consecutive corners.
    ImportOptions rotated;
    rotated.axes = parse_axis_map("zup-to-yup");
    const Mesh r = import_memory(bytes, "corners.obj", rotated).meshes.at(0);
    auto unit_dot = [](const Vec3& a, const Vec3& b) {
        const double la = std::sqrt(double(a[0]) * a[0] + double(a[1]) * a[1] + double(a[2]) * a[2]);
        const double lb = std::sqrt(double(b[0]) * b[0] + double(b[1]) * b[1] + double(b[2]) * b[2]);
        return (double(a[0]) * b[0] + double(a[1]) * b[1] + double(a[2]) * b[2]) / (la * lb);
    };
    for (std::size_t v = 1; v < 6; ++v)
        BOOST_TEST(std::abs(unit_dot(r.normals[v], r.normals[v - 1]) - unit_dot(m.normals[v], m.normals[v - 1])) < 1e-6,
                   "vertex " << v);
    for (std::size_t v = 0; v < 6; ++v) BOOST_TEST(std::abs(unit_dot(r.normals[v], {r.tangents[v][0], r.tangents[v][1], r.tangents[v][2]})) < 1e-5);
    for (std::size_t t = 0; t < m.triangles.size(); ++t) {
        const auto& tri = m.triangles[t];
        // The direction of increasing v on the triangle (the standard UV-derivative solve).
        const auto& p0 = m.positions[tri[0]];
        const auto& p1 = m.positions[tri[1]];
        const auto& p2 = m.positions[tri[2]];
        const auto& a = m.uv0[tri[0]];
        const auto& b = m.uv0[tri[1]];
        const auto& c = m.uv0[tri[2]];
        const double du1 = double(b[0]) - a[0], dv1 = double(b[1]) - a[1];
        const double du2 = double(c[0]) - a[0], dv2 = double(c[1]) - a[1];
        const double r = 1 / (du1 * dv2 - du2 * dv1);
        double vdir[3];
        for (int i = 0; i < 3; ++i)
            vdir[i] = ((double(p2[i]) - p0[i]) * du1 - (double(p1[i]) - p0[i]) * du2) * r;
        for (auto v : tri) {
            const auto& n = m.normals[v];
            const auto& tg = m.tangents[v];
            const double dot = double(n[0]) * tg[0] + double(n[1]) * tg[1] + double(n[2]) * tg[2];
            const double length = std::sqrt(double(tg[0]) * tg[0] + double(tg[1]) * tg[1] + double(tg[2]) * tg[2]);
            BOOST_TEST(std::abs(dot) < 1e-5, "vertex " << v << " tangent . normal = " << dot);
            BOOST_TEST(std::abs(length - 1) < 1e-5);
            // The sign: whether v runs along cross(normal, tangent).
            const double bitangent[3] = {double(n[1]) * tg[2] - double(n[2]) * tg[1], double(n[2]) * tg[0] - double(n[0]) * tg[2],
                                         double(n[0]) * tg[1] - double(n[1]) * tg[0]};
            const double along = bitangent[0] * vdir[0] + bitangent[1] * vdir[1] + bitangent[2] * vdir[2];
            const double expected = along < 0 ? -1.0 : 1.0;
            BOOST_TEST(tg[3] == expected, "vertex " << v);
        }
    }
}

BOOST_AUTO_TEST_CASE(fbxa_fixture_keeps_more_than_four_unnormalised_influences_by_name) {
    modtest::TempDir dir;
    FixtureSpec spec;
    auto f = scenetest::make_fixture(spec);
    scenetest::write_fixture(f, spec, dir / "six.fbx");
    Scene s = import_file(dir / "six.fbx");
    BOOST_TEST(s.format == "fbx");
    BOOST_TEST_REQUIRE(s.file_unit_metres.has_value());
    BOOST_TEST(*s.file_unit_metres == 0.01);
    // Assimp's writer declares centimetres: the default (Units::metres) converts them.
    BOOST_TEST(s.units_converted);
    check_against_fixture(s, f, 0.01f);
    // Influence counts 1..6 all present, and sums are not 1 (nothing normalised them).
    std::map<std::size_t, std::size_t> counts;
    bool unnormalised = false;
    for (const auto& list : s.meshes[0].influences) {
        ++counts[list.size()];
        if (std::abs(sum_of(list) - 1.0f) > 1e-3f) unnormalised = true;
    }
    BOOST_TEST(counts.size() == 6u);
    BOOST_TEST(counts.rbegin()->first == 6u);
    BOOST_TEST(unnormalised);
    // Every joint is in the skeleton, the idle leaf too, and parents come first.
    for (const auto& name : f.bone_names) BOOST_TEST(s.skeleton.find(name).has_value(), name);
    for (std::size_t b = 0; b < s.skeleton.bones.size(); ++b) BOOST_TEST(s.skeleton.bones[b].parent < int(b));
    check_mesh(s.meshes[0], "fixture", {s.skeleton.bones.size(), false});
}

BOOST_AUTO_TEST_CASE(corpus_huesitos_nine_bones_up_to_four_influences) {
    ImportOptions file_units;  // the file's own numbers
    file_units.units = Units::file;
    Scene s = import_file(modtest::corpus("fbx/huesitos.fbx"), file_units);
    BOOST_TEST(!s.units_converted);
    BOOST_TEST_REQUIRE(s.meshes.size() == 1u);
    const Mesh& m = s.meshes[0];
    BOOST_TEST(m.vertex_count() == 256u);  // one vertex per triangle corner before welding
    BOOST_TEST(m.triangles.size() == 120u);
    // Blender file: x100 and -90 degrees about X on the nodes; FBX unit centimetres.
    BOOST_TEST_REQUIRE(s.file_unit_metres.has_value());
    BOOST_TEST(*s.file_unit_metres == 0.01);
    BOOST_TEST_REQUIRE(s.file_up_axis.has_value());
    BOOST_TEST(s.file_up_axis->first == 1);
    auto h = influence_histogram(m);
    BOOST_TEST(h[1] == 60u);
    BOOST_TEST(h[2] == 72u);
    BOOST_TEST(h[3] == 56u);
    BOOST_TEST(h[4] == 68u);
    std::set<std::uint32_t> weighted;
    for (const auto& list : m.influences)
        for (const auto& inf : list)
            if (inf.weight > 0) weighted.insert(inf.bone);
    BOOST_TEST(weighted.size() == 8u);  // Bone.005 is a bone of the mesh with no weight
    for (const char* n : {"Bone", "Bone.001", "Bone.002", "Bone.003", "Bone.004", "Bone.005", "Bone.006", "Bone.007",
                          "Bone.008", "Bone.006_end", "Bone.008_end"})
        BOOST_TEST(s.skeleton.find(n).has_value(), n);
    BOOST_TEST(!s.skeleton.find("Lamp").has_value());
    BOOST_TEST(!s.skeleton.find("Cylinder").has_value());
    // The bind matrices agree with the node pose (the file was saved in bind pose).
    BOOST_TEST(s.warnings.empty());
    // Baked x100 node scale: the cylinder is several hundred units tall, faces stay outward.
    auto box = bounding_box(m);
    BOOST_TEST(box.max[1] - box.min[1] > 100.0f);
    BOOST_TEST(winding_agreement(m) > 0.95);
    // Units::metres (the default) applies the file's own unit (0.01 m).
    auto box_m = bounding_box(import_file(modtest::corpus("fbx/huesitos.fbx")).meshes[0]);
    BOOST_TEST(std::abs((box_m.max[1] - box_m.min[1]) * 100 - (box.max[1] - box.min[1])) < 1e-2f);
}

BOOST_AUTO_TEST_CASE(corpus_animation_with_skeleton_fourteen_bones_up_to_six_influences) {
    Scene s = import_file(modtest::corpus("fbx/animation_with_skeleton.fbx"));
    BOOST_TEST_REQUIRE(s.meshes.size() == 1u);
    const Mesh& m = s.meshes[0];
    BOOST_TEST(m.vertex_count() == 4224u);
    auto h = influence_histogram(m);
    BOOST_TEST(h[3] == 628u);
    BOOST_TEST(h[4] == 713u);
    BOOST_TEST(h[5] == 1983u);
    BOOST_TEST(h[6] == 900u);
    for (int b = 0; b < 14; ++b) {
        std::string n = b == 0 ? "Bone" : "Bone." + std::string(b < 10 ? "00" : "0") + std::to_string(b);
        BOOST_TEST(s.skeleton.find(n).has_value(), n);
    }
    // Two chains under the armature: the armature null is their common root.
    BOOST_TEST(s.skeleton.find("Armature").has_value());
    BOOST_TEST(s.skeleton.bones[0].parent == -1);
    // Blender does not normalise: every vertex sum differs from 1; our processing fixes all.
    auto report = process_weights(s);
    BOOST_TEST(report.trimmed_vertices == 1983u + 900u);
    BOOST_TEST(report.histogram[4] + report.dropped_by_rounding >= 713u + 1983u + 900u);
    BOOST_TEST(report.histogram[1] + report.histogram[2] + report.histogram[3] + report.histogram[4] == 4224u);
    auto welded = weld(s.meshes[0]);
    BOOST_TEST(welded.mesh.vertex_count() < 4224u);
    BOOST_TEST(welded.mesh.vertex_count() >= 2464u);  // Assimp's weight-blind join gives 2464
    // The corner normals carry float noise: a 1e-5 tolerance merges them (weights still exact).
    auto tolerant = weld(s.meshes[0], {1e-5f});
    BOOST_TEST(tolerant.mesh.vertex_count() == 2464u);
    for (std::size_t v = 0; v < s.meshes[0].vertex_count(); ++v)
        BOOST_TEST_REQUIRE((s.meshes[0].skin[v] == tolerant.mesh.skin[tolerant.remap[v]]));
    BOOST_TEST((modtest::catch_error([&] { weld(s.meshes[0], {-1.0f}); })->kind() == mod::ErrorKind::usage));
}

BOOST_AUTO_TEST_CASE(axis_conversion_moves_vertices_and_keeps_faces_outward) {
    modtest::TempDir dir;
    FixtureSpec spec;
    auto f = scenetest::make_fixture(spec);
    scenetest::write_fixture(f, spec, dir / "a.fbx");
    Scene plain = import_file(dir / "a.fbx");
    ImportOptions zup;
    zup.axes = parse_axis_map("yup-to-zup");
    zup.scale = 0.5f;
    Scene turned = import_file(dir / "a.fbx", zup);
    ImportOptions mirror;
    mirror.axes = parse_axis_map("-x,y,z");
    Scene mirrored = import_file(dir / "a.fbx", mirror);
    const Mesh &p = plain.meshes[0], &t = turned.meshes[0], &mr = mirrored.meshes[0];
    for (std::size_t v = 0; v < p.vertex_count(); ++v) {
        // yup-to-zup = "x,-z,y": out = (x, -z, y) * 0.5
        BOOST_TEST_REQUIRE(std::abs(t.positions[v][0] - 0.5f * p.positions[v][0]) < 1e-3f);
        BOOST_TEST_REQUIRE(std::abs(t.positions[v][1] + 0.5f * p.positions[v][2]) < 1e-3f);
        BOOST_TEST_REQUIRE(std::abs(t.positions[v][2] - 0.5f * p.positions[v][1]) < 1e-3f);
        BOOST_TEST_REQUIRE(std::abs(mr.positions[v][0] + p.positions[v][0]) < 1e-3f);
    }
    double base = winding_agreement(p);
    BOOST_TEST(base > 0.95);
    BOOST_TEST(winding_agreement(t) == base);
    BOOST_TEST(winding_agreement(mr) == base);  // the reflection flipped the winding back
    // Bones follow the vertices: bind * (bone-space position) is the same model point.
    auto bone = turned.skeleton.find("Bone3");
    BOOST_TEST_REQUIRE(bone.has_value());
    auto pb = plain.skeleton.bones[*plain.skeleton.find("Bone3")].bind;
    auto tb = turned.skeleton.bones[*bone].bind;
    BOOST_TEST(std::abs(tb[3] - 0.5f * pb[3]) < 1e-3f);
    BOOST_TEST(std::abs(tb[7] + 0.5f * pb[11]) < 1e-3f);
    BOOST_TEST(std::abs(tb[11] - 0.5f * pb[7]) < 1e-3f);
}

BOOST_AUTO_TEST_CASE(axis_map_parsing) {
    BOOST_TEST(parse_axis_map("x,z,-y").to_string() == "x,z,-y");
    BOOST_TEST(parse_axis_map("+x+z-y").to_string() == "x,z,-y");
    BOOST_TEST(parse_axis_map("zup-to-yup").to_string() == "x,z,-y");
    BOOST_TEST(parse_axis_map("identity").is_identity());
    BOOST_TEST(parse_axis_map("x,z,-y").determinant() == 1);
    BOOST_TEST(parse_axis_map("-x,y,z").determinant() == -1);
    BOOST_TEST(parse_axis_map("y,x,z").determinant() == -1);
    auto m = parse_axis_map("z,-x,y");
    BOOST_TEST((m.inverse().inverse() == m));
    auto composed = multiply(m.matrix(), m.inverse().matrix());
    BOOST_TEST((composed == identity_matrix));
    for (const char* bad : {"x,x,y", "x,y", "x,y,z,x", "a,b,c", ""})
        BOOST_TEST((modtest::catch_error([&] { parse_axis_map(bad); })->kind() == mod::ErrorKind::usage), bad);
}

BOOST_AUTO_TEST_CASE(second_uv_set_copy_zero_or_from_file) {
    modtest::TempDir dir;
    FixtureSpec one;
    auto f = scenetest::make_fixture(one);
    scenetest::write_fixture(f, one, dir / "one.fbx");
    Scene copied = import_file(dir / "one.fbx");
    BOOST_TEST((copied.meshes[0].uv1 == copied.meshes[0].uv0));
    ImportOptions zero;
    zero.second_uv = SecondUv::zero;
    Scene zeroed = import_file(dir / "one.fbx", zero);
    for (const auto& uv : zeroed.meshes[0].uv1) BOOST_TEST_REQUIRE((uv == Vec2{0, 0}));
    FixtureSpec two;
    two.second_uv = true;
    auto f2 = scenetest::make_fixture(two);
    scenetest::write_fixture(f2, two, dir / "two.fbx");
    Scene both = import_file(dir / "two.fbx", zero);
    const Mesh& m = both.meshes[0];
    for (std::size_t v = 0; v < m.vertex_count(); ++v) {
        BOOST_TEST_REQUIRE(std::abs(m.uv1[v][0] - m.uv0[v][1]) < 1e-6f);  // the fixture swaps u and v
        BOOST_TEST_REQUIRE(std::abs(m.uv1[v][1] - m.uv0[v][0]) < 1e-6f);
    }
}

BOOST_AUTO_TEST_CASE(generated_tangents_are_unit_and_orthogonal) {
    Scene s = import_file(modtest::corpus("fbx/animation_with_skeleton.fbx"));  // the file has no tangents
    const Mesh& m = s.meshes[0];
    for (std::size_t v = 0; v < m.vertex_count(); ++v) {
        const auto& t = m.tangents[v];
        const auto& n = m.normals[v];
        double len = std::sqrt(double(t[0]) * t[0] + double(t[1]) * t[1] + double(t[2]) * t[2]);
        double d = double(t[0]) * n[0] + double(t[1]) * n[1] + double(t[2]) * n[2];
        BOOST_TEST_REQUIRE(std::abs(len - 1) < 1e-4);
        BOOST_TEST_REQUIRE(std::abs(d) < 1e-3);
        BOOST_TEST_REQUIRE(std::abs(t[3]) == 1.0f);
    }
}

BOOST_AUTO_TEST_CASE(glb_fixture_written_by_assimp_imports_the_same_weights) {
    modtest::TempDir dir;
    FixtureSpec spec;
    // Assimp 5.2.5's glTF writer loses influences of 3- and 4-influence vertices (seen with
    // this fixture), so this third-party-written file keeps to two per vertex.
    spec.max_influences = 2;
    spec.blender_transform = false;
    auto f = scenetest::make_fixture(spec);
    scenetest::write_fixture(f, spec, dir / "fix.glb", "glb2");
    Scene s = import_file(dir / "fix.glb");
    BOOST_TEST(s.format == "glb");
    BOOST_TEST(*s.file_unit_metres == 1.0);
    const Mesh& m = s.meshes[0];
    for (std::size_t v = 0; v < m.vertex_count(); ++v) {
        auto [fv, d] = scenetest::nearest_vertex(f, m.positions[v]);
        BOOST_TEST_REQUIRE(d < 1e-4f);
        float expected = 0, got = 0;
        for (const auto& [n, w] : f.vertices[fv].influences) expected += w;
        for (const auto& inf : m.influences[v]) got += inf.weight;
        BOOST_TEST_REQUIRE(std::abs(expected - got) < 1e-4f, "vertex " << v);
    }
}

BOOST_AUTO_TEST_CASE(errors_name_the_file) {
    modtest::TempDir dir;
    auto missing = modtest::catch_error([&] { import_file(dir / "nope.fbx"); });
    BOOST_TEST_REQUIRE(missing.has_value());
    BOOST_TEST((missing->kind() == mod::ErrorKind::io));
    BOOST_TEST(missing->file() == (dir / "nope.fbx").string());
    mod::write_file_atomic(dir / "junk.fbx", std::string_view("Kaydara FBX Binary  \0 this is not an FBX file"));
    auto junk = modtest::catch_error([&] { import_file(dir / "junk.fbx"); });
    BOOST_TEST_REQUIRE(junk.has_value());
    BOOST_TEST((junk->kind() == mod::ErrorKind::format));
    BOOST_TEST(junk->file() == (dir / "junk.fbx").string());
    ImportOptions tiny;
    tiny.max_input_bytes = 4;
    BOOST_TEST((modtest::catch_error([&] { import_file(dir / "junk.fbx", tiny); })->kind() == mod::ErrorKind::limit));
    // Truncated real FBX bytes from memory: every prefix fails cleanly or imports.
    auto bytes = modtest::read(modtest::corpus("fbx/huesitos.fbx"));
    for (std::size_t cut : {std::size_t(0), std::size_t(27), bytes.size() / 3, bytes.size() - 1}) {
        mod::ByteView prefix(bytes.data(), cut);
        try {
            import_memory(prefix, "huesitos.fbx");
        } catch (const mod::Error& e) {
            BOOST_TEST(e.file() == "huesitos.fbx");
        }
    }
    ImportOptions rigid;
    rigid.allow_unskinned = false;
    // A fixture whose mesh has no bones at all: refused when a skin is required.
    FixtureSpec spec;
    auto f = scenetest::make_fixture(spec);
    for (auto& v : f.vertices) v.influences.clear();
    scenetest::write_fixture(f, spec, dir / "rigid.fbx");
    BOOST_TEST(import_file(dir / "rigid.fbx").skeleton.bones.empty());
    BOOST_TEST((modtest::catch_error([&] { import_file(dir / "rigid.fbx", rigid); })->kind() == mod::ErrorKind::format));
}

BOOST_AUTO_TEST_SUITE_END()
