// What the scene-file reader and writer share: keywords, the order of the
// numbers on a circle line, and which names a file can hold. The format is
// described in docs/scene_file_format.md.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "scenes/scene.h"

namespace scenes::detail {

// First line of every scene file: the magic word and the format version.
constexpr std::string_view kMagic = "scenefile";
constexpr std::string_view kVersion = "1";
constexpr std::string_view kEnd = "end";
constexpr std::size_t kMaxNameLength = 256;

// The numbers of one circle line, in file order.
constexpr std::size_t kFieldCount = 10;
constexpr std::array<std::string_view, kFieldCount> kFieldNames = {"x", "y", "z",  "radius", "r",
                                                                   "g", "b", "vx", "vy",     "vz"};
constexpr std::size_t kRadiusField = 3;

inline std::array<std::vector<float>*, kFieldCount> circle_fields(Scene& s) {
  return {&s.x, &s.y, &s.z, &s.radius, &s.r, &s.g, &s.b, &s.vx, &s.vy, &s.vz};
}
inline std::array<const std::vector<float>*, kFieldCount> circle_fields(const Scene& s) {
  return {&s.x, &s.y, &s.z, &s.radius, &s.r, &s.g, &s.b, &s.vx, &s.vy, &s.vz};
}

std::string_view animation_keyword(Animation animation);
std::optional<Animation> parse_animation(std::string_view keyword);
// The animation keywords, for messages: "none, bouncingballs, ...".
std::string animation_keywords();

// 1 to kMaxNameLength printable ASCII characters, no spaces.
bool is_valid_name(std::string_view name);

} // namespace scenes::detail
