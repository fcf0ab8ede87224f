#include "render/image_io.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>

// The one definition of stb_image_write in the project. Static functions and
// no stdio: this file does the file handling itself.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STBI_WRITE_NO_STDIO
#include <stb_image_write.h>

namespace render {

namespace {

std::runtime_error write_error(const std::string& path, const std::string& reason) {
  return std::runtime_error("cannot write " + path + ": " + reason);
}

std::string errno_text(int code) {
  return std::strerror(code);
}

// The 8-bit pixels, top row first, `channels` (3 or 4) per pixel.
std::vector<std::uint8_t> to_bytes_top_first(const Image& image, int channels) {
  std::vector<std::uint8_t> bytes(image.pixel_count() * channels);
  std::uint8_t* out = bytes.data();
  for (int y = image.height() - 1; y >= 0; --y) {
    const float* p = image.pixel(0, y);
    for (int x = 0; x < image.width(); ++x, p += Image::kChannels)
      for (int c = 0; c < channels; ++c) *out++ = to_byte(p[c]);
  }
  return bytes;
}

void append_to_vector(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<std::uint8_t>*>(context);
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

// A temporary file in the target's folder (so the final rename stays on one
// file system). Removed on destruction unless renamed into place.
class TempFile {
public:
  explicit TempFile(const std::string& target) : target_(target) {
    std::string pattern = target + ".tmp-XXXXXX";
    fd_ = mkstemp(pattern.data());
    if (fd_ < 0) throw write_error(target, errno_text(errno));
    path_ = pattern;
  }
  ~TempFile() {
    if (fd_ >= 0) close(fd_);
    if (!path_.empty()) std::remove(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  void write_all(const std::vector<std::uint8_t>& bytes) {
    const std::uint8_t* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
      const ssize_t n = ::write(fd_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw write_error(target_, errno_text(n < 0 ? errno : EIO));
      p += n;
      left -= static_cast<std::size_t>(n);
    }
  }

  // Closes the file (a full disk may only show here) and moves it into place.
  void commit() {
    const int fd = std::exchange(fd_, -1);
    if (close(fd) != 0) throw write_error(target_, errno_text(errno));
    // mkstemp creates the file owner-only; give it the usual permissions.
    const mode_t mask = umask(0);
    umask(mask);
    chmod(path_.c_str(), 0666 & ~mask);
    if (std::rename(path_.c_str(), target_.c_str()) != 0)
      throw write_error(target_, errno_text(errno));
    path_.clear();
  }

private:
  std::string target_;
  std::string path_;
  int fd_ = -1;
};

bool is_directory(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

} // namespace

const char* image_format_name(ImageFormat format) {
  return format == ImageFormat::Png ? "png" : "ppm";
}

ImageFormat parse_image_format(const std::string& text) {
  if (text == "png") return ImageFormat::Png;
  if (text == "ppm") return ImageFormat::Ppm;
  throw std::invalid_argument("unknown image format '" + text + "' (valid formats: png, ppm)");
}

std::uint8_t to_byte(float v) {
  if (std::isnan(v)) return 0;
  const float clamped = v < 0.f ? 0.f : (v > 1.f ? 1.f : v);
  return static_cast<std::uint8_t>(static_cast<int>(255.f * clamped));
}

std::vector<std::uint8_t> encode_ppm(const Image& image) {
  const std::string header =
      "P6\n" + std::to_string(image.width()) + " " + std::to_string(image.height()) + "\n255\n";
  std::vector<std::uint8_t> bytes(header.begin(), header.end());
  const std::vector<std::uint8_t> pixels = to_bytes_top_first(image, 3);
  bytes.insert(bytes.end(), pixels.begin(), pixels.end());
  return bytes;
}

std::vector<std::uint8_t> encode_png(const Image& image) {
  constexpr int kChannels = 4;
  const std::vector<std::uint8_t> pixels = to_bytes_top_first(image, kChannels);
  std::vector<std::uint8_t> bytes;
  if (!stbi_write_png_to_func(append_to_vector, &bytes, image.width(), image.height(), kChannels,
                              pixels.data(), image.width() * kChannels))
    throw std::runtime_error("PNG encoding failed");
  return bytes;
}

void write_image(const Image& image, const std::string& path, ImageFormat format) {
  if (image.pixel_count() == 0) throw write_error(path, "the image is empty");
  if (is_directory(path)) throw write_error(path, "it is a folder");
  const std::vector<std::uint8_t> bytes =
      format == ImageFormat::Png ? encode_png(image) : encode_ppm(image);
  TempFile file(path);
  file.write_all(bytes);
  file.commit();
}

void check_writable(const std::string& path) {
  if (path.empty()) throw write_error(path, "empty file name");
  if (is_directory(path)) throw write_error(path, "it is a folder");
  TempFile probe(path); // creating it is the test; the destructor removes it
}

std::string frame_file_name(const std::string& prefix, int frame, ImageFormat format) {
  char number[16];
  std::snprintf(number, sizeof number, "%04d", frame);
  return prefix + "_" + number + "." + image_format_name(format);
}

} // namespace render
