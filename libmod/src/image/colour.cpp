// sRGB, Oklab, HSV and RGBA5551 conversions.
#include "libmod/image/colour.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace mod::image {

namespace {

const std::array<double, 256>& linear_table() {
    static const std::array<double, 256> t = [] {
        std::array<double, 256> v{};
        for (int i = 0; i < 256; ++i) v[i] = srgb_to_linear(i / 255.0);
        return v;
    }();
    return t;
}

std::uint8_t to_byte(double unit) noexcept {
    return static_cast<std::uint8_t>(std::lround(std::clamp(unit, 0.0, 1.0) * 255.0));
}

std::uint8_t expand5(unsigned v) noexcept { return static_cast<std::uint8_t>(((v & 31) << 3) | ((v & 31) >> 2)); }

// Nearest 5-bit level, ties to the lower level (identical to n64::quantise5).
unsigned quantise5(std::uint8_t value) noexcept {
    static const std::array<std::uint8_t, 256> table = [] {
        std::array<std::uint8_t, 256> t{};
        for (unsigned v = 0; v < 256; ++v) {
            unsigned best = 0, best_d = 256;
            for (unsigned q = 0; q < 32; ++q) {
                unsigned e = expand5(q), d = e > v ? e - v : v - e;
                if (d < best_d) best = q, best_d = d;
            }
            t[v] = static_cast<std::uint8_t>(best);
        }
        return t;
    }();
    return table[value];
}

}  // namespace

double srgb_to_linear(double c) noexcept {
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double linear_to_srgb(double c) noexcept {
    return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
}

double srgb8_to_linear(std::uint8_t value) noexcept { return linear_table()[value]; }

// Matrices from Ottosson's Oklab definition (linear sRGB → LMS → Oklab and back).
Oklab linear_to_oklab(double r, double g, double b) noexcept {
    double l = 0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b;
    double m = 0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b;
    double s = 0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b;
    l = std::cbrt(l);
    m = std::cbrt(m);
    s = std::cbrt(s);
    return {0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
            1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s};
}

void oklab_to_linear(const Oklab& c, double& r, double& g, double& b) noexcept {
    double l = c.L + 0.3963377774 * c.a + 0.2158037573 * c.b;
    double m = c.L - 0.1055613458 * c.a - 0.0638541728 * c.b;
    double s = c.L - 0.0894841775 * c.a - 1.2914855480 * c.b;
    l = l * l * l;
    m = m * m * m;
    s = s * s * s;
    r = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s;
    g = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s;
    b = -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s;
}

Oklab to_oklab(Rgba8 c) noexcept {
    return linear_to_oklab(srgb8_to_linear(c.r), srgb8_to_linear(c.g), srgb8_to_linear(c.b));
}

Rgba8 from_oklab(const Oklab& lab, std::uint8_t alpha) noexcept {
    double r, g, b;
    oklab_to_linear(lab, r, g, b);
    return {to_byte(linear_to_srgb(std::clamp(r, 0.0, 1.0))), to_byte(linear_to_srgb(std::clamp(g, 0.0, 1.0))),
            to_byte(linear_to_srgb(std::clamp(b, 0.0, 1.0))), alpha};
}

double delta_e(const Oklab& x, const Oklab& y) noexcept {
    double dl = x.L - y.L, da = x.a - y.a, db = x.b - y.b;
    return 100.0 * std::sqrt(dl * dl + da * da + db * db);
}

double delta_e(Rgba8 x, Rgba8 y) noexcept { return delta_e(to_oklab(x), to_oklab(y)); }

CieLab to_cielab(Rgba8 c) noexcept {
    const double r = srgb8_to_linear(c.r), g = srgb8_to_linear(c.g), b = srgb8_to_linear(c.b);
    // XYZ relative to the D65 white (X/Xn, Y/Yn, Z/Zn with Xn = 0.95047, Zn = 1.08883).
    const double x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
    const double y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
    const double z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883;
    auto f = [](double t) {
        constexpr double d = 6.0 / 29.0;
        return t > d * d * d ? std::cbrt(t) : t / (3 * d * d) + 4.0 / 29.0;
    };
    const double fx = f(x), fy = f(y), fz = f(z);
    return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

double ciede2000(const CieLab& x, const CieLab& y) noexcept {
    constexpr double pi = 3.14159265358979323846, deg = pi / 180;
    constexpr double p25_7 = 6103515625.0;  // 25^7
    auto pow7 = [](double v) {
        const double v2 = v * v;
        return v2 * v2 * v2 * v;
    };
    const double c1 = std::sqrt(x.a * x.a + x.b * x.b), c2 = std::sqrt(y.a * y.a + y.b * y.b);
    const double cbar = (c1 + c2) / 2, cbar7 = pow7(cbar);
    const double g = 0.5 * (1 - std::sqrt(cbar7 / (cbar7 + p25_7)));
    const double a1 = (1 + g) * x.a, a2 = (1 + g) * y.a;
    const double cp1 = std::sqrt(a1 * a1 + x.b * x.b), cp2 = std::sqrt(a2 * a2 + y.b * y.b);
    auto hue = [](double b, double a) {
        if (a == 0 && b == 0) return 0.0;
        double h = std::atan2(b, a) / deg;
        return h < 0 ? h + 360 : h;
    };
    const double h1 = hue(x.b, a1), h2 = hue(y.b, a2);
    const double dl = y.L - x.L, dc = cp2 - cp1;
    double dh = 0;
    if (cp1 * cp2 != 0) {
        dh = h2 - h1;
        if (dh > 180) dh -= 360;
        else if (dh < -180) dh += 360;
    }
    const double dH = 2 * std::sqrt(cp1 * cp2) * std::sin(dh * deg / 2);
    const double lbar = (x.L + y.L) / 2, cpbar = (cp1 + cp2) / 2;
    double hbar = h1 + h2;
    if (cp1 * cp2 != 0) {
        if (std::fabs(h1 - h2) <= 180) hbar = (h1 + h2) / 2;
        else if (h1 + h2 < 360) hbar = (h1 + h2 + 360) / 2;
        else hbar = (h1 + h2 - 360) / 2;
    }
    const double t = 1 - 0.17 * std::cos((hbar - 30) * deg) + 0.24 * std::cos(2 * hbar * deg) +
                     0.32 * std::cos((3 * hbar + 6) * deg) - 0.20 * std::cos((4 * hbar - 63) * deg);
    const double dtheta = 30 * std::exp(-((hbar - 275) / 25) * ((hbar - 275) / 25));
    const double cpbar7 = pow7(cpbar);
    const double rc = 2 * std::sqrt(cpbar7 / (cpbar7 + p25_7));
    const double l50 = (lbar - 50) * (lbar - 50);
    const double sl = 1 + 0.015 * l50 / std::sqrt(20 + l50), sc = 1 + 0.045 * cpbar, sh = 1 + 0.015 * cpbar * t;
    const double rt = -std::sin(2 * dtheta * deg) * rc;
    const double ql = dl / sl, qc = dc / sc, qh = dH / sh;
    return std::sqrt(std::max(0.0, ql * ql + qc * qc + qh * qh + rt * qc * qh));
}

Rgba8 from_rgba5551(std::uint16_t v) noexcept {
    return {expand5(v >> 11), expand5(v >> 6), expand5(v >> 1), static_cast<std::uint8_t>((v & 1) ? 255 : 0)};
}

std::uint16_t to_rgba5551(Rgba8 c) noexcept {
    return static_cast<std::uint16_t>((quantise5(c.r) << 11) | (quantise5(c.g) << 6) | (quantise5(c.b) << 1) |
                                      (c.a >= 128 ? 1 : 0));
}

Rgba8 snap_rgba5551(Rgba8 c) noexcept { return from_rgba5551(to_rgba5551(c)); }

Hsv to_hsv(Rgba8 c) noexcept {
    const double r = c.r / 255.0, g = c.g / 255.0, b = c.b / 255.0;
    const double mx = std::max({r, g, b}), mn = std::min({r, g, b}), d = mx - mn;
    Hsv out;
    out.v = mx;
    out.s = mx > 0 ? d / mx : 0;
    if (d > 0) {
        double h;
        if (mx == r) h = std::fmod((g - b) / d, 6.0);
        else if (mx == g) h = (b - r) / d + 2.0;
        else h = (r - g) / d + 4.0;
        h *= 60.0;
        if (h < 0) h += 360.0;
        out.h = h >= 360.0 ? 0.0 : h;
    }
    return out;
}

Rgba8 from_hsv(const Hsv& hsv, std::uint8_t alpha) noexcept {
    double h = std::fmod(hsv.h, 360.0);
    if (h < 0) h += 360.0;
    const double s = std::clamp(hsv.s, 0.0, 1.0), v = std::clamp(hsv.v, 0.0, 1.0);
    const double c = v * s, x = c * (1 - std::fabs(std::fmod(h / 60.0, 2.0) - 1)), m = v - c;
    double r = 0, g = 0, b = 0;
    switch (static_cast<int>(h / 60.0)) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
    }
    return {to_byte(r + m), to_byte(g + m), to_byte(b + m), alpha};
}

}  // namespace mod::image
