// Export through Assimp (glb, gltf, ASCII fbx) and the round trip back through import_file.
#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/scene/weights.hpp"
#include "libmod/scene/weld.hpp"

#include <cmath>
#include <cstring>

using namespace mod::scene;

namespace {

template <class A>
bool same_bits(const A& a, const A& b) {
    return std::memcmp(a.data(), b.data(), sizeof(typename A::value_type) * a.size()) == 0;
}

// A processed scene from an fbxa fixture with awkward data: unnormalised, > 4 influences.
Scene processed_fixture(const modtest::TempDir& dir) {
    scenetest::FixtureSpec spec;
    spec.second_uv = true;
    auto f = scenetest::make_fixture(spec);
    scenetest::write_fixture(f, spec, dir / "src.fbx");
    Scene s = import_file(dir / "src.fbx");
    process_weights(s);
    s.meshes[0] = weld(s.meshes[0]).mesh;
    return s;
}

// Vertices identical in order and bits (positions, normals, tangents, UVs) and in weights.
void require_same_vertices(const Scene& a, const Scene& b) {
    BOOST_TEST_REQUIRE(a.meshes.size() == b.meshes.size());
    for (std::size_t m = 0; m < a.meshes.size(); ++m) {
        const Mesh& x = a.meshes[m];
        const Mesh& y = b.meshes[m];
        BOOST_TEST_REQUIRE(x.vertex_count() == y.vertex_count());
        BOOST_TEST_REQUIRE(x.triangles == y.triangles);
        for (std::size_t v = 0; v < x.vertex_count(); ++v) {
            BOOST_TEST_REQUIRE(same_bits(x.positions[v], y.positions[v]), "position " << v);
            // glTF flips V (v -> 1 - v on write and on read): exact for half-float values,
            // within one unit of 2^-24 otherwise.
            for (int i = 0; i < 2; ++i) {
                BOOST_TEST_REQUIRE(std::abs(x.uv0[v][i] - y.uv0[v][i]) <= 6e-8f, "uv0 " << v);
                BOOST_TEST_REQUIRE(std::abs(x.uv1[v][i] - y.uv1[v][i]) <= 6e-8f, "uv1 " << v);
            }
            BOOST_TEST_REQUIRE(same_bits(x.normals[v], y.normals[v]), "normal " << v);
            BOOST_TEST_REQUIRE(same_bits(x.tangents[v], y.tangents[v]), "tangent " << v);
            // Same bones by name, same bytes.
            const auto& sx = x.skin[v];
            const auto& sy = y.skin[v];
            BOOST_TEST_REQUIRE(sx.count == sy.count);
            for (int k = 0; k < sx.count; ++k) {
                BOOST_TEST(a.skeleton.bones[sx.bones[k]].name == b.skeleton.bones[sy.bones[k]].name);
                BOOST_TEST(sx.weights[k] == sy.weights[k]);
            }
        }
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_export)

BOOST_AUTO_TEST_CASE(glb_round_trip_keeps_vertices_order_and_quantised_weights) {
    modtest::TempDir dir;
    Scene s = processed_fixture(dir);
    export_file(s, dir / "out.glb");
    Scene back = import_file(dir / "out.glb");
    process_weights(back);
    require_same_vertices(s, back);
    for (const auto& b : s.skeleton.bones) BOOST_TEST(back.skeleton.find(b.name).has_value(), b.name);
}

BOOST_AUTO_TEST_CASE(gltf_with_bin_round_trip) {
    modtest::TempDir dir;
    Scene s = processed_fixture(dir);
    export_file(s, dir / "out.gltf");
    BOOST_TEST(std::filesystem::exists(dir / "out.bin"));
    Scene back = import_file(dir / "out.gltf");
    process_weights(back);
    require_same_vertices(s, back);
}

BOOST_AUTO_TEST_CASE(skeleton_hierarchy_and_bind_matrices_survive_glb) {
    modtest::TempDir dir;
    Scene s = processed_fixture(dir);
    export_file(s, dir / "out.glb");
    Scene back = import_file(dir / "out.glb");
    BOOST_TEST_REQUIRE(back.skeleton.bones.size() == s.skeleton.bones.size());
    for (const auto& b : s.skeleton.bones) {
        auto i = back.skeleton.find(b.name);
        BOOST_TEST_REQUIRE(i.has_value());
        const Bone& c = back.skeleton.bones[*i];
        std::string parent = b.parent < 0 ? "" : s.skeleton.bones[b.parent].name;
        std::string parent_back = c.parent < 0 ? "" : back.skeleton.bones[c.parent].name;
        BOOST_TEST(parent == parent_back);
        for (int k = 0; k < 16; ++k) BOOST_TEST_REQUIRE(std::abs(b.bind[k] - c.bind[k]) <= 1e-3f * (1 + std::abs(b.bind[k])));
    }
}

BOOST_AUTO_TEST_CASE(fbx_round_trip_gives_the_same_welded_vertices) {
    modtest::TempDir dir;
    Scene s = processed_fixture(dir);
    export_file(s, dir / "out.fbx");
    Scene back = import_file(dir / "out.fbx");
    process_weights(back);
    back.meshes[0] = weld(back.meshes[0]).mesh;
    const Mesh &x = s.meshes[0], &y = back.meshes[0];
    BOOST_TEST_REQUIRE(x.vertex_count() == y.vertex_count());
    BOOST_TEST(x.triangles.size() == y.triangles.size());
    for (std::size_t v = 0; v < x.vertex_count(); ++v) {
        for (int i = 0; i < 3; ++i) BOOST_TEST_REQUIRE(std::abs(x.positions[v][i] - y.positions[v][i]) < 1e-3f);
        for (int i = 0; i < 2; ++i) BOOST_TEST_REQUIRE(std::abs(x.uv1[v][i] - y.uv1[v][i]) < 1e-6f);
        BOOST_TEST_REQUIRE(x.skin[v].count == y.skin[v].count);
        for (int k = 0; k < x.skin[v].count; ++k) {
            BOOST_TEST_REQUIRE(x.skin[v].weights[k] == y.skin[v].weights[k]);
            BOOST_TEST_REQUIRE(s.skeleton.bones[x.skin[v].bones[k]].name == back.skeleton.bones[y.skin[v].bones[k]].name);
        }
    }
}

BOOST_AUTO_TEST_CASE(fbx_output_does_not_depend_on_the_clock) {
    // Assimp stamps the current time into the header; ours carries a fixed date instead.
    modtest::TempDir dir;
    Scene s = processed_fixture(dir);
    export_file(s, dir / "a.fbx");
    export_file(s, dir / "b.fbx");
    const mod::Bytes a = mod::read_file(dir / "a.fbx");
    BOOST_TEST((a == mod::read_file(dir / "b.fbx")));
    const std::string text(a.begin(), a.end());
    const std::string stamp = "CreationTimeStamp:  {\n\t\tVersion: 1000\n\t\tYear: 2000\n\t\tMonth: 1\n\t\tDay: 1\n"
                              "\t\tHour: 0\n\t\tMinute: 0\n\t\tSecond: 0\n\t\tMillisecond: 0\n\t}\n";
    BOOST_TEST(text.find(stamp) != std::string::npos);
    BOOST_TEST(text.find("Year:") == text.rfind("Year:"));  // the only date in the file
}

BOOST_AUTO_TEST_CASE(export_refuses_bad_requests) {
    modtest::TempDir dir;
    Scene s = processed_fixture(dir);
    BOOST_TEST((modtest::catch_error([&] { export_file(s, dir / "out.obj"); })->kind() == mod::ErrorKind::usage));
    std::filesystem::path in = dir / "src.fbx";
    BOOST_TEST((modtest::catch_error([&] { export_file(s, in, std::span<const std::filesystem::path>(&in, 1)); })->kind() ==
                mod::ErrorKind::conflict));
    Scene broken = s;
    broken.meshes[0].triangles.push_back({0, 1, 99999});
    BOOST_TEST((modtest::catch_error([&] { export_file(broken, dir / "b.glb"); })->kind() == mod::ErrorKind::format));
    BOOST_TEST(!std::filesystem::exists(dir / "b.glb"));
    Scene cyclic = s;
    cyclic.skeleton.bones[0].parent = 1;
    cyclic.skeleton.bones[1].parent = 0;
    BOOST_TEST(modtest::catch_error([&] { export_file(cyclic, dir / "c.glb"); }).has_value());
}

BOOST_AUTO_TEST_CASE(a_quote_in_a_name_is_named_before_the_fbx_writer_refuses_it) {
    // Assimp's ASCII FBX writer cannot store a '"' in a name and refused the whole scene with an
    // empty reason ("Assimp cannot export the scene: "). glTF escapes it and keeps the name.
    modtest::TempDir dir;
    const Scene s = processed_fixture(dir);
    struct Case {
        std::string path;
        void (*rename)(Scene&);
    };
    const Case cases[] = {{"skeleton.bones[2].name", [](Scene& x) { x.skeleton.bones[2].name = "Arm \"L\""; }},
                          {"meshes[0].name", [](Scene& x) { x.meshes[0].name = "a\"b"; }},
                          {"materials[0]", [](Scene& x) { x.materials.at(0) = "\""; }}};
    for (const Case& c : cases) {
        Scene named = s;
        c.rename(named);
        auto e = modtest::catch_error([&] { export_file(named, dir / "q.fbx"); });
        BOOST_TEST_REQUIRE(e.has_value());
        BOOST_TEST((e->kind() == mod::ErrorKind::format));
        BOOST_TEST(e->path() == c.path);
        BOOST_TEST(e->file() == (dir / "q.fbx").string());
        BOOST_TEST(e->message().find("ASCII FBX") != std::string::npos, e->message());
        BOOST_TEST(!std::filesystem::exists(dir / "q.fbx"));
        export_file(named, dir / "q.glb");
        Scene back = import_file(dir / "q.glb");
        if (c.path.starts_with("skeleton")) BOOST_TEST(back.skeleton.find("Arm \"L\"").has_value());
        if (c.path.starts_with("meshes")) BOOST_TEST(back.meshes.at(0).name == "a\"b");
    }
}

BOOST_AUTO_TEST_CASE(a_skeleton_beyond_16_bit_joint_indices_is_refused_for_gltf) {
    // JOINTS_0 is 16-bit: bone 65,536 was written as joint 0 without a word.
    modtest::TempDir dir;
    Scene s;
    s.skeleton.bones.resize(65537);
    for (std::size_t b = 0; b < s.skeleton.bones.size(); ++b) s.skeleton.bones[b].name = "b" + std::to_string(b);
    Mesh m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    m.normals.assign(3, Vec3{0, 0, 1});
    m.tangents.assign(3, Vec4{1, 0, 0, 1});
    m.uv0.assign(3, Vec2{0, 0});
    m.uv1 = m.uv0;
    m.triangles = {{0, 1, 2}};
    m.skin.assign(3, SkinWeights{1, {65536, 0, 0, 0}, {255, 0, 0, 0}});
    s.meshes.push_back(m);
    s.materials = {"m"};
    for (const char* name : {"big.glb", "big.gltf"}) {
        auto e = modtest::catch_error([&] { export_file(s, dir / name); });
        BOOST_TEST_REQUIRE(e.has_value(), name);
        BOOST_TEST((e->kind() == mod::ErrorKind::limit));
        BOOST_TEST(e->path() == "skeleton.bones");
        BOOST_TEST(!std::filesystem::exists(dir / name));
    }
    // 65,536 bones fit: the last joint index is 65,535.
    s.skeleton.bones.pop_back();
    s.meshes[0].skin.assign(3, SkinWeights{1, {65535, 0, 0, 0}, {255, 0, 0, 0}});
    export_file(s, dir / "fits.glb");
    BOOST_TEST(std::filesystem::exists(dir / "fits.glb"));
}

BOOST_AUTO_TEST_CASE(export_is_deterministic) {
    modtest::TempDir dir;
    Scene s = processed_fixture(dir);
    export_file(s, dir / "a.glb");
    export_file(s, dir / "b.glb");
    BOOST_TEST((modtest::read(dir / "a.glb") == modtest::read(dir / "b.glb")));
}

BOOST_AUTO_TEST_SUITE_END()
