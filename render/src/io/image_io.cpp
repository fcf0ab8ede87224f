#include "render/image_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <system_error>
#include <utility>

// The one definition of stb_image_write in the project. Static functions and
// no stdio: this file does the file handling itself.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STBI_WRITE_NO_STDIO
#include <stb_image_write.h>

#include "common/enum_names.h"
#include "scenes/atomic_file.h"
#include "write_step.h"

namespace render {

namespace {

std::runtime_error write_error(const std::string& path, const std::string& reason) {
  return std::runtime_error("cannot write " + path + ": " + reason);
}

std::runtime_error read_error(const std::string& path, const std::string& reason) {
  return std::runtime_error("cannot read " + path + ": " + reason);
}

std::string errno_text(int code) {
  return std::strerror(code);
}

// Where encoded bytes go: a file, piece by piece, or a vector.
using ByteSink = std::function<void(const std::uint8_t* data, std::size_t size)>;

// One row of 8-bit pixels, `channels` (3 or 4) per pixel, into `out`.
void row_to_bytes(const Image& image, int y, int channels, std::uint8_t* out) {
  const float* p = image.pixel(0, y);
  for (int x = 0; x < image.width(); ++x, p += Image::kChannels)
    for (int c = 0; c < channels; ++c) *out++ = to_byte(p[c]);
}

// The 8-bit pixels, top row first.
std::vector<std::uint8_t> to_bytes_top_first(const Image& image, int channels) {
  std::vector<std::uint8_t> bytes(image.pixel_count() * channels);
  const std::size_t row_bytes = static_cast<std::size_t>(image.width()) * channels;
  for (int y = image.height() - 1, row = 0; y >= 0; --y, ++row)
    row_to_bytes(image, y, channels, bytes.data() + row * row_bytes);
  return bytes;
}

void append_to_vector(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<std::uint8_t>*>(context);
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

void emit_text(const std::string& text, const ByteSink& sink) {
  sink(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

// An open file for reading, closed on destruction.
class InputFile {
public:
  explicit InputFile(const std::string& path) : path_(path) {
    // O_NONBLOCK: opening a pipe would wait for a writer; size() refuses it.
    // Reads of a regular file ignore the flag.
    do {
      fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    } while (fd_ < 0 && errno == EINTR);
    if (fd_ < 0) throw read_error(path, errno_text(errno));
  }
  ~InputFile() { close(fd_); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // The size of a regular file; anything else (a folder, a pipe) is refused,
  // so the size can be checked before the contents are read.
  std::uint64_t size() const {
    struct stat info {};
    if (fstat(fd_, &info) != 0) throw read_error(path_, errno_text(errno));
    if (S_ISDIR(info.st_mode)) throw read_error(path_, "it is a folder");
    if (!S_ISREG(info.st_mode)) throw read_error(path_, "not a regular file");
    return static_cast<std::uint64_t>(info.st_size);
  }

  // Reads `size` bytes, fewer only at the end of the file.
  std::size_t read_up_to(void* data, std::size_t size) {
    auto* p = static_cast<std::uint8_t*>(data);
    std::size_t got = 0;
    while (got < size) {
      const ssize_t n = ::read(fd_, p + got, size - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw read_error(path_, errno_text(errno));
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
    }
    return got;
  }

private:
  std::string path_;
  int fd_ = -1;
};

// RGBAF (see image_io.h).
constexpr char kRgbafMagic[] = "RGBAF1 ";
// Longer than the longest valid header line, "RGBAF1 16384 16384\n".
constexpr std::size_t kRgbafHeaderLimit = 32;
constexpr std::size_t kFloatBytes = 4;
static_assert(sizeof(float) == kFloatBytes, "RGBAF stores IEEE single-precision floats");

// Floats travel as their bits, so NaN payloads survive and the byte order is
// little-endian on any host.
void store_le32(const float* value, std::uint8_t* out) {
  std::uint32_t bits;
  std::memcpy(&bits, value, kFloatBytes);
  for (std::size_t i = 0; i < kFloatBytes; ++i) out[i] = static_cast<std::uint8_t>(bits >> (8 * i));
}

void load_le32(const std::uint8_t* in, float* value) {
  std::uint32_t bits = 0;
  for (std::size_t i = 0; i < kFloatBytes; ++i)
    bits |= static_cast<std::uint32_t>(in[i]) << (8 * i);
  std::memcpy(value, &bits, kFloatBytes);
}

// A side in the header: digits without a leading zero, 1 to kMaxImageSide;
// -1 otherwise.
int parse_side(const std::string& text) {
  if (text.empty() || text.size() > 5 || text[0] == '0') return -1;
  int side = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return -1;
    side = side * 10 + (c - '0');
  }
  return side <= kMaxImageSide ? side : -1;
}

// Header text for an error message: anything unprintable shown as '?'.
std::string printable(std::string text) {
  for (char& c : text)
    if (c < 0x20 || c > 0x7e) c = '?';
  return text;
}

std::string size_text(int width, int height) {
  return std::to_string(width) + "x" + std::to_string(height);
}

} // namespace

namespace {
constexpr common::NamedValue<ImageFormat> kFormatNames[] = {
    {ImageFormat::Png, "png"}, {ImageFormat::Ppm, "ppm"}, {ImageFormat::Rgbaf, "rgbaf"}};
} // namespace

const char* image_format_name(ImageFormat format) {
  return common::enum_name(kFormatNames, format);
}

ImageFormat parse_image_format(const std::string& text) {
  if (const auto format = common::enum_from_name(kFormatNames, text)) return *format;
  throw std::invalid_argument("unknown image format '" + text +
                              "' (valid formats: " + common::enum_names(kFormatNames) + ")");
}

std::uint8_t to_byte(float v) {
  if (std::isnan(v)) return 0;
  const float clamped = v < 0.f ? 0.f : (v > 1.f ? 1.f : v);
  return static_cast<std::uint8_t>(static_cast<int>(255.f * clamped));
}

namespace {

// The sides as a header gives them: "WIDTH HEIGHT".
std::string header_sides(const Image& image) {
  return std::to_string(image.width()) + " " + std::to_string(image.height());
}

// PPM and RGBAF go out a row at a time, so writing a large image needs no
// second copy of it in memory.
void emit_ppm(const Image& image, const ByteSink& sink) {
  emit_text("P6\n" + header_sides(image) + "\n255\n", sink);
  std::vector<std::uint8_t> row(static_cast<std::size_t>(image.width()) * 3);
  for (int y = image.height() - 1; y >= 0; --y) {
    row_to_bytes(image, y, 3, row.data());
    sink(row.data(), row.size());
  }
}

void emit_rgbaf(const Image& image, const ByteSink& sink) {
  emit_text(kRgbafMagic + header_sides(image) + "\n", sink);
  const std::size_t row_floats = static_cast<std::size_t>(image.width()) * Image::kChannels;
  std::vector<std::uint8_t> row(row_floats * kFloatBytes);
  for (int y = 0; y < image.height(); ++y) {
    const float* p = image.pixel(0, y);
    for (std::size_t i = 0; i < row_floats; ++i) store_le32(p + i, row.data() + i * kFloatBytes);
    sink(row.data(), row.size());
  }
}

// stb_image_write builds the whole PNG in memory (it compresses the image as
// one block), so a PNG cannot be streamed with it.
std::vector<std::uint8_t> png_bytes(const Image& image) {
  constexpr int kChannels = 4;
  const std::vector<std::uint8_t> pixels = to_bytes_top_first(image, kChannels);
  std::vector<std::uint8_t> bytes;
  if (!stbi_write_png_to_func(append_to_vector, &bytes, image.width(), image.height(), kChannels,
                              pixels.data(), image.width() * kChannels))
    throw std::runtime_error("PNG encoding failed");
  return bytes;
}

void emit_image(const Image& image, ImageFormat format, const ByteSink& sink) {
  switch (format) {
  case ImageFormat::Png: {
    const std::vector<std::uint8_t> bytes = png_bytes(image);
    sink(bytes.data(), bytes.size());
    return;
  }
  case ImageFormat::Ppm:
    emit_ppm(image, sink);
    return;
  case ImageFormat::Rgbaf:
    emit_rgbaf(image, sink);
    return;
  }
}

std::vector<std::uint8_t> encode(const Image& image, ImageFormat format) {
  std::vector<std::uint8_t> bytes;
  emit_image(image, format, [&bytes](const std::uint8_t* data, std::size_t size) {
    bytes.insert(bytes.end(), data, data + size);
  });
  return bytes;
}

} // namespace

std::vector<std::uint8_t> encode_ppm(const Image& image) {
  return encode(image, ImageFormat::Ppm);
}

std::vector<std::uint8_t> encode_png(const Image& image) {
  return png_bytes(image);
}

std::vector<std::uint8_t> encode_rgbaf(const Image& image) {
  return encode(image, ImageFormat::Rgbaf);
}

void write_image(const Image& image, const std::string& path, ImageFormat format) {
  if (image.pixel_count() == 0) throw write_error(path, "the image is empty");
  detail::writing(path, [&] {
    scenes::AtomicFile file(path);
    emit_image(image, format,
               [&file](const std::uint8_t* data, std::size_t size) { file.write(data, size); });
    file.commit();
  });
}

Image read_rgbaf(const std::string& path) {
  InputFile file(path);
  const std::uint64_t file_size = file.size();
  std::uint8_t start[kRgbafHeaderLimit];
  const std::size_t got = file.read_up_to(start, sizeof start);
  if (got == 0) throw read_error(path, "the file is empty");
  const std::string head(reinterpret_cast<const char*>(start), got);
  const std::string magic = kRgbafMagic;
  if (head.compare(0, magic.size(), magic) != 0)
    throw read_error(path, "not an RGBAF image (it does not start with \"RGBAF1 \")");
  const std::size_t line_end = head.find('\n');
  if (line_end == std::string::npos)
    throw read_error(path, "bad RGBAF header (no line end in the first " +
                               std::to_string(kRgbafHeaderLimit) + " bytes)");
  const std::string line = head.substr(0, line_end);
  const std::size_t space = line.find(' ', magic.size());
  const int width =
      space == std::string::npos ? -1 : parse_side(line.substr(magic.size(), space - magic.size()));
  const int height = space == std::string::npos ? -1 : parse_side(line.substr(space + 1));
  if (width < 0 || height < 0)
    throw read_error(path, "bad RGBAF header '" + printable(line) +
                               "' (expected RGBAF1 WIDTH HEIGHT, sides 1 to " +
                               std::to_string(kMaxImageSide) + ")");

  // The size must match before the pixels are allocated, so a damaged or
  // hostile header cannot make us allocate gigabytes for a tiny file.
  const std::size_t header_size = line_end + 1;
  const std::uint64_t pixel_bytes =
      static_cast<std::uint64_t>(width) * height * Image::kChannels * kFloatBytes;
  const std::uint64_t expected = header_size + pixel_bytes;
  if (file_size != expected)
    throw read_error(path, std::string(file_size < expected ? "truncated" : "trailing data") +
                               ": the file is " + std::to_string(file_size) + " bytes, a " +
                               size_text(width, height) + " image needs " +
                               std::to_string(expected));

  // The pixels' bytes go straight into the image (the part read with the
  // header first), then become floats in place.
  Image image(width, height);
  auto* bytes = reinterpret_cast<std::uint8_t*>(image.data());
  const std::size_t early = got - header_size;
  std::memcpy(bytes, start + header_size, early);
  const std::size_t rest = static_cast<std::size_t>(pixel_bytes) - early;
  std::uint8_t extra;
  if (file.read_up_to(bytes + early, rest) != rest || file.read_up_to(&extra, 1) != 0)
    throw read_error(path, "the file changed while it was read");
  const std::size_t floats = image.pixel_count() * Image::kChannels;
  for (std::size_t i = 0; i < floats; ++i) load_le32(bytes + i * kFloatBytes, image.data() + i);
  return image;
}

void check_writable(const std::string& path) {
  if (path.empty()) throw write_error(path, "empty file name");
  // Creating it is the test (AtomicFile refuses folders, links and read-only
  // files); it is removed unused.
  detail::writing(path, [&] { const scenes::AtomicFile probe(path); });
}

std::string frame_file_name(const std::string& prefix, int frame, ImageFormat format) {
  char number[16];
  std::snprintf(number, sizeof number, "%04d", frame);
  return prefix + "_" + number + "." + image_format_name(format);
}

std::vector<std::string> write_mismatch_pictures(const Image& actual, const Image& expected,
                                                 float tolerance, const std::string& prefix) {
  std::vector<std::string> paths = {prefix + "_yours.png", prefix + "_reference.png"};
  write_image(actual, paths[0], ImageFormat::Png);
  write_image(expected, paths[1], ImageFormat::Png);
  if (actual.width() == expected.width() && actual.height() == expected.height()) {
    paths.push_back(prefix + "_difference.png");
    write_image(difference_image(actual, expected, tolerance), paths[2], ImageFormat::Png);
  }
  return paths;
}

} // namespace render
