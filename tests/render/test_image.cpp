// The image type and the comparison the checker relies on.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "render/image.h"

namespace {

using render::Image;
using render::ImageComparison;

Image filled(int w, int h, float v) {
  Image image(w, h);
  for (std::size_t i = 0; i < image.pixel_count() * Image::kChannels; ++i) image.data()[i] = v;
  return image;
}

TEST(Image, SizesAndLayout) {
  Image image(3, 2);
  EXPECT_EQ(image.width(), 3);
  EXPECT_EQ(image.height(), 2);
  EXPECT_EQ(image.pixel_count(), 6u);
  // Row-major, 4 floats a pixel, row 0 first in memory.
  EXPECT_EQ(image.pixel(2, 1) - image.data(), (1 * 3 + 2) * 4);
  EXPECT_EQ(image.pixel(0, 0)[3], 0.f);
}

TEST(Image, RejectsBadSides) {
  EXPECT_THROW(Image(0, 5), std::invalid_argument);
  EXPECT_THROW(Image(5, -1), std::invalid_argument);
  EXPECT_THROW(Image(render::kMaxImageSide + 1, 1), std::invalid_argument);
  EXPECT_NO_THROW(Image(render::kMaxImageSide, 1));
}

TEST(Compare, IdenticalImagesPass) {
  const ImageComparison c = render::compare_images(filled(4, 3, 0.25f), filled(4, 3, 0.25f));
  EXPECT_TRUE(c.passed());
  EXPECT_EQ(c.mismatches, 0u);
  EXPECT_EQ(c.max_error, 0.0);
  EXPECT_EQ(c.first_x, -1);
}

TEST(Compare, ReportsTheFirstMismatchInMemoryOrder) {
  const Image expected = filled(5, 4, 0.5f);
  Image actual = expected;
  actual.pixel(4, 3)[0] = 0.0f; // later in memory, larger error
  actual.pixel(1, 2)[2] = 0.75f;
  actual.pixel(3, 2)[1] = 0.5f + 1e-7f; // a one-ulp difference still counts
  const ImageComparison c = render::compare_images(actual, expected);
  EXPECT_FALSE(c.passed());
  EXPECT_EQ(c.mismatches, 3u);
  EXPECT_EQ(c.first_x, 1);
  EXPECT_EQ(c.first_y, 2);
  EXPECT_EQ(c.first_channel, 2);
  EXPECT_EQ(c.first_actual[2], 0.75f);
  EXPECT_EQ(c.first_expected[2], 0.5f);
  EXPECT_EQ(c.first_actual[0], 0.5f);
  EXPECT_DOUBLE_EQ(c.max_error, 0.5);
}

TEST(Compare, CountsPixelsNotChannels) {
  const Image expected = filled(2, 2, 1.f);
  Image actual = expected;
  for (int k = 0; k < 4; ++k) actual.pixel(1, 1)[k] = 0.f;
  EXPECT_EQ(render::compare_images(actual, expected).mismatches, 1u);
}

TEST(Compare, ToleranceAllowsSmallErrors) {
  const Image expected = filled(2, 2, 0.5f);
  Image actual = expected;
  actual.pixel(0, 1)[1] = 0.5f + 5e-5f;
  EXPECT_FALSE(render::compare_images(actual, expected).passed());
  const ImageComparison loose = render::compare_images(actual, expected, 1e-4f);
  EXPECT_TRUE(loose.passed());
  EXPECT_NEAR(loose.max_error, 5e-5, 1e-6);
  actual.pixel(0, 1)[1] = 0.5f + 2e-4f;
  EXPECT_FALSE(render::compare_images(actual, expected, 1e-4f).passed());
}

TEST(Compare, NanIsAMismatchUnlessBothAreNan) {
  const Image expected = filled(2, 1, 0.5f);
  Image actual = expected;
  actual.pixel(1, 0)[3] = std::nanf("");
  const ImageComparison c = render::compare_images(actual, expected, 1.f);
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_TRUE(std::isinf(c.max_error));
  Image both = actual;
  EXPECT_TRUE(render::compare_images(actual, both).passed());
}

TEST(Compare, DifferentSizesFail) {
  const ImageComparison c = render::compare_images(filled(2, 3, 0.f), filled(3, 2, 0.f));
  EXPECT_FALSE(c.sizes_match);
  EXPECT_FALSE(c.passed());
}

// The difference picture: mismatches red, the rest the reference's gray
// at a quarter, opaque; sizes must match.
TEST(Image, DifferenceImageMarksMismatchesRed) {
  Image expected = filled(3, 2, 0.6f);
  Image actual = expected;
  actual.pixel(2, 1)[1] = 0.61f; // off by 0.01 in green
  const Image diff = render::difference_image(actual, expected);
  EXPECT_EQ(diff.pixel(2, 1)[0], 1.f);
  EXPECT_EQ(diff.pixel(2, 1)[1], 0.f);
  EXPECT_EQ(diff.pixel(2, 1)[2], 0.f);
  EXPECT_EQ(diff.pixel(2, 1)[3], 1.f);
  EXPECT_FLOAT_EQ(diff.pixel(0, 0)[0], 0.15f);
  EXPECT_FLOAT_EQ(diff.pixel(0, 0)[2], 0.15f);
  EXPECT_EQ(diff.pixel(0, 0)[3], 1.f);
  // Within the tolerance: no red.
  const Image tolerated = render::difference_image(actual, expected, 0.02f);
  EXPECT_FLOAT_EQ(tolerated.pixel(2, 1)[0], 0.15f);
  EXPECT_THROW(render::difference_image(filled(2, 2, 0.f), expected), std::invalid_argument);
}

} // namespace
