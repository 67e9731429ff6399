// PNG encoding into memory (deterministic settings; see png.hpp).
#include "libmod/image/png.hpp"

#include "image/png_errors.hpp"

#include <png.h>

#include <csetjmp>
#include <string>

namespace mod::image {

namespace {

struct Sink : detail::PngErrorSlot {
    Bytes* out = nullptr;
};

void on_write(png_structp png, png_bytep data, png_size_t n) {
    auto* sink = static_cast<Sink*>(png_get_io_ptr(png));
    bool ok = true;
    try {
        sink->out->insert(sink->out->end(), data, data + n);
    } catch (...) {
        ok = false;  // never let an exception cross libpng's C frames
    }
    if (!ok) png_error(png, "out of memory while writing PNG");
}

void on_flush(png_structp) {}

struct PaletteSpec {
    const png_color* plte;
    int count;
    const png_byte* trns;
    int trns_count;
};

bool write_stages(png_structp png, png_infop info, png_uint_32 w, png_uint_32 h, int depth, int colour_type,
                  const PaletteSpec* palette, png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_IHDR(png, info, w, h, depth, colour_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 9);
    if (palette) {
        png_set_PLTE(png, info, palette->plte, palette->count);
        if (palette->trns_count > 0) png_set_tRNS(png, info, palette->trns, palette->trns_count, nullptr);
    }
    png_write_info(png, info);
    if (palette && depth < 8) png_set_packing(png);
    png_write_image(png, rows);
    png_write_end(png, nullptr);
    return true;
}

Bytes encode(png_uint_32 w, png_uint_32 h, int depth, int colour_type, const PaletteSpec* palette,
             std::vector<png_bytep>& rows) {
    Bytes out;
    Sink sink;
    sink.out = &out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, static_cast<detail::PngErrorSlot*>(&sink),
                                              detail::png_on_error, detail::png_on_warning);
    if (!png) throw Error(ErrorKind::limit, "libpng could not allocate a writer");
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, nullptr);
        throw Error(ErrorKind::limit, "libpng could not allocate a writer");
    }
    png_set_write_fn(png, &sink, on_write, on_flush);
    bool ok = write_stages(png, info, w, h, depth, colour_type, palette, rows.data());
    png_destroy_write_struct(&png, &info);
    if (!ok) throw Error(ErrorKind::usage, std::string("PNG encoding failed: ") + sink.message);
    return out;
}

}  // namespace

Bytes write_png(const RgbaImage& image) {
    image.check();
    if (image.width == 0 || image.height == 0) throw Error(ErrorKind::usage, "cannot write an empty PNG");
    std::vector<png_bytep> rows(image.height);
    auto* base = const_cast<std::uint8_t*>(image.pixels.data());  // libpng's row type is non-const; it only reads
    for (std::uint32_t y = 0; y < image.height; ++y) rows[y] = base + std::size_t(y) * image.width * 4;
    return encode(image.width, image.height, 8, PNG_COLOR_TYPE_RGB_ALPHA, nullptr, rows);
}

Bytes write_png(const PalettedImage& image) {
    image.check();
    if (image.width == 0 || image.height == 0) throw Error(ErrorKind::usage, "cannot write an empty PNG");
    const std::size_t n = image.palette.size();
    const int depth = n <= 2 ? 1 : n <= 4 ? 2 : n <= 16 ? 4 : 8;
    std::vector<png_color> plte(n);
    std::vector<png_byte> trns(n);
    int trns_count = 0;
    for (std::size_t i = 0; i < n; ++i) {
        plte[i] = {image.palette[i].r, image.palette[i].g, image.palette[i].b};
        trns[i] = image.palette[i].a;
        if (trns[i] != 255) trns_count = static_cast<int>(i) + 1;
    }
    PaletteSpec spec{plte.data(), static_cast<int>(n), trns.data(), trns_count};
    std::vector<png_bytep> rows(image.height);
    auto* base = const_cast<std::uint8_t*>(image.indices.data());
    for (std::uint32_t y = 0; y < image.height; ++y) rows[y] = base + std::size_t(y) * image.width;
    return encode(image.width, image.height, depth, PNG_COLOR_TYPE_PALETTE, &spec, rows);
}

}  // namespace mod::image
