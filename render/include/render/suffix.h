// Exact suffix compositing for flat circles: a pixel's result from only the
// last few circles that cover it, when that provably equals the serial blend.
// docs/design/suffix_proof.md gives the proof.
//
// A flat blend is p' = fl(fl(0.5·c) + fl(0.5·p)) per channel: non-decreasing
// in p, so a run of blends is too. With safe colors (safe_color) the value
// also stays within [min(p, c), max(p, c)], so every value a pixel takes lies
// in [lo, hi], the bounds over its start and the colors. If the last K blends
// map lo and hi to the same float, they map every value between there too:
// the serial result, whatever came before them.
#pragma once

#include <math.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <cstring>

#include "render/shade.h"

namespace render {
namespace suffix {

// Colors whose half is exact in float: +0 and the finite values >= 2^-125.
// Negative, subnormal or tiny colors may round when halved (and -0 or a
// halving that rounds up could leave [lo, hi]), so a scene holding any other
// color takes the full blend.
inline bool safe_color(float c) {
  constexpr float kSmallestSafe = 0x1p-125f;
  return !signbit(c) && isfinite(c) && (c == 0.f || c >= kSmallestSafe);
}

// What the suffix needs of a scene's colors: whether all are safe and, per
// channel, their least and greatest (a superset of any pixel's bounds, just
// as exact; each pixel adds its start). The bounds mean something only when
// every color is safe. Parts of a scene may be summarized apart, in
// parallel, and merged.
struct ColorBounds {
  bool safe = true;
  float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}; // safe colors are finite and >= +0
  float hi[3] = {0.f, 0.f, 0.f};

  void add(float r, float g, float b) {
    const float rgb[3] = {r, g, b};
    for (int ch = 0; ch < 3; ++ch) {
      safe = safe && safe_color(rgb[ch]);
      lo[ch] = std::min(lo[ch], rgb[ch]);
      hi[ch] = std::max(hi[ch], rgb[ch]);
    }
  }
  void merge(const ColorBounds& other) {
    safe = safe && other.safe;
    for (int ch = 0; ch < 3; ++ch) {
      lo[ch] = std::min(lo[ch], other.lo[ch]);
      hi[ch] = std::max(hi[ch], other.hi[ch]);
    }
  }
};

RENDER_HD inline bool same_bits(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(a) == __float_as_uint(b);
#else
  std::uint32_t x;
  std::uint32_t y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x == y;
#endif
}

// Blends flat circles `first` .. `count - 1` into rgb, in that order, with the
// serial arithmetic. color_at(k) points to circle k's r, g, b.
template <class ColorAt> void blend_rgb(float* rgb, int first, int count, ColorAt&& color_at) {
  for (int k = first; k < count; ++k) {
    const float* c = color_at(k);
    const shade::BlendTerms t = shade::blend_terms(shade::flat_contribution(c[0], c[1], c[2]));
    for (int ch = 0; ch < 3; ++ch)
      rgb[ch] = shade::add(t.base[ch], shade::mul(t.scale[ch], rgb[ch]));
  }
}

// color_at(k), k in [0, count), are the last `count` circles covering a pixel,
// in blend order, all with safe colors; lo and hi bound, per channel, the
// pixel's start and every color before them. Blends the last k of them from
// lo and from hi; when both end on the same float in every channel, that is
// the pixel's serial result: stores it in out and returns true. (The
// renderers blend their windows with the same arithmetic, over runs of
// pixels; this is the rule for one pixel, for tests and measurements.)
template <class ColorAt>
bool last_meet(int k, int count, ColorAt&& color_at, const float* lo, const float* hi, float* out) {
  float from_lo[3] = {lo[0], lo[1], lo[2]};
  float from_hi[3] = {hi[0], hi[1], hi[2]};
  blend_rgb(from_lo, count - k, count, color_at);
  blend_rgb(from_hi, count - k, count, color_at);
  if (!same_bits(from_lo[0], from_hi[0]) || !same_bits(from_lo[1], from_hi[1]) ||
      !same_bits(from_lo[2], from_hi[2]))
    return false;
  for (int ch = 0; ch < 3; ++ch) out[ch] = from_lo[ch];
  return true;
}

// The alpha channel after `covering` flat blends from `a`: each adds 0.5 in
// float. While every partial sum is a multiple of 0.5 below 2^23 in magnitude
// each add is exact, so the sum is a + 0.5·covering; otherwise add one by one.
// The CUDA renderer's suffix compositing calls it too.
RENDER_HD inline float alpha_after(float a, std::int64_t covering) {
  if (covering == 0) return a;              // also keeps a -0
  constexpr double kExactBelow = 4194304.0; // 2^22
  const double twice = 2.0 * static_cast<double>(a);
  if (isfinite(a) && twice == floor(twice) &&
      fabs(static_cast<double>(a)) + 0.5 * static_cast<double>(covering) <= kExactBelow)
    return static_cast<float>(static_cast<double>(a) + 0.5 * static_cast<double>(covering));
  for (std::int64_t i = 0; i < covering; ++i) a = shade::add(shade::kFlatAlpha, shade::mul(1.f, a));
  return a;
}

} // namespace suffix
} // namespace render
