#include "render/image.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace render {

namespace {

void check_side(int side, const char* what) {
  if (side < 1 || side > kMaxImageSide)
    throw std::invalid_argument(std::string("image ") + what + " " + std::to_string(side) +
                                " is out of range (allowed: 1 to " + std::to_string(kMaxImageSide) +
                                ")");
}

// |a - e|, with a NaN on either side counting as an infinite error unless
// both are NaN.
double channel_error(float actual, float expected) {
  if (std::isnan(actual) || std::isnan(expected))
    return (std::isnan(actual) && std::isnan(expected)) ? 0.0
                                                        : std::numeric_limits<double>::infinity();
  return std::fabs(static_cast<double>(actual) - static_cast<double>(expected));
}

} // namespace

Image::Image(int width, int height) : width_(width), height_(height) {
  check_side(width, "width");
  check_side(height, "height");
  data_.assign(pixel_count() * kChannels, 0.f);
}

ImageComparison compare_images(const Image& actual, const Image& expected, float tolerance) {
  ImageComparison result;
  if (actual.width() != expected.width() || actual.height() != expected.height()) {
    result.sizes_match = false;
    return result;
  }
  for (int y = 0; y < expected.height(); ++y) {
    for (int x = 0; x < expected.width(); ++x) {
      const float* a = actual.pixel(x, y);
      const float* e = expected.pixel(x, y);
      int bad_channel = -1;
      for (int c = 0; c < Image::kChannels; ++c) {
        const double error = channel_error(a[c], e[c]);
        if (error > result.max_error) result.max_error = error;
        if (error > tolerance && bad_channel < 0) bad_channel = c;
      }
      if (bad_channel < 0) continue;
      if (result.mismatches++ == 0) {
        result.first_x = x;
        result.first_y = y;
        result.first_channel = bad_channel;
        for (int c = 0; c < Image::kChannels; ++c) {
          result.first_actual[c] = a[c];
          result.first_expected[c] = e[c];
        }
      }
    }
  }
  return result;
}

Image difference_image(const Image& actual, const Image& expected, float tolerance) {
  if (actual.width() != expected.width() || actual.height() != expected.height())
    throw std::invalid_argument("difference_image: the images differ in size");
  Image out(expected.width(), expected.height());
  for (int y = 0; y < expected.height(); ++y)
    for (int x = 0; x < expected.width(); ++x) {
      const float* a = actual.pixel(x, y);
      const float* e = expected.pixel(x, y);
      bool differs = false;
      for (int c = 0; c < Image::kChannels; ++c)
        differs = differs || channel_error(a[c], e[c]) > tolerance;
      float* o = out.pixel(x, y);
      if (differs) {
        o[0] = 1.f;
        o[1] = o[2] = 0.f;
      } else {
        const float gray = 0.25f * (e[0] + e[1] + e[2]) / 3.f;
        o[0] = o[1] = o[2] = std::isnan(gray) ? 0.f : gray;
      }
      o[3] = 1.f;
    }
  return out;
}

} // namespace render
