// A small GIF reader for the tests: checks the structure as a browser's
// decoder reads it (header, screen, extensions, images, trailer) and decodes
// each frame's LZW data back to RGB. Written from the GIF89a specification,
// independently of the encoder's code paths.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace render_test {

struct GifImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb; // top row first
  int delay_cs = 0;
};

struct GifFile {
  int width = 0, height = 0;
  bool loops = false; // NETSCAPE2.0 extension present
  std::vector<GifImage> frames;
};

// Throws std::runtime_error saying what is malformed.
GifFile decode_gif(const std::vector<std::uint8_t>& bytes);

// GIF LZW data (already joined from sub-blocks) to indices.
std::vector<std::uint8_t> lzw_decode(const std::vector<std::uint8_t>& data, int min_code_size);

} // namespace render_test
