// The shading rule of docs/scenes.md, written once. Every renderer (serial, CPU
// tiles, CUDA) calls these functions, so they agree bit for bit.
//
// Plain C++ for g++; under nvcc the functions become __host__ __device__.
// The float arithmetic goes through mul/add/sub/div, which on the device are
// the _rn intrinsics: nvcc may never fuse them into an FMA, whose single
// rounding would differ from the host. Host code builds with
// -ffp-contract=off for the same reason.
#pragma once

#include <math.h>

#include "scenes/float_ops.h"

#if defined(__CUDACC__)
#define RENDER_HD __host__ __device__
#else
#define RENDER_HD
#endif

namespace render {
namespace shade {

// The exactly rounded float operations shared with the scenes' animation
// steps (scenes/float_ops.h): on the device they are the _rn intrinsics.
using scenes::fp::add;
using scenes::fp::div;
using scenes::fp::mul;
using scenes::fp::sub;

RENDER_HD inline float clamp01(float v) {
  return fmaxf(fminf(v, 1.f), 0.f);
}

// int() that truncates toward zero like docs/scenes.md, but saturates instead of
// being undefined for values far outside the image (a scene built through
// the library may hold any float; scene files refuse non-finite ones); NaN
// gives 0.
RENDER_HD inline int trunc_to_int(float v) {
  constexpr float kLimit = 1.0e9f;
  if (!(v == v)) return 0;
  if (v < -kLimit) return -1000000000;
  if (v > kLimit) return 1000000000;
  return static_cast<int>(v);
}

RENDER_HD inline int clamp_int(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

// The pixels a circle may touch: columns [min_x, max_x), rows [min_y, max_y),
// each bound clamped to the image. Empty when min >= max.
struct PixelBox {
  int min_x, max_x, min_y, max_y;
};

RENDER_HD inline PixelBox circle_box(float x, float y, float radius, int width, int height) {
  const float w = static_cast<float>(width);
  const float h = static_cast<float>(height);
  PixelBox box;
  box.min_x = clamp_int(trunc_to_int(mul(sub(x, radius), w)), 0, width);
  box.max_x = clamp_int(trunc_to_int(mul(add(x, radius), w)) + 1, 0, width);
  box.min_y = clamp_int(trunc_to_int(mul(sub(y, radius), h)), 0, height);
  box.max_y = clamp_int(trunc_to_int(mul(add(y, radius), h)) + 1, 0, height);
  return box;
}

// 1/W as a float, the step between pixel centers.
RENDER_HD inline float inverse_extent(int extent) {
  return div(1.f, static_cast<float>(extent));
}

// Center of pixel column (or row) i on the unit square: (i + 0.5) * (1/W).
RENDER_HD inline float pixel_center(int i, float inverse) {
  return mul(inverse, add(static_cast<float>(i), 0.5f));
}

// The squared distance along one axis, (a − center)². A renderer may compute
// the x part once per column and the y part once per row.
RENDER_HD inline float axis_distance_squared(float a, float center) {
  const float d = sub(a, center);
  return mul(d, d);
}

// Squared distance from the circle center to a pixel center, dx*dx + dy*dy.
RENDER_HD inline float distance_squared(float x, float y, float center_x, float center_y) {
  return add(axis_distance_squared(x, center_x), axis_distance_squared(y, center_y));
}

// The coverage test: a circle contributes to a pixel iff d² <= r·r.
RENDER_HD inline bool covers(float d2, float radius) {
  return d2 <= mul(radius, radius);
}

// What one circle adds to one pixel: a color and its alpha.
struct Contribution {
  float r, g, b, alpha;
};

constexpr float kFlatAlpha = 0.5f;

RENDER_HD inline Contribution flat_contribution(float r, float g, float b) {
  return Contribution{r, g, b, kFlatAlpha};
}

// Snow: a color ramp from the center (white) to the rim (pale blue), and an
// alpha that falls off with distance and is fainter for farther flakes.
// The 5-entry ramp {(1,1,1), (1,1,1), (.8,.9,1), (.8,.9,1), (.8,.8,1)} is
// written as selects rather than a table, so device code keeps it in
// registers. Entry 5 repeats entry 4: at t = 1 the lookup reads it with
// weight 0.
RENDER_HD inline float snow_ramp_r(int k) {
  return k < 2 ? 1.f : .8f;
}
RENDER_HD inline float snow_ramp_g(int k) {
  return k < 2 ? 1.f : (k < 4 ? .9f : .8f);
}
RENDER_HD inline float snow_ramp_b(int) {
  return 1.f;
}

RENDER_HD inline float lerp_ramp(float one_minus_w, float w, float lo, float hi) {
  return add(mul(one_minus_w, lo), mul(w, hi));
}

RENDER_HD inline Contribution snow_contribution(float d2, float radius, float z) {
  constexpr int kRampLast = 4;
  const float t = div(sqrtf(d2), radius);
  const float s = mul(t, static_cast<float>(kRampLast));
  // Clamped below too, so a negative radius (possible in a scene built
  // through the library) stays in bounds.
  const int k = clamp_int(trunc_to_int(s), 0, kRampLast);
  const float w = sub(s, static_cast<float>(k));
  const float one_minus_w = sub(1.f, w);
  Contribution c;
  c.r = lerp_ramp(one_minus_w, w, snow_ramp_r(k), snow_ramp_r(k + 1));
  c.g = lerp_ramp(one_minus_w, w, snow_ramp_g(k), snow_ramp_g(k + 1));
  c.b = lerp_ramp(one_minus_w, w, snow_ramp_b(k), snow_ramp_b(k + 1));
  const float max_alpha = mul(0.5f, clamp01(add(0.6f, mul(0.4f, sub(1.f, z)))));
  c.alpha = mul(max_alpha, expf(mul(mul(mul(-1.f, 4.f), t), t)));
  return c;
}

// A contribution as the blend applies it, per channel p = base + scale·p:
// base = (alpha·r, alpha·g, alpha·b, alpha), scale = (1 − alpha, ×3, 1).
// Multiplying alpha's channel by 1 is exact, so this is the same arithmetic
// as docs/scenes.md's alpha*c + oneMinusAlpha*p and p.a += alpha; computing the
// terms once lets a renderer blend a whole run of pixels with them.
struct BlendTerms {
  float base[4];
  float scale[4];
};

RENDER_HD inline BlendTerms blend_terms(const Contribution& c) {
  const float one_minus_alpha = sub(1.f, c.alpha);
  return BlendTerms{{mul(c.alpha, c.r), mul(c.alpha, c.g), mul(c.alpha, c.b), c.alpha},
                    {one_minus_alpha, one_minus_alpha, one_minus_alpha, 1.f}};
}

RENDER_HD inline void apply_blend(float* pixel, const BlendTerms& t) {
  for (int c = 0; c < 4; ++c) pixel[c] = add(t.base[c], mul(t.scale[c], pixel[c]));
}

// Blends a contribution into an RGBA pixel.
RENDER_HD inline void blend(float* pixel, const Contribution& c) {
  apply_blend(pixel, blend_terms(c));
}

// Shades one pixel with one circle: the coverage test, then the blend. The
// caller passes the pixel center; `snow` selects the snow shading. Returns
// whether the circle covers the pixel (and so blended it).
RENDER_HD inline bool shade_pixel(float* pixel, float center_x, float center_y, float x, float y,
                                  float z, float radius, float r, float g, float b, bool snow) {
  const float d2 = distance_squared(x, y, center_x, center_y);
  if (!covers(d2, radius)) return false;
  blend(pixel, snow ? snow_contribution(d2, radius, z) : flat_contribution(r, g, b));
  return true;
}

// The clear value of row j of an image `height` rows tall, in r, g and b
// (alpha is 1): white, or for snow the gray s = 0.4 + 0.45·(H − j)/H.
RENDER_HD inline float clear_gray(int row, int height, bool snow) {
  if (!snow) return 1.f;
  return add(0.4f, div(mul(0.45f, static_cast<float>(height - row)), static_cast<float>(height)));
}

} // namespace shade
} // namespace render
