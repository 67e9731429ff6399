// Palette slot lists and colours as text (libmod/image/palette_text.hpp): the one parser of the
// CLI's --lock/--slots/--set/--colour and the manifest's "lock"/"slots"/"colours"/"colour".
#include "test_support.hpp"

#include "libmod/image/palette_text.hpp"

#include <string>
#include <vector>

using namespace mod::image;
using modtest::catch_error;

namespace {

// The message of the usage error `fn` throws ("" and a failed check when it does not throw one).
template <class F>
std::string usage_message(F fn) {
    const auto e = catch_error([&] { fn(); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == mod::ErrorKind::usage));
    return e->message();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(palette_text)

BOOST_AUTO_TEST_CASE(slot_lists_take_slots_and_inclusive_ranges_sorted_once) {
    BOOST_TEST((parse_slot_list("5") == std::vector<unsigned>{5}));
    BOOST_TEST((parse_slot_list("0-3") == std::vector<unsigned>{0, 1, 2, 3}));
    BOOST_TEST((parse_slot_list("9,1,3-4,3,2-3") == std::vector<unsigned>{1, 2, 3, 4, 9}));
    BOOST_TEST((parse_slot_list("255") == std::vector<unsigned>{255}));
    BOOST_TEST((parse_slot_list("007") == std::vector<unsigned>{7}));
    BOOST_TEST((parse_slot_list("14-15", 15) == std::vector<unsigned>{14, 15}));
    BOOST_TEST(parse_slot_list("0-255").size() == 256u);
}

BOOST_AUTO_TEST_CASE(slot_list_errors_quote_the_text_and_say_what_is_wrong) {
    const std::string why = "expects slots like 0-5 or 1,3,7-9 (each 0-255): ";
    BOOST_TEST(usage_message([] { parse_slot_list(""); }) == why + "'' is empty");
    BOOST_TEST(usage_message([] { parse_slot_list("1,,2"); }) == why + "'1,,2' has an empty item");
    BOOST_TEST(usage_message([] { parse_slot_list("1,"); }) == why + "'1,' has an empty item");
    BOOST_TEST(usage_message([] { parse_slot_list("5-0"); }) == why + "'5-0' has the range 5-0, which runs backwards");
    BOOST_TEST(usage_message([] { parse_slot_list("256"); }) == why + "'256' names slot 256, past 255");
    BOOST_TEST(usage_message([] { parse_slot_list("0-300"); }) == why + "'0-300' names slot 300, past 255");
    BOOST_TEST(usage_message([] { parse_slot_list("99999999999999999999999"); }) ==
               why + "'99999999999999999999999' names slot 99999999999999999999999, past 255");
    for (const char* item : {"0-", "-3", "0-5x", "a", "1;2", " 1", "1 ", "0x5", "+1", "1-2-3"})
        BOOST_TEST(usage_message([&] { parse_slot_list(item); }) ==
                       why + "'" + item + "' has '" + item + "', which is neither a slot nor a range A-B",
                   item);
    BOOST_TEST(usage_message([] { parse_slot_list("3,x"); }) == why + "'3,x' has 'x', which is neither a slot nor a range A-B");
    BOOST_TEST(usage_message([] { parse_slot_list("16", 15); }) ==
               "expects slots like 0-5 or 1,3,7-9 (each 0-15): '16' names slot 16, past 15");
}

BOOST_AUTO_TEST_CASE(colours_are_six_or_eight_hex_digits_with_an_optional_hash) {
    BOOST_TEST((parse_colour_text("FF8000") == Rgba8{255, 128, 0, 255}));
    BOOST_TEST((parse_colour_text("#ff800040") == Rgba8{255, 128, 0, 64}));
    BOOST_TEST((parse_colour_text("#0a0B0c") == Rgba8{10, 11, 12, 255}));
    BOOST_TEST((parse_colour_text("00000000") == Rgba8{0, 0, 0, 0}));
    for (const char* bad : {"", "#", "12345", "#1234567", "123456789", "GG0000", "12 456", "0x1234", "##123456", "-12345"})
        BOOST_TEST(usage_message([&] { parse_colour_text(bad); }) ==
                       std::string("expects a colour #RRGGBB or #RRGGBBAA (hex, '#' optional), got '") + bad + "'",
                   bad);
    BOOST_TEST(colour_text({255, 128, 0, 64}) == "FF800040");
    BOOST_TEST(colour_text({1, 2, 3, 255}) == "010203FF");
    BOOST_TEST((parse_colour_text(colour_text({17, 34, 51, 68})) == Rgba8{17, 34, 51, 68}));
}

BOOST_AUTO_TEST_CASE(slot_colours_are_slot_equals_colour) {
    const SlotColour a = parse_slot_colour("4=#00FF00");
    BOOST_TEST(a.slot == 4u);
    BOOST_TEST((a.colour == Rgba8{0, 255, 0, 255}));
    const SlotColour b = parse_slot_colour("15=10203040", 15);
    BOOST_TEST(b.slot == 15u);
    BOOST_TEST((b.colour == Rgba8{0x10, 0x20, 0x30, 0x40}));
    BOOST_TEST(usage_message([] { parse_slot_colour("4"); }) == "expects SLOT=RRGGBB[AA], got '4'");
    BOOST_TEST(usage_message([] { parse_slot_colour("=FF0000"); }) ==
               "expects SLOT=RRGGBB[AA], got '=FF0000': the slot is not a number 0-255");
    BOOST_TEST(usage_message([] { parse_slot_colour("256=FF0000"); }) ==
               "expects SLOT=RRGGBB[AA], got '256=FF0000': the slot is not a number 0-255");
    BOOST_TEST(usage_message([] { parse_slot_colour("16=FF0000", 15); }) ==
               "expects SLOT=RRGGBB[AA], got '16=FF0000': the slot is not a number 0-15");
    BOOST_TEST(usage_message([] { parse_slot_colour("-1=FF0000"); }) ==
               "expects SLOT=RRGGBB[AA], got '-1=FF0000': the slot is not a number 0-255");
    BOOST_TEST(usage_message([] { parse_slot_colour("1=#FF00"); }) ==
               "expects SLOT=RRGGBB[AA], got '1=#FF00': the colour is not RRGGBB or RRGGBBAA (hex, '#' optional)");
    BOOST_TEST(usage_message([] { parse_slot_colour("1=FF0000=00"); }) ==
               "expects SLOT=RRGGBB[AA], got '1=FF0000=00': the colour is not RRGGBB or RRGGBBAA (hex, '#' optional)");
}

BOOST_AUTO_TEST_SUITE_END()
