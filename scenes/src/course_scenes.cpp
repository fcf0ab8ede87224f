// The scenes docs/scenes.md specifies to the bit. Draw order and float rounding
// follow the specification statement by statement: each rand01() is its own
// statement, and each a + b*u is rounded after the product and the sum.
#include <algorithm>
#include <functional>
#include <vector>

#include "generators.h"
#include "scenes/animation.h"
#include "scenes/float_ops.h"

namespace scenes::detail {

namespace {

struct Rgb {
  float r, g, b;
};
constexpr Rgb kRed{1.0f, 0.0f, 0.0f};
constexpr Rgb kGreen{0.0f, 1.0f, 0.0f};
constexpr Rgb kBlue{0.0f, 0.0f, 1.0f};
constexpr Rgb kYellow{1.0f, 1.0f, 0.0f};
constexpr Rgb kWhite{1.0f, 1.0f, 1.0f};
constexpr Rgb kRgbCycle[3] = {kRed, kGreen, kBlue};

// Above this many circles a generated scene uses its "large" radius and colors.
constexpr std::size_t kMediumLimit = 100000;
constexpr std::size_t kSmallLimit = 10000;

void set_circle(Scene& scene, std::size_t i, float x, float y, float z, float radius, Rgb color) {
  scene.x[i] = x;
  scene.y[i] = y;
  scene.z[i] = z;
  scene.radius[i] = radius;
  scene.r[i] = color.r;
  scene.g[i] = color.g;
  scene.b[i] = color.b;
}

// base + scale * rand01(), one draw.
float draw(CourseRand& rng, float base, float scale) {
  return fp::add_mul(base, scale, rng.rand01());
}

// n depths in [0, 1], farthest first.
std::vector<float> sorted_depths(std::size_t n, CourseRand& rng) {
  std::vector<float> depths(n);
  for (float& depth : depths) depth = rng.rand01();
  std::sort(depths.begin(), depths.end(), std::greater<float>());
  return depths;
}

// The color of random and sized circles with up to kMediumLimit circles.
void draw_small_or_medium_color(Scene& scene, std::size_t i, std::size_t n, CourseRand& rng) {
  if (n <= kSmallLimit) {
    scene.r[i] = draw(rng, 0.1f, 0.9f);
    scene.g[i] = draw(rng, 0.2f, 0.5f);
    scene.b[i] = draw(rng, 0.5f, 0.5f);
  } else {
    scene.r[i] = draw(rng, 0.3f, 0.9f);
    scene.g[i] = draw(rng, 0.1f, 0.9f);
    scene.b[i] = draw(rng, 0.1f, 0.4f);
  }
}

// The n x n grid of docs/scenes.md's pattern scene, from circle `first` on.
void make_grid(Scene& scene, std::size_t first, int n, float radius, float offset, Rgb color,
               CourseRand& rng) {
  const float spacing = fp::mul(2.0f, radius);
  std::size_t i = first;
  for (int row = 0; row < n; ++row) {
    for (int column = 0; column < n; ++column, ++i) {
      const float x = fp::add_mul(offset, spacing, static_cast<float>(column));
      const float y = fp::add_mul(offset, spacing, static_cast<float>(row));
      set_circle(scene, i, x, y, rng.rand01(), radius, color);
    }
  }
}

} // namespace

void make_rgb(Scene& scene) {
  scene.resize(3);
  set_circle(scene, 0, 0.4f, 0.5f, 0.75f, 0.3f, kRed);
  set_circle(scene, 1, 0.5f, 0.5f, 0.5f, 0.3f, kGreen);
  set_circle(scene, 2, 0.6f, 0.5f, 0.25f, 0.3f, kBlue);
}

void make_rgby(Scene& scene) {
  scene.resize(4);
  set_circle(scene, 0, 0.25f, 0.25f, 0.75f, 0.19f, kRed);
  set_circle(scene, 1, 0.3f, 0.3f, 0.5f, 0.19f, kGreen);
  set_circle(scene, 2, 0.5f, 0.5f, 0.25f, 0.25f, kBlue);
  set_circle(scene, 3, 0.2f, 0.2f, 0.9f, 0.1f, kYellow);
}

// Color of a circle in a scene of more than kMediumLimit circles: base + u * span
// per channel, each u a fresh draw.
struct LargeSceneColors {
  float r_base, r_span, g_base, g_span, b_base, b_span;
};

// Random and sized circles draw in the same order (depths, then per circle
// radius, x, y and color); they differ in the radius and the large scenes'
// colors. radius_of(rng) returns the radius, drawing or not.
template <class RadiusOf>
void make_circles(Scene& scene, std::size_t n, std::uint32_t seed, CourseRand& rng,
                  RadiusOf radius_of, const LargeSceneColors& large) {
  rng.reseed(seed);
  const std::vector<float> depths = sorted_depths(n, rng);
  scene.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    scene.radius[i] = radius_of(rng);
    scene.x[i] = rng.rand01();
    scene.y[i] = rng.rand01();
    scene.z[i] = depths[i];
    if (n <= kMediumLimit) {
      draw_small_or_medium_color(scene, i, n, rng);
    } else {
      scene.r[i] = draw(rng, large.r_base, large.r_span);
      scene.g[i] = draw(rng, large.g_base, large.g_span);
      scene.b[i] = draw(rng, large.b_base, large.b_span);
    }
  }
}

void make_random_circles(Scene& scene, std::size_t n, std::uint32_t seed, CourseRand& rng) {
  const bool large = n > kMediumLimit;
  make_circles(
      scene, n, seed, rng,
      [large](CourseRand& r) { return large ? draw(r, 0.009f, 0.005f) : draw(r, 0.02f, 0.06f); },
      LargeSceneColors{0.2f, 0.5f, 0.5f, 0.5f, 0.1f, 0.4f});
}

void make_sized_circles(Scene& scene, std::size_t n, float radius, std::uint32_t seed,
                        CourseRand& rng) {
  make_circles(
      scene, n, seed, rng, [radius](CourseRand&) { return radius; },
      LargeSceneColors{0.3f, 0.9f, 0.1f, 0.3f, 0.2f, 0.2f});
}

void move_circles(Scene& scene, std::size_t first, std::size_t count, float radius, float c,
                  float d, CourseRand& rng) {
  const float x_base = fp::sub(0.9f, c);
  for (std::size_t i = first; i < first + count; ++i) {
    scene.radius[i] = radius;
    scene.x[i] = draw(rng, x_base, d);
    scene.y[i] = draw(rng, c, d);
  }
}

void make_pattern(Scene& scene, CourseRand& rng) {
  constexpr int kCoarse = 16;
  constexpr int kFine = 31;
  constexpr float kRadius = 0.5f / 16.0f;
  scene.resize(kCoarse * kCoarse + kFine * kFine);
  make_grid(scene, 0, kCoarse, kRadius, kRadius, kRed, rng);
  make_grid(scene, kCoarse * kCoarse, kFine, kRadius, 0.0f, kYellow, rng);
}

void make_bouncing_balls(Scene& scene, CourseRand& rng) {
  constexpr std::size_t kBalls = 10;
  scene.resize(kBalls);
  scene.animation = Animation::BouncingBalls;
  for (std::size_t i = 0; i < kBalls; ++i) {
    const float x = rng.rand01();
    const float y = rng.rand01();
    const float z = rng.rand01();
    set_circle(scene, i, x, y, z, 0.05f, kRgbCycle[i % 3]);
    scene.vy[i] = rng.rand01();
  }
}

void make_hypnosis(Scene& scene, CourseRand& rng) {
  constexpr std::size_t kRings = 25;
  scene.resize(kRings);
  scene.animation = Animation::Hypnosis;
  for (std::size_t i = 0; i < kRings; ++i) {
    Rgb color{};
    color.r = rng.rand01();
    color.g = rng.rand01();
    color.b = rng.rand01();
    set_circle(scene, i, 0.5f, 0.5f, 0.0f, fp::add_mul(0.02f, 0.02f, static_cast<float>(i)), color);
  }
}

void make_fireworks(Scene& scene, CourseRand& rng) {
  constexpr float kShellRadius = 0.005f;
  constexpr float kSparkRadius = 0.01f;
  scene.resize(kFireworkShells + kFireworkShells * kSparksPerShell);
  scene.animation = Animation::Fireworks;
  for (int shell = 0; shell < kFireworkShells; ++shell) {
    const float x = rng.rand01();
    const float y = rng.rand01();
    set_circle(scene, shell, x, y, 0.0f, kShellRadius, kWhite);
  }
  for (int shell = 0; shell < kFireworkShells; ++shell) {
    for (int j = 0; j < kSparksPerShell; ++j) {
      const std::size_t i = kFireworkShells + shell * kSparksPerShell + j;
      spark_start(j, scene.x[shell], scene.y[shell], kShellRadius, scene.x[i], scene.y[i],
                  scene.vx[i], scene.vy[i]);
      scene.z[i] = 0.0f;
      scene.radius[i] = kSparkRadius;
      const Rgb color = kRgbCycle[shell % 3];
      scene.r[i] = color.r;
      scene.g[i] = color.g;
      scene.b[i] = color.b;
    }
  }
}

} // namespace scenes::detail
