// The contained import (ImportOptions::contained) and the scene wire format it sends scenes
// through: exact round trips, hostile wire data refused, a crashing or hanging child turned into
// one clean error, and contained imports equal to in-process ones bit for bit.
#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/scene/import.hpp"
#include "libmod/scene/scene_wire.hpp"

#include <boost/test/unit_test.hpp>

#include <bit>
#include <chrono>
#include <csignal>
#include <limits>
#include <unistd.h>

using namespace mod::scene;

namespace {

// Every field of a Scene set, with awkward floats (NaN payloads, -0, denormals, infinity).
Scene full_scene() {
    Scene s;
    s.source = "dir/odd \x01name.fbx";
    s.format = "fbx";
    s.file_unit_metres = 0.01;
    s.file_up_axis = std::pair<int, int>(2, -1);
    const float nan_payload = std::bit_cast<float>(0x7FC01234u);
    const float denormal = std::bit_cast<float>(0x00000001u);
    for (int b = 0; b < 3; ++b) {
        Bone bone;
        bone.name = "Bone" + std::to_string(b);
        bone.parent = b - 1;
        bone.local[3] = float(b);
        bone.bind[7] = -0.0f;
        bone.inverse_bind[11] = nan_payload;
        s.skeleton.bones.push_back(bone);
    }
    Mesh m;
    m.name = "Body";
    m.material = 1;
    m.positions = {{0, 1, 2}, {nan_payload, -0.0f, denormal}, {std::numeric_limits<float>::infinity(), 5, 6}};
    m.normals = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
    m.tangents = {{1, 0, 0, 1}, {1, 0, 0, -1}, {0, 1, 0, 1}};
    m.uv0 = {{0, 0}, {1, 0}, {0, 1}};
    m.uv1 = {{0.5f, 0.5f}, {1, 1}, {0, 0}};
    m.influences = InfluenceLists{{{0, 0.25f}, {1, nan_payload}}, {}, {{2, -0.0f}}};
    SkinWeights w;
    w.count = 2;
    w.bones = {0, 1, 0, 0};
    w.weights = {200, 55, 0, 0};
    m.skin = {w, w, w};
    m.triangles = {{0, 1, 2}};
    m.colours = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 0.5f}};
    s.meshes.push_back(m);
    Mesh empty;
    empty.name = "Empty";
    s.meshes.push_back(empty);
    s.materials = {"plain", "textured"};
    MaterialInfo plain;
    MaterialInfo textured;
    MaterialTexture t;
    t.name = "skin.png";
    t.width = 2;
    t.height = 1;
    t.rgba = {1, 2, 3, 4, 5, 6, 7, 8};
    t.wrap_s = TextureWrap::mirrored_repeat;
    t.wrap_t = TextureWrap::clamp_to_edge;
    t.wrap_note = "N64 mirror-then-clamp";
    textured.texture = t;
    textured.base_colour = {0.5f, 0.25f, 1, 1};
    textured.alpha = AlphaMode::mask;
    textured.alpha_cutoff = 0.3f;
    textured.unlit = true;
    s.material_info = {plain, textured};
    s.warnings = {"bind pose differs", ""};
    return s;
}

void crash_hook() { std::raise(SIGSEGV); }
void hang_hook() { ::sleep(30); }
void oom_hook() {
    std::vector<std::vector<char>> hog;
    for (;;) hog.emplace_back(64u << 20, 'x');
}
void throw_hook() { throw mod::Error(mod::ErrorKind::limit, "too many bones", "inner.fbx", 0x40, "skeleton[3]"); }

modtest::fs::path fixture_glb(const modtest::TempDir& dir) {
    scenetest::FixtureSpec spec;
    spec.second_uv = true;
    const auto path = dir / "fixture.glb";
    scenetest::write_fixture(scenetest::make_fixture(spec), spec, path, "glb2");
    return path;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scene_wire)

BOOST_AUTO_TEST_CASE(round_trip_is_exact) {
    const Scene s = full_scene();
    const mod::Bytes wire = encode_wire(s);
    const Scene back = decode_wire(wire);
    BOOST_TEST(encode_wire(back) == wire);
    BOOST_TEST(back.source == s.source);
    BOOST_TEST(*back.file_unit_metres == 0.01);
    BOOST_TEST(back.file_up_axis->second == -1);
    BOOST_TEST(std::bit_cast<std::uint32_t>(back.skeleton.bones[2].inverse_bind[11]) == 0x7FC01234u);
    BOOST_TEST(std::bit_cast<std::uint32_t>(back.meshes[0].positions[1][1]) == 0x80000000u);
    BOOST_TEST(std::bit_cast<std::uint32_t>(back.meshes[0].influences[0][1].weight) == 0x7FC01234u);
    BOOST_TEST(back.meshes[0].influences.size() == 3u);
    BOOST_TEST(back.meshes[0].influences[1].size() == 0u);
    BOOST_TEST(back.meshes[0].influences[2][0].bone == 2u);
    BOOST_TEST((back.meshes[0].skin == s.meshes[0].skin));
    BOOST_TEST((back.meshes[0].triangles == s.meshes[0].triangles));
    BOOST_TEST(back.meshes[1].positions.empty());
    BOOST_TEST(back.material_info[1].texture->rgba == s.material_info[1].texture->rgba);
    BOOST_TEST((back.material_info[1].texture->wrap_t == TextureWrap::clamp_to_edge));
    BOOST_TEST(back.material_info[1].texture->wrap_note == "N64 mirror-then-clamp");
    BOOST_TEST(!back.material_info[0].texture.has_value());
    BOOST_TEST((back.material_info[1].alpha == AlphaMode::mask));
    BOOST_TEST(back.material_info[1].unlit);
    BOOST_TEST(back.warnings == s.warnings);
    BOOST_TEST(encode_wire(decode_wire(encode_wire(Scene{}))) == encode_wire(Scene{}));
}

BOOST_AUTO_TEST_CASE(hostile_wire_data_is_refused) {
    const mod::Bytes wire = encode_wire(full_scene());
    modtest::truncation_loop(wire, [](mod::ByteView b) { (void)decode_wire(b); });
    modtest::byte_flip_loop(wire, [](mod::ByteView b) { (void)decode_wire(b); });
    // Every strict prefix is refused (the format has no optional tail).
    for (std::size_t n = 0; n < wire.size(); ++n)
        BOOST_CHECK_THROW((void)decode_wire(mod::ByteView(wire).first(n)), mod::Error);
    mod::Bytes longer = wire;
    longer.push_back(0);
    BOOST_CHECK_THROW((void)decode_wire(longer), mod::Error);
    // A count that claims 4 G bones is refused before anything is allocated.
    Scene s;
    s.source = "x";
    mod::Bytes bomb = encode_wire(s);
    const std::size_t bones_at = 4 + 4 + 4 + 1 + 4 + 0 + 1 + 1;
    bomb[bones_at] = bomb[bones_at + 1] = bomb[bones_at + 2] = bomb[bones_at + 3] = 0xFF;
    auto e = modtest::catch_error([&] { (void)decode_wire(bomb, "bomb"); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->message().find("bones: 4294967295 items") != std::string::npos, e->what());
    // A texture whose bytes do not match its size.
    Scene t = full_scene();
    t.material_info[1].texture->width = 3;
    BOOST_CHECK_THROW((void)decode_wire(encode_wire(t)), mod::Error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(contained_import)

BOOST_AUTO_TEST_CASE(equals_in_process_import_bit_for_bit) {
    modtest::TempDir dir;
    std::vector<modtest::fs::path> files = {modtest::corpus("fbx/huesitos.fbx"),
                                            modtest::corpus("fbx/animation_with_skeleton.fbx"), fixture_glb(dir)};
    for (const auto& file : files) {
        ImportOptions inside;
        inside.contained = false;
        ImportOptions contained;
        BOOST_REQUIRE(contained.contained);
        const Scene a = import_file(file, inside);
        const Scene b = import_file(file, contained);
        BOOST_TEST(!a.meshes.empty());
        BOOST_TEST((encode_wire(a) == encode_wire(b)), file);
        const mod::Bytes bytes = modtest::read(file);
        BOOST_TEST((encode_wire(import_memory(bytes, file.filename().string(), contained)) ==
                    encode_wire(import_memory(bytes, file.filename().string(), inside))));
    }
}

BOOST_AUTO_TEST_CASE(a_crashing_child_is_one_clean_error) {
    ImportOptions o;
    o.contained_child_hook = crash_hook;
    auto e = modtest::catch_error([&] { (void)import_file(modtest::corpus("fbx/huesitos.fbx"), o); });
    BOOST_REQUIRE(e);
    BOOST_TEST((e->kind() == mod::ErrorKind::format));
    BOOST_TEST(e->message() == "the FBX importer failed on this file (crashed with signal 11, Segmentation fault)",
               e->what());
    BOOST_TEST(e->file().find("huesitos.fbx") != std::string::npos);
    BOOST_TEST(mod::exit_code(e->kind()) == 2);
}

BOOST_AUTO_TEST_CASE(a_hanging_child_is_killed_at_the_deadline) {
    ImportOptions o;
    o.contained_child_hook = hang_hook;
    o.contained_timeout_ms = 300;
    const auto start = std::chrono::steady_clock::now();
    auto e = modtest::catch_error([&] { (void)import_file(modtest::corpus("fbx/huesitos.fbx"), o); });
    const auto took = std::chrono::steady_clock::now() - start;
    BOOST_REQUIRE(e);
    BOOST_TEST((e->kind() == mod::ErrorKind::format));
    BOOST_TEST(e->message() == "the FBX importer failed on this file (took longer than 0.3 s)", e->what());
    BOOST_TEST(took < std::chrono::seconds(10));
}

#if !defined(__SANITIZE_ADDRESS__)
BOOST_AUTO_TEST_CASE(a_child_over_the_memory_limit_is_one_clean_error) {
    ImportOptions o;
    o.contained_child_hook = oom_hook;
    o.contained_memory_bytes = 256ull << 20;
    auto e = modtest::catch_error([&] { (void)import_memory(mod::Bytes{1, 2, 3}, "bomb.glb", o); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->message() == "the GLB importer failed on this file (needed more than 256 MiB)", e->what());
}
#endif

BOOST_AUTO_TEST_CASE(errors_thrown_in_the_child_come_back_as_they_were) {
    ImportOptions o;
    o.contained_child_hook = throw_hook;
    auto e = modtest::catch_error([&] { (void)import_file(modtest::corpus("fbx/huesitos.fbx"), o); });
    BOOST_REQUIRE(e);
    BOOST_TEST((e->kind() == mod::ErrorKind::limit));
    BOOST_TEST(std::string(e->what()) == "inner.fbx: offset 0x40: skeleton[3]: too many bones");
    // And the importer's own refusals (missing file, Assimp refusing the data).
    auto missing = modtest::catch_error([&] { (void)import_file("no/such/file.fbx"); });
    BOOST_REQUIRE(missing);
    BOOST_TEST((missing->kind() == mod::ErrorKind::io));
    auto refused = modtest::catch_error([&] { (void)import_memory(mod::Bytes(100, 0x41), "junk.fbx"); });
    BOOST_REQUIRE(refused);
    BOOST_TEST((refused->kind() == mod::ErrorKind::format));
    BOOST_TEST(refused->message().find("Assimp cannot read it") != std::string::npos, refused->what());
}

BOOST_AUTO_TEST_CASE(output_over_the_limit_is_refused) {
    ImportOptions o;
    o.contained_output_bytes = 64;
    auto e = modtest::catch_error([&] { (void)import_file(modtest::corpus("fbx/huesitos.fbx"), o); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->message() == "the FBX importer failed on this file (produced more than 64 bytes)", e->what());
}

BOOST_AUTO_TEST_SUITE_END()
