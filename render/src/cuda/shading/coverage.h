// Which tiles a circle touches, and how: the exact (tile, circle) test that
// the binning kernels and the tiled mode's batch test share. Device code;
// include from .cu files only.
//
// Exactness rests on one fact: every step of shade::distance_squared rounds
// monotonically, so across a tile dx = x - center_x only ever decreases, and
// d² = dx·dx + dy·dy (each product and the sum rounded) never decreases as
// |dx| or |dy| grows. The tile's smallest and largest d² are therefore
// bounded by values built from its edge pixel centers, computed with the
// very same operations. docs/design/suffix_proof.md has the argument in full.
#pragma once

#include <cstdint>

#include "kernels.h"
#include "render/shade.h"

namespace render::gpu {

// How the pixels of a tile relate to a circle that touches the tile.
enum EntryKind : std::uint32_t {
  kPartial = 0, // test each pixel
  kFull = 1,    // every pixel of the tile is covered and inside the circle's box
  kClipped = 2, // test each pixel, which must also lie inside the box (see below)
};
constexpr int kMiss = -1; // no pixel of the tile can be covered

// A binned pair's value: the circle index, and its kind in the top bits.
constexpr int kKindShift = kCircleBits;
constexpr std::uint32_t kCircleMask = (1u << kKindShift) - 1;

RENDER_HD inline std::uint32_t pair_value(std::uint32_t circle, int kind) {
  return circle | static_cast<std::uint32_t>(kind) << kKindShift;
}

// The pixels of a tile that lie in the image, bounds inclusive.
struct TileRect {
  int x0, x1, y0, y1;
};

RENDER_HD inline TileRect tile_rect(int tile_x, int tile_y, const FrameGeometry& f) {
  TileRect t;
  t.x0 = tile_x * kTileSide;
  t.y0 = tile_y * kTileSide;
  t.x1 = (t.x0 + kTileSide < f.width ? t.x0 + kTileSide : f.width) - 1;
  t.y1 = (t.y0 + kTileSide < f.height ? t.y0 + kTileSide : f.height) - 1;
  return t;
}

// The bit counts the device has as intrinsics, on the host too.
RENDER_HD inline int count_bits(std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  return __popc(v);
#else
  return __builtin_popcount(v);
#endif
}

// The position of v's n-th set bit (from 0, lowest first); v has more than n.
RENDER_HD inline int nth_set_bit(std::uint32_t v, int n) {
#if defined(__CUDA_ARCH__)
  return static_cast<int>(__fns(v, 0, n + 1));
#else
  for (; n > 0; --n) v &= v - 1;
  return __builtin_ctz(v);
#endif
}

// The tiles a pixel box touches, bounds inclusive, packed in 16 bits each
// (at most kMaxImageSide / kTileSide = 1024 tiles a side). An empty box packs
// as x0 = 1 > x1 = 0.
struct TileSpan {
  int x0, x1, y0, y1;
  RENDER_HD bool empty() const { return x0 > x1 || y0 > y1; }
};

RENDER_HD inline uint2 pack_tile_span(const shade::PixelBox& box) {
  uint2 packed;
  packed.x = packed.y = 1u;
  if (box.min_x >= box.max_x || box.min_y >= box.max_y) return packed;
  const unsigned x0 = box.min_x / kTileSide;
  const unsigned x1 = (box.max_x - 1) / kTileSide;
  const unsigned y0 = box.min_y / kTileSide;
  const unsigned y1 = (box.max_y - 1) / kTileSide;
  packed.x = x0 | x1 << 16;
  packed.y = y0 | y1 << 16;
  return packed;
}

RENDER_HD inline TileSpan unpack_tile_span(uint2 packed) {
  return TileSpan{static_cast<int>(packed.x & 0xffffu), static_cast<int>(packed.x >> 16),
                  static_cast<int>(packed.y & 0xffffu), static_cast<int>(packed.y >> 16)};
}

RENDER_HD inline bool box_contains(const shade::PixelBox& box, int px, int py) {
  return px >= box.min_x && px < box.max_x && py >= box.min_y && py < box.max_y;
}

// True when no pixel outside the circle's box can pass the coverage test, so
// the shading need not check the box. The box's truncations leave at least
// 0.48 pixel between the circle's edge and any pixel center outside the box;
// with coordinates and radius within 4 units and images at most
// kMaxImageSide wide, rounding moves d² by far less than that.
RENDER_HD inline bool coverage_implies_box(const float4& geometry) {
  constexpr float kLimit = 4.f;
  return fabsf(geometry.x) <= kLimit && fabsf(geometry.y) <= kLimit && geometry.w >= 0.f &&
         geometry.w <= kLimit;
}

// The smallest squared offset along one axis over the tile, from the offsets
// at its first and last pixel centers (d only decreases in between).
RENDER_HD inline float nearest_axis_squared(float d_first, float d_last) {
  if (d_last >= 0.f) return shade::mul(d_last, d_last);
  if (d_first <= 0.f) return shade::mul(d_first, d_first);
  return 0.f; // the circle's center lies between the two
}

// The largest squared offset along one axis over the tile.
RENDER_HD inline float farthest_axis_squared(float d_first, float d_last) {
  const float a = shade::mul(d_first, d_first);
  const float b = shade::mul(d_last, d_last);
  return a > b ? a : b;
}

// Classifies the pair of a circle (geometry as CircleRecords holds it, and
// its pixel box) and a tile that the box touches. Never kMiss or kFull
// unless that holds for every pixel; NaNs give kPartial or kClipped.
RENDER_HD inline int classify(const float4& geometry, const shade::PixelBox& box, const TileRect& t,
                              const FrameGeometry& f) {
  const float dx_first = shade::sub(geometry.x, shade::pixel_center(t.x0, f.inverse_width));
  const float dx_last = shade::sub(geometry.x, shade::pixel_center(t.x1, f.inverse_width));
  const float dy_first = shade::sub(geometry.y, shade::pixel_center(t.y0, f.inverse_height));
  const float dy_last = shade::sub(geometry.y, shade::pixel_center(t.y1, f.inverse_height));
  const float radius_squared = geometry.z;
  const float nearest =
      shade::add(nearest_axis_squared(dx_first, dx_last), nearest_axis_squared(dy_first, dy_last));
  if (nearest > radius_squared) return kMiss;
  const bool inside_box =
      t.x0 >= box.min_x && t.x1 < box.max_x && t.y0 >= box.min_y && t.y1 < box.max_y;
  const float farthest = shade::add(farthest_axis_squared(dx_first, dx_last),
                                    farthest_axis_squared(dy_first, dy_last));
  if (inside_box && farthest <= radius_squared) return kFull;
  return inside_box || coverage_implies_box(geometry) ? kPartial : kClipped;
}

// The circle's pixel box, from its geometry record (the same inputs the
// reference uses).
RENDER_HD inline shade::PixelBox box_of(const float4& geometry, const FrameGeometry& f) {
  return shade::circle_box(geometry.x, geometry.y, geometry.w, f.width, f.height);
}

// Binning walks a circle's tile span one thread per circle when the span is
// at most this many tiles, and one warp per circle above it (tuning.h).
constexpr int kSerialSpanTiles = tuning::kSerialSpanTiles;

RENDER_HD inline int span_area(const TileSpan& span) {
  return span.empty() ? 0 : (span.x1 - span.x0 + 1) * (span.y1 - span.y0 + 1);
}

RENDER_HD inline bool walked_by_warp(const TileSpan& span) {
  return span_area(span) > kSerialSpanTiles;
}

// A small span's tiles (not walked_by_warp) classified once: two bits per
// tile in row-major span order, 0 for a miss and kind + 1 otherwise. The
// count keeps them so that the emission need not classify again.
static_assert(2 * kSerialSpanTiles <= 32, "a small span's kinds fit 32 bits");

RENDER_HD inline std::uint32_t small_span_kinds(const float4& geometry, const FrameGeometry& f) {
  const shade::PixelBox box = box_of(geometry, f);
  const TileSpan span = unpack_tile_span(pack_tile_span(box));
  std::uint32_t kinds = 0;
  int shift = 0;
  for (int ty = span.y0; ty <= span.y1; ++ty) {
    for (int tx = span.x0; tx <= span.x1; ++tx, shift += 2) {
      const int kind = classify(geometry, box, tile_rect(tx, ty, f), f);
      if (kind != kMiss) kinds |= static_cast<std::uint32_t>(kind + 1) << shift;
    }
  }
  return kinds;
}

// The tiles small_span_kinds keeps.
RENDER_HD inline int kept_tile_count(std::uint32_t kinds) {
  return count_bits((kinds | kinds >> 1) & 0x55555555u);
}

// The k-th tile (from 0, row-major) that small_span_kinds kept, and its kind.
RENDER_HD inline int kept_tile(uint2 packed_span, std::uint32_t kinds, int k,
                               const FrameGeometry& f, int& kind) {
  const std::uint32_t kept = (kinds | kinds >> 1) & 0x55555555u;
  const int bit = nth_set_bit(kept, k);
  kind = static_cast<int>(kinds >> bit & 3u) - 1;
  const TileSpan span = unpack_tile_span(packed_span);
  const int width = span.x1 - span.x0 + 1;
  const int slot = bit / 2;
  return (span.y0 + slot / width) * f.tiles_x + span.x0 + slot % width;
}

// Tile j (from 0, row-major) of a circle's tile span, and its kind: the
// step of every walk of a big circle's span, whichever threads share it.
RENDER_HD inline int span_tile_kind(const float4& geometry, const shade::PixelBox& box,
                                    const TileSpan& span, int j, const FrameGeometry& f,
                                    int& tile) {
  const int width = span.x1 - span.x0 + 1;
  const int tx = span.x0 + j % width;
  const int ty = span.y0 + j / width;
  tile = ty * f.tiles_x + tx;
  return classify(geometry, box, tile_rect(tx, ty, f), f);
}

#if defined(__CUDACC__)
// The same tiles walked by a whole warp: in each round lane l classifies
// span tile 32·round + l (row-major), then every lane calls fn(tile, kind)
// with kind kMiss where it has no tile. fn may use warp votes and must return
// the same value on every lane; the walk stops when it returns false. Every
// lane of the warp calls this for the same circle.
template <class Fn>
__device__ void for_each_binned_tile_by_warp(const float4& geometry, const FrameGeometry& f,
                                             Fn&& fn) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const shade::PixelBox box = box_of(geometry, f);
  const TileSpan span = unpack_tile_span(pack_tile_span(box));
  const int area = span_area(span);
  for (int round = 0; round < area; round += 32) {
    const int t = round + lane;
    int tile = 0;
    int kind = kMiss;
    if (t < area) kind = span_tile_kind(geometry, box, span, t, f, tile);
    if (!fn(tile, kind)) return;
  }
}
#endif

} // namespace render::gpu
