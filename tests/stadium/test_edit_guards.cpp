// Data edits on hostile layouts: palette colours or texels that share bytes with structure the
// model reads (a display list, the getter's relocated code) are refused with a conflict error
// instead of silently corrupting it (found by fuzz_stadium_model).
#include "stadium_test_support.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/stadium/fragment_image.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/texture_edit.hpp"

#include <boost/test/unit_test.hpp>

using namespace mod::stadium;

namespace {

// small_model() with palette 0's colour pointer (entry + 4) and its TLUT DL's SETTIMG address
// (the list is authoritative) aimed at body offset `target`.
Model with_palette_at(std::uint32_t target) {
    const mod::Bytes bytes = stadiumtest::small_model();
    Fragment f = parse_fragment(mod::ByteReader(bytes, mod::Endian::big, "t", "fragment"));
    const Model m = read_model(f);
    mod::endian::store_be32(&f.body[m.palettes[0].entry + 4], f.link_base() + target);
    mod::endian::store_be32(&f.body[m.offset_of(m.palettes[0].tlut_dl, "tlut_dl") + 4], f.link_base() + target);
    return read_model(f);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_edit_guards)

BOOST_AUTO_TEST_CASE(palette_colours_on_a_display_list_are_not_rewritten) {
    const Model clean = read_model(stadiumtest::small_model());
    const Model m = with_palette_at(clean.lists[0].offset);
    BOOST_TEST(m.palettes[0].offset == clean.lists[0].offset);
    FragmentImage image(m.fragment);
    const mod::image::SlotColour set[1] = {{1, {255, 0, 0, 255}}};
    const auto e = modtest::catch_error([&] { set_palette_slots(m, image, 0, set); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == mod::ErrorKind::conflict));
    BOOST_TEST(std::string(e->what()).find("display list") != std::string::npos, e->what());
    BOOST_TEST(!image.modified());
    // The unedited model's palette is plain data: the same edit goes through.
    FragmentImage ok(clean.fragment);
    set_palette_slots(clean, ok, 0, set);
    BOOST_TEST(ok.modified());
}

BOOST_AUTO_TEST_CASE(data_over_relocated_words_is_not_rewritten) {
    // Palette colours aimed at the getter (0x20): its HI16/LO16 words are relocated.
    const Model m = with_palette_at(0x20);
    FragmentImage image(m.fragment);
    const auto e = modtest::catch_error([&] { shift_palette_hsv(m, image, 0, mod::image::HsvShift{40, 1, 1}); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == mod::ErrorKind::conflict));
    BOOST_TEST(!image.modified());
    // write_data itself: a texture entry's pointer word (+8) is relocated, its first 8 bytes are not.
    FragmentImage direct(m.fragment);
    const std::uint32_t entry = m.textures[0].entry;
    direct.write_data(entry, mod::Bytes(8, 0), "descriptor");
    BOOST_TEST(direct.modified());
    BOOST_TEST((modtest::catch_error([&] { direct.write_data(entry + 4, mod::Bytes(8, 0), "descriptor"); })->kind() ==
                mod::ErrorKind::conflict));
}

BOOST_AUTO_TEST_CASE(model_structure_covers_what_the_reader_walks) {
    const Model m = read_model(stadiumtest::small_model());
    BOOST_TEST_REQUIRE(!m.structure.empty());
    BOOST_TEST(std::is_sorted(m.structure.begin(), m.structure.end(),
                              [](const ModelRange& a, const ModelRange& b) { return a.begin < b.begin; }));
    auto covered = [&](std::uint32_t at) {
        for (const auto& r : m.structure)
            if (r.begin <= at && at < r.end) return true;
        return false;
    };
    for (const auto& c : m.commands) BOOST_TEST(covered(c.offset));
    for (const auto& l : m.lists) BOOST_TEST(covered(l.offset));
    BOOST_TEST(covered(m.textures[0].entry));
    BOOST_TEST(covered(m.palettes[0].entry));
    // Texels and colours are data, not structure.
    BOOST_TEST(!covered(m.textures[0].offset));
    BOOST_TEST(!covered(m.palettes[0].offset));
    BOOST_TEST((modtest::catch_error([&] { require_plain_data(m, m.lists[0].offset + 4, 2, "x"); })->kind() ==
                mod::ErrorKind::conflict));
    require_plain_data(m, m.textures[0].offset, m.textures[0].data.size(), "texels");
}

BOOST_AUTO_TEST_SUITE_END()
