// mod::render: pixel-exact tests on hand-built scenes (render.hpp defines every rule used here),
// and the composition helpers (the `preview` commands: test_preview_cli.cpp).
#include "test_support.hpp"

#include "libmod/render/render.hpp"
#include "libmod/sample/shred.hpp"
#include "libmod/shred/import.hpp"
#include "libmod/shred/pak.hpp"

#include <algorithm>
#include <limits>
#include <sstream>

using namespace mod;
using render::RenderOptions;
using render::View;
using image::Rgba8;

namespace {

constexpr Rgba8 bg{40, 44, 52, 255};  // RenderOptions' default background
constexpr Rgba8 red{255, 0, 0, 255}, green{0, 255, 0, 255}, blue{0, 0, 255, 255}, yellow{255, 255, 0, 255};

Rgba8 pixel(const image::RgbaImage& im, std::uint32_t x, std::uint32_t y) {
    BOOST_REQUIRE(x < im.width && y < im.height);
    return im.at(std::size_t(y) * im.width + x);
}

std::string text(Rgba8 c) {
    std::ostringstream out;
    out << '(' << int(c.r) << ',' << int(c.g) << ',' << int(c.b) << ',' << int(c.a) << ')';
    return out.str();
}

#define CHECK_PIXEL(im, x, y, expected)                                                                       \
    do {                                                                                                      \
        const Rgba8 got_ = pixel(im, x, y);                                                         \
        const Rgba8 want_ = (expected);                                               \
        BOOST_CHECK_MESSAGE(got_ == want_, "pixel (" << (x) << "," << (y) << ") is " << text(got_)            \
                                                     << ", expected " << text(want_));                        \
    } while (0)

// A mesh of quads/triangles: positions, triangles, optional uv0.
scene::Mesh quad_mesh(float z, std::uint32_t material, scene::Vec2 uv_min = {0, 0}, scene::Vec2 uv_max = {1, 1}) {
    scene::Mesh m;
    m.material = material;
    // Corners: bottom-left, bottom-right, top-right, top-left (counter-clockwise seen from +Z).
    m.positions = {{-1, -1, z}, {1, -1, z}, {1, 1, z}, {-1, 1, z}};
    m.uv0 = {{uv_min[0], uv_min[1]}, {uv_max[0], uv_min[1]}, {uv_max[0], uv_max[1]}, {uv_min[0], uv_max[1]}};
    m.triangles = {{0, 1, 2}, {0, 2, 3}};
    return m;
}

scene::MaterialInfo unlit(scene::Vec4 colour) {
    scene::MaterialInfo info;
    info.base_colour = colour;
    info.unlit = true;
    return info;
}

// 2x2 texture, rows top to bottom: red green / blue yellow.
scene::MaterialTexture checker(scene::TextureWrap s, scene::TextureWrap t) {
    scene::MaterialTexture tex;
    tex.width = tex.height = 2;
    tex.rgba = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 0, 255};  // red green blue yellow
    tex.wrap_s = s;
    tex.wrap_t = t;
    return tex;
}

Rgba8 checker_texel(std::uint32_t column, std::uint32_t row) {
    const Rgba8 texels[2][2] = {{red, green}, {blue, yellow}};
    return texels[row][column];
}

RenderOptions size128(View view = View::front) {
    RenderOptions o;
    o.width = o.height = 128;
    o.view = view;
    return o;
}

bool all_background(const image::RgbaImage& im, Rgba8 background = bg) {
    for (std::size_t i = 0; i < im.pixel_count(); ++i)
        if (!(im.at(i) == background)) return false;
    return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(render_pixels)

// Geometry shared by the quad tests (render.hpp "Fit"): 128 × 128, margin max(1, 128/32) = 4, the
// quad -1..1 × -1..1 has extents 2 × 2, so scale = (128 - 8) / 2 = 60 and x = 64 + 60 a,
// y = 64 - 60 b: the quad covers pixel centres 4.5 .. 123.5, i.e. columns and rows 4..123.
//
// UVs -1..3 on both axes: at the centre of column i, a = (i + 0.5 - 64) / 60 and
// u = 1 + 2a, so the texel coordinate u · 2 = 2 + (i - 63.5) / 15; for i = 10 + 15n that is
// n - 2 + 0.433: column index n - 2 (n = 0..7). At the centre of row j, b = (63.5 - j) / 60,
// v = 1 + 2b and (1 - v) · 2 = (j - 63.5) / 15; for j = 10 + 15m: row index m - 4 + 0.433 → m - 4.
// Wrapped (size 2): repeat k mod 2; mirrored_repeat k mod 4 with 2 → 1, 3 → 0; clamp to 0..1.
struct WrapCase {
    scene::TextureWrap s, t;
    std::array<std::uint32_t, 8> columns;  // texel column for n = 0..7 (index n - 2)
    std::array<std::uint32_t, 8> rows;     // texel row for m = 0..7 (index m - 4)
};

BOOST_AUTO_TEST_CASE(textured_quad_each_wrap_mode) {
    using W = scene::TextureWrap;
    const WrapCase cases[] = {
        // repeat: -2,-1,0,1,2,3,4,5 → 0,1,0,1,0,1,0,1; rows -4..3 → 0,1,0,1,0,1,0,1
        {W::repeat, W::repeat, {0, 1, 0, 1, 0, 1, 0, 1}, {0, 1, 0, 1, 0, 1, 0, 1}},
        // mirrored: k mod 4 = 2,3,0,1,2,3,0,1 → 1,0,0,1,1,0,0,1; rows 0,1,2,3,0,1,2,3 → 0,1,1,0,0,1,1,0
        {W::mirrored_repeat, W::mirrored_repeat, {1, 0, 0, 1, 1, 0, 0, 1}, {0, 1, 1, 0, 0, 1, 1, 0}},
        // clamp: below 0 → 0, above 1 → 1
        {W::clamp_to_edge, W::clamp_to_edge, {0, 0, 0, 1, 1, 1, 1, 1}, {0, 0, 0, 0, 0, 1, 1, 1}},
        // axes independent: s clamps, t mirrors
        {W::clamp_to_edge, W::mirrored_repeat, {0, 0, 0, 1, 1, 1, 1, 1}, {0, 1, 1, 0, 0, 1, 1, 0}},
    };
    for (const auto& c : cases) {
        scene::Scene sc;
        sc.meshes.push_back(quad_mesh(0, 0, {-1, -1}, {3, 3}));
        sc.materials = {"checker"};
        scene::MaterialInfo info;
        info.texture = checker(c.s, c.t);
        sc.material_info = {info};
        const auto im = render::render_scene(sc, size128());
        BOOST_REQUIRE_EQUAL(im.width, 128u);
        BOOST_REQUIRE_EQUAL(im.height, 128u);
        for (std::uint32_t n = 0; n < 8; ++n)
            for (std::uint32_t m = 0; m < 8; ++m)
                CHECK_PIXEL(im, 10 + 15 * n, 10 + 15 * m, checker_texel(c.columns[n], c.rows[m]));
        // The quad's edges: columns/rows 4 and 123 covered, 3 and 124 not.
        for (std::uint32_t k : {3u, 124u}) {
            CHECK_PIXEL(im, k, 64, bg);
            CHECK_PIXEL(im, 64, k, bg);
        }
        for (std::uint32_t k : {4u, 123u}) {
            BOOST_CHECK(!(pixel(im, k, 64) == bg));
            BOOST_CHECK(!(pixel(im, 64, k) == bg));
        }
    }
}

BOOST_AUTO_TEST_CASE(texture_is_upright_with_uv_0_to_1) {
    // uv0 has V up: the texture's top row (red green) on the quad's top half.
    scene::Scene sc;
    sc.meshes.push_back(quad_mesh(0, 0));
    scene::MaterialInfo info;
    info.texture = checker(scene::TextureWrap::repeat, scene::TextureWrap::repeat);
    sc.material_info = {info};
    const auto im = render::render_scene(sc, size128());
    CHECK_PIXEL(im, 20, 20, red);      // top left
    CHECK_PIXEL(im, 107, 20, green);   // top right
    CHECK_PIXEL(im, 20, 107, blue);    // bottom left
    CHECK_PIXEL(im, 107, 107, yellow); // bottom right
    // Textures off: the mesh is shaded instead (not a texel colour).
    RenderOptions o = size128();
    o.textured = false;
    const auto plain = render::render_scene(sc, o);
    BOOST_CHECK(pixel(plain, 20, 20) == pixel(plain, 107, 107));
}

BOOST_AUTO_TEST_CASE(lambert_value_of_a_face_toward_the_camera) {
    // No texture, not unlit: shade = 0.35 + 0.65 · (n · l) with n = (0, 0, 1), l = (-1, 1, 2)/√6:
    // 0.35 + 0.65 · 0.8164966 = 0.8807228 (linear); sRGB 1.055 · 0.8807228^(1/2.4) - 0.055 =
    // 0.945617, · 255 = 241.13 → 241.
    scene::Scene sc;
    sc.meshes.push_back(quad_mesh(0, 0));
    const auto im = render::render_scene(sc, size128());
    CHECK_PIXEL(im, 64, 64, (Rgba8{241, 241, 241, 255}));
    CHECK_PIXEL(im, 5, 120, (Rgba8{241, 241, 241, 255}));
    // A face tilted toward the light (plane x = z, face normal (-1, 0, 1)/√2):
    // n · l = (1 + 2)/(√2 · √6) = 0.8660254 → 0.35 + 0.65 · 0.8660254 = 0.9129165
    // → sRGB 1.055 · 0.9129165^(1/2.4) - 0.055 = 0.9606999 → 244.98 → 245.
    scene::Scene tilted;
    scene::Mesh m = quad_mesh(0, 0);
    m.positions = {{-1, -1, -1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, -1}};
    tilted.meshes.push_back(m);
    CHECK_PIXEL(render::render_scene(tilted, size128()), 64, 64, (Rgba8{245, 245, 245, 255}));
    // Seen from behind (winding reversed) it is shaded as facing the camera: two-sided.
    std::swap(tilted.meshes[0].triangles[0][1], tilted.meshes[0].triangles[0][2]);
    std::swap(tilted.meshes[0].triangles[1][1], tilted.meshes[0].triangles[1][2]);
    CHECK_PIXEL(render::render_scene(tilted, size128()), 64, 64, (Rgba8{245, 245, 245, 255}));
}

BOOST_AUTO_TEST_CASE(vertex_and_base_colours_multiply_in_linear_light) {
    // Unlit, vertex colour (1, 0.5, 0, 1) linear: 0.5 → sRGB 1.055 · 0.5^(1/2.4) - 0.055 = 0.735357
    // → 187.52 → 188. Base colour (0.5, 1, 1, 1) multiplies red to 0.5 → 188 as well.
    scene::Scene sc;
    scene::Mesh m = quad_mesh(0, 0);
    m.colours.assign(4, scene::Vec4{1, 0.5f, 0, 1});
    sc.meshes.push_back(m);
    sc.material_info = {unlit({1, 1, 1, 1})};
    CHECK_PIXEL(render::render_scene(sc, size128()), 64, 64, (Rgba8{255, 188, 0, 255}));
    sc.material_info = {unlit({0.5f, 1, 1, 1})};
    CHECK_PIXEL(render::render_scene(sc, size128()), 64, 64, (Rgba8{188, 188, 0, 255}));
}

// A cube -1..1 with one unlit mesh per face, each its own colour.
scene::Scene cube(bool back_faces_last) {
    struct Face {
        scene::Vec3 corner[4];
        scene::Vec4 colour;
    };
    const Face faces[] = {
        {{{-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}}, {1, 0, 0, 1}},        // +Z red
        {{{1, -1, 1}, {1, -1, -1}, {1, 1, -1}, {1, 1, 1}}, {0, 1, 0, 1}},        // +X green
        {{{-1, 1, 1}, {1, 1, 1}, {1, 1, -1}, {-1, 1, -1}}, {0, 0, 1, 1}},        // +Y blue
        {{{1, -1, -1}, {-1, -1, -1}, {-1, 1, -1}, {1, 1, -1}}, {1, 1, 0, 1}},    // -Z yellow
        {{{-1, -1, -1}, {-1, -1, 1}, {-1, 1, 1}, {-1, 1, -1}}, {0, 1, 1, 1}},    // -X cyan
        {{{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1}}, {1, 0, 1, 1}},    // -Y magenta
    };
    scene::Scene sc;
    for (int k = 0; k < 6; ++k) {
        const Face& f = faces[back_faces_last ? k : 5 - k];
        scene::Mesh m;
        m.material = static_cast<std::uint32_t>(sc.materials.size());
        m.positions = {f.corner[0], f.corner[1], f.corner[2], f.corner[3]};
        m.triangles = {{0, 1, 2}, {0, 2, 3}};
        sc.meshes.push_back(m);
        sc.materials.push_back("face" + std::to_string(k));
        sc.material_info.push_back(unlit(f.colour));
    }
    return sc;
}

BOOST_AUTO_TEST_CASE(cube_views_show_the_face_toward_the_camera) {
    const struct {
        View view;
        Rgba8 colour;
    } cases[] = {{View::front, red}, {View::side, green}, {View::top, blue}};
    for (bool order : {true, false})
        for (const auto& c : cases) {
            const auto im = render::render_scene(cube(order), size128(c.view));
            std::size_t wrong = 0;
            for (std::uint32_t y = 4; y < 124; ++y)
                for (std::uint32_t x = 4; x < 124; ++x) wrong += !(pixel(im, x, y) == c.colour);
            BOOST_CHECK_MESSAGE(wrong == 0, render::to_string(c.view) << " view (order " << order << "): " << wrong
                                                                       << " pixels not the facing side's colour");
            CHECK_PIXEL(im, 3, 64, bg);
            CHECK_PIXEL(im, 124, 64, bg);
        }
}

BOOST_AUTO_TEST_CASE(near_triangle_covers_far_one_whatever_the_order) {
    for (bool near_first : {true, false}) {
        scene::Scene sc;
        const scene::Mesh near = quad_mesh(0.5f, 0), far = quad_mesh(-0.5f, 1);
        if (near_first) sc.meshes = {near, far};
        else sc.meshes = {far, near};
        sc.material_info = {unlit({1, 0, 0, 1}), unlit({0, 1, 0, 1})};
        const auto im = render::render_scene(sc, size128());
        std::size_t green_pixels = 0, red_pixels = 0;
        for (std::size_t i = 0; i < im.pixel_count(); ++i) {
            green_pixels += im.at(i) == green;
            red_pixels += im.at(i) == red;
        }
        BOOST_CHECK_MESSAGE(green_pixels == 0, "near first " << near_first << ": " << green_pixels << " far pixels show");
        BOOST_CHECK_EQUAL(red_pixels, 120u * 120u);
        // Where the near quad lacks its lower-right triangle, the far one shows.
        sc.meshes[near_first ? 0 : 1].triangles.erase(sc.meshes[near_first ? 0 : 1].triangles.begin());
        const auto holed = render::render_scene(sc, size128());
        CHECK_PIXEL(holed, 110, 110, green);
        CHECK_PIXEL(holed, 20, 20, red);
    }
}

BOOST_AUTO_TEST_CASE(shared_edge_pixels_are_drawn_once) {
    // A blended half-transparent quad split along a diagonal, which passes exactly through pixel
    // centres: drawn once a pixel is round(0.5 · 255) = 128, twice 192, never 40 (background).
    // Every rotation of each triangle's vertices and both windings, so the shared edge is each of
    // the rasteriser's three edges in turn; both diagonals.
    const std::array<std::uint32_t, 3> splits[2][2] = {{{0, 1, 2}, {0, 2, 3}}, {{0, 1, 3}, {1, 2, 3}}};
    scene::MaterialInfo info = unlit({1, 1, 1, 0.5f});
    info.alpha = scene::AlphaMode::blend;
    RenderOptions o = size128();
    o.background = {0, 0, 0, 255};
    std::size_t wrong = 0, cases = 0;
    for (const auto& split : splits)
        for (int r0 = 0; r0 < 3; ++r0)
            for (int r1 = 0; r1 < 3; ++r1)
                for (bool flip : {false, true}) {
                    scene::Scene sc;
                    scene::Mesh m = quad_mesh(0, 0);
                    m.triangles.clear();
                    for (int t = 0; t < 2; ++t) {
                        const int r = t == 0 ? r0 : r1;
                        std::array<std::uint32_t, 3> tri = {split[t][r % 3], split[t][(r + 1) % 3], split[t][(r + 2) % 3]};
                        if (flip) std::swap(tri[1], tri[2]);
                        m.triangles.push_back(tri);
                    }
                    sc.meshes.push_back(m);
                    sc.material_info = {info};
                    const auto im = render::render_scene(sc, o);
                    ++cases;
                    for (std::uint32_t y = 4; y < 124; ++y)
                        for (std::uint32_t x = 4; x < 124; ++x) wrong += !(pixel(im, x, y) == Rgba8{128, 128, 128, 255});
                }
    BOOST_CHECK_EQUAL(cases, 36u);
    BOOST_CHECK_EQUAL(wrong, 0u);

    // Horizontal and vertical shared edges through pixel centres: a diamond (-1,0) (0,-1) (1,0)
    // (0,1) in a 129 × 129 image (margin 4, scale 121 / 2 = 60.5, centre 64.5: its diagonals run
    // along row 64 and column 64's centres), split along one diagonal. Every pixel is 0 or 128.
    o.width = o.height = 129;
    std::size_t doubled = 0, missing = 0;
    const std::array<std::uint32_t, 3> diamond_splits[2][2] = {{{0, 2, 3}, {0, 1, 2}}, {{1, 3, 0}, {1, 2, 3}}};
    for (const auto& split : diamond_splits)
        for (int r0 = 0; r0 < 3; ++r0)
            for (int r1 = 0; r1 < 3; ++r1)
                for (bool flip : {false, true}) {
                    scene::Scene sc;
                    scene::Mesh m;
                    m.positions = {{-1, 0, 0}, {0, -1, 0}, {1, 0, 0}, {0, 1, 0}};
                    for (int t = 0; t < 2; ++t) {
                        const int r = t == 0 ? r0 : r1;
                        std::array<std::uint32_t, 3> tri = {split[t][r % 3], split[t][(r + 1) % 3], split[t][(r + 2) % 3]};
                        if (flip) std::swap(tri[1], tri[2]);
                        m.triangles.push_back(tri);
                    }
                    sc.meshes.push_back(m);
                    sc.material_info = {info};
                    const auto im = render::render_scene(sc, o);
                    for (std::size_t i = 0; i < im.pixel_count(); ++i) {
                        const Rgba8 p = im.at(i);
                        doubled += !(p == Rgba8{0, 0, 0, 255}) && !(p == Rgba8{128, 128, 128, 255});
                    }
                    for (std::uint32_t k = 5; k < 124; ++k) {  // both diagonals, inside the diamond
                        missing += !(pixel(im, k, 64) == Rgba8{128, 128, 128, 255});
                        missing += !(pixel(im, 64, k) == Rgba8{128, 128, 128, 255});
                    }
                }
    BOOST_CHECK_EQUAL(doubled, 0u);
    BOOST_CHECK_EQUAL(missing, 0u);
}

BOOST_AUTO_TEST_CASE(top_left_fill_rule) {
    // 129 × 129 fitted to the box -1..1: margin 4, scale 60.5, centre 64.5, so model x = 0 is the
    // centre of column 64 and y = 0 the centre of row 64. A pixel centre on a top or left edge is
    // drawn, one on a bottom or right edge is not.
    RenderOptions o;
    o.width = o.height = 129;
    o.fit = render::Box{{-1, -1, -1}, {1, 1, 1}, false};
    auto quadrant = [&](float x0, float y0) {
        scene::Scene sc;
        scene::Mesh m = quad_mesh(0, 0);
        m.positions = {{x0, y0, 0}, {x0 + 1, y0, 0}, {x0 + 1, y0 + 1, 0}, {x0, y0 + 1, 0}};
        sc.meshes.push_back(m);
        sc.material_info = {unlit({1, 0, 0, 1})};
        return render::render_scene(sc, o);
    };
    const auto lower_right = quadrant(0, -1);  // its top edge is row 64, its left edge column 64
    CHECK_PIXEL(lower_right, 64, 64, red);
    CHECK_PIXEL(lower_right, 64, 100, red);
    CHECK_PIXEL(lower_right, 100, 64, red);
    CHECK_PIXEL(lower_right, 63, 100, bg);
    CHECK_PIXEL(lower_right, 100, 63, bg);
    const auto upper_left = quadrant(-1, 0);  // its bottom edge is row 64, its right edge column 64
    CHECK_PIXEL(upper_left, 64, 64, bg);
    CHECK_PIXEL(upper_left, 64, 30, bg);
    CHECK_PIXEL(upper_left, 30, 64, bg);
    CHECK_PIXEL(upper_left, 63, 30, red);
    CHECK_PIXEL(upper_left, 30, 63, red);
}

BOOST_AUTO_TEST_CASE(views_are_neither_mirrored_nor_rotated) {
    // One unlit triangle in the plane x + y + z = 1, its corners red (1,0,0), green (0,1,0) and
    // blue (0,0,1) in vertex colours, seen in every view. The box is 0..1 on every axis: 120 px
    // square at pixels 4..123. Image positions (render.hpp "View conventions"):
    //   front (x, y):  red bottom right, green top left,  blue bottom left
    //   side (-z, y):  red bottom right, green top right, blue bottom left
    //   top  (x, -z):  red top right,    green top left,  blue bottom left
    // A pixel 10 px inside a corner is dominated by that corner's colour.
    scene::Scene sc;
    scene::Mesh m;
    m.positions = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    m.colours = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}};
    m.triangles = {{0, 1, 2}};
    sc.meshes.push_back(m);
    sc.material_info = {unlit({1, 1, 1, 1})};
    const std::uint32_t lo = 4 + 4, hi = 123 - 4;  // near the left/top and right/bottom edges
    struct Corner {
        std::uint32_t x, y;
        int channel;  // 0 red, 1 green, 2 blue
    };
    const struct {
        View view;
        Corner corners[3];
    } cases[] = {
        {View::front, {{hi - 8, hi, 0}, {lo, lo + 8, 1}, {lo, hi, 2}}},
        {View::side, {{hi, hi, 0}, {hi, lo + 8, 1}, {lo + 8, hi, 2}}},
        {View::top, {{hi - 8, lo, 0}, {lo, lo, 1}, {lo, hi - 8, 2}}},
    };
    for (const auto& c : cases) {
        const auto im = render::render_scene(sc, size128(c.view));
        for (const auto& k : c.corners) {
            const Rgba8 p = pixel(im, k.x, k.y);
            const int v[3] = {p.r, p.g, p.b};
            BOOST_CHECK_MESSAGE(!(p == bg) && v[k.channel] > v[(k.channel + 1) % 3] && v[k.channel] > v[(k.channel + 2) % 3],
                                render::to_string(c.view) << " view: pixel (" << k.x << "," << k.y << ") is " << text(p)
                                                          << ", expected mostly channel " << k.channel);
        }
    }
}

BOOST_AUTO_TEST_CASE(mask_mode_drops_fragments_below_the_cutoff) {
    scene::Scene sc;
    sc.meshes.push_back(quad_mesh(0, 0));
    scene::MaterialInfo info;
    info.texture = checker(scene::TextureWrap::repeat, scene::TextureWrap::repeat);
    info.texture->rgba[3] = 0;  // the red texel (top left) fully transparent
    info.alpha = scene::AlphaMode::mask;
    sc.material_info = {info};
    const auto im = render::render_scene(sc, size128());
    CHECK_PIXEL(im, 20, 20, bg);
    CHECK_PIXEL(im, 107, 20, green);
    sc.material_info[0].alpha = scene::AlphaMode::opaque;  // opaque ignores alpha
    CHECK_PIXEL(render::render_scene(sc, size128()), 20, 20, red);
}

BOOST_AUTO_TEST_CASE(deterministic) {
    const auto pak = shred::read_pak(sample::shred_character_pak(), "char_sample.pak");
    const auto sc = shred::quartet_to_scene(shred::read_pak_quartet(pak, "skater01"));
    for (View v : {View::front, View::side, View::top}) {
        RenderOptions o;
        o.view = v;
        const auto a = render::render_scene(sc, o), b = render::render_scene(sc, o);
        BOOST_CHECK(a.pixels == b.pixels);
        // The sample skaters are open cylinders: nothing faces up, the top view may be empty.
        if (v != View::top) BOOST_CHECK(!all_background(a));
    }
}

BOOST_AUTO_TEST_CASE(empty_scene_is_background) {
    RenderOptions o;
    o.width = 17;
    o.height = 9;
    o.background = {1, 2, 3, 0};
    scene::Scene sc;
    auto im = render::render_scene(sc, o);
    BOOST_CHECK_EQUAL(im.width, 17u);
    BOOST_CHECK_EQUAL(im.height, 9u);
    BOOST_CHECK(all_background(im, o.background));
    BOOST_CHECK(render::bounding_box(sc).empty);
    scene::Mesh only_nan;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    only_nan.positions = {{nan, 0, 0}, {0, nan, 0}, {0, 0, nan}};
    only_nan.triangles = {{0, 1, 2}};
    sc.meshes.push_back(only_nan);
    BOOST_CHECK(render::bounding_box(sc).empty);
    BOOST_CHECK(all_background(render::render_scene(sc, o), o.background));
}

BOOST_AUTO_TEST_CASE(bad_vertices_are_skipped_without_changing_the_rest) {
    scene::Scene good;
    good.meshes.push_back(quad_mesh(0, 0));
    const auto reference = render::render_scene(good, size128());
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    scene::Scene bad = good;
    scene::Mesh& m = bad.meshes[0];
    m.positions.push_back({nan, 0, 0});
    m.positions.push_back({0, inf, 0});
    m.positions.push_back({0, 0, -inf});
    m.positions.push_back({0.5f, 0.5f, 0.5f});
    m.triangles.push_back({4, 5, 6});          // non-finite
    m.triangles.push_back({0, 4, 7});          // one non-finite corner
    m.triangles.push_back({0, 1, 99});         // index out of range
    m.triangles.push_back({7, 7, 7});          // zero area
    m.triangles.push_back({0, 2, 2});          // zero area
    m.normals.assign(m.positions.size(), {nan, nan, nan});  // unusable normals: face normals
    m.uv0.push_back({nan, inf});
    const auto im = render::render_scene(bad, size128());
    BOOST_CHECK(im == reference);
    // Finite but enormous coordinates: no crash, the right size.
    scene::Scene huge;
    scene::Mesh h = quad_mesh(0, 0);
    h.positions[2] = {3e38f, 3e38f, -3e38f};
    h.positions[0] = {-3e38f, -3e38f, 3e38f};
    huge.meshes.push_back(h);
    for (View v : {View::front, View::side, View::top}) {
        const auto hi = render::render_scene(huge, size128(v));
        BOOST_CHECK_EQUAL(hi.pixels.size(), 4u * 128 * 128);
    }
    // A fit box far smaller than the scene (triangles beyond the guard band): no crash.
    RenderOptions tiny = size128();
    tiny.fit = render::Box{{-1e-6f, -1e-6f, -1e-6f}, {1e-6f, 1e-6f, 1e-6f}, false};
    BOOST_CHECK_EQUAL(render::render_scene(good, tiny).width, 128u);
}

BOOST_AUTO_TEST_CASE(fit_box_sets_a_common_scale) {
    // The quad in a box twice its size: it covers half the usable width (60 px of 120),
    // columns 34..93 (x = 64 + 30 a for a in -1..1).
    scene::Scene sc;
    sc.meshes.push_back(quad_mesh(0, 0));
    sc.material_info = {unlit({1, 0, 0, 1})};
    RenderOptions o = size128();
    o.fit = render::Box{{-2, -2, -2}, {2, 2, 2}, false};
    const auto im = render::render_scene(sc, o);
    CHECK_PIXEL(im, 33, 64, bg);
    CHECK_PIXEL(im, 34, 64, red);
    CHECK_PIXEL(im, 93, 64, red);
    CHECK_PIXEL(im, 94, 64, bg);
}

BOOST_AUTO_TEST_CASE(bounding_box_and_union) {
    scene::Scene sc;
    scene::Mesh m;
    m.positions = {{1, 2, 3}, {-1, 5, std::numeric_limits<float>::quiet_NaN()}, {0, -4, 7}};
    sc.meshes.push_back(m);
    const auto box = render::bounding_box(sc);
    BOOST_CHECK(!box.empty);
    BOOST_CHECK((box.min == scene::Vec3{0, -4, 3}));
    BOOST_CHECK((box.max == scene::Vec3{1, 2, 7}));
    const render::Box other{{-9, 0, 0}, {0, 9, 0}, false};
    const auto u = render::union_box(box, other);
    BOOST_CHECK((u.min == scene::Vec3{-9, -4, 0}));
    BOOST_CHECK((u.max == scene::Vec3{1, 9, 7}));
    BOOST_CHECK(render::union_box(render::Box{}, box) == box);
}

// The scale a size bar measures (issue 29 item 6), by hand: a 128-pixel picture keeps a margin
// of 128 / 32 = 4 pixels, so 120 pixels hold the larger extent of the view.
BOOST_AUTO_TEST_CASE(pixels_per_unit_is_the_scale_render_scene_fits_with) {
    const render::Box cube{{-2, -2, -2}, {2, 2, 2}, false};
    BOOST_CHECK_CLOSE(render::pixels_per_unit(cube, View::front, 128, 128), 30.0, 1e-9);  // the picture above: 4 units in 120 px
    const render::Box slab{{0, 0, 0}, {10, 2, 1}, false};
    BOOST_CHECK_CLOSE(render::pixels_per_unit(slab, View::front, 128, 128), 12.0, 1e-9);  // x 10 and y 2: 120 / 10
    BOOST_CHECK_CLOSE(render::pixels_per_unit(slab, View::side, 128, 128), 60.0, 1e-9);   // z 1 and y 2: 120 / 2
    BOOST_CHECK_CLOSE(render::pixels_per_unit(slab, View::front, 256, 128), 24.8, 1e-9);  // min(248 / 10, 120 / 2)
    BOOST_CHECK_EQUAL(render::pixels_per_unit(render::Box{}, View::front, 128, 128), 0.0);
    const render::Box point{{1, 1, 1}, {1, 1, 1}, false};
    BOOST_CHECK_EQUAL(render::pixels_per_unit(point, View::side, 128, 128), 0.0);
}

BOOST_AUTO_TEST_CASE(size_limits) {
    scene::Scene sc;
    RenderOptions o;
    o.width = 0;
    auto e = modtest::catch_error([&] { render::render_scene(sc, o); });
    BOOST_REQUIRE(e);
    BOOST_CHECK(e->kind() == ErrorKind::usage);
    o.width = render::max_render_dimension + 1;
    BOOST_CHECK(modtest::catch_error([&] { render::render_scene(sc, o); }));
    BOOST_CHECK(render::parse_view("side") == View::side);
    BOOST_CHECK(modtest::catch_error([&] { render::parse_view("back"); }));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(render_compose)

BOOST_AUTO_TEST_CASE(scale_nearest_repeats_pixels) {
    image::RgbaImage im;
    im.width = 2;
    im.height = 1;
    im.pixels = {255, 0, 0, 255, 0, 0, 255, 128};
    const auto z = render::scale_nearest(im, 3);
    BOOST_REQUIRE_EQUAL(z.width, 6u);
    BOOST_REQUIRE_EQUAL(z.height, 3u);
    for (std::uint32_t y = 0; y < 3; ++y) {
        for (std::uint32_t x = 0; x < 3; ++x) CHECK_PIXEL(z, x, y, red);
        for (std::uint32_t x = 3; x < 6; ++x) CHECK_PIXEL(z, x, y, (Rgba8{0, 0, 255, 128}));
    }
    BOOST_CHECK(render::scale_nearest(im, 1) == im);
    auto e = modtest::catch_error([&] { render::scale_nearest(im, 0); });
    BOOST_REQUIRE(e);
    BOOST_CHECK(e->kind() == ErrorKind::usage);
    e = modtest::catch_error([&] { render::scale_nearest(im, 20000); });
    BOOST_REQUIRE(e);
    BOOST_CHECK(e->kind() == ErrorKind::limit);
}

BOOST_AUTO_TEST_CASE(side_by_side_pads_and_gaps) {
    image::RgbaImage a, b;
    a.width = a.height = 2;
    a.pixels.assign(16, 0);
    for (std::size_t i = 0; i < 4; ++i) a.pixels[4 * i] = 255, a.pixels[4 * i + 3] = 255;  // red
    b.width = 1;
    b.height = 3;
    b.pixels.assign(12, 0);
    for (std::size_t i = 0; i < 3; ++i) b.pixels[4 * i + 1] = 255, b.pixels[4 * i + 3] = 255;  // green
    const image::RgbaImage both[] = {a, b};
    const Rgba8 back{9, 9, 9, 9};
    const auto s = render::side_by_side(both, 1, back);
    BOOST_REQUIRE_EQUAL(s.width, 4u);
    BOOST_REQUIRE_EQUAL(s.height, 3u);
    for (std::uint32_t y = 0; y < 3; ++y) {
        CHECK_PIXEL(s, 0, y, y < 2 ? red : back);
        CHECK_PIXEL(s, 1, y, y < 2 ? red : back);
        CHECK_PIXEL(s, 2, y, back);
        CHECK_PIXEL(s, 3, y, green);
    }
    BOOST_CHECK_EQUAL(render::side_by_side({}, 5, back).width, 0u);
    image::RgbaImage broken;
    broken.width = 3;
    broken.height = 3;
    const image::RgbaImage with_broken[] = {a, broken};
    BOOST_CHECK(modtest::catch_error([&] { render::side_by_side(with_broken, 0, back); }));
}

BOOST_AUTO_TEST_CASE(front_side_is_two_views_with_a_gap) {
    const auto sc = render_pixels::cube(true);
    RenderOptions o = size128();
    const auto both = render::render_front_side(sc, o, 8);
    BOOST_REQUIRE_EQUAL(both.width, 128u + 8 + 128);
    BOOST_REQUIRE_EQUAL(both.height, 128u);
    CHECK_PIXEL(both, 64, 64, red);
    CHECK_PIXEL(both, 132, 64, bg);
    CHECK_PIXEL(both, 136 + 64, 64, green);
}

BOOST_AUTO_TEST_SUITE_END()
