#pragma once
// A JPEG written by libjpeg-turbo for tests that need one (image/test_jpeg, stadium mesh
// replacement's JPEG textures): w × h, red = 8x, green 64, blue = 16y, or grey 8x when `grey`;
// `quality` 1-100; 4:4:4 sampling (no chroma subsampling).
#include "libmod/core/bytes.hpp"

namespace modtest {

mod::Bytes jpeg_gradient(unsigned w, unsigned h, bool grey = false, int quality = 100);

}  // namespace modtest
