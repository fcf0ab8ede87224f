#include "scene_file_format.h"

#include <string>

namespace scenes::detail {

namespace {
struct AnimationKeyword {
  Animation animation;
  std::string_view keyword;
};
constexpr std::array<AnimationKeyword, 5> kAnimationKeywords = {{
    {Animation::None, "none"},
    {Animation::BouncingBalls, "bouncingballs"},
    {Animation::Hypnosis, "hypnosis"},
    {Animation::Fireworks, "fireworks"},
    {Animation::Snow, "snow"},
}};
} // namespace

std::string_view animation_keyword(Animation animation) {
  for (const AnimationKeyword& entry : kAnimationKeywords) {
    if (entry.animation == animation) return entry.keyword;
  }
  return "none"; // unreachable for valid enum values
}

std::optional<Animation> parse_animation(std::string_view keyword) {
  for (const AnimationKeyword& entry : kAnimationKeywords) {
    if (entry.keyword == keyword) return entry.animation;
  }
  return std::nullopt;
}

std::string animation_keywords() {
  std::string text;
  for (const AnimationKeyword& entry : kAnimationKeywords) {
    if (!text.empty()) text += ", ";
    text += entry.keyword;
  }
  return text;
}

bool is_valid_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength) return false;
  for (const char c : name) {
    if (c <= ' ' || c > '~') return false;
  }
  return true;
}

} // namespace scenes::detail
