// Our snow scene (SCENES.md leaves its design to us): flakes at random
// depths, farthest first, nearer flakes larger and faster.
#include <algorithm>
#include <functional>
#include <vector>

#include "generators.h"
#include "scenes/animation.h"
#include "scenes/float_ops.h"

namespace scenes::detail {

namespace {
constexpr float kFarRadius = 0.003f;  // radius at depth 1
constexpr float kNearRadius = 0.016f; // radius at depth 0
constexpr float kDriftSpeed = 0.02f;  // largest starting sideways speed
constexpr float kFallSpeed = 0.1f;    // largest starting fall speed at depth 0
} // namespace

void make_snow(Scene& scene, std::uint32_t seed, CourseRand& rng) {
  rng.reseed(seed);
  std::vector<float> depths(kSnowFlakes);
  for (float& depth : depths) depth = rng.rand01();
  std::sort(depths.begin(), depths.end(), std::greater<float>());

  scene.resize(kSnowFlakes);
  scene.snow = true;
  scene.animation = Animation::Snow;
  for (std::size_t i = 0; i < kSnowFlakes; ++i) {
    const float z = depths[i];
    const float nearness = fp::sub(1.0f, z);
    scene.x[i] = rng.rand01();
    scene.y[i] = rng.rand01();
    scene.z[i] = z;
    // Linear in depth, so radii never grow with depth.
    scene.radius[i] = fp::add_mul(kFarRadius, fp::sub(kNearRadius, kFarRadius), nearness);
    const float drift = fp::sub(fp::mul(2.0f, rng.rand01()), 1.0f);
    scene.vx[i] = fp::mul(kDriftSpeed, drift);
    const float fall = fp::mul(rng.rand01(), fp::add(0.5f, nearness));
    scene.vy[i] = fp::mul(-kFallSpeed, fall);
    // The shading of snow scenes ignores the color; white documents intent.
    scene.r[i] = 1.0f;
    scene.g[i] = 1.0f;
    scene.b[i] = 1.0f;
  }
}

} // namespace scenes::detail
