// The sample forge's animation cases, the battle tables, `stadium animations` / `stadium moves`,
// and the glTF export of animations: joint globals rebuilt from the glb's keys are compared with
// the game's matrix (T · Rz · Ry · Rx · S, §4.7) evaluated here with textbook rotation matrices.
#include "stadium_test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/rapidjson.hpp"
#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/battle_table.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/palette_edit.hpp"

#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <numbers>
#include <set>

using namespace mod::stadium;
namespace fs = std::filesystem;
using modtest::catch_error;
using modtest::run_cli;

namespace {

using M4 = std::array<double, 16>;  // row-major, column vectors

M4 mul(const M4& a, const M4& b) {
    M4 m{};
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            for (int k = 0; k < 4; ++k) m[r * 4 + c] += a[r * 4 + k] * b[k * 4 + c];
    return m;
}
M4 ident() { return {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; }

// The game's local matrix for a pose: T · Rz · Ry · Rx · S with binary angles (65536 = 360°)
// looked up in the game's sine table, SINS(x) = gSineTable[(u16)x >> 4] (include/math.h:30-31):
// the angle truncated to a multiple of 16 units (the table's entry i is sin(2πi / 4096)).
M4 game_local(const ChannelPose& p) {
    const double k = std::numbers::pi / 32768.0;
    auto table = [&](std::int16_t a) { return double((std::uint16_t(a) >> 4) << 4) * k; };
    const double x = table(p.rotation[0]), y = table(p.rotation[1]), z = table(p.rotation[2]);
    M4 t = ident(), rx = ident(), ry = ident(), rz = ident(), s = ident();
    t[3] = p.translation[0], t[7] = p.translation[1], t[11] = p.translation[2];
    rx[5] = std::cos(x), rx[6] = -std::sin(x), rx[9] = std::sin(x), rx[10] = std::cos(x);
    ry[0] = std::cos(y), ry[2] = std::sin(y), ry[8] = -std::sin(y), ry[10] = std::cos(y);
    rz[0] = std::cos(z), rz[1] = -std::sin(z), rz[4] = std::sin(z), rz[5] = std::cos(z);
    s[0] = p.scale[0], s[5] = p.scale[1], s[10] = p.scale[2];
    return mul(t, mul(rz, mul(ry, mul(rx, s))));
}

M4 trs(const double* t, const double* q, const double* s) {
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    M4 m = ident();
    const double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                            {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                            {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) m[i * 4 + j] = r[i][j] * s[j];
        m[i * 4 + 3] = t[i];
    }
    return m;
}

struct Glb {
    rapidjson::Document json;
    mod::Bytes bin;
    explicit Glb(const fs::path& file) {
        const mod::Bytes b = mod::read_file(file);
        std::uint32_t jlen;
        std::memcpy(&jlen, &b[12], 4);
        json.Parse(reinterpret_cast<const char*>(&b[20]), jlen);
        BOOST_REQUIRE(!json.HasParseError());
        std::uint32_t blen;
        std::memcpy(&blen, &b[20 + jlen], 4);
        bin.assign(b.begin() + 28 + jlen, b.begin() + 28 + jlen + blen);
    }
    std::vector<float> floats(unsigned accessor) const {
        const auto& a = json["accessors"][accessor];
        const auto& v = json["bufferViews"][a["bufferView"].GetUint()];
        std::vector<float> out(v["byteLength"].GetUint() / 4);
        std::memcpy(out.data(), &bin[v["byteOffset"].GetUint()], out.size() * 4);
        return out;
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(animation_sample)

BOOST_AUTO_TEST_CASE(sample_holds_every_case) {
    const stadiumtest::SampleRom r;
    std::set<std::string> seen;
    for (std::size_t e = 0; e < r.archive.entries.size(); ++e) {
        const Model m = read_archive_model(r.archive, e);
        const auto anims = read_animations(m);
        BOOST_TEST(anims.findings.empty(), "entry " << e << ": " << (anims.findings.empty() ? "" : anims.findings[0]));
        for (std::size_t b = 0; b < m.bones.size(); ++b) {
            BOOST_TEST(m.bones[b].channel != b);
            if (m.bones[b].channel == 0xFF) seen.insert("0xFF bone");
        }
        for (const auto& a : anims.skeletal) {
            seen.insert(a.hermite() ? "hermite" : a.trans16() ? "packed16" : "packed12");
            seen.insert(a.hold() ? "hold" : "loop");
            for (std::size_t d = 0; d < a.descriptors.size(); ++d)
                for (Component c : {Component::scale, Component::rotation, Component::translation})
                    seen.insert(std::string(to_string(c)) + " " + component_kind(a, d, c));
        }
        for (const auto& a : anims.aux)
            if (a.channels.size() >= 2) seen.insert("aux with several channels");
    }
    for (const char* want : {"0xFF bone", "hermite", "packed16", "packed12", "hold", "loop", "aux with several channels",
                             "scale constant", "scale stream", "scale stream@off-1", "scale keys", "scale wide keys",
                             "rotation constant", "rotation stream", "rotation stream@off-1", "rotation keys",
                             "rotation wide keys", "translation constant", "translation stream", "translation keys",
                             "translation wide keys"})
        BOOST_TEST(seen.count(want) == 1u, want);
    // Entry 0, animation 0, channel 0: y translation constant 0xAFC0 → low 12 bits 0xFC0 → −64;
    // y rotation constant 0xC00 → ×16 = 0xC000 → −16384; x rotation field 1 = 300 → 4800.
    const Model m0 = read_archive_model(r.archive, 0);
    const auto a0 = read_skeletal_animation(m0, 0);
    BOOST_TEST(sample_channel(a0, 0, 0).translation[1] == -64);
    BOOST_TEST(sample_channel(a0, 0, 0).rotation[1] == -16384);
    BOOST_TEST(sample_channel(a0, 0, 1).rotation[0] == 4800);
}

BOOST_AUTO_TEST_CASE(battle_tables) {
    const auto& rom = stadiumtest::sample_rom_bytes();
    const BattleTables t = read_battle_tables(rom, "sample.z64");
    BOOST_TEST(t.words.size() == 156u);
    BOOST_TEST_REQUIRE(t.species.size() == 153u);  // indices 0..152; 153..155 are zero
    BOOST_TEST(t.species[152].index == 152u);
    BOOST_TEST(t.species[152].rom == 0x70D3A0u + 14 * 0xB90);
    BOOST_TEST(t.species[3].rom == 0x70D3A0u + 3 * 0xB90);
    // The forge's rows (stadium-sample.md): move m plays skeletal (m − 1) % count, aux
    // (m / 2) % 2 on even moves of models with texture animations, start frame m % 3.
    const BattleRow& row = t.species[0].rows[1];  // move 2 of model 0 (3 skeletal, 2 aux)
    BOOST_TEST(row.move == 2u);
    BOOST_TEST(row.skeletal() == 1u);
    BOOST_TEST(row.aux().value() == 1u);
    BOOST_TEST(row.start_frame() == 2u);
    BOOST_TEST(!t.species[1].rows[0].aux().has_value());  // model 1 has no texture animations
    // The bytes as stored at 0x767D0 and 0x70D3A0 + word.
    BOOST_TEST(mod::endian::load_be32(&rom[0x767D0 + 4 * 3]) == 3u * 0xB90);
    BOOST_TEST(rom[0x70D3A0 + 3 * 0xB90 + 16 * 4] == t.species[3].rows[4].raw[0]);
    // A ROM too small for the table, and a word naming rows past the image.
    auto small = catch_error([] { read_battle_tables(mod::Bytes(0x1000, 0), "small.z64"); });
    BOOST_TEST(small->kind() == mod::ErrorKind::format);
    BOOST_TEST(std::string(small->what()).find("battle pointer table") != std::string::npos);
    mod::Bytes bad(rom.begin(), rom.begin() + 0x800000);
    mod::endian::store_be32(&bad[0x767D0 + 8], 0xFFFFF0);
    auto far = catch_error([&] { read_battle_tables(bad, "bad.z64"); });
    BOOST_TEST(std::string(far->what()).find("battle_table[2]") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(cli_lists_and_dumps) {
    const std::string rom = stadiumtest::sample_rom().string();
    auto r = run_cli({"stadium", "animations", rom, "0", "--json", "--dump"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    rapidjson::Document d;
    d.Parse(r.out.c_str());
    BOOST_TEST_REQUIRE(d["skeletal"].Size() == 3u);
    BOOST_TEST(std::string(d["skeletal"][2]["mode"].GetString()) == "hermite");
    BOOST_TEST(d["skeletal"][0]["frames"].Size() == d["skeletal"][0]["frame_count"].GetUint());
    BOOST_TEST(d["skeletal"][0]["frames"][0][0]["t"][1].GetDouble() == -64.0);
    BOOST_TEST(d["aux"][1]["channels"].Size() == 3u);
    r = run_cli({"stadium", "moves", rom, "152"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find("species index 152") != std::string::npos);
    modtest::TempDir dir;
    const fs::path small = dir / "small.z64";
    mod::Bytes head(stadiumtest::sample_rom_bytes().begin(), stadiumtest::sample_rom_bytes().begin() + 0x40000);
    mod::write_file_atomic(small, head);
    r = run_cli({"stadium", "moves", small.string()});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.err.find("too small for the battle pointer table") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(export_joints_follow_the_game_matrices) {
    const stadiumtest::SampleRom r;
    const BattleTables tables = read_battle_tables(r.rom.z64);
    modtest::TempDir dir;
    for (std::size_t entry : {std::size_t(0), std::size_t(3)}) {
        const Model m = read_archive_model(r.archive, entry);
        const auto anims = read_animations(m);
        ExportAnimations opt;
        opt.enabled = true;
        opt.tables = &tables;
        opt.entry = entry;
        const fs::path out = dir / ("m" + std::to_string(entry) + ".glb");
        const ModelExport e = export_model(m, out, {}, opt);
        BOOST_TEST(e.animations == anims.skeletal.size() + anims.aux.size());
        const Glb g(out);
        const auto& nodes = g.json["nodes"];
        std::vector<int> parent(nodes.Size(), -1);
        for (unsigned n = 0; n < nodes.Size(); ++n)
            if (nodes[n].HasMember("children"))
                for (const auto& c : nodes[n]["children"].GetArray()) parent[c.GetUint()] = int(n);
        for (const auto& a : anims.skeletal) {
            const auto& ga = g.json["animations"][unsigned(a.index)];
            // Moves play every animation but the last, which only context rows 0xA50 and 0xB20
            // play (stadium-sample.md, issue 33).
            const bool last = a.index + 1 == anims.skeletal.size() && anims.skeletal.size() > 1;
            BOOST_TEST(std::string(ga["name"].GetString()).rfind("anim" + std::to_string(a.index) + (last ? " (rows " : " (moves "), 0) == 0u,
                       ga["name"].GetString());
            BOOST_TEST(ga["extras"]["modkit_skeletal"]["hold"].GetBool() == a.hold());
            BOOST_TEST(ga["extras"]["modkit_skeletal"]["loop_frame"].GetInt() == a.loop_frame);
            for (std::int32_t f : {0, 1, a.frame_count - 1}) {
                // Node TRS at key f (key times are f / 30).
                std::vector<std::array<double, 10>> node_trs(nodes.Size(), {0, 0, 0, 0, 0, 0, 1, 1, 1, 1});
                std::vector<bool> animated(nodes.Size(), false);
                for (const auto& ch : ga["channels"].GetArray()) {
                    const unsigned node = ch["target"]["node"].GetUint();
                    const std::string path = ch["target"]["path"].GetString();
                    const auto& sm = ga["samplers"][ch["sampler"].GetUint()];
                    const auto times = g.floats(sm["input"].GetUint());
                    BOOST_TEST_REQUIRE(std::abs(times.at(std::size_t(f)) - f / 30.0) < 1e-6);
                    const auto v = g.floats(sm["output"].GetUint());
                    animated[node] = true;
                    if (path == "translation") for (int k = 0; k < 3; ++k) node_trs[node][k] = v[3 * f + k];
                    if (path == "rotation") for (int k = 0; k < 4; ++k) node_trs[node][3 + k] = v[4 * f + k];
                    if (path == "scale") for (int k = 0; k < 3; ++k) node_trs[node][7 + k] = v[3 * f + k];
                }
                const auto poses = sample_bones(m, a, f);
                std::vector<M4> want(m.bones.size());
                for (std::size_t b = 0; b < m.bones.size(); ++b) {
                    BOOST_TEST_REQUIRE(m.bones[b].flags == 0);  // the sample's bones take the default path
                    BOOST_TEST_REQUIRE(animated[b]);
                    want[b] = m.bones[b].parent >= 0 ? mul(want[std::size_t(m.bones[b].parent)], game_local(poses[b]))
                                                     : game_local(poses[b]);
                    M4 got = ident();
                    for (int n = int(b); n >= 0; n = parent[std::size_t(n)])
                        got = mul(trs(&node_trs[std::size_t(n)][0], &node_trs[std::size_t(n)][3], &node_trs[std::size_t(n)][7]), got);
                    double scale = 1;
                    for (int k = 0; k < 12; ++k) scale = std::max(scale, std::abs(want[b][k]));
                    for (int k = 0; k < 12; ++k)
                        BOOST_TEST(std::abs(got[k] - want[b][k]) <= 1e-4 * scale,
                                   "entry " << entry << " anim " << a.index << " frame " << f << " bone " << b << " [" << k << "]");
                }
            }
        }
        // Texture animations: the switch joint of texture T on material M has scale 1 exactly on
        // the frames whose aux value for M's channel is T.
        for (const auto& a : anims.aux) {
            const auto& ga = g.json["animations"][unsigned(anims.skeletal.size() + a.index)];
            BOOST_TEST(std::string(ga["name"].GetString()).rfind("texanim" + std::to_string(a.index), 0) == 0u);
            const auto& per = ga["extras"]["modkit_texture_animation"]["textures_per_frame"];
            std::size_t checked = 0;
            for (const auto& ch : ga["channels"].GetArray()) {
                const std::string name = nodes[ch["target"]["node"].GetUint()]["name"].GetString();
                unsigned mat = 0, tex = 0;
                BOOST_TEST_REQUIRE(std::sscanf(name.c_str(), "texswitch_mat%u_tex%u_", &mat, &tex) == 2);
                const auto v = g.floats(ga["samplers"][ch["sampler"].GetUint()]["output"].GetUint());
                BOOST_TEST(std::string(ga["samplers"][ch["sampler"].GetUint()]["interpolation"].GetString()) == "STEP");
                const auto channel = std::size_t(m.materials[mat].texture_channel);
                for (std::int32_t f = 0; f < a.frame_count; ++f) {
                    const unsigned shown = channel < a.channels.size() ? sample_aux(a, channel, f) : unsigned(m.materials[mat].texture);
                    BOOST_TEST(per[unsigned(f)][unsigned(std::min<std::size_t>(channel, a.channels.size() - 1))].GetUint() ==
                               unsigned(sample_aux(a, std::min<std::size_t>(channel, a.channels.size() - 1), f)));
                    BOOST_TEST(v[3 * std::size_t(f)] == (shown == tex ? 1.0f : 0.0f));
                    ++checked;
                }
            }
            BOOST_TEST(checked > 0u);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
