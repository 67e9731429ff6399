// `modkit stadium replace` and the manifest's mesh.replace on the sample ROM: the export → replace
// round trip through real files, the FBX corpus with bone maps, --dry-run, the same bytes from
// both front ends, and bad sources refused with one line, exit 1–4, nothing written.
#include "jpeg_fixture.hpp"
#include "stadium_test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/scene/import.hpp"
#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/mesh_replace.hpp"
#include "libmod/stadium/palette_edit.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>
#include <fstream>


using namespace mod::stadium;
using mod::Bytes;
namespace fs = std::filesystem;
namespace sc = mod::scene;

namespace {

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

// Sorted (drawing bone, s16 position) corner triples, each rotated to its smallest corner.
std::vector<std::array<std::int32_t, 12>> keys(const Model& m) {
    std::vector<std::array<std::int32_t, 12>> out;
    for (const auto& t : m.triangles) {
        std::array<std::array<std::int32_t, 4>, 3> c{};
        for (int k = 0; k < 3; ++k) {
            const auto& v = m.vertices[t.corners[k].vertex].position;
            c[k] = {m.draws[t.corners[k].dl].bone, v[0], v[1], v[2]};
        }
        std::size_t f = 0;
        for (std::size_t k = 1; k < 3; ++k)
            if (c[k] < c[f]) f = k;
        std::array<std::int32_t, 12> key{};
        for (std::size_t k = 0; k < 3; ++k)
            for (std::size_t j = 0; j < 4; ++j) key[k * 4 + j] = c[(f + k) % 3][j];
        out.push_back(key);
    }
    std::sort(out.begin(), out.end());
    return out;
}

Model model_of(const fs::path& rom, std::size_t entry) {
    const StadiumRom r = load_rom(rom);
    return read_archive_model(read_archive(r), entry);
}

std::string base64(const Bytes& b) {
    static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string s;
    for (std::size_t i = 0; i < b.size(); i += 3) {
        const std::uint32_t n = (std::uint32_t(b[i]) << 16) | (i + 1 < b.size() ? std::uint32_t(b[i + 1]) << 8 : 0) |
                                (i + 2 < b.size() ? b[i + 2] : 0);
        s += t[(n >> 18) & 63];
        s += t[(n >> 12) & 63];
        s += i + 1 < b.size() ? t[(n >> 6) & 63] : '=';
        s += i + 2 < b.size() ? t[n & 63] : '=';
    }
    return s;
}

// A one-triangle glTF (rigid, no skin) with `x1` as the second vertex's x, textured with `image`
// (a file name beside it) when given.
std::string gltf(float x1, const std::string& image) {
    Bytes buf;
    auto f32 = [&](float v) {
        std::uint8_t b[4];
        std::memcpy(b, &v, 4);
        buf.insert(buf.end(), b, b + 4);
    };
    const float p[9] = {0, 0, 0, x1, 0, 0, 0, 10, 0};
    for (float v : p) f32(v);
    const float uv[6] = {0, 0, 1, 0, 0, 1};
    for (float v : uv) f32(v);
    for (std::uint16_t i : {0, 1, 2}) buf.push_back(std::uint8_t(i)), buf.push_back(0);
    buf.push_back(0), buf.push_back(0);
    std::string j = R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],)"
                    R"("meshes":[{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":1},"indices":2)";
    j += image.empty() ? "}]}]," : R"(,"material":0}]}],"materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}],)"
                                   R"("textures":[{"source":0}],"images":[{"uri":")" + image + R"("}],)";
    j += R"("buffers":[{"byteLength":68,"uri":"data:application/octet-stream;base64,)" + base64(buf) + R"("}],)"
         R"("bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":24},)"
         R"({"buffer":0,"byteOffset":60,"byteLength":6}],)"
         R"("accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[10,10,0]},)"
         R"({"bufferView":1,"componentType":5126,"count":3,"type":"VEC2"},)"
         R"({"bufferView":2,"componentType":5123,"count":3,"type":"SCALAR"}]})";
    return j;
}


}  // namespace

BOOST_AUTO_TEST_SUITE(mesh_replace_cli)

// `stadium export` then `stadium replace` with that file: the re-read model has the same
// triangles at the same s16 positions; the manifest op writes the same bytes; --dry-run prints
// the plan and writes nothing.
BOOST_AUTO_TEST_CASE(export_then_replace_round_trip) {
    modtest::TempDir dir;
    const std::string rom = stadiumtest::sample_rom().string();
    const std::size_t entry = 1;
    auto r = modtest::run_cli({"stadium", "export", rom, std::to_string(entry), (dir / "m.glb").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    r = modtest::run_cli({"stadium", "replace", rom, std::to_string(entry), (dir / "m.glb").string(), (dir / "out.z64").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("G_VTX loads") != std::string::npos, r.out);
    const Model before = model_of(rom, entry), after = model_of(dir / "out.z64", entry);
    BOOST_TEST(keys(after) == keys(before));
    BOOST_TEST(after.bones.size() == before.bones.size());
    // Other entries unchanged.
    const StadiumRom a = load_rom(rom), b = load_rom(dir / "out.z64");
    const Archive aa = read_archive(a), ab = read_archive(b);
    BOOST_TEST((decode_entry(aa, 0).content == decode_entry(ab, 0).content));

    // Before and after at one scale, posed in frame 2 of animation 0: two front+side pictures
    // (2 × 256 + 8 = 520 wide each) with 24 columns between them.
    r = modtest::run_cli({"stadium", "preview", (dir / "out.z64").string(), std::to_string(entry), (dir / "cmp.png").string(),
                          "--before", rom, "--pose", "0:2", "--json"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"width\": 1064") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("before|after") != std::string::npos, r.out);
    r = modtest::run_cli({"stadium", "preview", (dir / "out.z64").string(), std::to_string(entry), (dir / "p.png").string(),
                          "--pose", "99:0"});
    BOOST_TEST(r.exit_code == 1, r.err);

    // --dry-run: the plan, nothing written.
    r = modtest::run_cli({"stadium", "replace", rom, std::to_string(entry), (dir / "m.glb").string(), (dir / "dry.z64").string(),
                          "--dry-run"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("dry run: nothing written") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("stored entry: 0x") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("(limit 0x28000)") != std::string::npos, r.out);
    BOOST_TEST(!fs::exists(dir / "dry.z64"));

    // The manifest operation gives the same ROM.
    fs::copy_file(rom, dir / "base.z64");
    fs::copy_file(dir / "m.glb", dir / "src.glb");
    { std::ofstream(dir / "mod.json") << R"({"modkit": 1, "name": "mesh", "game": "pokemon-stadium",
      "inputs": {"rom": {"path": "base.z64"}}, "outputs": {"rom": "m.z64"},
      "edits": [{"id": "body", "op": "mesh.replace", "model": 1, "source": "src.glb"}]})"; }
    r = modtest::run_cli({"apply", (dir / "mod.json").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err + r.out);
    BOOST_TEST((modtest::read(dir / "m.z64") == modtest::read(dir / "out.z64")));
}

// Each FBX of the corpus replaces sample model 1's mesh with a bone map (source bone k → model
// bone k mod n), scaled so its largest coordinate is about 100 units.
BOOST_AUTO_TEST_CASE(corpus_fbx_with_a_bone_map) {
    const fs::path corpus = fs::path(MODKIT_SOURCE_DIR).parent_path() / "shared" / "corpus" / "fbx";
    BOOST_TEST_REQUIRE(fs::is_directory(corpus), corpus.string());
    modtest::TempDir dir;
    const std::string rom = stadiumtest::sample_rom().string();
    const Model target = model_of(rom, 1);
    const auto skeleton = target_skeleton(target);
    std::size_t done = 0;
    for (const auto& e : fs::directory_iterator(corpus)) {
        if (e.path().extension() != ".fbx") continue;
        sc::ImportOptions io;
        io.contained = false;
        const sc::Scene s = sc::import_file(e.path(), io);
        double extent = 0;
        std::size_t tris = 0;
        for (const auto& m : s.meshes) {
            tris += m.triangles.size();
            for (const auto& p : m.positions)
                for (float c : p) extent = std::max(extent, double(std::fabs(c)));
        }
        std::string map;
        for (std::size_t k = 0; k < s.skeleton.bones.size(); ++k)
            map += s.skeleton.bones[k].name + " = " + skeleton.bones[k % skeleton.bones.size()].name + "\n";
        const fs::path bones = dir / (e.path().stem().string() + ".txt"), out = dir / (e.path().stem().string() + ".z64");
        { std::ofstream(bones) << map; }
        char scale[32];
        std::snprintf(scale, sizeof scale, "%.6g", 100.0 / extent);
        auto r = modtest::run_cli({"stadium", "replace", rom, "1", e.path().string(), out.string(), "--bone-map", bones.string(),
                                   "--allow-scale-change", "--scale", scale, "--json"});
        BOOST_TEST_REQUIRE(r.exit_code == 0, e.path().filename().string() << ": " << r.err);
        const Model now = model_of(out, 1);
        BOOST_TEST(now.triangles.size() > 0u);
        BOOST_TEST(now.triangles.size() <= tris, e.path().filename().string());
        BOOST_TEST(r.out.find("\"triangles\": " + std::to_string(now.triangles.size())) != std::string::npos, r.out);
        BOOST_TEST(now.bones.size() == target.bones.size());
        BOOST_TEST(read_animations(now).skeletal.size() == read_animations(target).skeletal.size());
        BOOST_TEST_MESSAGE(e.path().filename().string() << ": " << r.out);
        ++done;
    }
    BOOST_TEST(done == 2u);
}

BOOST_AUTO_TEST_CASE(bad_sources_one_line_and_nothing_written) {
    modtest::TempDir dir;
    const std::string rom = stadiumtest::sample_rom().string();
    const fs::path out = dir / "out.z64";
    auto refused = [&](const fs::path& source, int code, const std::string& says, std::vector<std::string> extra = {}) {
        std::vector<std::string> args{"stadium", "replace", rom, "1", source.string(), out.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = modtest::run_cli(args);
        BOOST_TEST(r.exit_code == code, source.filename().string() << ": " << r.err);
        BOOST_TEST(lines(r.err) == 1u, r.err);
        BOOST_TEST(r.err.find(says) != std::string::npos, r.err);
        BOOST_TEST(!fs::exists(out));
    };
    // A rigid one-triangle glTF works (its vertices go to bone 0, with a warning).
    { std::ofstream(dir / "ok.gltf") << gltf(10, ""); }
    auto r = modtest::run_cli({"stadium", "replace", rom, "1", (dir / "ok.gltf").string(), out.string(), "--allow-scale-change"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("carry no weight") != std::string::npos, r.err);
    fs::remove(out);
    // NaN position.
    { std::ofstream(dir / "nan.gltf") << gltf(NAN, ""); }
    refused(dir / "nan.gltf", 2, "nan.gltf");
    // A texture the PNG reader refuses.
    { std::ofstream(dir / "bad.png") << "\x89PNG\r\n\x1a\nnot really"; }
    { std::ofstream(dir / "tex.gltf") << gltf(10, "bad.png"); }
    refused(dir / "tex.gltf", 2, "bad.png", {"--allow-scale-change"});
    // A damaged JPEG texture: libjpeg's message.
    { std::ofstream(dir / "pic.jpg") << "\xFF\xD8\xFF\xE0 jpeg"; }
    { std::ofstream(dir / "jpg.gltf") << gltf(10, "pic.jpg"); }
    refused(dir / "jpg.gltf", 2, "JPEG", {"--allow-scale-change"});
    // A good JPEG texture (glTF allows PNG and JPEG): a colour texture, planned as CI.
    mod::write_file_atomic(dir / "good.jpg", modtest::jpeg_gradient(32, 16, false, 95));
    { std::ofstream(dir / "good.gltf") << gltf(10, "good.jpg"); }
    r = modtest::run_cli({"stadium", "replace", rom, "1", (dir / "good.gltf").string(), out.string(), "--allow-scale-change",
                          "--dry-run", "--json"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"source\": \"good.jpg\"") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("\"width\": 32,") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("\"height\": 16,") != std::string::npos, r.out);
    BOOST_TEST((r.out.find("\"format\": \"ci8\"") != std::string::npos || r.out.find("\"format\": \"ci4\"") != std::string::npos), r.out);
    BOOST_TEST(!fs::exists(out));
    // Only unmapped bones.
    sc::Scene s;
    for (const char* n : {"Hips", "Tail"}) {
        sc::Bone b;
        b.name = n;
        s.skeleton.bones.push_back(b);
    }
    s.skeleton.bones[1].parent = 0;
    sc::Mesh m;
    m.name = "body";
    m.positions = {{0, 0, 0}, {10, 0, 0}, {0, 10, 0}};
    m.normals.assign(3, {0, 0, 1});
    m.uv0.assign(3, {0, 0});
    m.uv1.assign(3, {0, 0});
    m.tangents.assign(3, {1, 0, 0, 1});
    m.influences.push_back({{0, 1.0f}});
    m.influences.push_back({{1, 1.0f}});
    m.influences.push_back({{1, 1.0f}});
    m.triangles = {{0, 1, 2}};
    s.meshes.push_back(m);
    s.materials.push_back("mat");
    sc::export_file(s, dir / "bones.glb");
    refused(dir / "bones.glb", 2, "'Hips'", {"--allow-scale-change"});
    // No mesh: a glTF with one empty node.
    { std::ofstream(dir / "empty.gltf") << R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"name":"a"}]})"; }
    r = modtest::run_cli({"stadium", "replace", rom, "1", (dir / "empty.gltf").string(), out.string()});
    BOOST_TEST(r.exit_code >= 1);
    BOOST_TEST(r.exit_code <= 4);
    BOOST_TEST(lines(r.err) == 1u, r.err);
    BOOST_TEST(!fs::exists(out));
    // A truncated FBX.
    const fs::path fbx = fs::path(MODKIT_SOURCE_DIR).parent_path() / "shared" / "corpus" / "fbx" / "huesitos.fbx";
    Bytes half = modtest::read(fbx);
    half.resize(half.size() / 2);
    mod::write_file_atomic(dir / "half.fbx", half);
    r = modtest::run_cli({"stadium", "replace", rom, "1", (dir / "half.fbx").string(), out.string()});
    BOOST_TEST(r.exit_code >= 1);
    BOOST_TEST(r.exit_code <= 4);
    BOOST_TEST(lines(r.err) == 1u, r.err);
    BOOST_TEST(!fs::exists(out));
    // Usage: no model, no out.
    r = modtest::run_cli({"stadium", "replace", rom});
    BOOST_TEST(r.exit_code == 1);
    r = modtest::run_cli({"stadium", "replace", rom, "99", (dir / "ok.gltf").string(), out.string()});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(!fs::exists(out));
    // A missing source: io.
    refused(dir / "missing.glb", 4, "missing.glb");
}

// Issue 30 item 4: a source that draws what the model already draws keeps the ROM byte for byte.
// Every model of the sample, forge-written, through the real exporter: export -> replace gives
// the input ROM, "unchanged" in the result (the source is compared with the model's own export at
// steps far below what the model stores, so the rebuild's different encoding of mixed lit/unlit
// materials, 256-colour CI textures and texture-animation channels does not matter). A model the
// builder wrote is its own fixpoint too, and --rebuild rebuilds. A source scaled by 1 % on
// import, or given through a bone map (which may move weights between bones named alike), is an
// edit and is rebuilt.
BOOST_AUTO_TEST_CASE(a_source_that_draws_what_the_model_draws_keeps_the_rom) {
    modtest::TempDir dir;
    const std::string rom = stadiumtest::sample_rom().string();
    const auto original = modtest::read(rom);
    for (int i = 0; i < 14; ++i) {
        const std::string model = std::to_string(i);
        const fs::path glb = dir / "orig.glb", once = dir / "once.z64";
        auto r = modtest::run_cli({"stadium", "export", rom, model, glb.string()});
        BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
        r = modtest::run_cli({"stadium", "replace", rom, model, glb.string(), once.string(), "--json"});
        BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
        BOOST_TEST(r.out.find("\"unchanged\": true") != std::string::npos, "model " << model << ": " << r.out.substr(0, 300));
        BOOST_TEST((modtest::read(once) == original), "model " << model);
    }
    for (const std::string model : {"1", "3"}) {
        const fs::path glb = dir / "orig.glb", once = dir / "once.z64", back = dir / "back.glb", twice = dir / "twice.z64";
        auto r = modtest::run_cli({"stadium", "export", rom, model, glb.string()});
        BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
        // 1 % larger: an edit.
        r = modtest::run_cli({"stadium", "replace", rom, model, glb.string(), once.string(), "--scale", "1.01", "--json"});
        BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
        BOOST_TEST(r.out.find("\"unchanged\": false") != std::string::npos, r.out);
        BOOST_TEST((modtest::read(once) != original));
        // Through a bone map that swaps two bones named alike in source and model: an edit (the
        // weights move), though every name matches.
        // (The sample's export names bones "bone<i>_id<i>".)
        modtest::write_text_file(dir / "map.txt", "bone1_id1 = bone2_id2\nbone2_id2 = bone1_id1\n");
        r = modtest::run_cli({"stadium", "replace", rom, model, glb.string(), twice.string(), "--bone-map", (dir / "map.txt").string(), "--json"});
        BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
        BOOST_TEST(r.out.find("\"unchanged\": false") != std::string::npos, r.out);
        // The builder's output is its own fixpoint: export -> replace keeps it; --rebuild rebuilds.
        r = modtest::run_cli({"stadium", "export", twice.string(), model, back.string()});
        BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
        r = modtest::run_cli({"stadium", "replace", twice.string(), model, back.string(), once.string(), "--json"});
        BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
        BOOST_TEST(r.out.find("\"unchanged\": true") != std::string::npos, r.out);
        BOOST_TEST((modtest::read(once) == modtest::read(twice)), "model " << model);
        r = modtest::run_cli({"stadium", "replace", twice.string(), model, back.string(), once.string(), "--rebuild"});
        BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
        BOOST_TEST(r.out.find("rebuilt anyway (--rebuild)") != std::string::npos, r.out);
    }
}

BOOST_AUTO_TEST_SUITE_END()
