// The size rule every game's mesh replacement shares (libmod/scene/scale_check.hpp, issue 29
// item 3): box diagonals compared, beyond 10x either way refused (limit) with the fix that fits
// the source's format, or a warning when allowed.
#include "test_support.hpp"

#include "libmod/core/error.hpp"
#include "libmod/scene/scale_check.hpp"

#include <cmath>
#include <string>
#include <vector>

using namespace mod::scene;

namespace {

// A box from the origin to (x, y, z), as two positions.
std::vector<Vec3> box(float x, float y, float z) { return {{0, 0, 0}, {x, y, z}}; }

bool has(const std::string& text, const std::string& word) { return text.find(word) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_SUITE(scale_check)

BOOST_AUTO_TEST_CASE(the_ratio_is_of_box_diagonals) {
    // (3, 4, 0) has diagonal 5; (30, 40, 0) 50: ratio 10 exactly, within the rule.
    const ScaleComparison c = compare_scale(box(3, 4, 0), box(30, 40, 0));
    BOOST_TEST(c.old_diagonal == 5.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(c.new_diagonal == 50.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(c.ratio == 10.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(!c.beyond());
    BOOST_TEST(compare_scale(box(3, 4, 0), box(30.1f, 40, 0)).beyond());
    BOOST_TEST(compare_scale(box(30, 40, 0), box(2.9f, 4, 0)).beyond());  // smaller counts too
    // A model on its side (axes swapped) keeps its diagonal: not a size change.
    BOOST_TEST(compare_scale(box(1, 10, 2), box(10, 1, 2)).ratio == 1.0, boost::test_tools::tolerance(1e-6));
    // Empty or point-sized boxes compare as 1 (nothing to say).
    BOOST_TEST(compare_scale(std::vector<Vec3>{}, box(1, 1, 1)).ratio == 1.0);
    BOOST_TEST(compare_scale(box(0, 0, 0), box(1, 1, 1)).ratio == 1.0);
    BOOST_TEST(compare_scale(box(1, 1, 1), std::vector<Vec3>{{NAN, 0, 0}}).ratio == 1.0);
}

BOOST_AUTO_TEST_CASE(refused_with_both_boxes_and_the_allow_option) {
    const ScaleComparison c = compare_scale(box(0.4f, 2.0f, 0.4f), box(40, 200, 40));
    ScaleSource glb{"glb", 1.0, true, 1.0};
    auto e = modtest::catch_error([&] { check_scale_change(c, glb, false, "hero.glb"); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST((e->kind() == mod::ErrorKind::limit));
    BOOST_TEST(mod::exit_code(e->kind()) == 3);
    const std::string m = e->message();
    for (const char* word : {"100 times larger", "extent 40 x 200 x 40", "extent 0.4 x 2 x 0.4", "glTF positions are metres",
                             "--scale 0.01", "\"scale\": 0.01", "--allow-scale-change", "\"allow_scale_change\": true"})
        BOOST_TEST(has(m, word), word << " in " << m);
    BOOST_TEST(std::string(e->what()).find("hero.glb") != std::string::npos, e->what());
    // Allowed: the same text, returned for a warning.
    BOOST_TEST(check_scale_change(c, glb, true, "hero.glb") == m);
    // Within the rule: nothing either way.
    BOOST_TEST(check_scale_change(compare_scale(box(1, 1, 1), box(5, 5, 5)), glb, false, "x").empty());
}

BOOST_AUTO_TEST_CASE(the_fix_fits_the_source_format) {
    const ScaleComparison big = compare_scale(box(1, 2, 1), box(100, 200, 100));
    // An FBX that declares centimetres, read with --units file: the fix is the default.
    const std::string kept = scale_change_text(big, ScaleSource{"fbx", 0.01, false, 1.0});
    BOOST_TEST(has(kept, "declares 1 unit = 0.01 m"), kept);
    BOOST_TEST(has(kept, "--units metres"), kept);
    BOOST_TEST(!has(kept, "--scale"), kept);
    // An FBX whose declared unit was converted but is wrong: scale it.
    const std::string wrong = scale_change_text(big, ScaleSource{"fbx", 1.0, true, 1.0});
    BOOST_TEST(has(wrong, "do not match the unit it declares"), wrong);
    BOOST_TEST(has(wrong, "--scale 0.01"), wrong);
    // The factor accounts for a --scale already given (2 x 50 = 100: --scale 0.02 gives 1x).
    BOOST_TEST(has(scale_change_text(big, ScaleSource{"dae", std::nullopt, true, 2.0}), "--scale 0.02"));
    // A factor far from a power of ten is printed as it is: 37x larger -> 0.027.
    const std::string odd = scale_change_text(compare_scale(box(1, 0, 0), box(37, 0, 0)), ScaleSource{});
    BOOST_TEST(has(odd, "37 times larger"), odd);
    BOOST_TEST(has(odd, "--scale 0.027"), odd);
    // 13x smaller -> 13 (not rounded to 10: more than 20% away); 11x smaller -> 10.
    BOOST_TEST(has(scale_change_text(compare_scale(box(13, 0, 0), box(1, 0, 0)), ScaleSource{}), "--scale 13"));
    BOOST_TEST(has(scale_change_text(compare_scale(box(11, 0, 0), box(1, 0, 0)), ScaleSource{}), "--scale 10 "));
}

BOOST_AUTO_TEST_SUITE_END()
