// A float RGBA image as the renderers produce it, and the pixel-by-pixel
// comparison the checker and the tests use.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace render {

// The largest image side the programs accept: 16384² RGBA floats is 4 GiB.
constexpr int kMaxImageSide = 16384;

// width × height pixels of 4 floats (r, g, b, a), row-major. Row 0 is the
// bottom of the picture (y = 0 on the unit square); files are written top
// row first.
class Image {
public:
  static constexpr int kChannels = 4;

  Image() = default;
  // Sides in [1, kMaxImageSide]; throws std::invalid_argument otherwise.
  // Pixels start at 0.
  Image(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }
  std::size_t pixel_count() const { return static_cast<std::size_t>(width_) * height_; }

  // All pixels, pixel_count() * 4 floats.
  float* data() { return data_.data(); }
  const float* data() const { return data_.data(); }

  // The 4 floats of pixel (x, y); no bounds check.
  float* pixel(int x, int y) { return data_.data() + offset(x, y); }
  const float* pixel(int x, int y) const { return data_.data() + offset(x, y); }

private:
  std::size_t offset(int x, int y) const {
    return (static_cast<std::size_t>(y) * width_ + x) * kChannels;
  }

  int width_ = 0;
  int height_ = 0;
  std::vector<float> data_;
};

// The result of comparing an image with the expected one.
struct ImageComparison {
  bool sizes_match = true;
  // Pixels with at least one channel off by more than the tolerance.
  std::size_t mismatches = 0;
  // Largest |actual - expected| over every channel (infinity if a NaN differs).
  double max_error = 0;
  // The first mismatching pixel in memory order (bottom row first), the first
  // channel that differs there, and both pixels; x = y = -1 when none.
  int first_x = -1;
  int first_y = -1;
  int first_channel = -1;
  std::array<float, 4> first_actual{};
  std::array<float, 4> first_expected{};

  bool passed() const { return sizes_match && mismatches == 0; }
};

// Compares every channel of every pixel. A channel mismatches when
// |actual - expected| > tolerance; tolerance 0 means bit-exact values (with
// +0 == -0). Images of different sizes give sizes_match = false.
ImageComparison compare_images(const Image& actual, const Image& expected, float tolerance = 0.f);

// Where `actual` and `expected` differ, for a person to look at: each pixel
// that compare_images counts as a mismatch is red, every other one is the
// expected pixel's gray, dimmed to a quarter. Same-size images only, else
// std::invalid_argument.
Image difference_image(const Image& actual, const Image& expected, float tolerance = 0.f);

} // namespace render
