// The `preview` commands on the sample games, end to end through the CLI.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/png.hpp"
#include "libmod/render/render.hpp"
#include "libmod/sample/shred.hpp"
#include "libmod/sample/stadium.hpp"

#include <algorithm>

using namespace mod;
using image::Rgba8;

namespace {

bool all_background(const image::RgbaImage& im, Rgba8 background = render::RenderOptions{}.background) {
    for (std::size_t i = 0; i < im.pixel_count(); ++i)
        if (!(im.at(i) == background)) return false;
    return true;
}

image::RgbaImage read_png_file(const std::filesystem::path& p) { return image::read_png(read_file(p), p.string()); }

}  // namespace

BOOST_AUTO_TEST_SUITE(preview_cli)

BOOST_AUTO_TEST_CASE(stadium_preview_of_the_sample_rom) {
    modtest::TempDir dir;
    write_file_atomic(dir / "rom.z64", sample::stadium_rom());
    auto r = modtest::run_cli({"stadium", "preview", (dir / "rom.z64").string(), "0", (dir / "both.png").string(),
                               "--size", "64"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto both = read_png_file(dir / "both.png");
    BOOST_CHECK_EQUAL(both.width, 64u + 8 + 64);
    BOOST_CHECK_EQUAL(both.height, 64u);
    BOOST_CHECK(!all_background(both));
    r = modtest::run_cli({"stadium", "preview", (dir / "rom.z64").string(), "0", (dir / "front.png").string(), "--view",
                          "front", "--size", "40", "--json"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_CHECK(r.out.find("\"views\": \"front\"") != std::string::npos);
    const auto front = read_png_file(dir / "front.png");
    BOOST_CHECK_EQUAL(front.width, 40u);
    BOOST_CHECK_EQUAL(front.height, 40u);
    // Textured: the sample model's texels, not one shaded grey.
    std::size_t colours = 0;
    std::vector<Rgba8> seen;
    for (std::size_t i = 0; i < front.pixel_count(); ++i)
        if (std::find(seen.begin(), seen.end(), front.at(i)) == seen.end()) seen.push_back(front.at(i)), ++colours;
    BOOST_CHECK_GT(colours, 4u);
    // --untextured (ux-review D9: it used to give the same PNG): drawn without the texels, so
    // everything the textured picture covers is covered (and more: texels that alpha-test away).
    r = modtest::run_cli({"stadium", "preview", (dir / "rom.z64").string(), "0", (dir / "plain.png").string(), "--view",
                          "front", "--size", "40", "--untextured"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto plain = read_png_file(dir / "plain.png");
    BOOST_REQUIRE_EQUAL(plain.pixel_count(), front.pixel_count());
    const Rgba8 bg = render::RenderOptions{}.background;
    std::size_t differing = 0;
    for (std::size_t i = 0; i < front.pixel_count(); ++i) {
        if (!(front.at(i) == bg)) BOOST_TEST(!(plain.at(i) == bg));
        differing += !(front.at(i) == plain.at(i));
    }
    BOOST_CHECK_GT(differing, 0u);
    // Usage errors: bad view, bad size; the input is never overwritten.
    BOOST_CHECK_EQUAL(modtest::run_cli({"stadium", "preview", (dir / "rom.z64").string(), "0",
                                        (dir / "x.png").string(), "--view", "back"}).exit_code, 1);
    BOOST_CHECK_EQUAL(modtest::run_cli({"stadium", "preview", (dir / "rom.z64").string(), "0",
                                        (dir / "x.png").string(), "--size", "0"}).exit_code, 1);
    BOOST_CHECK_NE(modtest::run_cli({"stadium", "preview", (dir / "rom.z64").string(), "0",
                                     (dir / "rom.z64").string()}).exit_code, 0);
    BOOST_CHECK(read_file(dir / "rom.z64") == sample::stadium_rom());
}

BOOST_AUTO_TEST_CASE(shred_and_file_previews) {
    modtest::TempDir dir;
    write_file_atomic(dir / "char.pak", sample::shred_character_pak());
    auto r = modtest::run_cli({"shred", "preview", (dir / "char.pak").string(), "skater01", "1",
                               (dir / "one.png").string(), "--view", "side", "--size", "50"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto one = read_png_file(dir / "one.png");
    BOOST_CHECK_EQUAL(one.width, 50u);
    BOOST_CHECK(!all_background(one));
    // modkit preview on a glb exported from the same quartet draws the same picture.
    r = modtest::run_cli({"shred", "export", (dir / "char.pak").string(), "skater01", "1", (dir / "one.glb").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    r = modtest::run_cli({"preview", (dir / "one.glb").string(), (dir / "glb.png").string(), "--view", "side", "--size",
                          "50"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_CHECK(read_png_file(dir / "glb.png") == one);
}

BOOST_AUTO_TEST_SUITE_END()
