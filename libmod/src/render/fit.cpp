// The orthographic camera: view axes, the fit of a box to the image, vertex projection, and the
// union of boxes (render.hpp "View conventions" and "Fit").
#include "detail.hpp"

#include "libmod/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace mod::render {

std::string_view to_string(View view) noexcept {
    switch (view) {
    case View::front: return "front";
    case View::side: return "side";
    case View::top: return "top";
    }
    return "front";
}

View parse_view(std::string_view text) {
    if (text == "front") return View::front;
    if (text == "side") return View::side;
    if (text == "top") return View::top;
    throw Error(ErrorKind::usage, "unknown view '" + std::string(text) + "' (front, side or top)");
}

Box union_box(const Box& a, const Box& b) {
    if (a.empty) return b;
    if (b.empty) return a;
    Box r = a;
    for (int i = 0; i < 3; ++i) {
        r.min[i] = std::min(a.min[i], b.min[i]);
        r.max[i] = std::max(a.max[i], b.max[i]);
    }
    return r;
}

namespace detail {

Vec3 to_view(View view, const Vec3& p) noexcept {
    switch (view) {
    case View::front: return {p[0], p[1], p[2]};
    case View::side: return {-p[2], p[1], p[0]};
    case View::top: return {p[0], -p[2], p[1]};
    }
    return p;
}

Projection fit_projection(const Box& box, View view, std::uint32_t width, std::uint32_t height) {
    Projection pr;
    pr.half_width = width / 2.0;
    pr.half_height = height / 2.0;
    if (box.empty) return pr;
    const Vec3 lo = to_view(view, box.min), hi = to_view(view, box.max);
    // Image axes of the box (a negated axis swaps its ends), in double: float extents overflow.
    const double a0 = std::min(lo[0], hi[0]), a1 = std::max(lo[0], hi[0]);
    const double b0 = std::min(lo[1], hi[1]), b1 = std::max(lo[1], hi[1]);
    pr.ca = (a0 + a1) / 2;
    pr.cb = (b0 + b1) / 2;
    const std::uint32_t margin = std::max<std::uint32_t>(1, std::min(width, height) / 32);
    const double room_a = double(width) - 2.0 * margin, room_b = double(height) - 2.0 * margin;
    const double ea = a1 - a0, eb = b1 - b0;
    double scale = 0;
    bool any = false;
    if (ea > 0) {
        scale = room_a / ea;
        any = true;
    }
    if (eb > 0) {
        const double s = room_b / eb;
        scale = any ? std::min(scale, s) : s;
        any = true;
    }
    pr.scale = any && scale > 0 && std::isfinite(scale) ? scale : 1.0;
    return pr;
}

ScreenVertex project(const Projection& pr, View view, const Vec3& p) noexcept {
    ScreenVertex v;
    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) return v;
    const Vec3 q = to_view(view, p);
    const double x = pr.half_width + (double(q[0]) - pr.ca) * pr.scale;
    const double y = pr.half_height - (double(q[1]) - pr.cb) * pr.scale;
    const double fx = std::floor(x * double(subpixel_one) + 0.5), fy = std::floor(y * double(subpixel_one) + 0.5);
    const double g = double(guard);
    if (!(fx >= -g && fx <= g && fy >= -g && fy <= g)) return v;
    v.x = static_cast<std::int64_t>(fx);
    v.y = static_cast<std::int64_t>(fy);
    v.depth = q[2];
    v.valid = true;
    return v;
}

}  // namespace detail

double pixels_per_unit(const Box& fit, View view, std::uint32_t width, std::uint32_t height) {
    if (fit.empty || width == 0 || height == 0) return 0;
    const Vec3 lo = detail::to_view(view, fit.min), hi = detail::to_view(view, fit.max);
    if (!(lo[0] != hi[0] || lo[1] != hi[1])) return 0;
    return detail::fit_projection(fit, view, width, height).scale;
}

}  // namespace mod::render
