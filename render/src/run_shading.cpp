#include "run_shading.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace render {

namespace {

// shade::apply_blend on `count` consecutive pixels, one 4-wide vector
// operation per pixel: the same IEEE multiplies and adds, channel by channel.
void blend_run(float* pixels, int count, const shade::BlendTerms& terms) {
  typedef float Float4 __attribute__((vector_size(16)));
  Float4 base;
  Float4 scale;
  std::memcpy(&base, terms.base, sizeof base);
  std::memcpy(&scale, terms.scale, sizeof scale);
  for (int i = 0; i < count; ++i, pixels += Image::kChannels) {
    Float4 p;
    std::memcpy(&p, pixels, sizeof p);
    p = base + scale * p;
    std::memcpy(pixels, &p, sizeof p);
  }
}

} // namespace

void shade_flat_circle_runs(Image& image, const FlatCircle& circle, const shade::PixelBox& box,
                            float inverse_width, float inverse_height) {
  const int lo = box.min_x;
  const int hi = box.max_x;
  if (lo >= hi) return;
  // dx² per column of the box, which no row changes; and q, the first column
  // whose center is not left of the circle's (dx <= 0), or hi.
  thread_local std::vector<float> dx_squared_storage;
  dx_squared_storage.resize(static_cast<std::size_t>(hi - lo));
  float* dx_squared = dx_squared_storage.data();
  int q = hi;
  for (int col = lo; col < hi; ++col) {
    const float center = shade::pixel_center(col, inverse_width);
    dx_squared[col - lo] = shade::axis_distance_squared(circle.x, center);
    if (q == hi && shade::sub(circle.x, center) <= 0.f) q = col;
  }
  const float radius_squared = shade::mul(circle.radius, circle.radius);

  int first = -1; // the previous row's run, a guess for this one
  int last = -1;
  for (int row = box.min_y; row < box.max_y; ++row) {
    const float dy_squared =
        shade::axis_distance_squared(circle.y, shade::pixel_center(row, inverse_height));
    // d² = dx² + dy² rounds to at least dy²: then no pixel of the row is covered.
    if (!(dy_squared <= radius_squared)) continue;
    const auto covered = [&](int col) {
      return shade::covers(shade::add(dx_squared[col - lo], dy_squared), circle.radius);
    };
    int seed;
    if (q < hi && covered(q))
      seed = q;
    else if (q > lo && covered(q - 1))
      seed = q - 1;
    else
      continue;
    // Each end: start from the guess, then exact tests settle it (the run
    // holds seed, so the walks stop).
    int a = first < 0 ? seed : std::clamp(first, lo, seed);
    if (covered(a)) {
      while (a > lo && covered(a - 1)) --a;
    } else {
      while (!covered(a)) ++a;
    }
    int b = last < 0 ? seed : std::clamp(last, seed, hi - 1);
    if (covered(b)) {
      while (b + 1 < hi && covered(b + 1)) ++b;
    } else {
      while (!covered(b)) --b;
    }
    first = a;
    last = b;
    blend_run(image.pixel(a, row), b - a + 1, circle.terms);
  }
}

} // namespace render
