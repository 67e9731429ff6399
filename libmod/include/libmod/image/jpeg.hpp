#pragma once
// JPEG input through libjpeg-turbo (the libjpeg API; Debian's libjpeg62-turbo-dev). Used for
// glTF base-colour images, which glTF allows as PNG or JPEG.
//
// Reading is bounded like read_png (dimensions and pixel count checked from the header before
// any pixel buffer is allocated) and strict: libjpeg's fatal errors (not a JPEG, truncated or
// corrupt data) become mod::Error (format) naming the file; warnings (e.g. a premature end
// that libjpeg pads) are errors too, so a damaged image is never half-decoded silently.
// Grey, YCbCr/RGB and CMYK images decode to RGBA8 with alpha 255.

#include "libmod/image/image.hpp"
#include "libmod/image/png.hpp"

#include <string>

namespace mod::image {

bool is_jpeg(ByteView data) noexcept;  // starts with FF D8 FF
RgbaImage read_jpeg(ByteView data, const std::string& file = {}, const PngLimits& limits = {});

}  // namespace mod::image
