#pragma once
// Triangle coverage with exact integer edge functions and the top-left fill rule
// (render.hpp, "Determinism"). Private to mod::render.

#include "detail.hpp"

#include <algorithm>
#include <cstdint>

namespace mod::render::detail {

// One covered pixel: its position and the barycentric weights of the three vertices (in the
// order the triangle was given), which sum to 1.
struct Fragment {
    std::uint32_t x = 0, y = 0;
    double w0 = 0, w1 = 0, w2 = 0;
};

// The triangle's edge set-up; `visible` is false when the triangle covers no pixel centre of a
// width × height image for certain (invalid vertex, zero area, outside the image).
struct TriangleSetup {
    bool visible = false;
    bool swapped = false;  // vertices 1 and 2 exchanged to make the area positive
    ScreenVertex v[3];
    std::int64_t area = 0;
    std::uint32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // pixel bounds, inclusive-exclusive
};
TriangleSetup setup_triangle(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c, std::uint32_t width,
                             std::uint32_t height) noexcept;

// Edge function of a→b at p: positive on the inside of a triangle of positive area.
inline std::int64_t edge(const ScreenVertex& a, const ScreenVertex& b, std::int64_t px, std::int64_t py) noexcept {
    return (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x);
}
// Top-left rule (image y pointing down, positive area): a top edge runs right, a left edge up.
inline bool top_left(const ScreenVertex& a, const ScreenVertex& b) noexcept {
    const std::int64_t dx = b.x - a.x, dy = b.y - a.y;
    return (dy == 0 && dx > 0) || dy < 0;
}

// Calls emit(Fragment) for every pixel whose centre the triangle covers, rows top to bottom,
// pixels left to right. Weights refer to the vertices as given to setup_triangle.
template <class Emit>
void rasterise(const TriangleSetup& t, Emit&& emit) {
    if (!t.visible) return;
    const ScreenVertex &a = t.v[0], &b = t.v[1], &c = t.v[2];
    // Weight of vertex 0 is the edge opposite it (b→c), and so on.
    const std::int64_t bias0 = top_left(b, c) ? 0 : -1, bias1 = top_left(c, a) ? 0 : -1,
                       bias2 = top_left(a, b) ? 0 : -1;
    const std::int64_t step_x0 = -(c.y - b.y) * subpixel_one, step_x1 = -(a.y - c.y) * subpixel_one,
                       step_x2 = -(b.y - a.y) * subpixel_one;
    const double inv_area = 1.0 / double(t.area);
    for (std::uint32_t y = t.y0; y < t.y1; ++y) {
        const std::int64_t px = std::int64_t(t.x0) * subpixel_one + subpixel_one / 2;
        const std::int64_t py = std::int64_t(y) * subpixel_one + subpixel_one / 2;
        std::int64_t e0 = edge(b, c, px, py), e1 = edge(c, a, px, py), e2 = edge(a, b, px, py);
        for (std::uint32_t x = t.x0; x < t.x1; ++x, e0 += step_x0, e1 += step_x1, e2 += step_x2) {
            // Inside: e > 0, or e == 0 on a top or left edge.
            if (e0 + bias0 < 0 || e1 + bias1 < 0 || e2 + bias2 < 0) continue;
            Fragment f;
            f.x = x;
            f.y = y;
            const double w0 = double(e0) * inv_area, w1 = double(e1) * inv_area, w2 = double(e2) * inv_area;
            f.w0 = w0;
            if (t.swapped) {
                f.w1 = w2;
                f.w2 = w1;
            } else {
                f.w1 = w1;
                f.w2 = w2;
            }
            emit(f);
        }
    }
}

}  // namespace mod::render::detail
