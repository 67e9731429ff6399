// AxisMap: signed axis permutations for explicit axis conversion on import.
#include "libmod/scene/import.hpp"

#include "libmod/core/error.hpp"

#include <cctype>

namespace mod::scene {

bool AxisMap::is_identity() const noexcept { return *this == AxisMap{}; }

int AxisMap::determinant() const noexcept {
    // Sign of the permutation times the product of the signs.
    int parity = 1;
    std::array<std::uint8_t, 3> p = axis;
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
            if (p[i] > p[j]) parity = -parity;
    return parity * sign[0] * sign[1] * sign[2];
}

Mat4 AxisMap::matrix() const noexcept {
    Mat4 m{};
    for (int i = 0; i < 3; ++i) m[i * 4 + axis[i]] = sign[i];
    m[15] = 1;
    return m;
}

AxisMap AxisMap::inverse() const noexcept {
    AxisMap inv;
    for (std::uint8_t i = 0; i < 3; ++i) {
        inv.axis[axis[i]] = i;
        inv.sign[axis[i]] = sign[i];
    }
    return inv;
}

std::string AxisMap::to_string() const {
    std::string s;
    for (int i = 0; i < 3; ++i) {
        if (i) s += ',';
        if (sign[i] < 0) s += '-';
        s += static_cast<char>('x' + axis[i]);
    }
    return s;
}

AxisMap parse_axis_map(std::string_view text) {
    auto bad = [&]() -> Error {
        return Error(ErrorKind::usage, "axis conversion '" + std::string(text) +
                                           "' is not understood; use three signed source axes such as "
                                           "'x,z,-y', or identity, zup-to-yup, yup-to-zup");
    };
    if (text == "identity") return AxisMap{};
    if (text == "zup-to-yup") return parse_axis_map("x,z,-y");
    if (text == "yup-to-zup") return parse_axis_map("x,-z,y");
    AxisMap m;
    int out = 0;
    std::int8_t pending_sign = 1;
    bool used[3] = {false, false, false};
    for (char c : text) {
        char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (l == ',' || l == ' ') continue;
        if (l == '+' || l == '-') {
            pending_sign = l == '-' ? -1 : 1;
            continue;
        }
        if (l < 'x' || l > 'z' || out >= 3) throw bad();
        auto a = static_cast<std::uint8_t>(l - 'x');
        if (used[a]) throw bad();
        used[a] = true;
        m.axis[out] = a;
        m.sign[out] = pending_sign;
        pending_sign = 1;
        ++out;
    }
    if (out != 3) throw bad();
    return m;
}

}  // namespace mod::scene
