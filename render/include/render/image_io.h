// Writing images to files: PNG and the course's PPM (P6). A writer either
// leaves a complete file or none: it writes a temporary file next to the
// target and renames it into place. Errors throw std::runtime_error naming
// the path and the reason.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "render/image.h"

namespace render {

enum class ImageFormat { Png, Ppm };

// "png" or "ppm", also the file extension.
const char* image_format_name(ImageFormat format);

// Inverse of image_format_name; throws std::invalid_argument naming the
// valid formats.
ImageFormat parse_image_format(const std::string& text);

// One channel as a byte: int(255 · clamp(v, 0, 1)), truncated; NaN is 0.
std::uint8_t to_byte(float v);

// The bytes of a whole file, top row first.
std::vector<std::uint8_t> encode_ppm(const Image& image); // P6, RGB
std::vector<std::uint8_t> encode_png(const Image& image); // 8-bit RGBA

void write_image(const Image& image, const std::string& path, ImageFormat format);

// Throws, as a write would, when `path` cannot be written (missing folder, no
// permission, a folder in the way), without leaving anything behind. Lets a
// program fail before a long render rather than after it.
void check_writable(const std::string& path);

// "NAME_0007.png": the frame number with at least 4 digits.
std::string frame_file_name(const std::string& prefix, int frame, ImageFormat format);

} // namespace render
