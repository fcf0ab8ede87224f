// The image files: PNG and PPM bytes and decoded pixels, the RGBAF float
// format's bytes, exact round trip and rejection of bad files, and no
// partial files.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <stb_image.h> // defined in gif_decode.cpp

#include "render/image_io.h"
#include "test_util.h"

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
  EXPECT_EQ(render::frame_file_name("ref", 3, ImageFormat::Rgbaf), "ref_0003.rgbaf");
}

TEST(ImageFormat, ParsesNamesAndRejectsOthers) {
  EXPECT_EQ(render::parse_image_format("png"), ImageFormat::Png);
  EXPECT_EQ(render::parse_image_format("ppm"), ImageFormat::Ppm);
  EXPECT_EQ(render::parse_image_format("rgbaf"), ImageFormat::Rgbaf);
  EXPECT_THROW(render::parse_image_format("PNG"), std::invalid_argument);
  EXPECT_NE(message_of([] { render::parse_image_format("gif"); }).find("png, ppm, rgbaf"),
            std::string::npos);
}

// ---------------------------------------------------------------- RGBAF

std::uint32_t bits_of(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

float from_bits(std::uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string as_string(const std::vector<std::uint8_t>& bytes) {
  return std::string(bytes.begin(), bytes.end());
}

TEST(Rgbaf, ExactBytesBottomRowFirstLittleEndian) {
  Image image(2, 1);
  image.pixel(0, 0)[0] = 1.f;  // 0x3f800000
  image.pixel(1, 0)[3] = -2.f; // 0xc0000000
  image.pixel(1, 0)[1] = from_bits(0x01020304u);
  std::vector<std::uint8_t> expected = {'R', 'G', 'B', 'A', 'F', '1', ' ', '2', ' ', '1', '\n'};
  const std::vector<std::uint8_t> pixels = {
      0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,    0,     // (0, 0)
      0, 0, 0,    0,    4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0x00, 0xc0}; // (1, 0)
  expected.insert(expected.end(), pixels.begin(), pixels.end());
  EXPECT_EQ(render::encode_rgbaf(image), expected);
  // Row 0 is written first: the top row of a 1x2 image comes second.
  Image tall(1, 2);
  tall.pixel(0, 1)[0] = 1.f;
  const std::vector<std::uint8_t> bytes = render::encode_rgbaf(tall);
  ASSERT_EQ(bytes.size(), 11u + 32u);
  EXPECT_EQ(bytes[11 + 16 + 3], 0x3f);
}

TEST(Rgbaf, RoundTripKeepsEveryBit) {
  const TempDir dir;
  std::mt19937 random(2024);
  const std::vector<float> special = {
      0.f,
      -0.f,
      1.f,
      -1.f,
      std::numeric_limits<float>::denorm_min(),
      -std::numeric_limits<float>::denorm_min(),
      from_bits(0x007fffffu), // largest subnormal
      std::numeric_limits<float>::min(),
      std::numeric_limits<float>::max(),
      std::numeric_limits<float>::infinity(),
      -std::numeric_limits<float>::infinity(),
      from_bits(0x7fc00001u), // quiet NaN with a payload
      from_bits(0xffc12345u), // negative quiet NaN with a payload
      from_bits(0x7f800001u), // signalling NaN
  };
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {3, 5}, {64, 64}, {7, 1}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    Image image(w, h);
    const std::size_t floats = image.pixel_count() * Image::kChannels;
    for (std::size_t i = 0; i < floats; ++i)
      image.data()[i] = i < special.size() ? special[i] : from_bits(random());
    const std::string path = dir.file("img.rgbaf");
    render::write_image(image, path, ImageFormat::Rgbaf);
    EXPECT_EQ(render_test::read_file(path), render::encode_rgbaf(image));
    const Image back = render::read_rgbaf(path);
    ASSERT_EQ(back.width(), w);
    ASSERT_EQ(back.height(), h);
    for (std::size_t i = 0; i < floats; ++i)
      ASSERT_EQ(bits_of(back.data()[i]), bits_of(image.data()[i])) << "float " << i;
  }
  EXPECT_EQ(dir.files(), std::vector<std::string>{"img.rgbaf"});
}

// read_rgbaf's message for a file holding `bytes`; it must name the file.
std::string read_error_for(const TempDir& dir, const std::string& bytes) {
  const std::string path = dir.file("bad.rgbaf");
  write_bytes(path, bytes);
  const std::string msg = message_of([&] { render::read_rgbaf(path); });
  EXPECT_EQ(msg.rfind("cannot read " + path + ": ", 0), 0u) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  return msg;
}

TEST(Rgbaf, RejectsBadFilesWithTheReason) {
  const TempDir dir;
  Image image(2, 2);
  image.pixel(1, 1)[2] = 0.5f;
  const std::string good = as_string(render::encode_rgbaf(image)); // 11 + 64 bytes
  struct Case {
    std::string bytes;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"", "the file is empty"},
      {as_string(render::encode_ppm(image)), "not an RGBAF image"},
      {"RGBAF2 2 2\n" + good.substr(11), "not an RGBAF image"},
      {"rgbaf1 2 2\n" + good.substr(11), "not an RGBAF image"},
      {good.substr(0, 5), "not an RGBAF image"},
      {"RGBAF1 2 2 " + std::string(40, 'x'), "no line end in the first 32 bytes"},
      {"RGBAF1 2 2", "no line end"},
      {"RGBAF1 2\n" + good.substr(11), "bad RGBAF header 'RGBAF1 2'"},
      {"RGBAF1 2 2 \n" + good.substr(11), "bad RGBAF header"},
      {"RGBAF1  2 2\n" + good.substr(11), "bad RGBAF header"},
      {"RGBAF1 02 2\n" + good.substr(11), "bad RGBAF header"},
      {"RGBAF1 -2 2\n" + good.substr(11), "bad RGBAF header"},
      {"RGBAF1 2 0\n" + good.substr(11), "bad RGBAF header"},
      {"RGBAF1 2 2x\n" + good.substr(11), "bad RGBAF header"},
      {"RGBAF1 2\t2\n" + good.substr(11), "bad RGBAF header 'RGBAF1 2?2'"},
      {"RGBAF1 16385 1\n", "sides 1 to 16384"},
      {"RGBAF1 4294967297 1\n", "bad RGBAF header"},
      // The largest valid header with a few bytes: refused on the file size,
      // before 4 GiB of pixels would be allocated.
      {"RGBAF1 16384 16384\n" + std::string(16, '\0'),
       "truncated: the file is 35 bytes, a 16384x16384 image needs 4294967315"},
      {good.substr(0, good.size() - 1), "truncated: the file is 74 bytes, a 2x2 image needs 75"},
      {good.substr(0, 11), "truncated: the file is 11 bytes"},
      {good + "\n", "trailing data: the file is 76 bytes, a 2x2 image needs 75"},
      {good + good, "trailing data"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.says);
    const std::string msg = read_error_for(dir, c.bytes);
    EXPECT_NE(msg.find(c.says), std::string::npos) << msg;
  }
  write_bytes(dir.file("good.rgbaf"), good);
  EXPECT_EQ(render::read_rgbaf(dir.file("good.rgbaf")).pixel(1, 1)[2], 0.5f);
}

TEST(Rgbaf, UnreadablePathsNameTheReason) {
  const TempDir dir;
  const auto message = [](const std::string& path) {
    return message_of([&] { render::read_rgbaf(path); });
  };
  EXPECT_NE(message(dir.file("missing.rgbaf")).find("missing.rgbaf: No such file"),
            std::string::npos);
  EXPECT_NE(message(dir.path()).find(dir.path() + ": it is a folder"), std::string::npos);
  write_bytes(dir.file("plain"), "x");
  EXPECT_NE(message(dir.file("plain/x.rgbaf")).find("Not a directory"), std::string::npos);
  EXPECT_NE(message("/dev/null").find("/dev/null: not a regular file"), std::string::npos);
  // Without read permission (root reads anyway, so only checked otherwise).
  const std::string locked = dir.file("locked.rgbaf");
  render::write_image(Image(1, 1), locked, ImageFormat::Rgbaf);
  chmod(locked.c_str(), 0);
  if (!std::ifstream(locked)) {
    EXPECT_NE(message(locked).find("Permission denied"), std::string::npos);
  }
}

} // namespace
