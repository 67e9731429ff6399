// render_scene: meshes → fragments → colours, z-buffered (render.hpp).
#include "raster.hpp"

#include "libmod/core/error.hpp"
#include "libmod/image/colour.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace mod::render {

namespace {

using detail::Fragment;
using detail::ScreenVertex;

struct Target {
    image::RgbaImage& image;
    std::vector<double>& depth;
    std::uint32_t width;
};

bool finite_nonzero(const Vec3& v) noexcept {
    return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]) && (v[0] != 0 || v[1] != 0 || v[2] != 0);
}

// What one mesh is drawn with.
struct MeshStyle {
    const scene::MaterialTexture* texture = nullptr;  // usable texture, or none
    scene::Vec4 base{1, 1, 1, 1};
    scene::AlphaMode alpha = scene::AlphaMode::opaque;
    float cutoff = 0.5f;
    bool lit = true;  // Lambert shading
};

MeshStyle style_of(const scene::Scene& scene, const scene::Mesh& mesh, const RenderOptions& options) {
    MeshStyle s;
    if (mesh.material >= scene.material_info.size()) return s;
    const scene::MaterialInfo& info = scene.material_info[mesh.material];
    s.base = info.base_colour;
    s.alpha = info.alpha;
    s.cutoff = info.alpha_cutoff;
    if (options.textured && info.texture && detail::usable(*info.texture)) s.texture = &*info.texture;
    s.lit = !info.unlit && s.texture == nullptr;
    return s;
}

void draw_mesh(const scene::Mesh& mesh, const MeshStyle& style, const detail::Projection& projection,
               const RenderOptions& options, Target& target) {
    const std::size_t n = mesh.positions.size();
    std::vector<ScreenVertex> screen(n);
    for (std::size_t i = 0; i < n; ++i) screen[i] = detail::project(projection, options.view, mesh.positions[i]);
    const bool has_uv = style.texture && mesh.uv0.size() == n;
    const bool has_colours = mesh.colours.size() == n;
    const bool has_normals = style.lit && mesh.normals.size() == n;
    const bool blend = style.alpha == scene::AlphaMode::blend;

    for (const auto& tri : mesh.triangles) {
        if (tri[0] >= n || tri[1] >= n || tri[2] >= n) continue;
        const detail::TriangleSetup setup =
            detail::setup_triangle(screen[tri[0]], screen[tri[1]], screen[tri[2]], options.width, options.height);
        if (!setup.visible) continue;
        const ScreenVertex* v[3] = {&screen[tri[0]], &screen[tri[1]], &screen[tri[2]]};

        // Normals in view space: the vertices' when all three are usable, else the face's.
        Vec3 vn[3]{};
        bool vertex_normals = false;
        Vec3 face{};
        if (style.lit) {
            vertex_normals = has_normals && finite_nonzero(mesh.normals[tri[0]]) &&
                             finite_nonzero(mesh.normals[tri[1]]) && finite_nonzero(mesh.normals[tri[2]]);
            if (vertex_normals) {
                for (int k = 0; k < 3; ++k) vn[k] = detail::to_view(options.view, mesh.normals[tri[k]]);
            } else {
                const Vec3 p0 = detail::to_view(options.view, mesh.positions[tri[0]]);
                const Vec3 p1 = detail::to_view(options.view, mesh.positions[tri[1]]);
                const Vec3 p2 = detail::to_view(options.view, mesh.positions[tri[2]]);
                const double ax = double(p1[0]) - p0[0], ay = double(p1[1]) - p0[1], az = double(p1[2]) - p0[2];
                const double bx = double(p2[0]) - p0[0], by = double(p2[1]) - p0[1], bz = double(p2[2]) - p0[2];
                face = {float(ay * bz - az * by), float(az * bx - ax * bz), float(ax * by - ay * bx)};
            }
        }
        const double face_shade = style.lit && !vertex_normals ? detail::lambert(face) : 1.0;

        detail::rasterise(setup, [&](const Fragment& f) {
            const std::size_t at = std::size_t(f.y) * target.width + f.x;
            const double depth = f.w0 * v[0]->depth + f.w1 * v[1]->depth + f.w2 * v[2]->depth;
            double& z = target.depth[at];
            if (blend ? !(depth >= z) : !(depth > z)) return;

            image::Rgba8 texel{255, 255, 255, 255};
            if (style.texture) {
                double u = 0, w = 0;
                if (has_uv) {
                    const auto &a = mesh.uv0[tri[0]], &b = mesh.uv0[tri[1]], &c = mesh.uv0[tri[2]];
                    u = f.w0 * a[0] + f.w1 * b[0] + f.w2 * c[0];
                    w = f.w0 * a[1] + f.w1 * b[1] + f.w2 * c[1];
                }
                texel = detail::sample_nearest(*style.texture, u, w);
            }
            double vc[4] = {1, 1, 1, 1};
            if (has_colours) {
                const auto &a = mesh.colours[tri[0]], &b = mesh.colours[tri[1]], &c = mesh.colours[tri[2]];
                for (int k = 0; k < 4; ++k) vc[k] = f.w0 * a[k] + f.w1 * b[k] + f.w2 * c[k];
            }
            double shade = face_shade;
            if (vertex_normals) {
                Vec3 nrm;
                for (int k = 0; k < 3; ++k) nrm[k] = float(f.w0 * vn[0][k] + f.w1 * vn[1][k] + f.w2 * vn[2][k]);
                shade = detail::lambert(finite_nonzero(nrm) ? nrm : vn[0]);
            }
            const std::uint8_t in[3] = {texel.r, texel.g, texel.b};
            std::uint8_t out[3];
            for (int k = 0; k < 3; ++k) {
                const double m = vc[k] * double(style.base[k]) * shade;
                out[k] = m == 1.0 ? in[k] : detail::linear_to_srgb8(image::srgb8_to_linear(in[k]) * m);
            }
            const double alpha = texel.a / 255.0 * vc[3] * double(style.base[3]);
            std::uint8_t* px = &target.image.pixels[4 * at];
            if (style.alpha == scene::AlphaMode::mask && alpha < double(style.cutoff)) return;
            if (!blend) {
                px[0] = out[0], px[1] = out[1], px[2] = out[2], px[3] = 255;
                z = depth;
                return;
            }
            const double a = alpha > 0 ? (alpha < 1 ? alpha : 1.0) : 0.0;  // NaN → 0
            for (int k = 0; k < 3; ++k) px[k] = static_cast<std::uint8_t>(std::floor(a * out[k] + (1 - a) * px[k] + 0.5));
            px[3] = static_cast<std::uint8_t>(std::floor(a * 255 + (1 - a) * px[3] + 0.5));
        });
    }
}

void check_size(const RenderOptions& options) {
    if (options.width == 0 || options.height == 0 || options.width > max_render_dimension ||
        options.height > max_render_dimension)
        throw Error(ErrorKind::usage, "render size " + std::to_string(options.width) + "x" +
                                          std::to_string(options.height) + " is not within 1.." +
                                          std::to_string(max_render_dimension) + " in each direction");
}

}  // namespace

image::RgbaImage render_scene(const scene::Scene& scene, const RenderOptions& options) {
    check_size(options);
    image::RgbaImage img;
    img.width = options.width;
    img.height = options.height;
    const std::size_t count = std::size_t(options.width) * options.height;
    img.pixels.resize(4 * count);
    for (std::size_t i = 0; i < count; ++i) {
        img.pixels[4 * i] = options.background.r;
        img.pixels[4 * i + 1] = options.background.g;
        img.pixels[4 * i + 2] = options.background.b;
        img.pixels[4 * i + 3] = options.background.a;
    }
    std::vector<double> depth(count, -std::numeric_limits<double>::infinity());
    const Box box = options.fit && !options.fit->empty ? *options.fit : bounding_box(scene);
    if (box.empty) return img;
    const detail::Projection projection = detail::fit_projection(box, options.view, options.width, options.height);
    Target target{img, depth, options.width};
    // Opaque and mask meshes first, then the blended ones in scene order.
    for (int pass = 0; pass < 2; ++pass)
        for (const auto& mesh : scene.meshes) {
            const MeshStyle style = style_of(scene, mesh, options);
            if ((style.alpha == scene::AlphaMode::blend) != (pass == 1)) continue;
            draw_mesh(mesh, style, projection, options, target);
        }
    return img;
}

image::RgbaImage render_front_side(const scene::Scene& scene, const RenderOptions& options, std::uint32_t gap) {
    RenderOptions o = options;
    image::RgbaImage views[2];
    o.view = View::front;
    views[0] = render_scene(scene, o);
    o.view = View::side;
    views[1] = render_scene(scene, o);
    return side_by_side(views, gap, options.background);
}

}  // namespace mod::render
