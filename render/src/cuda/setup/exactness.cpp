#include "setup/exactness.h"

#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "render/shade.h"
#include "render/suffix.h"

namespace render::gpu {

// The fused form differs only when (1 - alpha)·p is inexact, which for
// 1 - alpha = 1/2 means p < 2^-125. With colors >= 0 a blend never takes p
// below half its value; so p stays large enough if every color channel is at
// least 2^-123 (then p >= alpha·c after the first blend, whatever p was), or,
// in a frame that starts from the clear color (p = 1), if there are too few
// circles to halve p that often.
FusedBlend fused_blend_scope(const scenes::Scene& scene) {
  if (scene.snow) return FusedBlend::Never;
  const shade::BlendTerms unit = shade::blend_terms(shade::flat_contribution(0.f, 0.f, 0.f));
  if (unit.scale[0] != 0.5f || unit.scale[1] != 0.5f || unit.scale[2] != 0.5f ||
      unit.scale[3] != 1.f || shade::clear_gray(0, 1, false) != 1.f)
    return FusedBlend::Never;
  constexpr float kLargeColor = 0x1p-123f;
  constexpr std::size_t kFewCircles = 125;
  bool all_large = true;
  for (const std::vector<float>* channel : {&scene.r, &scene.g, &scene.b}) {
    for (const float c : *channel) {
      if (!std::isfinite(c) || c < 0.f) return FusedBlend::Never;
      if (c < kLargeColor) all_large = false;
    }
  }
  if (all_large) return FusedBlend::Always;
  return scene.size() <= kFewCircles ? FusedBlend::AfterClear : FusedBlend::Never;
}

bool suffix_bounds(const scenes::Scene& scene, SuffixPlan& plan) {
  if (scene.snow || scene.animation != scenes::Animation::None || scene.size() == 0) return false;
  suffix::ColorBounds colors;
  for (std::size_t i = 0; i < scene.size(); ++i) colors.add(scene.r[i], scene.g[i], scene.b[i]);
  if (!colors.safe) return false;
  for (int ch = 0; ch < 3; ++ch) {
    plan.color_lo[ch] = colors.lo[ch];
    plan.color_hi[ch] = colors.hi[ch];
  }
  return true;
}

} // namespace render::gpu
