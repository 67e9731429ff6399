// Issue 17, "a forge that can fail", Stadium review §5.3 item 7: the sample's model 5 runs its
// layout through 0x00 (branch and link), 0x03 (branch), 0x02 (jump), 0x01 and 0x04, and draws
// through the DL nodes 0x20 (own rotation and translation) and 0x21 (billboard), laid out as
// src/geo_layout.c reads them (libmod/src/sample/stadium_cases.cpp). The expected values are
// computed here by hand from geo_layout.c, src/11BA0.c, src/12D80.c and src/F420.c.
#include "stadium_test_support.hpp"

#include "libmod/sample/stadium.hpp"
#include "libmod/scene/model.hpp"
#include "libmod/stadium/builder.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/model.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <numbers>

using namespace mod::stadium;

namespace {

// Column-vector 4x4, row-major.
using M4 = std::array<double, 16>;
M4 mul(const M4& a, const M4& b) {
    M4 m{};
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            for (int k = 0; k < 4; ++k) m[r * 4 + c] += a[r * 4 + k] * b[k * 4 + c];
    return m;
}
M4 translate(double x, double y, double z) { return {1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z, 0, 0, 0, 1}; }
M4 rot_x(double a) { return {1, 0, 0, 0, 0, std::cos(a), -std::sin(a), 0, 0, std::sin(a), std::cos(a), 0, 0, 0, 0, 1}; }
M4 rot_y(double a) { return {std::cos(a), 0, std::sin(a), 0, 0, 1, 0, 0, -std::sin(a), 0, std::cos(a), 0, 0, 0, 0, 1}; }
M4 rot_z(double a) { return {std::cos(a), -std::sin(a), 0, 0, std::sin(a), std::cos(a), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; }
std::array<double, 3> apply(const M4& m, const std::array<double, 3>& v) {
    return {m[0] * v[0] + m[1] * v[1] + m[2] * v[2] + m[3], m[4] * v[0] + m[5] * v[1] + m[6] * v[2] + m[7],
            m[8] * v[0] + m[9] * v[1] + m[10] * v[2] + m[11]};
}

// Whether some exported position equals p (within tol).
bool exported(const mod::scene::Scene& s, const std::array<double, 3>& p, double tol = 1e-3) {
    for (const auto& m : s.meshes)
        for (const auto& q : m.positions)
            if (std::fabs(q[0] - p[0]) < tol && std::fabs(q[1] - p[1]) < tol && std::fabs(q[2] - p[2]) < tol) return true;
    return false;
}

constexpr double binary = std::numbers::pi / 32768.0;  // radians per binary-angle unit
// The angle the game's sine table gives a binary angle: SINS(x) = gSineTable[(u16)x >> 4]
// (include/math.h:30-31), entry i = sin(2πi / 4096): x truncated to a multiple of 16 (as u16).
double table_radians(int x) { return double((std::uint16_t(x) >> 4) << 4) * binary; }

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_forge_layout)

// The commands in the order the game runs them: 00 enters A, 01 returns after the 00, 03
// enters B, 04 returns after the 03, 02 jumps to C whose 01 ends the script. The recorded
// level (gCurGraphNodeIndex) at 03 is 3: A's 01 restored the level its 00 was called at
// (17 at 0, 05, 1C at 1, 05, bone 0 at 2, 05). Since issue 35 the 0x17 header is the one
// level-0 node (the game's root rule): the layout starts 17 05 1C 05 and C closes three levels.
BOOST_AUTO_TEST_CASE(sample_layout_runs_branches_as_the_game) {
    const Model model = read_model(mod::sample::stadium_model(5));
    std::vector<int> ops;
    std::uint32_t depth_at_03 = 99;
    for (const auto& c : model.commands) {
        ops.push_back(c.op);
        if (c.op == 0x03) depth_at_03 = c.depth;
    }
    const std::vector<int> expected = {0x17, 0x05, 0x1C, 0x05, 0x1D, 0x05, 0x23, 0x22, 0x00, 0x1D, 0x05, 0x23, 0x22, 0x20,
                                       0x21, 0x01, 0x03, 0x1D, 0x05, 0x23, 0x22, 0x06, 0x04, 0x1E, 0x02, 0x06, 0x06, 0x06, 0x01};
    BOOST_TEST(ops == expected, boost::test_tools::per_element());
    BOOST_TEST(depth_at_03 == 3u);
    BOOST_TEST(model.findings.empty());
    // Bone 2 is opened at the level 01 restored: bone 0's child, bone 1's sibling.
    BOOST_REQUIRE_EQUAL(model.bones.size(), 3u);
    BOOST_TEST(model.bones[0].parent == -1);
    BOOST_TEST(model.bones[1].parent == 0);
    BOOST_TEST(model.bones[2].parent == 0);
    // Draws: 22 (bone 0), 22 (bone 1), 20 and 21 under bone 1, 22 (bone 2), 1E (bone 0).
    BOOST_REQUIRE_EQUAL(model.draws.size(), 6u);
    const int draw_ops[6] = {0x22, 0x22, 0x20, 0x21, 0x22, 0x1E};
    const int draw_bones[6] = {0, 1, 1, 1, 2, 0};
    for (int i = 0; i < 6; ++i) {
        BOOST_TEST(model.draws[i].op == draw_ops[i]);
        BOOST_TEST(model.draws[i].bone == draw_bones[i]);
    }
    BOOST_TEST(model.draws[2].node == 0);
    BOOST_TEST(model.draws[3].node == 1);
    BOOST_TEST(model.draws[0].node == -1);
    // The cross-check still finds every pointer (the branch targets included).
    BOOST_TEST(cross_check(model.fragment, model.map).ok());
}

// 0x20's fields and the handler's conversion (d << 15) / 180 with C's truncating division:
// 20° → 655360 / 180 = 3640.9 → 3640; −20° → −3640; 90° → 16384. 0x21: translation at +2,
// scale 0x00018000 at +8 (1.5).
BOOST_AUTO_TEST_CASE(sample_dl_nodes_hold_the_game_fields) {
    const Model model = read_model(mod::sample::stadium_model(5));
    BOOST_REQUIRE_EQUAL(model.nodes.size(), 2u);
    const ModelNode& n = model.nodes[0];
    BOOST_TEST(n.op == 0x20);
    BOOST_TEST(n.bone == 1);
    BOOST_TEST(n.parent == -1);
    BOOST_TEST(n.degrees == (std::array<std::int16_t, 3>{20, -20, 90}));
    BOOST_TEST(n.translation == (std::array<std::int16_t, 3>{5, 10, -15}));
    BOOST_TEST(n.rotation() == (std::array<std::int16_t, 3>{3640, -3640, 16384}));
    const ModelNode& b = model.nodes[1];
    BOOST_TEST(b.op == 0x21);
    BOOST_TEST(b.bone == 1);
    BOOST_TEST(b.translation == (std::array<std::int16_t, 3>{10, -20, 30}));
    BOOST_TEST(b.scale == 0x18000u);
}

// Export places the 0x20 draw at bind(bone 1) · T(5, 10, −15) · Ry(−3640) · Rx(3640) · Rz(16384)
// (func_8000F2C4 in column form; the sines from the game's table: 3640 → 3632, −3640 (u16 61896)
// → 61888 = −3648, 16384 exact) and the 0x21 billboard at 1.5 · v + bind(bone 1) · (10, −20, 30)
// (func_8000F88C with an identity view: bone 1's rows have length 1, its rotation is dropped).
// bind(bone 1) = T(0, 60, 0) · Ry(0x4000): bone 0 is the identity (root scale 1.0).
BOOST_AUTO_TEST_CASE(sample_dl_nodes_export_with_their_transform) {
    const Model model = read_model(mod::sample::stadium_model(5));
    const mod::scene::Scene s = model_scene(model);
    const M4 bone1 = mul(translate(0, 60, 0), rot_y(0x4000 * binary));
    BOOST_TEST(table_radians(-3640) == -3648 * binary + 2 * std::numbers::pi);
    const M4 node = mul(mul(mul(translate(5, 10, -15), rot_y(table_radians(-3640))), rot_x(table_radians(3640))),
                        rot_z(table_radians(16384)));
    const M4 with_node = mul(bone1, node);
    // The exact angles (what export used before issue 35) move a corner by about 0.01: too far.
    // (The degree conversion's truncation, 3640 not 3641, is checked on the fields above; the
    // table maps both to entry 227.)
    const M4 exact = mul(bone1, mul(mul(mul(translate(5, 10, -15), rot_y(-3640 * binary)), rot_x(3640 * binary)),
                                      rot_z(16384 * binary)));
    // bind(bone 1) · (10, −20, 30) = Ry(90°) · (10, −20, 30) + (0, 60, 0) = (30, 40, −10).
    const std::array<double, 3> billboard_at{30, 40, -10};
    const auto t = apply(bone1, {10, -20, 30});
    BOOST_TEST(std::fabs(t[0] - 30) < 1e-9);
    BOOST_TEST(std::fabs(t[1] - 40) < 1e-9);
    BOOST_TEST(std::fabs(t[2] + 10) < 1e-9);
    // The wrapper DL draws bone 0's box: vertices 0..7.
    int exact_found = 0;
    for (std::size_t c = 0; c < 8; ++c) {
        const auto& p = model.vertices[c].position;
        const std::array<double, 3> v{double(p[0]), double(p[1]), double(p[2])};
        BOOST_TEST(exported(s, apply(with_node, v)), "corner " << c << " under the 0x20 node");
        exact_found += exported(s, apply(exact, v), 1e-4);
        const std::array<double, 3> b{1.5 * v[0] + billboard_at[0], 1.5 * v[1] + billboard_at[1], 1.5 * v[2] + billboard_at[2]};
        BOOST_TEST(exported(s, b), "corner " << c << " of the 0x21 billboard");
    }
    BOOST_TEST(exact_found == 0);
    bool warned = false;
    for (const auto& w : s.warnings) warned = warned || w.find("0x21") != std::string::npos;
    BOOST_TEST(warned);
}

// The game's control flow on crafted scripts (geo_layout.c): a 01 with no 00 pending ends the
// whole script even inside a 03 (the commands after the 03 never run); a 04 that pops the frame
// word a 00 pushed is refused (the game would jump to it).
BOOST_AUTO_TEST_CASE(layout_end_and_return_follow_the_game_stack) {
    auto build = [](bool ret_after_00) {
        ModelBuilder m(9);
        const auto pal = m.add_palette(std::vector<std::uint16_t>(16, 0xFFFF));
        const auto tex = m.add_texture(TexFormat::ci, TexSize::b4, 8, 8, mod::Bytes(32, 0x12));
        const auto mat = m.add_material_dl(tex);
        std::vector<Vertex> v(3);
        v[1].x = 10;
        v[2].y = 10;
        const auto first = m.add_vertices(v);
        DisplayList dl;
        dl.vtx(first, 3, 0).tri1(0, 1, 2).end();
        const auto g = m.add_display_list(std::move(dl));
        auto& s = m.layout();
        const auto sub = s.new_label();
        s.model_header().open().bone(0, 0, 0, {}, {}).open().material(1, -1, mat, tex, pal, 0xFFFFFFFF);
        if (ret_after_00) s.branch_and_link(sub); else s.branch(sub);
        s.bone(1, 0, 1, {}, {}).close().close().end();  // runs only if the sub-script returns
        s.place(sub).draw(1, g);
        if (ret_after_00) s.ret(); else s.end();
        return m.build();
    };
    const Model ended = read_model(build(false));
    BOOST_TEST(ended.bones.size() == 1u);  // 03 … 01: the script ended, bone 1 never made
    BOOST_TEST(ended.draws.size() == 1u);
    const auto e = modtest::catch_error([&] { read_model(build(true)); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::format);
    BOOST_TEST(std::string(e->what()).find("frame word") != std::string::npos, e->what());
}

BOOST_AUTO_TEST_SUITE_END()
