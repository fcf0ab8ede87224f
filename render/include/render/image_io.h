// Image files: PNG and the course's PPM (P6), 8 bits per channel, for
// looking at; and RGBAF, our exact float format, which can be read back, so
// a stored reference image can stand in for rendering it again. A writer
// either leaves a complete file or none: it writes a temporary file next to
// the target and renames it into place. Errors throw std::runtime_error
// naming the path and the reason.
//
// RGBAF ("NAME.rgbaf"): the ASCII header line "RGBAF1 WIDTH HEIGHT\n" (one
// space each, decimal sides from 1 to kMaxImageSide without leading zeros),
// then WIDTH·HEIGHT·4 IEEE 754 single-precision floats, little-endian, in the
// Image's memory order: pixel by pixel (r, g, b, a), row 0 (the bottom) first.
// Nothing follows. The bits are kept exactly (-0, subnormals, NaN payloads).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "render/image.h"

namespace render {

enum class ImageFormat { Png, Ppm, Rgbaf };

// "png", "ppm" or "rgbaf", also the file extension.
const char* image_format_name(ImageFormat format);

// Inverse of image_format_name; throws std::invalid_argument naming the
// valid formats.
ImageFormat parse_image_format(const std::string& text);

// One channel as a byte: int(255 · clamp(v, 0, 1)), truncated; NaN is 0.
std::uint8_t to_byte(float v);

// The bytes of a whole file, top row first.
std::vector<std::uint8_t> encode_ppm(const Image& image); // P6, RGB
std::vector<std::uint8_t> encode_png(const Image& image); // 8-bit RGBA
// The RGBAF bytes (header and floats; bottom row first, unlike the others).
std::vector<std::uint8_t> encode_rgbaf(const Image& image);

void write_image(const Image& image, const std::string& path, ImageFormat format);

// Reads an RGBAF file. Throws std::runtime_error "cannot read PATH: REASON"
// when it cannot be opened or is not exactly one valid RGBAF image (wrong
// header, sides out of range, truncated, trailing bytes). The file's size is
// checked against the header before any pixel memory is allocated.
Image read_rgbaf(const std::string& path);

// Throws, as a write would, when `path` cannot be written (missing folder, no
// permission, a folder in the way), without leaving anything behind. Lets a
// program fail before a long render rather than after it.
void check_writable(const std::string& path);

// "NAME_0007.png": the frame number with at least 4 digits.
std::string frame_file_name(const std::string& prefix, int frame, ImageFormat format);

// Pictures of a failed check, as PNG: PREFIX_yours.png (`actual`),
// PREFIX_reference.png and, when the sizes match, PREFIX_difference.png
// (difference_image). Returns the paths written. Throws as write_image.
std::vector<std::string> write_mismatch_pictures(const Image& actual, const Image& expected,
                                                 float tolerance, const std::string& prefix);

} // namespace render
