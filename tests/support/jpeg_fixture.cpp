#include "jpeg_fixture.hpp"

#include <cstdio>
#include <cstdlib>
#include <vector>

#include <jpeglib.h>

namespace modtest {

mod::Bytes jpeg_gradient(unsigned w, unsigned h, bool grey, int quality) {
    jpeg_compress_struct c{};
    jpeg_error_mgr err{};
    c.err = jpeg_std_error(&err);
    jpeg_create_compress(&c);
    unsigned char* mem = nullptr;
    unsigned long size = 0;
    jpeg_mem_dest(&c, &mem, &size);
    c.image_width = w;
    c.image_height = h;
    c.input_components = grey ? 1 : 3;
    c.in_color_space = grey ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, quality, TRUE);
    for (int i = 0; i < c.num_components; ++i) c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
    jpeg_start_compress(&c, TRUE);
    std::vector<unsigned char> row(w * 3);
    while (c.next_scanline < c.image_height) {
        for (unsigned x = 0; x < w; ++x) {
            if (grey) row[x] = static_cast<unsigned char>(x * 8);
            else {
                row[3 * x] = static_cast<unsigned char>(x * 8);
                row[3 * x + 1] = 64;
                row[3 * x + 2] = static_cast<unsigned char>(c.next_scanline * 16);
            }
        }
        JSAMPROW r[1] = {row.data()};
        jpeg_write_scanlines(&c, r, 1);
    }
    jpeg_finish_compress(&c);
    mod::Bytes out(mem, mem + size);
    jpeg_destroy_compress(&c);
    std::free(mem);
    return out;
}

}  // namespace modtest
