// JPEG reading through the libjpeg API (libjpeg-turbo). See jpeg.hpp.
#include "libmod/image/jpeg.hpp"

#include "libmod/core/error.hpp"

#include <csetjmp>
#include <cstdio>
#include <jpeglib.h>

namespace mod::image {

namespace {

struct ErrorManager {
    jpeg_error_mgr base;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX] = {};
};

extern "C" void on_error(j_common_ptr cinfo) {
    auto* e = reinterpret_cast<ErrorManager*>(cinfo->err);
    (*cinfo->err->format_message)(cinfo, e->message);
    std::longjmp(e->jump, 1);
}

extern "C" void on_message(j_common_ptr cinfo, int level) {
    if (level < 0) on_error(cinfo);  // a warning: corrupt data libjpeg would otherwise skip
}

}  // namespace

bool is_jpeg(ByteView b) noexcept { return b.size() >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF; }

RgbaImage read_jpeg(ByteView data, const std::string& file, const PngLimits& limits) {
    if (!is_jpeg(data)) throw Error(ErrorKind::format, "not a JPEG image (no FF D8 FF start)", file);
    jpeg_decompress_struct cinfo{};
    ErrorManager err;
    cinfo.err = jpeg_std_error(&err.base);
    err.base.error_exit = on_error;
    err.base.emit_message = on_message;
    // Everything that may be skipped by the longjmp is a plain value or owned by cinfo.
    RgbaImage* out = new RgbaImage();
    JSAMPLE* volatile row = nullptr;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        delete out;
        delete[] row;
        throw Error(ErrorKind::format, std::string("JPEG: ") + err.message, file);
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data.data(), static_cast<unsigned long>(data.size()));
    jpeg_read_header(&cinfo, TRUE);
    if (cinfo.image_width == 0 || cinfo.image_height == 0 || cinfo.image_width > limits.max_dimension ||
        cinfo.image_height > limits.max_dimension ||
        std::uint64_t(cinfo.image_width) * cinfo.image_height > limits.max_pixels) {
        const std::string size = std::to_string(cinfo.image_width) + "x" + std::to_string(cinfo.image_height);
        jpeg_destroy_decompress(&cinfo);
        delete out;
        throw Error(ErrorKind::limit, "JPEG of " + size + " pixels is larger than allowed", file);
    }
    cinfo.out_color_space = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(&cinfo);
    const unsigned comps = static_cast<unsigned>(cinfo.output_components);
    out->width = cinfo.output_width;
    out->height = cinfo.output_height;
    out->pixels.resize(std::size_t(out->width) * out->height * 4);
    row = new JSAMPLE[std::size_t(out->width) * comps];
    while (cinfo.output_scanline < cinfo.output_height) {
        const std::size_t y = cinfo.output_scanline;
        JSAMPROW rows[1] = {row};
        jpeg_read_scanlines(&cinfo, rows, 1);
        std::uint8_t* o = &out->pixels[y * out->width * 4];
        for (std::size_t x = 0; x < out->width; ++x, o += 4) {
            const JSAMPLE* p = &row[x * comps];
            if (comps == 4) {  // Adobe CMYK is stored inverted
                o[0] = std::uint8_t(unsigned(p[0]) * p[3] / 255);
                o[1] = std::uint8_t(unsigned(p[1]) * p[3] / 255);
                o[2] = std::uint8_t(unsigned(p[2]) * p[3] / 255);
            } else if (comps == 3) {
                o[0] = p[0], o[1] = p[1], o[2] = p[2];
            } else {
                o[0] = o[1] = o[2] = p[0];
            }
            o[3] = 255;
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    delete[] row;
    RgbaImage result = std::move(*out);
    delete out;
    return result;
}

}  // namespace mod::image
