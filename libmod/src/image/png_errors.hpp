#pragma once
// libpng error plumbing shared by the PNG reader and writer. libpng reports an error by calling
// the error handler, which must not return: png_on_error keeps the message for the caller's
// mod::Error and longjmps back to the stage that called setjmp. Warnings are ignored.

#include <png.h>

namespace mod::image::detail {

// The error pointer given to png_create_*_struct must point at one of these.
struct PngErrorSlot {
    char message[256] = {};
};

[[noreturn]] void png_on_error(png_structp png, png_const_charp message);
void png_on_warning(png_structp png, png_const_charp message);

}  // namespace mod::image::detail
