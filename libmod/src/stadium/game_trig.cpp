// The game's sine table, computed (see game_trig.hpp for the formula and how it was checked).
#include "libmod/stadium/game_trig.hpp"

#include <array>
#include <cmath>
#include <numbers>

namespace mod::stadium {

namespace {

const std::array<float, game_sine_entries>& table() {
    static const std::array<float, game_sine_entries> t = [] {
        std::array<float, game_sine_entries> out{};
        for (unsigned i = 0; i < game_sine_entries; ++i)
            out[i] = i % (game_sine_entries / 2) == 0
                         ? 0.0f
                         : static_cast<float>(std::sin(2.0 * std::numbers::pi * double(i) / double(game_sine_entries)));
        return out;
    }();
    return t;
}

}  // namespace

float game_sine_entry(unsigned i) noexcept { return table()[i % game_sine_entries]; }

float game_sins(std::int32_t angle) noexcept { return table()[(static_cast<std::uint32_t>(angle) & 0xFFFFu) >> 4]; }

float game_coss(std::int32_t angle) noexcept { return game_sins(angle + 0x4000); }

}  // namespace mod::stadium
