// Composing pictures: side_by_side and the integer nearest-neighbour zoom (render.hpp).
#include "libmod/render/render.hpp"

#include "libmod/core/error.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace mod::render {

namespace {
void check_limit(std::uint64_t width, std::uint64_t height, const char* what) {
    if (width > max_compose_dimension || height > max_compose_dimension)
        throw Error(ErrorKind::limit, std::string(what) + " would be " + std::to_string(width) + "x" +
                                          std::to_string(height) + " pixels, above " +
                                          std::to_string(max_compose_dimension) + " in a direction");
}
}  // namespace

image::RgbaImage side_by_side(std::span<const image::RgbaImage> images, std::uint32_t gap, image::Rgba8 background) {
    std::uint64_t width = 0, height = 0;
    for (std::size_t i = 0; i < images.size(); ++i) {
        images[i].check();
        width += images[i].width + (i > 0 ? std::uint64_t(gap) : 0);
        height = std::max<std::uint64_t>(height, images[i].height);
    }
    check_limit(width, height, "the composed image");
    image::RgbaImage out;
    out.width = static_cast<std::uint32_t>(width);
    out.height = static_cast<std::uint32_t>(height);
    out.pixels.resize(4 * std::size_t(width) * std::size_t(height));
    for (std::size_t i = 0; i < out.pixels.size(); i += 4) {
        out.pixels[i] = background.r;
        out.pixels[i + 1] = background.g;
        out.pixels[i + 2] = background.b;
        out.pixels[i + 3] = background.a;
    }
    std::size_t x = 0;
    for (std::size_t i = 0; i < images.size(); ++i) {
        if (i > 0) x += gap;
        const auto& im = images[i];
        for (std::uint32_t y = 0; y < im.height; ++y)
            if (im.width > 0)
                std::memcpy(&out.pixels[4 * (std::size_t(y) * out.width + x)], &im.pixels[4 * std::size_t(y) * im.width],
                            4 * std::size_t(im.width));
        x += im.width;
    }
    return out;
}

image::RgbaImage scale_nearest(const image::RgbaImage& image, unsigned factor) {
    if (factor == 0) throw Error(ErrorKind::usage, "zoom factor 0: the factor must be at least 1");
    image.check();
    check_limit(std::uint64_t(image.width) * factor, std::uint64_t(image.height) * factor, "the zoomed image");
    image::RgbaImage out;
    out.width = image.width * factor;
    out.height = image.height * factor;
    out.pixels.resize(4 * std::size_t(out.width) * out.height);
    for (std::uint32_t y = 0; y < out.height; ++y) {
        const std::uint8_t* src = &image.pixels[4 * std::size_t(y / factor) * image.width];
        std::uint8_t* dst = &out.pixels[4 * std::size_t(y) * out.width];
        for (std::uint32_t x = 0; x < out.width; ++x) std::memcpy(dst + 4 * std::size_t(x), src + 4 * std::size_t(x / factor), 4);
    }
    return out;
}

}  // namespace mod::render
