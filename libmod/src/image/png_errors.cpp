#include "image/png_errors.hpp"

#include <cstdio>

namespace mod::image::detail {

void png_on_error(png_structp png, png_const_charp message) {
    auto* slot = static_cast<PngErrorSlot*>(png_get_error_ptr(png));
    std::snprintf(slot->message, sizeof slot->message, "%s", message ? message : "libpng error");
    png_longjmp(png, 1);
}

void png_on_warning(png_structp, png_const_charp) {}

}  // namespace mod::image::detail
