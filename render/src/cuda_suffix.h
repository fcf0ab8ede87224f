// Exact suffix compositing in binned mode (docs/cuda_renderer.md, section 6,
// has the proof; render/suffix.h the CPU renderer's version). In a flat scene
// with safe colors every blend is monotone and keeps a pixel within [lo, hi],
// the bounds of its start and of the scene's colors. So if a pixel's last K
// covering circles, blended once from lo and once from hi, end on the same
// float, that float is the serial result whatever came before them.
//
// A tile with many pairs does two passes over its list: backwards to count
// each pixel's covering circles (its alpha) and find where its last K begin,
// then forwards from the earliest of those, blending each pixel's suffix from
// lo and hi. If any pixel of the tile is not settled, the caller draws the
// whole tile in full instead. Device code; include from .cu files only.
#pragma once

#include <cstdint>

#include "cuda_kernels.h"
#include "cuda_tile_shading.h"
#include "render/shade.h"
#include "render/suffix.h"

namespace render::gpu {

// The suffix length. The starts meet after about 27 covering circles on the
// dense scenes, 30 at the 90th percentile (section 6's tables); but a tile
// settles only if all 256 of its pixels do: 32 would send about half the
// tiles to the full blend, 48 settled every one, 64 leaves a margin.
constexpr int kSuffixCircles = 64;

__device__ inline bool same_bits(float a, float b) {
  return __float_as_uint(a) == __float_as_uint(b);
}

// Draws the tile by suffix compositing and returns true, or returns false
// having written nothing: when the tile has fewer than plan.min_pairs pairs
// or a pixel's starts did not meet. `source` is dense (batch b holds list
// entries kThreads·b on) and its Cursor has the list's `first` and `end`.
// Every thread of the block must call it; the result is the same on all.
template <int kRows, class Source, int kThreads>
__device__ bool suffix_tile(BatchStorage<kThreads>& s, const Source& source, const SuffixPlan& plan,
                            const FrameGeometry& f, PixelStart start, float4* pixels) {
  static_assert(!Source::kCompact, "list positions are counted in a dense source");
  constexpr std::uint32_t kNone = 0xffffffffu;
  __shared__ std::uint32_t first_needed;

  const int tile = static_cast<int>(blockIdx.x);
  const typename Source::Cursor cursor = source.begin(tile);
  const std::uint32_t pairs = cursor.end - cursor.first;
  if (pairs == 0 || pairs < plan.min_pairs) return false;
  const int tile_x = tile % f.tiles_x;
  const int tile_y = tile / f.tiles_x;
  const TileRect rect = tile_rect(tile_x, tile_y, f);
  if (threadIdx.x == 0) {
    first_needed = kNone;
    atomicAdd(&plan.tiles[0], 1ull);
  }
  __syncthreads();

  PixelColumn<kRows> column = load_column<kRows>(pixels, f, start, tile_x, tile_y);
  // Per pixel: its covering circles, and the list position (from the tile's
  // first pair) of the earliest of its last kSuffixCircles; kNone if none.
  int covering[kRows];
  std::uint32_t from[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    covering[r] = 0;
    from[r] = kNone;
  }

  // Backwards, last batch first, each batch's circles last first, with the
  // full path's coverage test.
  const int last = cursor.batches - 1;
  for_each_batch(source, cursor, last, -1, source.fetch(cursor, last), s, tile_x, tile_y, rect, f,
                 [&](int count, int batch) {
                   const std::uint32_t base = static_cast<std::uint32_t>(batch) * kThreads;
                   for (int k = count - 1; k >= 0; --k) {
                     const std::uint32_t kind = s.kind[k];
                     const float4 geometry = s.geometry[k];
#pragma unroll
                     for (int r = 0; r < kRows; ++r) {
                       float d2;
                       if (!covers_pixel<false>(s, k, kind, geometry, column, r, d2)) continue;
                       if (++covering[r] <= kSuffixCircles)
                         from[r] = base + static_cast<std::uint32_t>(k);
                     }
                   }
                 });

  // Pixels outside the image are shaded but never stored: they neither set
  // where the forward pass starts nor decide whether the tile settled.
  std::uint32_t needed = kNone;
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const bool inside = column.x < f.width && column.y0 + r < f.height;
    if (inside && from[r] < needed) needed = from[r];
  }
  if (needed != kNone) atomicMin(&first_needed, needed);
  __syncthreads();
  const std::uint32_t first = first_needed;

  // The two starts: a pixel with at most kSuffixCircles covering circles
  // blends all of them from its own start (lo = hi); the others blend their
  // suffix from the bounds.
  float lo[kRows][3];
  float hi[kRows][3];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    for (int ch = 0; ch < 3; ++ch) {
      const float p = column.rgba[r][ch];
      const bool whole = covering[r] <= kSuffixCircles;
      lo[r][ch] = whole ? p : fminf(plan.color_lo[ch], p);
      hi[r][ch] = whole ? p : fmaxf(plan.color_hi[ch], p);
    }
  }
  // The reference's two roundings per channel: the fused blend's proof
  // covers the values a pixel takes, not the bounds.
  const shade::BlendTerms flat = shade::blend_terms(shade::flat_contribution(0.f, 0.f, 0.f));
  if (first != kNone) {
    const int first_batch = static_cast<int>(first / kThreads);
    for_each_batch(source, cursor, first_batch, 1, source.fetch(cursor, first_batch), s, tile_x,
                   tile_y, rect, f, [&](int count, int batch) {
                     const std::uint32_t base = static_cast<std::uint32_t>(batch) * kThreads;
                     for (int k = 0; k < count; ++k) {
                       const std::uint32_t kind = s.kind[k];
                       const float4 geometry = s.geometry[k];
                       const float4 paint = s.paint[k];
                       const float terms[3] = {paint.x, paint.y, paint.z};
#pragma unroll
                       for (int r = 0; r < kRows; ++r) {
                         float d2;
                         if (base + static_cast<std::uint32_t>(k) < from[r] ||
                             !covers_pixel<false>(s, k, kind, geometry, column, r, d2))
                           continue;
                         for (int ch = 0; ch < 3; ++ch) {
                           lo[r][ch] = shade::add(terms[ch], shade::mul(flat.scale[ch], lo[r][ch]));
                           hi[r][ch] = shade::add(terms[ch], shade::mul(flat.scale[ch], hi[r][ch]));
                         }
                       }
                     }
                   });
  }

  // Settled: both starts on the same float in every channel, from a finite
  // start (section 6's bounds need one). Alpha is counted, not blended.
  bool settled = true;
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const bool inside = column.x < f.width && column.y0 + r < f.height;
    bool met = covering[r] == 0 || (isfinite(column.rgba[r][0]) && isfinite(column.rgba[r][1]) &&
                                    isfinite(column.rgba[r][2]));
    for (int ch = 0; ch < 3; ++ch) met = met && same_bits(lo[r][ch], hi[r][ch]);
    if (inside && !met) settled = false;
    for (int ch = 0; ch < 3; ++ch) column.rgba[r][ch] = lo[r][ch];
    column.rgba[r][3] = suffix::alpha_after(column.rgba[r][3], covering[r]);
  }
  if (__syncthreads_or(!settled)) return false;
  store_column(column, pixels, f);
  if (threadIdx.x == 0) atomicAdd(&plan.tiles[1], 1ull);
  return true;
}

} // namespace render::gpu
