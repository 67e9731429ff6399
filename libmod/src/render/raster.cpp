// Triangle set-up for the integer rasteriser (raster.hpp).
#include "raster.hpp"

namespace mod::render::detail {

namespace {
// First pixel whose centre (i + 1/2 in sub-pixel units) is >= v, clamped to [0, limit].
std::uint32_t first_pixel(std::int64_t v, std::uint32_t limit) noexcept {
    // centre(i) = i * one + one / 2 >= v  <=>  i >= (v - one / 2) / one
    const std::int64_t n = v - subpixel_one / 2;
    std::int64_t i = n >= 0 ? (n + subpixel_one - 1) / subpixel_one : -((-n) / subpixel_one);
    return static_cast<std::uint32_t>(std::clamp<std::int64_t>(i, 0, limit));
}
// One past the last pixel whose centre is <= v, clamped to [0, limit].
std::uint32_t end_pixel(std::int64_t v, std::uint32_t limit) noexcept {
    // centre(i) <= v  <=>  i <= (v - one / 2) / one (floor)
    const std::int64_t n = v - subpixel_one / 2;
    std::int64_t i = n >= 0 ? n / subpixel_one : -((-n + subpixel_one - 1) / subpixel_one);
    return static_cast<std::uint32_t>(std::clamp<std::int64_t>(i + 1, 0, limit));
}
}  // namespace

TriangleSetup setup_triangle(const ScreenVertex& a, const ScreenVertex& b, const ScreenVertex& c, std::uint32_t width,
                             std::uint32_t height) noexcept {
    TriangleSetup t;
    if (!a.valid || !b.valid || !c.valid) return t;
    t.v[0] = a;
    t.v[1] = b;
    t.v[2] = c;
    t.area = edge(a, b, c.x, c.y);
    if (t.area == 0) return t;
    if (t.area < 0) {
        std::swap(t.v[1], t.v[2]);
        t.area = -t.area;
        t.swapped = true;
    }
    const std::int64_t min_x = std::min({a.x, b.x, c.x}), max_x = std::max({a.x, b.x, c.x});
    const std::int64_t min_y = std::min({a.y, b.y, c.y}), max_y = std::max({a.y, b.y, c.y});
    t.x0 = first_pixel(min_x, width);
    t.x1 = end_pixel(max_x, width);
    t.y0 = first_pixel(min_y, height);
    t.y1 = end_pixel(max_y, height);
    t.visible = t.x0 < t.x1 && t.y0 < t.y1;
    return t;
}

}  // namespace mod::render::detail
