// GIFs read back for the tests by stb_image (stbi_load_gif_from_memory), a
// decoder independent of the writer: each frame as a viewer shows it, with
// its delay, and whether the file asks to loop, which stb_image does not
// report.
#pragma once

#include <cstdint>
#include <vector>

namespace render_test {

struct GifImage {
  std::vector<std::uint8_t> rgb; // top row first
  int delay_cs = 0;
};

struct GifFile {
  int width = 0, height = 0;
  bool loops = false; // the NETSCAPE2.0 extension, looping forever
  std::vector<GifImage> frames;
};

// Throws std::runtime_error with stb_image's reason when it cannot decode.
GifFile decode_gif(const std::vector<std::uint8_t>& bytes);

} // namespace render_test
