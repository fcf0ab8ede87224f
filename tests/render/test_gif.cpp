// Animated GIFs: the palettes, and whole files (giflib's) read back by
// stb_image (gif_decode.h), and by ImageMagick where installed.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "gif_decode.h"
#include "render/gif.h"
#include "render/image_io.h"
#include "render/ref_renderer.h"
#include "run_program.h"
#include "scenes/scene.h"
#include "test_util.h"

namespace {

using render::GifWriter;
using render_test::decode_gif;
using render_test::TempDir;

// The image as the GIF should hold it: 8-bit RGB, top row first.
std::vector<std::uint8_t> rgb_bytes(const render::Image& image) {
  std::vector<std::uint8_t> out;
  for (int y = image.height() - 1; y >= 0; --y)
    for (int x = 0; x < image.width(); ++x)
      for (int c = 0; c < 3; ++c) out.push_back(render::to_byte(image.pixel(x, y)[c]));
  return out;
}

std::vector<render::Image> frames_of(const std::string& name, int size, int count) {
  render::RefRenderer ref;
  ref.setup(scenes::load_scene(name), size, size);
  std::vector<render::Image> frames;
  for (int i = 0; i < count; ++i) {
    ref.clear();
    ref.advance();
    ref.render();
    frames.push_back(ref.image());
  }
  return frames;
}

// giflib codes the indices; whole frames decode back to every pixel, through
// LZW table resets (noise fills the table many times) and long runs (which
// must compress).
TEST(GifWriter, CodesFramesLosslessly) {
  const TempDir dir;
  std::mt19937 rng(5);
  std::vector<render::Image> frames;
  for (int kind = 0; kind < 3; ++kind) {
    render::Image image(300, 200);
    for (int y = 0; y < 200; ++y)
      for (int x = 0; x < 300; ++x) {
        // 256 colors of noise, 3 colors of noise, one color.
        const unsigned v = kind == 0 ? rng() % 256 : kind == 1 ? rng() % 3 : 7;
        float* p = image.pixel(x, y);
        p[0] = static_cast<float>(v) / 255.0f;
        p[1] = static_cast<float>(v % 16) / 15.0f;
        p[2] = static_cast<float>(v / 16) / 15.0f;
        p[3] = 1.0f;
      }
    frames.push_back(image);
  }
  GifWriter gif(dir.file("n.gif"), 300, 200, 4);
  for (const render::Image& frame : frames) gif.add_frame(frame);
  gif.finish();
  const render_test::GifFile file = decode_gif(render_test::read_file(dir.file("n.gif")));
  ASSERT_EQ(file.frames.size(), frames.size());
  for (std::size_t i = 0; i < frames.size(); ++i)
    EXPECT_EQ(file.frames[i].rgb, rgb_bytes(frames[i])) << "frame " << i;
  // One color: the codes grow, so the frame takes far fewer bytes than pixels.
  GifWriter flat(dir.file("f.gif"), 300, 200, 4);
  flat.add_frame(frames[2]);
  flat.finish();
  EXPECT_LT(render_test::read_file(dir.file("f.gif")).size(), 2000u);
}

TEST(GifPalette, ExactWithAtMost256Colors) {
  const render::Image image = frames_of("rgby", 64, 1)[0];
  const render::GifFrame frame = render::quantize_for_gif(image);
  const std::vector<std::uint8_t> want = rgb_bytes(image);
  for (std::size_t i = 0; i < frame.indices.size(); ++i)
    for (int c = 0; c < 3; ++c)
      ASSERT_EQ(frame.palette[3 * frame.indices[i] + c], want[3 * i + c]) << "pixel " << i;
}

TEST(GifPalette, CloseWithManyColors) {
  // 65536 different colors: a median cut must share entries, but stay near.
  render::Image image(256, 256);
  for (int y = 0; y < 256; ++y)
    for (int x = 0; x < 256; ++x) {
      float* p = image.pixel(x, y);
      p[0] = x / 255.0f;
      p[1] = y / 255.0f;
      p[2] = ((x + y) % 256) / 255.0f;
      p[3] = 1.0f;
    }
  const render::GifFrame frame = render::quantize_for_gif(image);
  const std::vector<std::uint8_t> want = rgb_bytes(image);
  double total = 0;
  int worst = 0;
  for (std::size_t i = 0; i < frame.indices.size(); ++i)
    for (int c = 0; c < 3; ++c) {
      const int error = std::abs(frame.palette[3 * frame.indices[i] + c] - want[3 * i + c]);
      worst = std::max(worst, error);
      total += error;
    }
  EXPECT_LT(total / (3.0 * frame.indices.size()), 8.0);
  EXPECT_LT(worst, 64);
}

TEST(GifWriter, WritesAnAnimationThatDecodesToTheFrames) {
  const TempDir dir;
  const std::string path = dir.file("fw.gif");
  const std::vector<render::Image> frames = frames_of("fireworks", 96, 3);
  GifWriter gif(path, 96, 96, 4);
  for (const render::Image& frame : frames) gif.add_frame(frame);
  EXPECT_FALSE(std::filesystem::exists(path)) << "visible before finish()";
  gif.finish();
  const std::vector<std::uint8_t> bytes = render_test::read_file(path);
  ASSERT_GT(bytes.size(), 13u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 6), "GIF89a");
  EXPECT_EQ(bytes.back(), 0x3b); // the trailer
  const render_test::GifFile file = decode_gif(bytes);
  EXPECT_EQ(file.width, 96);
  EXPECT_EQ(file.height, 96);
  EXPECT_TRUE(file.loops);
  ASSERT_EQ(file.frames.size(), 3u);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    EXPECT_EQ(file.frames[i].delay_cs, 4);
    EXPECT_EQ(file.frames[i].rgb, rgb_bytes(frames[i])) << "frame " << i;
  }
  EXPECT_EQ(dir.files(), std::vector<std::string>{"fw.gif"}); // no temporary left
}

TEST(GifWriter, SnowStaysCloseToTheFrame) {
  const TempDir dir;
  const render::Image frame = frames_of("snowsingle", 128, 1)[0];
  GifWriter gif(dir.file("s.gif"), 128, 128, 4);
  gif.add_frame(frame);
  gif.finish();
  const render_test::GifFile file = decode_gif(render_test::read_file(dir.file("s.gif")));
  ASSERT_EQ(file.frames.size(), 1u);
  const std::vector<std::uint8_t> want = rgb_bytes(frame);
  double total = 0;
  for (std::size_t i = 0; i < want.size(); ++i) total += std::abs(file.frames[0].rgb[i] - want[i]);
  EXPECT_LT(total / static_cast<double>(want.size()), 3.0);
}

TEST(GifWriter, LeavesNothingWithoutFinishAndRefusesBadUse) {
  const TempDir dir;
  {
    GifWriter gif(dir.file("a.gif"), 8, 8, 4);
    gif.add_frame(render::Image(8, 8));
    EXPECT_THROW(gif.add_frame(render::Image(8, 9)), std::invalid_argument);
  }
  EXPECT_TRUE(dir.files().empty());
  GifWriter empty(dir.file("b.gif"), 8, 8, 4);
  EXPECT_THROW(empty.finish(), std::logic_error);
  EXPECT_THROW(GifWriter(dir.file("no/such/folder.gif"), 8, 8, 4), std::runtime_error);
}

// Lowers the soft file size limit for its lifetime, with SIGXFSZ ignored, so
// a write past it fails with EFBIG as one on a full disk fails with ENOSPC.
class FileSizeLimit {
public:
  explicit FileSizeLimit(rlim_t bytes) : handler_(std::signal(SIGXFSZ, SIG_IGN)) {
    getrlimit(RLIMIT_FSIZE, &old_);
    rlimit lower = old_;
    lower.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &lower);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
  void (*handler_)(int);
  rlimit old_{};
};

// A write that fails inside giflib's calls fails the frame with the system's
// reason, and every later step with it: the GIF is never committed.
TEST(GifWriter, AFailedWriteFailsEveryLaterStep) {
  const TempDir dir;
  const std::string path = dir.file("big.gif");
  std::mt19937 rng(9);
  render::Image noise(300, 200);
  for (int y = 0; y < 200; ++y)
    for (int x = 0; x < 300; ++x)
      for (int c = 0; c < 3; ++c) noise.pixel(x, y)[c] = static_cast<float>(rng() % 4) / 3.0f;
  std::string frame_error, finish_error;
  {
    const FileSizeLimit limit(4096); // the header fits, the frame does not
    GifWriter gif(path, 300, 200, 4);
    try {
      gif.add_frame(noise);
    } catch (const std::runtime_error& e) {
      frame_error = e.what();
    }
    try {
      gif.finish();
    } catch (const std::runtime_error& e) {
      finish_error = e.what();
    }
  }
  EXPECT_EQ(frame_error, "cannot write " + path + ": " + std::strerror(EFBIG));
  EXPECT_EQ(finish_error, frame_error);
  EXPECT_TRUE(dir.files().empty());
}

// A destination the atomic writer refuses is refused with its reason, as
// the image files are, not errno's bare text ("File exists").
TEST(GifWriter, RefusesASymbolicLinkSayingWhy) {
  const TempDir dir;
  const std::string link = dir.file("l.gif");
  std::filesystem::create_symlink("/dev/full", link);
  try {
    GifWriter gif(link, 8, 8, 4);
    FAIL() << "wrote through a symbolic link";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write " + link +
                                         ": it is a symbolic link (refused: the link would be "
                                         "replaced, not written through)");
  }
  EXPECT_TRUE(std::filesystem::is_symlink(link));
}

// ImageMagick, where installed, reads the file as a browser would.
TEST(GifWriter, ImageMagickReadsIt) {
  if (std::system("identify -version > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "ImageMagick's identify is not installed";
  const TempDir dir;
  GifWriter gif(dir.file("m.gif"), 40, 30, 4);
  for (int i = 0; i < 5; ++i) {
    render::Image image(40, 30);
    for (int y = 0; y < 30; ++y)
      for (int x = 0; x < 40; ++x) {
        float* p = image.pixel(x, y);
        p[0] = static_cast<float>(x * i % 40) / 40.0f;
        p[1] = static_cast<float>(y) / 30.0f;
        p[2] = 0.5f;
      }
    gif.add_frame(image);
  }
  gif.finish();
  const ProgramResult r =
      run_program("identify -format '%n %w %h\\n' " + dir.file("m.gif") + " | head -1");
  EXPECT_EQ(r.output, "5 40 30\n");
}

} // namespace
