// SHRED <-> scene glue: replacing a quartet mesh from FBX (the two corpus files, with bone maps),
// exporting quartet meshes to glTF/FBX and the exact export -> import -> replace round trip.
#include "shred_util.hpp"
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/weld.hpp"
#include "libmod/shred/import.hpp"

#include <limits>
#include <map>
#include <set>

using namespace mod;

namespace {

shred::Pak sample_pak() {
    auto path = shredtest::sample_dir() / "char_sample.pak";
    return shred::read_pak(modtest::read(path), path.string());
}

// Source bone i -> the i-th name of the sample character skeleton (after Root).
scene::BoneMap map_onto_sample(const scene::Skeleton& source, const shred::Skeleton& target) {
    scene::BoneMap map;
    std::size_t next = 1;
    for (const auto& b : source.bones) map.pairs.emplace_back(b.name, target.bones.at(next++).name);
    return map;
}

// The histogram of processed influence counts and the bones the replacement must give: the
// source imported, retargeted, processed and welded independently of replace_from_scene.
struct Expected {
    std::array<std::uint64_t, 5> histogram{};
    std::set<std::string> bones;
};
Expected expected_result(scene::Scene s, const shred::Skeleton& scp, const scene::BoneMap& map) {
    scene::retarget(s, shred::to_scene_skeleton(scp), map);
    scene::process_weights(s);
    Expected e;
    for (const auto& m : s.meshes)
        for (const auto& sw : scene::weld(m, {1e-5f}).mesh.skin) {
            ++e.histogram[sw.count];
            for (int k = 0; k < sw.count; ++k) e.bones.insert(s.skeleton.bones[sw.bones[k]].name);
        }
    return e;
}

void replace_with_corpus(const std::string& file, std::size_t bone_count) {
    shred::Pak pak = sample_pak();
    auto before = shred::read_pak_quartet(pak, "skater01");
    scene::Scene source = scene::import_file(modtest::corpus("fbx/" + file));
    std::set<std::string> weighted;
    for (const auto& list : source.meshes[0].influences)
        for (const auto& inf : list)
            if (inf.weight > 0) weighted.insert(source.skeleton.bones[inf.bone].name);
    BOOST_TEST(weighted.size() == bone_count);
    scene::BoneMap map = map_onto_sample(source.skeleton, before.skeleton);
    auto expected = expected_result(source, before.skeleton, map);

    shred::SceneReplaceReport report;
    shred::SceneReplaceOptions options;
    options.bone_map = map;
    options.scale_check = shred::ScaleCheck::warn;  // the corpus models are not skater-sized (the point here is weights)
    Bytes out = shred::replace_from_scene(pak, "skater01", 1, source, options, &report);
    // The result reads back under the hypothesis and its stream validates (read_quartet decodes
    // and checks every invariant: weight sums, palettes, coverage, terminal, sizes).
    shred::Pak written = shred::read_pak(out, "out.pak");
    auto after = shred::read_pak_quartet(written, "skater01");
    const auto& stream = after.meshes[1].stream;
    shred::validate_stream(stream, {std::uint32_t(stream.vertices.size()), std::uint32_t(after.skeleton.bones.size())});
    // Every weighted source bone landed on its mapped target, and nothing else was used.
    std::set<std::string> targets;
    for (const auto& name : weighted) targets.insert(*map.target_for(name));
    std::set<std::string> used;
    std::array<std::uint64_t, 5> got{};
    for (const auto& batch : stream.batches) {
        got[batch.header.influence_count()] += batch.vertex_count;
        for (std::uint32_t k = 0; k < batch.vertex_count; ++k) {
            const auto& v = stream.vertices[batch.first_vertex + k];
            auto w = v.weights();
            BOOST_TEST_REQUIRE(unsigned(w[0]) + w[1] + w[2] + w[3] == 255u);
            auto bones = batch.header.bones();
            for (int s = 0; s < 4; ++s)
                if (bones[s] != shred::unused_bone && w[s] > 0) used.insert(after.skeleton.bones[bones[s]].name);
        }
    }
    // Every weighted source bone has a target (no weight dropped); the stream uses exactly the
    // targets that kept weight after the 4-bone limit, all of them mapped targets.
    BOOST_TEST(report.retarget.mapped_explicitly == source.skeleton.bones.size());
    BOOST_TEST((used == expected.bones));
    for (const auto& b : used) BOOST_TEST(targets.count(b) == 1u, b);
    BOOST_TEST(got == expected.histogram);
    BOOST_TEST(report.new_vertices_by_influence == expected.histogram);
    // The histogram after the limit follows the source: n positive influences -> min(n, 4),
    // except slots whose weight rounds to zero bytes (counted in the report).
    std::array<std::size_t, 5> limited{};
    for (std::size_t n = 0; n < report.weights.source_histogram.size(); ++n) limited[std::min<std::size_t>(n, 4)] += report.weights.source_histogram[n];
    if (report.weights.dropped_by_rounding == 0) BOOST_TEST(report.weights.histogram == limited);
    BOOST_TEST(report.counts.new_vertices == stream.vertices.size());
    BOOST_TEST(report.counts.old_vertices == before.meshes[1].stream.vertices.size());
    BOOST_TEST(report.counts.new_triangles == source.meshes[0].triangles.size());
    // Other meshes of the quartet are untouched.
    for (std::size_t m : {0u, 2u, 3u})
        BOOST_TEST((shred::encode_stream(after.meshes[m].stream) == shred::encode_stream(before.meshes[m].stream)));
}

// A small hand-built source: one triangle per mesh on the sample bones Pelvis and Spine.
scene::Scene triangle_scene(std::size_t meshes) {
    scene::Scene s;
    s.source = "hand.fbx";
    s.skeleton.bones.resize(2);
    s.skeleton.bones[0].name = "Pelvis";
    s.skeleton.bones[1].name = "Spine";
    s.skeleton.bones[1].parent = 0;
    for (std::size_t i = 0; i < meshes; ++i) {
        scene::Mesh m;
        m.name = "tri" + std::to_string(i);
        float x = float(i);
        m.positions = {{x, 0, 0}, {x + 1, 0, 0}, {x, 1, 0}};
        m.normals.assign(3, {0, 0, 1});
        m.tangents.assign(3, {1, 0, 0, 1});
        m.uv0 = {{0, 0}, {1, 0}, {0, 1}};
        m.uv1 = m.uv0;
        m.influences = {{{0, 1.0f}}, {{0, 0.5f}, {1, 0.5f}}, {{1, 2.0f}}};
        m.triangles = {{0, 1, 2}};
        s.meshes.push_back(std::move(m));
    }
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shred_scene)

BOOST_AUTO_TEST_CASE(replace_with_huesitos) { replace_with_corpus("huesitos.fbx", 8); }

BOOST_AUTO_TEST_CASE(replace_with_animation_with_skeleton) { replace_with_corpus("animation_with_skeleton.fbx", 14); }

BOOST_AUTO_TEST_CASE(unmapped_weighted_bones_are_refused_with_their_names) {
    shred::Pak pak = sample_pak();
    scene::Scene source = scene::import_file(modtest::corpus("fbx/huesitos.fbx"));
    auto e = modtest::catch_error([&] { shred::replace_from_scene(pak, "skater01", 1, source); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == ErrorKind::format));
    BOOST_TEST(e->message().find("'Bone.001'") != std::string::npos, e->message());
    BOOST_TEST(e->file().find("huesitos.fbx") != std::string::npos);
    BOOST_TEST((modtest::catch_error([&] { shred::replace_from_scene(pak, "nope", 1, source); })->kind() == ErrorKind::usage));
    BOOST_TEST((modtest::catch_error([&] { shred::replace_from_scene(pak, "skater01", 9, source); })->kind() == ErrorKind::usage));
}

BOOST_AUTO_TEST_CASE(hostile_sources_are_refused_cleanly) {
    shred::Pak pak = sample_pak();
    // Two meshes merge into one stream of 6 vertices and 2 triangles.
    shred::SceneReplaceReport report;
    Bytes out = shred::replace_from_scene(pak, "skater01", 1, triangle_scene(2), {}, &report);
    BOOST_TEST(report.counts.new_vertices == 6u);
    BOOST_TEST(report.counts.new_triangles == 2u);
    BOOST_TEST(report.new_vertices_by_influence == (std::array<std::uint64_t, 5>{0, 4, 2, 0, 0}));
    BOOST_TEST(shred::read_pak_quartet(shred::read_pak(out, "out.pak"), "skater01").meshes[1].stream.vertices.size() ==
               6u);
    // --source-mesh takes one of them; a mesh that is not there is a usage error.
    shred::SceneReplaceOptions second;
    second.source_mesh = 1;
    out = shred::replace_from_scene(pak, "skater01", 1, triangle_scene(2), second, &report);
    BOOST_TEST(report.counts.new_vertices == 3u);
    BOOST_TEST(report.counts.new_triangles == 1u);
    const auto chosen = shred::read_pak_quartet(shred::read_pak(out, "out.pak"), "skater01");
    for (const auto& v : chosen.meshes[1].stream.vertices)
        BOOST_TEST(v.position()[0] >= 1.0f);  // mesh 1 spans x 1..2, mesh 0 x 0..1
    for (std::size_t meshes : {1u, 2u}) {
        shred::SceneReplaceOptions past;
        past.source_mesh = meshes;
        auto e = modtest::catch_error([&] { shred::replace_from_scene(pak, "skater01", 1, triangle_scene(meshes), past); });
        BOOST_TEST_REQUIRE(e.has_value());
        BOOST_TEST((e->kind() == ErrorKind::usage));
        const std::string want = meshes == 1 ? "has 1 mesh (numbered from 0); there is no mesh 1"
                                             : "has 2 meshes (numbered from 0); there is no mesh 2";
        BOOST_TEST(e->message().find(want) != std::string::npos, e->message());
    }
    auto refused = [&](scene::Scene s, const std::string& what) {
        auto e = modtest::catch_error([&] { shred::replace_from_scene(pak, "skater01", 1, std::move(s)); });
        BOOST_TEST_REQUIRE(e.has_value(), what);
        BOOST_TEST((e->kind() == ErrorKind::format), what);
        BOOST_TEST(e->message().find(what) != std::string::npos, e->message());
    };
    scene::Scene s = triangle_scene(1);
    s.meshes[0].triangles.clear();
    refused(s, "no triangles");
    s = triangle_scene(1);
    s.meshes[0].normals.pop_back();
    refused(s, "2 normals for 3 vertices");
    s = triangle_scene(1);
    s.meshes[0].influences[2][0].bone = 7;
    refused(s, "names bone 7 of a 2-bone skeleton");
    s = triangle_scene(1);
    s.meshes[0].influences[1][1].weight = std::numeric_limits<float>::quiet_NaN();
    refused(s, "vertex 1: bone");
    s = triangle_scene(1);
    s.meshes[0].influences.set(2, {});
    refused(s, "vertex 2 has no positive bone weight");
    s = triangle_scene(1);
    s.meshes[0].triangles[0][2] = 3;
    refused(s, "index 3 is out of range");
    s = triangle_scene(1);
    s.meshes[0].uv0[0][0] = 1e6f;
    auto e = modtest::catch_error([&] { shred::replace_from_scene(pak, "skater01", 1, s); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == ErrorKind::limit));
}

BOOST_AUTO_TEST_CASE(export_import_replace_reproduces_the_pak_bytes) {
    modtest::TempDir dir;
    shred::Pak pak = sample_pak();
    for (const char* quartet : {"skater01", "skater02"}) {
        auto model = shred::read_pak_quartet(pak, quartet);
        for (std::size_t m = 0; m < model.meshes.size(); ++m) {
            auto path = dir / (std::string(quartet) + "_" + std::to_string(m) + ".glb");
            scene::export_file(shred::quartet_to_scene(model, m), path);
            scene::Scene back = scene::import_file(path);
            Bytes out = shred::replace_from_scene(pak, quartet, m, back);
            BOOST_TEST_REQUIRE((out == pak.raw), quartet << " mesh " << m);
        }
    }
}

BOOST_AUTO_TEST_CASE(scene_of_a_quartet_keeps_stream_values) {
    shred::Pak pak = sample_pak();
    auto model = shred::read_pak_quartet(pak, "skater01");
    scene::Scene s = shred::quartet_to_scene(model);
    BOOST_TEST(s.meshes.size() == model.meshes.size());
    BOOST_TEST(s.skeleton.bones.size() == model.skeleton.bones.size());
    BOOST_TEST(s.skeleton.bones[83].name == "LeftLegRoll");
    // The shoes mesh starts with the batch 83,84,82 and weights 139,113,3.
    const auto& shoes = s.meshes[0];
    BOOST_TEST(shoes.skin[0].count == 3);
    BOOST_TEST(shoes.skin[0].bones == (std::array<std::uint32_t, 4>{83, 84, 82, 0}));
    BOOST_TEST(shoes.skin[0].weights == (std::array<std::uint8_t, 4>{139, 113, 3, 0}));
    auto skinned = shred::to_skinned_mesh(shoes);
    auto pre = shred::preprocess(skinned);
    BOOST_TEST((shred::encode_stream(pre.stream) == shred::encode_stream(model.meshes[0].stream)));
    BOOST_TEST((modtest::catch_error([&] { shred::quartet_to_scene(model, 17); })->kind() == ErrorKind::usage));
    // Every vertex's skin is in SkinWeights order (model.hpp: weight descending, then bone
    // ascending) and is what our weight processing makes of the raw lists beside it.
    scene::WeightOptions unweighted_ok;
    unweighted_ok.allow_unweighted = true;
    std::size_t ties = 0;
    for (const auto& m : s.meshes)
        for (std::size_t v = 0; v < m.vertex_count(); ++v) {
            const scene::SkinWeights& w = m.skin[v];
            BOOST_TEST_REQUIRE((w == scene::quantise_influences(m.influences[v], unweighted_ok)), "vertex " << v);
            for (std::size_t k = 1; k < w.count; ++k) ties += w.weights[k] == w.weights[k - 1];
        }
    BOOST_TEST(ties == 0u);  // the sample has no equal weights in a vertex: the case below has
}

BOOST_AUTO_TEST_CASE(scene_mesh_skin_orders_equal_weights_by_bone) {
    // Three bones at a third each quantise to 85 / 85 / 85: SkinWeights order (model.hpp) puts
    // them by bone ascending, and the skin is what our weight processing makes of the raw list.
    // A mutant ordering equal weights by bone descending passed every test before this one.
    shred::SkinnedMesh mesh;
    for (int v = 0; v < 3; ++v) {
        shred::SkinnedVertex x;
        x.position = {float(v), float(v % 2), 0};
        x.normal = {0, 0, 1};
        x.tangent = {1, 0, 0};
        x.influences = {shred::Influence{9, 1.0f / 3}, shred::Influence{4, 1.0f / 3}, shred::Influence{7, 1.0f / 3}};
        x.influence_count = 3;
        mesh.vertices.push_back(x);
    }
    mesh.triangles = {{0, 1, 2}};
    shred::QuartetMesh qm;
    auto pre = shred::preprocess(mesh);
    qm.stream = pre.stream;
    qm.triangles = pre.triangles;
    const scene::Mesh m = shred::to_scene_mesh(qm, "ties");
    BOOST_TEST_REQUIRE(m.skin.size() == 3u);
    for (const scene::SkinWeights& w : m.skin) {
        BOOST_TEST(w.count == 3);
        BOOST_TEST(w.bones == (std::array<std::uint32_t, 4>{4, 7, 9, 0}));
        BOOST_TEST(w.weights == (std::array<std::uint8_t, 4>{85, 85, 85, 0}));
    }
    for (std::size_t v = 0; v < m.vertex_count(); ++v)
        BOOST_TEST((m.skin[v] == scene::quantise_influences(m.influences[v])), "vertex " << v);
}

BOOST_AUTO_TEST_CASE(cli_export_and_replace) {
    modtest::TempDir dir;
    auto pak = shredtest::sample_dir() / "char_sample.pak";
    auto r = modtest::run_cli({"shred", "export", pak.string(), "skater01", "1", (dir / "body.glb").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    r = modtest::run_cli({"shred", "replace", pak.string(), "skater01", "1", (dir / "body.glb").string(),
                          (dir / "out.pak").string(), "--json"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"vertices_by_influence\"") != std::string::npos);
    BOOST_TEST((modtest::read(dir / "out.pak") == modtest::read(pak)));
    r = modtest::run_cli({"shred", "export", pak.string(), "skater01", (dir / "all.fbx").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("exported 4 mesh(es)") != std::string::npos, r.out);
    // Text report, a bone map file, the corpus FBX.
    mod::write_file_atomic(dir / "map.txt", std::string_view("Bone = Pelvis\nBone.001 = Spine\nBone.002 = Spine1\n"
                                                             "Bone.003 = Spine2\nBone.004 = Neck\nBone.005 = Head\n"
                                                             "Bone.006 = HeadEnd\nBone.007 = LeftShoulder\n"
                                                             "Bone.008 = LeftArm\n"));
    r = modtest::run_cli({"shred", "replace", pak.string(), "skater01", "1",
                          modtest::corpus("fbx/huesitos.fbx").string(), (dir / "h.pak").string(), "--bone-map",
                          (dir / "map.txt").string(), "--units", "metres", "--axis", "x,y,z"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("before") != std::string::npos);
    // The bone map is an input too (issue 22: it was replaced by the PAK, exit 0).
    const mod::Bytes map = modtest::read(dir / "map.txt");
    auto over = modtest::run_cli({"shred", "replace", pak.string(), "skater01", "1",
                                  modtest::corpus("fbx/huesitos.fbx").string(), (dir / "map.txt").string(), "--bone-map",
                                  (dir / "map.txt").string(), "--units", "metres", "--axis", "x,y,z"});
    BOOST_TEST(over.exit_code == 3, over.err);
    BOOST_TEST((modtest::read(dir / "map.txt") == map));
    BOOST_TEST(r.out.find("after") != std::string::npos);
    // Unmapped bones: exit code 2 (format) with the bone list on one line.
    r = modtest::run_cli({"shred", "replace", pak.string(), "skater01", "1",
                          modtest::corpus("fbx/huesitos.fbx").string(), (dir / "x.pak").string()});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.err.find("Bone.008") != std::string::npos, r.err);
    BOOST_TEST(!std::filesystem::exists(dir / "x.pak"));
    r = modtest::run_cli({"shred", "export", pak.string(), "skater01", (dir / "x.obj").string()});
    BOOST_TEST(r.exit_code == 1);
}

BOOST_AUTO_TEST_SUITE_END()
