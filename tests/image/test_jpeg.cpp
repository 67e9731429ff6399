// JPEG reading (image/jpeg.hpp): a gradient encoded here with libjpeg-turbo decodes to its
// values within JPEG's loss, and damaged or oversized input is one format / limit error.
#include "jpeg_fixture.hpp"
#include "test_support.hpp"

#include "libmod/core/error.hpp"
#include "libmod/image/jpeg.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <vector>


namespace {


int at(const mod::image::RgbaImage& img, unsigned x, unsigned y, unsigned c) {
    return img.pixels[(std::size_t(y) * img.width + x) * 4 + c];
}

}  // namespace

BOOST_AUTO_TEST_SUITE(jpeg)

BOOST_AUTO_TEST_CASE(a_gradient_decodes_within_jpeg_loss) {
    const auto img = mod::image::read_jpeg(modtest::jpeg_gradient(32, 16, false), "g.jpg");
    BOOST_TEST(img.width == 32u);
    BOOST_TEST(img.height == 16u);
    BOOST_TEST(img.pixels.size() == 32u * 16u * 4u);
    for (unsigned y = 0; y < 16; y += 5)
        for (unsigned x = 0; x < 32; x += 7) {
            BOOST_TEST(std::abs(at(img, x, y, 0) - int(x * 8)) <= 6, x << "," << y);
            BOOST_TEST(std::abs(at(img, x, y, 1) - 64) <= 6);
            BOOST_TEST(std::abs(at(img, x, y, 2) - int(y * 16)) <= 6);
            BOOST_TEST(at(img, x, y, 3) == 255);
        }
    const auto g = mod::image::read_jpeg(modtest::jpeg_gradient(16, 8, true), "grey.jpg");
    BOOST_TEST(std::abs(at(g, 10, 3, 0) - 80) <= 3);
    BOOST_TEST(at(g, 10, 3, 0) == at(g, 10, 3, 2));
}

BOOST_AUTO_TEST_CASE(damaged_and_oversized_input_is_one_error) {
    mod::Bytes b = modtest::jpeg_gradient(32, 16, false);
    const auto half = modtest::catch_error([&] {
        mod::Bytes h(b.begin(), b.begin() + std::ptrdiff_t(b.size() / 2));
        mod::image::read_jpeg(h, "half.jpg");
    });
    BOOST_TEST_REQUIRE(half.has_value());
    BOOST_TEST(half->kind() == mod::ErrorKind::format);
    BOOST_TEST(half->file() == "half.jpg");
    const auto not_jpeg = modtest::catch_error([] { mod::image::read_jpeg(mod::Bytes{1, 2, 3, 4}, "x.jpg"); });
    BOOST_TEST_REQUIRE(not_jpeg.has_value());
    BOOST_TEST(not_jpeg->kind() == mod::ErrorKind::format);
    mod::image::PngLimits small;
    small.max_pixels = 100;
    const auto big = modtest::catch_error([&] { mod::image::read_jpeg(b, "big.jpg", small); });
    BOOST_TEST_REQUIRE(big.has_value());
    BOOST_TEST(big->kind() == mod::ErrorKind::limit);
    BOOST_TEST(big->message().find("32x16") != std::string::npos, big->message());
    BOOST_TEST(!mod::image::is_jpeg(mod::Bytes{0xFF, 0xD8}));
}

BOOST_AUTO_TEST_SUITE_END()
