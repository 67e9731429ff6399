// Slot lists and colours as text (contract: palette_text.hpp).
#include "libmod/image/palette_text.hpp"

#include "libmod/core/error.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace mod::image {

namespace {

[[noreturn]] void usage(std::string message) { throw Error(ErrorKind::usage, std::move(message)); }

// Decimal digits only, <= max; nullopt otherwise (no sign, no spaces, no "0x").
std::optional<unsigned> decimal(std::string_view digits, unsigned max) {
    if (digits.empty() || digits.size() > 10 || digits.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    std::uint64_t v = 0;
    for (char c : digits) v = v * 10 + unsigned(c - '0');
    if (v > max) return std::nullopt;
    return static_cast<unsigned>(v);
}

}  // namespace

std::vector<unsigned> parse_slot_list(std::string_view text, unsigned max_slot) {
    const std::string why = "expects slots like 0-5 or 1,3,7-9 (each 0-" + std::to_string(max_slot) + ")";
    auto bad = [&](const std::string& detail) { usage(why + ": '" + std::string(text) + "' " + detail); };
    std::vector<unsigned> out;
    if (text.empty()) bad("is empty");
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        const std::string_view item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        if (item.empty()) bad("has an empty item");
        const std::size_t dash = item.find('-');
        auto number = [&](std::string_view digits) {
            if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
                bad("has '" + std::string(item) + "', which is neither a slot nor a range A-B");
            const auto v = decimal(digits, max_slot);
            if (!v) bad("names slot " + std::string(digits) + ", past " + std::to_string(max_slot));
            return *v;
        };
        if (dash == std::string_view::npos) {
            out.push_back(number(item));
        } else {
            const unsigned lo = number(item.substr(0, dash)), hi = number(item.substr(dash + 1));
            if (lo > hi) bad("has the range " + std::string(item) + ", which runs backwards");
            for (unsigned v = lo; v <= hi; ++v) out.push_back(v);
        }
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

Rgba8 parse_colour_text(std::string_view text) {
    std::string_view hex = text;
    if (!hex.empty() && hex[0] == '#') hex.remove_prefix(1);
    auto bad = [&] { usage("expects a colour #RRGGBB or #RRGGBBAA (hex, '#' optional), got '" + std::string(text) + "'"); };
    if (hex.size() != 6 && hex.size() != 8) bad();
    std::uint32_t v = 0;
    for (char c : hex) {
        const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) bad();
        v = v << 4 | unsigned(d);
    }
    if (hex.size() == 6) v = v << 8 | 0xFF;
    return {static_cast<std::uint8_t>(v >> 24), static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8),
            static_cast<std::uint8_t>(v)};
}

std::string colour_text(Rgba8 c) {
    char b[16];
    std::snprintf(b, sizeof b, "%02X%02X%02X%02X", c.r, c.g, c.b, c.a);
    return b;
}

SlotColour parse_slot_colour(std::string_view text, unsigned max_slot) {
    const std::string why = "expects SLOT=RRGGBB[AA], got '" + std::string(text) + "'";
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos) usage(why);
    const auto slot = decimal(text.substr(0, eq), max_slot);
    if (!slot) usage(why + ": the slot is not a number 0-" + std::to_string(max_slot));
    try {
        return {*slot, parse_colour_text(text.substr(eq + 1))};
    } catch (const Error&) {
        usage(why + ": the colour is not RRGGBB or RRGGBBAA (hex, '#' optional)");
    }
}

}  // namespace mod::image
