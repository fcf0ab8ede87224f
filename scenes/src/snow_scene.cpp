// Our own snow scene (docs/scenes.md leaves its design to us): flakes spread evenly
// through a volume in front of the viewer, drawn farthest first. Seen in
// perspective, a flake at distance D has radius proportional to 1/D, and most
// flakes are far: a field of fine specks with a few large, bright flakes in
// front, on the gray sky that snow scenes clear to.
#include <algorithm>
#include <functional>
#include <vector>

#include "generators.h"
#include "scenes/animation.h"
#include "scenes/float_ops.h"

namespace scenes::detail {

namespace {
// Distance from the viewer: kNearest at depth 0, kNearest + kDepthSpan at
// depth 1, so the radius shrinks from kSnowNearRadius to 1/40 of it.
constexpr float kNearest = 1.0f;
constexpr float kDepthSpan = 39.0f;
constexpr float kFallSpeed = 0.3f; // starting fall speed of the nearest flakes, units/s
constexpr float kFarFall = 0.03f;  // starting fall speed added for every flake

// Depth with density proportional to depth, as for points spread evenly over
// a wedge of view seen from its tip: the larger of two uniform draws (exact
// float operations only, so every platform agrees). A cone's depth squared
// would leave too few near flakes for a picture of snow.
float draw_depth(CourseRand& rng) {
  const float a = rng.rand01();
  const float b = rng.rand01();
  return std::max(a, b);
}
} // namespace

void make_snow(Scene& scene, std::uint32_t seed, CourseRand& rng) {
  rng.reseed(seed);
  std::vector<float> depths(kSnowFlakes);
  for (float& depth : depths) depth = draw_depth(rng);
  std::sort(depths.begin(), depths.end(), std::greater<float>());

  scene.resize(kSnowFlakes);
  scene.snow = true;
  scene.animation = Animation::Snow;
  for (std::size_t i = 0; i < kSnowFlakes; ++i) {
    const float z = depths[i];
    const float distance = fp::add_mul(kNearest, kDepthSpan, z);
    // 1/distance never grows with depth, so neither does the radius.
    const float nearness = fp::div(kNearest, distance);
    const float radius = fp::mul(kSnowNearRadius, nearness);
    scene.radius[i] = radius;
    scene.z[i] = z;
    scene.x[i] = rng.rand01();
    // From just below the bottom edge to just above the top one, the range
    // the animation wraps flakes around in.
    scene.y[i] = fp::sub(fp::mul(rng.rand01(), fp::add(1.0f, fp::mul(2.0f, radius))), radius);
    scene.vx[i] = 0.0f;
    const float fall = fp::add(0.5f, fp::mul(0.5f, rng.rand01()));
    scene.vy[i] = fp::mul(-fall, fp::add_mul(kFarFall, kFallSpeed, nearness));
    // The shading of snow scenes ignores the color; white documents intent.
    scene.r[i] = 1.0f;
    scene.g[i] = 1.0f;
    scene.b[i] = 1.0f;
  }
}

} // namespace scenes::detail
