// The tile shading that both modes share: one thread block per tile, circles
// staged through shared memory a batch at a time in index order, each thread
// blending its own pixels in registers and writing them once. A mode only
// supplies a Source: which circles a tile looks at, and how it fetches them.
// Device code; include from .cu files only.
#pragma once

#include <cstdint>

#include "kernels.h"
#include "render/shade.h"
#include "shading/coverage.h"

namespace render::gpu {

// The circle a thread offers to the current batch.
struct Candidate {
  bool hit = false; // it touches this tile
  std::uint32_t kind = kPartial;
  float4 geometry;
  float4 paint;
};

// One batch of circles in shared memory, in index order.
template <int kThreads> struct BatchStorage {
  float4 geometry[kThreads];
  float4 paint[kThreads];
  shade::PixelBox box[kThreads]; // kClipped entries only
  std::uint8_t kind[kThreads];
  int warp_hits[kThreads / 32];
};

// A thread's pixels: kRows of them stacked in one column of the tile, so the
// x half of every distance is computed once for all of them.
template <int kRows> struct PixelColumn {
  int x;
  int y0;
  float center_x;
  float center_y[kRows];
  float rgba[kRows][4];
};

template <int kRows>
__device__ PixelColumn<kRows> load_column(const float4* pixels, const FrameGeometry& f,
                                          PixelStart start, int tile_x, int tile_y) {
  PixelColumn<kRows> c;
  c.x = tile_x * kTileSide + static_cast<int>(threadIdx.x) % kTileSide;
  c.y0 = tile_y * kTileSide + static_cast<int>(threadIdx.x) / kTileSide * kRows;
  c.center_x = shade::pixel_center(c.x, f.inverse_width);
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int y = c.y0 + r;
    c.center_y[r] = shade::pixel_center(y, f.inverse_height);
    float4 p = make_float4(0.f, 0.f, 0.f, 0.f); // outside the image: shaded, never stored
    if (start != PixelStart::Image) {
      const float gray = shade::clear_gray(y, f.height, start == PixelStart::SnowClear);
      p = make_float4(gray, gray, gray, 1.f);
    } else if (c.x < f.width && y < f.height) {
      p = pixels[static_cast<std::size_t>(y) * f.width + c.x];
    }
    c.rgba[r][0] = p.x;
    c.rgba[r][1] = p.y;
    c.rgba[r][2] = p.z;
    c.rgba[r][3] = p.w;
  }
  return c;
}

template <int kRows>
__device__ void store_column(const PixelColumn<kRows>& c, float4* pixels, const FrameGeometry& f) {
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int y = c.y0 + r;
    if (c.x < f.width && y < f.height)
      pixels[static_cast<std::size_t>(y) * f.width + c.x] =
          make_float4(c.rgba[r][0], c.rgba[r][1], c.rgba[r][2], c.rgba[r][3]);
  }
}

// Places each thread's candidate into the batch in circle order and returns
// how many there are. Compacting sources turn the hit flags into slots with a
// block-wide exclusive scan (a ballot per warp, then the warp totals); dense
// ones already hold `dense_count` hits in threads 0..dense_count-1. Every
// thread of the block must call it; it ends with a barrier.
template <bool kCompact, int kThreads>
__device__ int stage_batch(BatchStorage<kThreads>& s, const Candidate& c, int dense_count,
                           const FrameGeometry& f) {
  const int thread = static_cast<int>(threadIdx.x);
  int slot = thread;
  int count = dense_count;
  if constexpr (kCompact) {
    const int lane = thread % 32;
    const int warp = thread / 32;
    const unsigned hits = __ballot_sync(0xffffffffu, c.hit);
    if (lane == 0) s.warp_hits[warp] = __popc(hits);
    __syncthreads();
    slot = __popc(hits & ((1u << lane) - 1u));
    count = 0;
#pragma unroll
    for (int w = 0; w < kThreads / 32; ++w) {
      const int n = s.warp_hits[w];
      if (w < warp) slot += n;
      count += n;
    }
  }
  if (c.hit) {
    s.geometry[slot] = c.geometry;
    s.paint[slot] = c.paint;
    s.kind[slot] = static_cast<std::uint8_t>(c.kind);
    if (c.kind == kClipped) s.box[slot] = box_of(c.geometry, f);
  }
  __syncthreads();
  return count;
}

// Blends one contribution into a pixel held in registers.
template <Shading kShading>
__device__ void blend(float (&pixel)[4], const float4& geometry, const float4& paint, float d2,
                      const shade::BlendTerms& flat) {
  if constexpr (kShading == Shading::Snow) {
    shade::blend(pixel, shade::snow_contribution(d2, geometry.w, paint.w));
  } else if constexpr (kShading == Shading::FlatExact) {
    shade::BlendTerms t = flat;
    t.base[0] = paint.x;
    t.base[1] = paint.y;
    t.base[2] = paint.z;
    shade::apply_blend(pixel, t);
  } else {
    // flat.scale is 1/2 for the colors: the product is exact wherever setup
    // allows this shading, so one rounding equals the reference's two.
    pixel[0] = __fmaf_rn(flat.scale[0], pixel[0], paint.x);
    pixel[1] = __fmaf_rn(flat.scale[1], pixel[1], paint.y);
    pixel[2] = __fmaf_rn(flat.scale[2], pixel[2], paint.z);
    pixel[3] = shade::add(flat.base[3], pixel[3]); // scale 1: the product is the pixel
  }
}

// The coverage test of shade::covers for row r of the column and circle k of
// the batch, with radius² computed once per circle (geometry.z): full pairs
// need no test, clipped ones must also lie in the circle's box. Sets d2 when
// it tests, and always with kDistance.
template <bool kDistance, int kRows, int kThreads>
__device__ bool covers_pixel(const BatchStorage<kThreads>& s, int k, std::uint32_t kind,
                             const float4& geometry, const PixelColumn<kRows>& c, int r,
                             float& d2) {
  d2 = 0.f;
  if (kDistance || kind != kFull)
    d2 = shade::distance_squared(geometry.x, geometry.y, c.center_x, c.center_y[r]);
  if (kind == kFull) return true;
  if (!(d2 <= geometry.z)) return false;
  return kind != kClipped || box_contains(s.box[k], c.x, c.y0 + r);
}

// The per-pixel loop: every thread runs the whole batch over its pixels.
template <Shading kShading, int kRows, int kThreads>
__device__ void shade_batch(const BatchStorage<kThreads>& s, int count, PixelColumn<kRows>& c) {
  // The blend terms every flat circle shares: alpha and 1 - alpha.
  const shade::BlendTerms flat = shade::blend_terms(shade::flat_contribution(0.f, 0.f, 0.f));
  for (int k = 0; k < count; ++k) {
    const std::uint32_t kind = s.kind[k];
    const float4 geometry = s.geometry[k];
    const float4 paint = s.paint[k];
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      float d2;
      if (covers_pixel<kShading == Shading::Snow>(s, k, kind, geometry, c, r, d2))
        blend<kShading>(c.rgba[r], geometry, paint, d2, flat);
    }
  }
}

// Stages the source's batches first, first + step, ... while they lie in
// [0, cursor.batches), and calls shade(count, batch) on each that holds
// circles. `ticket` is the source's fetch of batch `first`, issued by the
// caller so that its load overlaps the caller's. Every thread of the block
// must call it; it ends with a barrier after each batch.
template <class Source, int kThreads, class Shade>
__device__ void for_each_batch(const Source& source, const typename Source::Cursor& cursor,
                               int first, int step, typename Source::Ticket ticket,
                               BatchStorage<kThreads>& s, int tile_x, int tile_y,
                               const TileRect& rect, const FrameGeometry& f, Shade&& shade) {
  for (int batch = first; batch >= 0 && batch < cursor.batches; batch += step) {
    const Candidate c = source.resolve(cursor, batch, ticket, tile_x, tile_y, rect, f);
    const int next = batch + step;
    if (next >= 0 && next < cursor.batches) ticket = source.fetch(cursor, next);
    // A compacting source's batch often holds no circle for this tile (tiled
    // mode on small circles): one barrier then settles it, instead of the
    // scan's two and the closing one. Nothing was written to `s`.
    if constexpr (Source::kCompact)
      if (!__syncthreads_or(c.hit)) continue;
    const int count = stage_batch<Source::kCompact>(s, c, source.dense_count(cursor, batch), f);
    if (count > 0) shade(count, batch);
    __syncthreads(); // the batch is read by all before the next one overwrites it
  }
}

// One tile: run every batch the source offers over the tile's pixels, held
// in registers and stored once at the end, with `s` as the batch storage.
// The source prefetches the next batch's first loads while this one is
// shaded.
template <class Source, Shading kShading, int kRows, int kThreads>
__device__ void shade_tile_in(BatchStorage<kThreads>& s, const Source& source,
                              const FrameGeometry& f, PixelStart start, float4* pixels) {
  static_assert(kThreads == kTilePixels / kRows, "one column of kRows pixels per thread");
  const int tile = static_cast<int>(blockIdx.x);
  const int tile_x = tile % f.tiles_x;
  const int tile_y = tile / f.tiles_x;
  const TileRect rect = tile_rect(tile_x, tile_y, f);

  const typename Source::Cursor cursor = source.begin(tile);
  const bool clearing = start != PixelStart::Image;
  if (cursor.batches == 0 && !clearing) return; // nothing to draw: the pixels stay as they are
  typename Source::Ticket ticket{};
  if (cursor.batches > 0) ticket = source.fetch(cursor, 0);
  // Read up front, so the load overlaps the first batch's; written back if a
  // circle arrived or the tile starts from the clear color.
  PixelColumn<kRows> column = load_column<kRows>(pixels, f, start, tile_x, tile_y);
  bool touched = clearing;
  for_each_batch(source, cursor, 0, 1, ticket, s, tile_x, tile_y, rect, f, [&](int count, int) {
    touched = true;
    shade_batch<kShading>(s, count, column);
  });
  if (touched) store_column(column, pixels, f);
}

// shade_tile_in with the kernel's own batch storage.
template <class Source, Shading kShading, int kRows>
__device__ void shade_tile(const Source& source, const FrameGeometry& f, PixelStart start,
                           float4* pixels) {
  constexpr int kThreads = kTilePixels / kRows;
  static_assert(kTilePixels % kRows == 0 && kThreads % 32 == 0, "whole warps per tile");
  __shared__ BatchStorage<kThreads> s;
  shade_tile_in<Source, kShading, kRows>(s, source, f, start, pixels);
}

} // namespace render::gpu
