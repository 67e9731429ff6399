// PNG decoding. libpng reports errors by longjmp, so every libpng call that can fail runs in a
// small stage function holding only trivially destructible locals, which calls setjmp itself;
// the caller owns the buffers and turns a failed stage into mod::Error.
#include "libmod/image/png.hpp"

#include "image/png_errors.hpp"

#include <png.h>

#include <csetjmp>
#include <cstring>
#include <string>

namespace mod::image {

namespace {

struct Source : detail::PngErrorSlot {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
    std::size_t pos = 0;
};

void on_read(png_structp png, png_bytep out, png_size_t n) {
    auto* src = static_cast<Source*>(png_get_io_ptr(png));
    if (n > src->size - src->pos) png_error(png, "truncated PNG data");
    std::memcpy(out, src->data + src->pos, n);
    src->pos += n;
}

struct Header {
    png_uint_32 width, height;
    int bit_depth, colour_type, interlace;
    png_size_t rowbytes;
};

enum class Mode { rgba, paletted };

bool read_header(png_structp png, png_infop info, Mode mode, const PngLimits& limits, Header& h) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_user_limits(png, limits.max_dimension, limits.max_dimension);
    png_set_chunk_malloc_max(png, 8u << 20);
    png_read_info(png, info);
    png_get_IHDR(png, info, &h.width, &h.height, &h.bit_depth, &h.colour_type, &h.interlace, nullptr, nullptr);
    if (mode == Mode::paletted && h.colour_type != PNG_COLOR_TYPE_PALETTE) return true;
    if (mode == Mode::rgba) {
        if (h.colour_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
        if (h.colour_type == PNG_COLOR_TYPE_GRAY && h.bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
        if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
        if (h.bit_depth == 16) png_set_scale_16(png);
        if (h.colour_type == PNG_COLOR_TYPE_GRAY || h.colour_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    } else {
        png_set_packing(png);
    }
    if (h.interlace != PNG_INTERLACE_NONE) png_set_interlace_handling(png);
    png_read_update_info(png, info);
    h.rowbytes = png_get_rowbytes(png, info);
    return true;
}

bool read_rows(png_structp png, png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_read_image(png, rows);
    png_read_end(png, nullptr);
    return true;
}

bool read_palette(png_structp png, png_infop info, png_colorp* plte, int* count, png_bytep* trns, int* trns_count) {
    if (setjmp(png_jmpbuf(png))) return false;
    *count = 0;
    *trns_count = 0;
    if (!png_get_PLTE(png, info, plte, count)) *count = 0;
    png_color_16p unused = nullptr;
    if (png_get_valid(png, info, PNG_INFO_tRNS) && !png_get_tRNS(png, info, trns, trns_count, &unused)) *trns_count = 0;
    return true;
}

// Owns the libpng structures.
class Decoder {
public:
    Decoder(ByteView data, std::string file) : file_(std::move(file)) {
        src_ = Source{};
        src_.data = data.data();
        src_.size = data.size();
        if (data.size() < 8 || png_sig_cmp(data.data(), 0, 8) != 0) fail("not a PNG file (bad signature)");
        png_ = png_create_read_struct(PNG_LIBPNG_VER_STRING, static_cast<detail::PngErrorSlot*>(&src_),
                                      detail::png_on_error, detail::png_on_warning);
        if (!png_) throw Error(ErrorKind::limit, "libpng could not allocate a reader", file_);
        info_ = png_create_info_struct(png_);
        if (!info_) {
            png_destroy_read_struct(&png_, nullptr, nullptr);
            throw Error(ErrorKind::limit, "libpng could not allocate a reader", file_);
        }
        png_set_read_fn(png_, &src_, on_read);
    }
    ~Decoder() { png_destroy_read_struct(&png_, &info_, nullptr); }
    Decoder(const Decoder&) = delete;
    Decoder& operator=(const Decoder&) = delete;

    [[noreturn]] void fail(const std::string& message) const {
        throw Error(ErrorKind::format, "PNG: " + message, file_, src_.pos);
    }
    void check(bool ok) const {
        if (!ok) fail(src_.message);
    }

    Header header(Mode mode, const PngLimits& limits) {
        Header h{};
        check(read_header(png_, info_, mode, limits, h));
        if (std::uint64_t(h.width) * h.height > limits.max_pixels)
            throw Error(ErrorKind::limit, "PNG " + std::to_string(h.width) + "x" + std::to_string(h.height) +
                                              " exceeds " + std::to_string(limits.max_pixels) + " pixels", file_);
        return h;
    }

    void rows(Bytes& buffer, const Header& h, std::size_t expected_rowbytes) {
        if (h.rowbytes != expected_rowbytes)
            fail("unexpected row size " + std::to_string(h.rowbytes) + " after conversion");
        buffer.assign(expected_rowbytes * h.height, 0);
        std::vector<png_bytep> pointers(h.height);
        for (png_uint_32 y = 0; y < h.height; ++y) pointers[y] = buffer.data() + std::size_t(y) * expected_rowbytes;
        check(read_rows(png_, pointers.data()));
    }

    void palette(std::vector<Rgba8>& out) {
        png_colorp plte = nullptr;
        png_bytep trns = nullptr;
        int count = 0, trns_count = 0;
        check(read_palette(png_, info_, &plte, &count, &trns, &trns_count));
        if (count <= 0) fail("paletted PNG without a PLTE chunk");
        out.resize(static_cast<std::size_t>(count));
        for (int i = 0; i < count; ++i)
            out[i] = {plte[i].red, plte[i].green, plte[i].blue, i < trns_count ? trns[i] : std::uint8_t(255)};
    }

    const std::string& file() const { return file_; }

private:
    std::string file_;
    Source src_{};
    png_structp png_ = nullptr;
    png_infop info_ = nullptr;
};

}  // namespace

RgbaImage read_png(ByteView data, const std::string& file, const PngLimits& limits) {
    Decoder d(data, file);
    Header h = d.header(Mode::rgba, limits);
    RgbaImage out{h.width, h.height, {}};
    d.rows(out.pixels, h, std::size_t(h.width) * 4);
    return out;
}

std::optional<PalettedImage> read_png_paletted(ByteView data, const std::string& file, const PngLimits& limits) {
    Decoder d(data, file);
    Header h = d.header(Mode::paletted, limits);
    if (h.colour_type != PNG_COLOR_TYPE_PALETTE) return std::nullopt;
    PalettedImage out{h.width, h.height, {}, {}};
    d.palette(out.palette);
    d.rows(out.indices, h, h.width);
    for (std::size_t i = 0; i < out.indices.size(); ++i)
        if (out.indices[i] >= out.palette.size())
            throw Error(ErrorKind::format,
                        "PNG: pixel (" + std::to_string(i % h.width) + "," + std::to_string(i / h.width) +
                            ") uses palette entry " + std::to_string(out.indices[i]) + " of a " +
                            std::to_string(out.palette.size()) + "-entry palette",
                        d.file());
    return out;
}

}  // namespace mod::image
