// Writing scene files: shortest round-trip decimal floats (std::to_chars), so
// every value reads back to the same bits, and an atomic replace on disk.

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <stdexcept>
#include <string>

#include "scene_file_format.h"
#include "scenes/atomic_file.h"
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
  try {
    AtomicFile file(path);
    emit_scene(scene, [&file](const std::string& text) { file.write(text.data(), text.size()); });
    file.commit();
  } catch (const WriteError& e) {
    throw SceneFileError("cannot write scene file '" + path + "': " + e.what());
  }
}

} // namespace scenes
