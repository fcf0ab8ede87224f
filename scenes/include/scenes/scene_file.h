// Scene files: a small text format (docs/scene_file_format.md) that holds any
// scene exactly, including one advanced some frames, so it can be rendered
// later or written by hand.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <stdexcept>
#include <string>

#include "scenes/scene.h"

namespace scenes {

// A scene file that cannot be read or written. Messages name the file, and
// for malformed content the line: "FILE:LINE: what is wrong".
class SceneFileError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Files declaring more circles than this are rejected before anything is
// allocated (micro2M, the largest scene, has 2 million).
constexpr std::size_t kMaxSceneFileCircles = 50'000'000;
// Longer lines are malformed; a circle line needs about 150 characters.
constexpr std::size_t kMaxSceneFileLine = 4096;

// Writes the scene to `path` through a temporary file in the same folder that
// is renamed into place, so a failed write leaves no partial file. Throws
// SceneFileError (with the path and the reason) when the file cannot be
// written, std::invalid_argument when the scene cannot be stored (see
// write_scene).
void save_scene(const Scene& scene, const std::string& path);

// Reads a scene file. Throws SceneFileError.
Scene load_scene_file(const std::string& path);

// The same two on streams; `source` names the input in error messages.
// write_scene throws std::invalid_argument for a scene that the format cannot
// hold (arrays of different lengths, a name that is empty, longer than 256
// characters or not printable ASCII without spaces, a value that is NaN or
// infinite, a negative radius, too many circles), and SceneFileError when the
// stream fails.
void write_scene(const Scene& scene, std::ostream& out);
Scene read_scene(std::istream& in, const std::string& source);

} // namespace scenes
