#pragma once
// The text forms of palette slots and colours, one parser for the command line's options and
// the manifest's fields. Failures are usage errors whose message starts with what was expected
// and quotes the text, so a caller only prefixes the option or field name
// ("--lock expects slots like …", "edits[2].lock: expects slots like …").

#include "libmod/image/image.hpp"
#include "libmod/image/recolour.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace mod::image {

// A slot list: "5", "0-5", "1,3,7-9" (ranges inclusive, decimal digits only), each slot
// <= max_slot; sorted, each slot once. Anything else ("", "0-", "-3", "5-0", "1,,2", "0-5x",
// " 1", "256") is a usage error "expects slots like 0-5 or 1,3,7-9 (each 0-<max_slot>): '<text>'
// <what is wrong>".
std::vector<unsigned> parse_slot_list(std::string_view text, unsigned max_slot = 255);

// "#RRGGBB", "RRGGBB", "#RRGGBBAA" or "RRGGBBAA" (hex digits, either case) as RGBA8; alpha 255
// when absent. Usage error "expects a colour #RRGGBB or #RRGGBBAA (hex, '#' optional), got
// '<text>'" otherwise.
Rgba8 parse_colour_text(std::string_view text);
// "RRGGBBAA", upper-case hex: the form reports and listings use.
std::string colour_text(Rgba8 c);

// "SLOT=COLOUR" (a --set value): the slot as in parse_slot_list (one slot, <= max_slot), the
// colour as in parse_colour_text. Usage error "expects SLOT=RRGGBB[AA], got '<text>'" (then
// ": the slot …" or ": the colour …" when the '=' is there) otherwise.
SlotColour parse_slot_colour(std::string_view text, unsigned max_slot = 255);

}  // namespace mod::image
