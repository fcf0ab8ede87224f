// The covered pixels of one circle in one pixel row, found with a few exact
// coverage tests instead of one per pixel. The CPU renderer's run shading and
// the CUDA renderer's suffix count share covered_run (the walk that corrects a
// run's guessed ends); the CUDA count also uses circle_row_run, which finds
// the row's nearest column and guesses as below (the CPU finds its own).
//
// Why one run: along a row the pixel center only grows, so dx = x − center
// only falls (every step rounds monotonically), dx² falls and then rises, and
// so does d² = dx² + dy². The covered columns (d² <= r²) of any range of the
// row are therefore one run, and if it is not empty it holds the column
// nearest the circle's center: q, the first column whose center is not left
// of it, or q − 1. Each end is then found from a guess by exact tests, so the
// run is exactly what testing every pixel with the same test gives.
//
// Plain C++ for g++; __host__ __device__ under nvcc (see shade.h).
#pragma once

#include <math.h>

#include "render/shade.h"

namespace render {
namespace shade {

// Columns [first, last] of a row, inclusive; empty when first > last.
struct ColumnRun {
  int first;
  int last;
  RENDER_HD bool empty() const { return first > last; }
};

// The run of columns of [lo, hi] for which covered(column) holds, given that
// they form one run (possibly empty) and q, a column in [lo, hi + 1] such
// that the run, if not empty, holds q or q − 1. first_guess and last_guess
// are guesses of its ends (any values: they are clamped); exact tests settle
// them. covered is called only on columns of [lo, hi].
template <class Covered>
RENDER_HD ColumnRun covered_run(int lo, int hi, int q, int first_guess, int last_guess,
                                const Covered& covered) {
  int seed;
  if (q >= lo && q <= hi && covered(q))
    seed = q;
  else if (q > lo && q - 1 <= hi && covered(q - 1))
    seed = q - 1;
  else
    return ColumnRun{lo, lo - 1};
  // Each end walks from its guess towards the seed while not covered, or
  // away from it while the next column is: the run holds the seed, so both
  // walks stop inside [lo, hi].
  int a = clamp_int(first_guess, lo, seed);
  if (covered(a)) {
    while (a > lo && covered(a - 1)) --a;
  } else {
    while (a < seed && !covered(a)) ++a;
  }
  int b = clamp_int(last_guess, seed, hi);
  if (covered(b)) {
    while (b < hi && covered(b + 1)) ++b;
  } else {
    while (b > seed && !covered(b)) --b;
  }
  return ColumnRun{a, b};
}

// The coverage test of one circle on pixel row `center_y`, column by column:
// exactly the per-pixel test (distance_squared(...) <= radius_squared, with
// radius_squared = mul(radius, radius) as covers computes it).
struct RowCoverage {
  float x;
  float y;
  float radius_squared;
  float center_y;
  float inverse_width;
  RENDER_HD bool operator()(int column) const {
    return distance_squared(x, y, pixel_center(column, inverse_width), center_y) <= radius_squared;
  }
};

// A float column estimate as an int in [lo, hi]; NaN gives lo.
RENDER_HD inline int clamp_column(float v, int lo, int hi) {
  return static_cast<int>(fminf(fmaxf(v, static_cast<float>(lo)), static_cast<float>(hi)));
}

// The first column of [lo, hi] whose center is not left of x (sub(x, center)
// <= 0), or hi + 1 if none, walked to from `guess`: the sign test changes
// only once along the row.
RENDER_HD inline int first_column_not_left(float x, int lo, int hi, float inverse_width,
                                           int guess) {
  int q = clamp_int(guess, lo, hi + 1);
  while (q > lo && sub(x, pixel_center(q - 1, inverse_width)) <= 0.f) --q;
  while (q <= hi && !(sub(x, pixel_center(q, inverse_width)) <= 0.f)) ++q;
  return q;
}

// The columns of [lo, hi] that the circle covers in the row: the same result
// as testing each with `coverage`, from a few tests. `width` is the image's
// width, which turns positions into columns for the guesses only.
RENDER_HD inline ColumnRun circle_row_run(const RowCoverage& coverage, int lo, int hi, int width) {
  const float dy_squared = axis_distance_squared(coverage.y, coverage.center_y);
  // d² = dx² + dy² rounds to at least dy²: then no column is covered.
  if (!(dy_squared <= coverage.radius_squared)) return ColumnRun{lo, lo - 1};
  // Guesses, in columns: the center's position (column c's center is at
  // (c + 0.5) / width) and the half chord sqrt(r² − dy²).
  const float w = static_cast<float>(width);
  const float position = coverage.x * w - 0.5f;
  const float half = sqrtf(fmaxf(coverage.radius_squared - dy_squared, 0.f)) * w;
  const int q = first_column_not_left(coverage.x, lo, hi, coverage.inverse_width,
                                      clamp_column(ceilf(position), lo, hi + 1));
  return covered_run(lo, hi, q, clamp_column(ceilf(position - half), lo, hi),
                     clamp_column(floorf(position + half), lo, hi), coverage);
}

// Whether the circle covers every pixel of `box` (columns [min_x, max_x),
// rows [min_y, max_y), not empty) by the per-pixel test. Inside the box dx =
// x − center only falls along a row and dy along a column (each rounding is
// monotone), so |dx| is largest at an edge column and |dy| at an edge row;
// dx², dy² and their rounded sum never fall as |dx| or |dy| grows, so the
// largest d² of the box is at one of its corners. Testing the four corners
// with the very expression of the per-pixel test is therefore exact (a NaN
// fails the test at a corner too). The caller still checks that the box
// lies inside the circle's pixel box, which the serial renderer requires.
RENDER_HD inline bool covers_every_pixel(float x, float y, float radius, const PixelBox& box,
                                         float inverse_width, float inverse_height) {
  const float x0 = pixel_center(box.min_x, inverse_width);
  const float x1 = pixel_center(box.max_x - 1, inverse_width);
  const float y0 = pixel_center(box.min_y, inverse_height);
  const float y1 = pixel_center(box.max_y - 1, inverse_height);
  return covers(distance_squared(x, y, x0, y0), radius) &&
         covers(distance_squared(x, y, x1, y0), radius) &&
         covers(distance_squared(x, y, x0, y1), radius) &&
         covers(distance_squared(x, y, x1, y1), radius);
}

} // namespace shade
} // namespace render
