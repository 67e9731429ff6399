// Fuzz target: PNG reading (RGBA and paletted) of arbitrary bytes must succeed or throw
// mod::Error; a paletted PNG that reads must write and read back to the same image.
#include "libmod/image/png.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    mod::image::PngLimits limits;
    limits.max_dimension = 2048;
    limits.max_pixels = 1u << 20;
    mod::ByteView bytes(data, size);
    try {
        auto rgba = mod::image::read_png(bytes, "fuzz.png", limits);
        if (rgba.pixels.size() != rgba.pixel_count() * 4) std::abort();
    } catch (const mod::Error&) {
    }
    try {
        if (auto p = mod::image::read_png_paletted(bytes, "fuzz.png", limits)) {
            auto again = mod::image::read_png_paletted(mod::image::write_png(*p));
            if (!again || !(*again == *p)) std::abort();
        }
    } catch (const mod::Error&) {
    }
    return 0;
}
