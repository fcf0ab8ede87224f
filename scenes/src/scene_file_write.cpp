// Writing scene files: shortest round-trip decimal floats (std::to_chars), so
// every value reads back to the same bits, and an atomic replace on disk.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <stdexcept>
#include <string>

#include "scene_file_format.h"
#include "scenes/scene_file.h"

namespace scenes {

namespace {

using detail::kFieldCount;

// Flush the text buffer to its destination at about this size.
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

// Throws std::invalid_argument unless the reader will accept the scene back.
void check_storable(const Scene& scene) {
  validate_scene(scene);
  if (!detail::is_valid_name(scene.name)) {
    throw std::invalid_argument("scene name '" + scene.name +
                                "' cannot be stored: it must be 1 to 256 printable characters "
                                "without spaces");
  }
  if (scene.size() > kMaxSceneFileCircles) {
    throw std::invalid_argument("scene '" + scene.name + "' has " + std::to_string(scene.size()) +
                                " circles; scene files hold at most " +
                                std::to_string(kMaxSceneFileCircles));
  }
  const auto fields = detail::circle_fields(scene);
  for (std::size_t f = 0; f < kFieldCount; ++f) {
    for (std::size_t i = 0; i < scene.size(); ++i) {
      const float value = (*fields[f])[i];
      if (!std::isfinite(value) || (f == detail::kRadiusField && value < 0.0f)) {
        throw std::invalid_argument("scene '" + scene.name + "': circle " + std::to_string(i) +
                                    " has " + std::string(detail::kFieldNames[f]) + " = " +
                                    std::to_string(value) + ", which a scene file cannot hold");
      }
    }
  }
}

std::string header_text(const Scene& scene) {
  std::string text;
  text += std::string(detail::kMagic) + " " + std::string(detail::kVersion) + "\n";
  text += "name " + scene.name + "\n";
  text += "animation " + std::string(detail::animation_keyword(scene.animation)) + "\n";
  text += std::string("snow ") + (scene.snow ? "true" : "false") + "\n";
  text += "circles " + std::to_string(scene.size()) + "\n";
  text += "# x y z radius r g b vx vy vz\n";
  return text;
}

void append_circle(const Scene& scene, std::size_t i, std::string& text) {
  const auto fields = detail::circle_fields(scene);
  char buffer[kFieldCount * 20]; // a shortest float is at most 15 characters
  char* end = buffer;
  for (std::size_t f = 0; f < kFieldCount; ++f) {
    if (f > 0) *end++ = ' ';
    end = std::to_chars(end, buffer + sizeof buffer, (*fields[f])[i]).ptr;
  }
  *end++ = '\n';
  text.append(buffer, end);
}

// Produces the whole file in chunks of about kChunkBytes, handing each to
// `sink`, so a 2-million-circle scene never sits in memory twice.
template <typename Sink> void emit_scene(const Scene& scene, Sink&& sink) {
  std::string text = header_text(scene);
  text.reserve(kChunkBytes + 4096);
  for (std::size_t i = 0; i < scene.size(); ++i) {
    append_circle(scene, i, text);
    if (text.size() >= kChunkBytes) {
      sink(text);
      text.clear();
    }
  }
  text += std::string(detail::kEnd) + "\n";
  sink(text);
}

std::string describe_errno(int error) {
  return std::strerror(error);
}

[[noreturn]] void throw_write_error(const std::string& path, int error) {
  throw SceneFileError("cannot write scene file '" + path + "': " + describe_errno(error));
}

// A new file next to the destination that disappears unless committed.
class TempFile {
public:
  explicit TempFile(const std::string& destination) : destination_(destination) {
    const std::size_t slash = destination.find_last_of('/');
    const std::string folder = slash == std::string::npos ? "" : destination.substr(0, slash + 1);
    const std::string base =
        slash == std::string::npos ? destination : destination.substr(slash + 1);
    // O_EXCL with a pid-and-counter name: never clobbers another writer's file.
    for (int attempt = 0; attempt < 100; ++attempt) {
      path_ = folder + "." + base + ".tmp-" + std::to_string(::getpid()) + "-" +
              std::to_string(attempt);
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd_ >= 0 || errno != EEXIST) break;
    }
    if (fd_ < 0) throw_write_error(destination_, errno);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(path_.c_str());
  }

  void write(const std::string& text) {
    const char* data = text.data();
    std::size_t left = text.size();
    while (left > 0) {
      const ssize_t written = ::write(fd_, data, left);
      if (written < 0) {
        if (errno == EINTR) continue;
        throw_write_error(destination_, errno);
      }
      data += written;
      left -= static_cast<std::size_t>(written);
    }
  }

  // Closes the file and renames it over the destination.
  void commit() {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw_write_error(destination_, errno);
    if (::rename(path_.c_str(), destination_.c_str()) != 0) throw_write_error(destination_, errno);
    committed_ = true;
  }

private:
  std::string destination_;
  std::string path_;
  int fd_ = -1;
  bool committed_ = false;
};

} // namespace

void write_scene(const Scene& scene, std::ostream& out) {
  check_storable(scene);
  emit_scene(scene, [&out, &scene](const std::string& text) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) throw SceneFileError("cannot write scene '" + scene.name + "': the stream failed");
  });
}

void save_scene(const Scene& scene, const std::string& path) {
  check_storable(scene);
  if (path.empty()) throw SceneFileError("cannot write scene file: the path is empty");
  TempFile file(path);
  emit_scene(scene, [&file](const std::string& text) { file.write(text); });
  file.commit();
}

} // namespace scenes
