// Animated GIF files of rendered frames, for people without a display: any
// browser plays them. giflib writes the file (LZW-compressed image data, the
// file loops forever); the palettes are ours: each frame gets its own
// 256-color table, the frame's exact colors when it has at most 256, else a
// median cut of its colors at 5 bits per channel (docs/render.md says why
// not giflib's).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "render/image.h"

namespace render {

// Writes one GIF of frames added one by one, whole or not at all: nothing
// appears at `path` until finish(). Errors throw std::runtime_error naming
// the path.
class GifWriter {
public:
  // Creates the (hidden, temporary) file now, so an unwritable path fails
  // before any rendering. `delay_cs`: time per frame in 1/100 s.
  GifWriter(const std::string& path, int width, int height, int delay_cs);
  ~GifWriter();
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;

  // The image must have the writer's size; its alpha is ignored.
  void add_frame(const Image& image);
  int frames() const { return frames_; }
  // Writes the trailer and renames the file into place; needs a frame.
  void finish();

private:
  struct File;
  std::string path_;
  int width_;
  int height_;
  int delay_cs_;
  int frames_ = 0;
  std::unique_ptr<File> file_;
};

// One frame as a GIF image: the palette (256 RGB triples) and one palette
// index per pixel, top row first. Exposed for tests.
struct GifFrame {
  std::vector<std::uint8_t> palette;
  std::vector<std::uint8_t> indices;
};
GifFrame quantize_for_gif(const Image& image);

} // namespace render
