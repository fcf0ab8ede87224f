// Shading a flat circle (any scene but snow) run by run: the fast path of the
// CPU renderer, giving the same bits as shading pixel by pixel.
#pragma once

#include <vector>

#include "render/covered_run.h"
#include "render/image.h"
#include "render/shade.h"

namespace render {

struct FlatCircle {
  float x;
  float y;
  float radius;
  shade::BlendTerms terms; // its constant contribution
};

// Blends `circle` into every pixel of `box` it covers. `box` must lie inside
// the circle's pixel box and the image.
//
// Why runs: the covered pixels of a row are one run (render/covered_run.h).
// Each row finds its run with a few exact coverage tests, starting from the
// last row's run, and blends it without testing each pixel.
void shade_flat_circle_runs(Image& image, const FlatCircle& circle, const shade::PixelBox& box,
                            float inverse_width, float inverse_height);

// The run search itself: calls run(row, first, last) for each row of `box`
// with covered pixels, columns [first, last] (inclusive), rows ascending.
template <class Run>
void for_each_covered_run(float x, float y, float radius, const shade::PixelBox& box,
                          float inverse_width, float inverse_height, Run&& run) {
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
    dx_squared[col - lo] = shade::axis_distance_squared(x, center);
    if (q == hi && shade::sub(x, center) <= 0.f) q = col;
  }
  const float radius_squared = shade::mul(radius, radius);

  int first = -1; // the previous row's run, a guess for this one
  int last = -1;
  for (int row = box.min_y; row < box.max_y; ++row) {
    const float dy_squared =
        shade::axis_distance_squared(y, shade::pixel_center(row, inverse_height));
    // d² = dx² + dy² rounds to at least dy²: then no pixel of the row is covered.
    if (!(dy_squared <= radius_squared)) continue;
    const auto covered = [&](int col) {
      return shade::covers(shade::add(dx_squared[col - lo], dy_squared), radius);
    };
    // The guesses: the last row's run, or q itself for the first.
    const shade::ColumnRun r =
        shade::covered_run(lo, hi - 1, q, first < 0 ? q : first, last < 0 ? q : last, covered);
    if (r.empty()) continue;
    first = r.first;
    last = r.last;
    run(row, r.first, r.last);
  }
}

} // namespace render
