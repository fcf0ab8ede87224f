#include "gif_decode.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>

// The tests' one definition of stb_image (test_image_io.cpp decodes PNGs
// with it too).
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_GIF
#include <stb_image.h>

namespace render_test {

namespace {

// The NETSCAPE2.0 application extension with a loop count of 0 (forever):
// introducer and label, the name's block, the loop block, the terminator.
bool loops_forever(const std::vector<std::uint8_t>& bytes) {
  const std::uint8_t block[] = {0x21, 0xff, 11,  'N', 'E', 'T', 'S', 'C', 'A', 'P',
                                'E',  '2',  '.', '0', 3,   1,   0,   0,   0};
  return std::search(bytes.begin(), bytes.end(), std::begin(block), std::end(block)) != bytes.end();
}

} // namespace

GifFile decode_gif(const std::vector<std::uint8_t>& bytes) {
  int* delays = nullptr;
  int width = 0, height = 0, frames = 0, channels = 0;
  stbi_uc* pixels = stbi_load_gif_from_memory(bytes.data(), static_cast<int>(bytes.size()), &delays,
                                              &width, &height, &frames, &channels, 3);
  if (!pixels) throw std::runtime_error(std::string("stb_image: ") + stbi_failure_reason());
  const std::unique_ptr<stbi_uc, void (*)(void*)> owned_pixels(pixels, stbi_image_free);
  const std::unique_ptr<int, void (*)(void*)> owned_delays(delays, stbi_image_free);
  GifFile gif;
  gif.width = width;
  gif.height = height;
  gif.loops = loops_forever(bytes);
  const std::size_t size = 3 * static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  for (int i = 0; i < frames; ++i) {
    const stbi_uc* frame = pixels + static_cast<std::size_t>(i) * size;
    // stb_image gives delays in milliseconds, the file holds 1/100 s.
    gif.frames.push_back({std::vector<std::uint8_t>(frame, frame + size), delays[i] / 10});
  }
  return gif;
}

} // namespace render_test
