// The PNG and PPM writers: exact bytes, decoded pixels, and no partial files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "render/image_io.h"
#include "test_util.h"

#if RENDER_TESTS_HAVE_STB_IMAGE
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb_image.h>
#endif

namespace {

using render::Image;
using render::ImageFormat;
using render_test::TempDir;

// 2×2: bottom row red, white; top row black-ish, clamped values.
Image small_image() {
  Image image(2, 2);
  const float pixels[4][4] = {{1.f, 0.f, 0.f, 1.f},     // (0, 0) bottom left
                              {1.f, 1.f, 1.f, 1.f},     // (1, 0)
                              {0.5f, -1.f, 2.f, 0.25f}, // (0, 1) top left
                              {0.999f, 0.f, 0.003f, 3.f}};
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 4; ++c) image.pixel(i % 2, i / 2)[c] = pixels[i][c];
  return image;
}

std::string message_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(ToByte, TruncatesAfterScaling) {
  EXPECT_EQ(render::to_byte(0.f), 0);
  EXPECT_EQ(render::to_byte(1.f), 255);
  EXPECT_EQ(render::to_byte(0.5f), 127); // 127.5 truncated
  EXPECT_EQ(render::to_byte(0.999f), 254);
  EXPECT_EQ(render::to_byte(-3.f), 0);
  EXPECT_EQ(render::to_byte(7.f), 255);
  EXPECT_EQ(render::to_byte(std::nanf("")), 0);
}

TEST(Ppm, ExactBytesTopRowFirstWithoutAlpha) {
  const std::vector<std::uint8_t> expected = {
      'P', '6',  '\n', '2', ' ', '2', '\n', '2', '5',
      '5', '\n', 127,  0,   255, 254, 0,    0, // top row: (0, 1), (1, 1)
      255, 0,    0,    255, 255, 255};         // bottom row
  EXPECT_EQ(render::encode_ppm(small_image()), expected);
}

TEST(Png, HeaderNamesSizeAndRgba) {
  const std::vector<std::uint8_t> png = render::encode_png(small_image());
  ASSERT_GT(png.size(), 33u);
  const std::vector<std::uint8_t> signature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  EXPECT_TRUE(std::equal(signature.begin(), signature.end(), png.begin()));
  // IHDR: width and height big-endian, bit depth 8, color type 6 (RGBA).
  EXPECT_EQ(std::string(png.begin() + 12, png.begin() + 16), "IHDR");
  EXPECT_EQ(png[19], 2);
  EXPECT_EQ(png[23], 2);
  EXPECT_EQ(png[24], 8);
  EXPECT_EQ(png[25], 6);
}

TEST(Png, DecodesToTheSameBytes) {
#if RENDER_TESTS_HAVE_STB_IMAGE
  const std::vector<std::uint8_t> png = render::encode_png(small_image());
  int w = 0;
  int h = 0;
  int channels = 0;
  unsigned char* pixels =
      stbi_load_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &channels, 4);
  ASSERT_NE(pixels, nullptr);
  const std::vector<std::uint8_t> decoded(pixels, pixels + w * h * 4);
  stbi_image_free(pixels);
  EXPECT_EQ(w, 2);
  EXPECT_EQ(h, 2);
  EXPECT_EQ(channels, 4);
  const std::vector<std::uint8_t> expected = {127, 0, 255, 63,  254, 0,   0,   255,
                                              255, 0, 0,   255, 255, 255, 255, 255};
  EXPECT_EQ(decoded, expected);
#else
  GTEST_SKIP() << "stb_image.h not found at configure time";
#endif
}

TEST(WriteImage, WritesTheEncodedBytesAndNothingElse) {
  const TempDir dir;
  const Image image = small_image();
  render::write_image(image, dir.file("a.ppm"), ImageFormat::Ppm);
  render::write_image(image, dir.file("a.png"), ImageFormat::Png);
  EXPECT_EQ(render_test::read_file(dir.file("a.ppm")), render::encode_ppm(image));
  EXPECT_EQ(render_test::read_file(dir.file("a.png")), render::encode_png(image));
  EXPECT_EQ(dir.files(), (std::vector<std::string>{"a.png", "a.ppm"}));
  // Overwriting replaces the file whole.
  render::write_image(Image(1, 1), dir.file("a.ppm"), ImageFormat::Ppm);
  EXPECT_EQ(render_test::read_file(dir.file("a.ppm")).size(), 11u + 3u);
}

TEST(WriteImage, FailureNamesThePathAndLeavesNoFile) {
  const TempDir dir;
  const std::string missing = dir.file("no_such_folder/a.png");
  const std::string msg =
      message_of([&] { render::write_image(small_image(), missing, ImageFormat::Png); });
  EXPECT_NE(msg.find(missing), std::string::npos) << msg;
  EXPECT_NE(msg.find("No such file"), std::string::npos) << msg;
  EXPECT_THROW(render::write_image(small_image(), dir.path(), ImageFormat::Png),
               std::runtime_error);
  EXPECT_TRUE(dir.files().empty());
}

TEST(CheckWritable, LeavesNothingBehind) {
  const TempDir dir;
  EXPECT_NO_THROW(render::check_writable(dir.file("x_0000.png")));
  EXPECT_TRUE(dir.files().empty());
  EXPECT_THROW(render::check_writable(dir.file("missing/x.png")), std::runtime_error);
  EXPECT_THROW(render::check_writable(dir.path()), std::runtime_error);
  EXPECT_THROW(render::check_writable(""), std::runtime_error);
  EXPECT_TRUE(dir.files().empty());
}

TEST(FrameFileName, FourDigitsAndTheExtension) {
  EXPECT_EQ(render::frame_file_name("out", 7, ImageFormat::Png), "out_0007.png");
  EXPECT_EQ(render::frame_file_name("d/o", 0, ImageFormat::Ppm), "d/o_0000.ppm");
  EXPECT_EQ(render::frame_file_name("out", 12345, ImageFormat::Png), "out_12345.png");
}

TEST(ImageFormat, ParsesNamesAndRejectsOthers) {
  EXPECT_EQ(render::parse_image_format("png"), ImageFormat::Png);
  EXPECT_EQ(render::parse_image_format("ppm"), ImageFormat::Ppm);
  EXPECT_THROW(render::parse_image_format("PNG"), std::invalid_argument);
  EXPECT_NE(message_of([] { render::parse_image_format("gif"); }).find("png, ppm"),
            std::string::npos);
}

} // namespace
