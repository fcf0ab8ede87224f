// Exact suffix compositing in binned mode (docs/cuda_renderer.md, section 6,
// has the proof; render/suffix.h the CPU renderer's version). In a flat scene
// with safe colors every blend is monotone and keeps a pixel within [lo, hi],
// the bounds of its start and of the scene's colors. So if a pixel's last K
// covering circles, blended once from lo and once from hi, end on the same
// float, that float is the serial result whatever came before them.
//
// A tile with many pairs does two passes over its list: backwards, batch by
// batch, to count each pixel's covering circles (its alpha) and find the
// last batch from which every pixel has K of them (the window), then
// forwards over the window, blending each pixel's covering circles there
// from lo and hi. If any pixel of the tile is not settled, the caller draws
// the whole tile in full instead. Device code; include from .cu files only.
#pragma once

#include <cstdint>

#include "cuda_kernels.h"
#include "cuda_tile_shading.h"
#include "render/covered_run.h"
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

// Per tile row, a difference array of covered runs: +1 at a run's first
// column, -1 after its last (dropped past the tile's edge).
using RunCounts = int[kTileSide][kTileSide];

// Adds to covering[r] the number of circles of the batch that cover the
// thread's row-r pixel, with the full path's coverage test but not pixel by
// pixel: a partial or clipped circle adds its covered run in each tile row
// (render/covered_run.h finds it with the very test covers_pixel applies, so
// the run's ends are decided by the same arithmetic: the covered columns of
// a row are one run, and a clipped circle's box cuts it to another), and the
// circles that cover the whole tile are counted once. `runs` is zero on entry
// and on return. Every thread of the block must call it.
template <int kRows, int kThreads>
__device__ void count_batch(const BatchStorage<kThreads>& s, int count, RunCounts& runs,
                            const PixelColumn<kRows>& column, int tile_x, int tile_y,
                            const FrameGeometry& f, int (&covering)[kRows]) {
  const int x0 = tile_x * kTileSide;
  const int y0 = tile_y * kTileSide;
  // Item i is circle i / kTileSide on tile row i % kTileSide: a half warp
  // reads one circle.
  for (int i = static_cast<int>(threadIdx.x); i < count * kTileSide; i += kThreads) {
    const int k = i / kTileSide;
    const int row = i % kTileSide;
    const std::uint32_t kind = s.kind[k];
    if (kind == kFull) continue;
    const int y = y0 + row;
    if (kind == kClipped && (y < s.box[k].min_y || y >= s.box[k].max_y)) continue;
    const float4 geometry = s.geometry[k];
    const shade::RowCoverage coverage{geometry.x, geometry.y, geometry.z,
                                      shade::pixel_center(y, f.inverse_height), f.inverse_width};
    shade::ColumnRun run = shade::circle_row_run(coverage, x0, x0 + kTileSide - 1, f.width);
    if (kind == kClipped) {
      run.first = max(run.first, s.box[k].min_x);
      run.last = min(run.last, s.box[k].max_x - 1);
    }
    if (run.empty()) continue;
    atomicAdd(&runs[row][run.first - x0], 1);
    if (run.last - x0 + 1 < kTileSide) atomicAdd(&runs[row][run.last - x0 + 1], -1);
  }
  // The whole-tile circles, and the barrier after the runs.
  const int thread = static_cast<int>(threadIdx.x);
  const int full = __syncthreads_count(thread < count && s.kind[thread] == kFull);
  if (thread < kTileSide) {
    int sum = 0;
    for (int col = 0; col < kTileSide; ++col) {
      sum += runs[thread][col];
      runs[thread][col] = sum;
    }
  }
  __syncthreads();
  // Each entry has one owner, which zeroes it for the next batch (the
  // caller's closing barrier orders that before the next batch's runs).
  const int col = column.x - x0;
  const int row0 = column.y0 - y0;
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    covering[r] += runs[row0 + r][col] + full;
    runs[row0 + r][col] = 0;
  }
}

// Draws the tile by suffix compositing and returns true, or returns false
// having written nothing: when the tile has fewer than plan.min_pairs pairs
// or a pixel's starts did not meet. `source` is dense (batch b holds list
// entries kThreads·b on) and its Cursor has the list's `first` and `end`.
// Every thread of the block must call it; the result is the same on all.
template <int kRows, class Source, int kThreads>
__device__ bool suffix_tile(BatchStorage<kThreads>& s, const Source& source, const SuffixPlan& plan,
                            const FrameGeometry& f, PixelStart start, float4* pixels) {
  static_assert(!Source::kCompact, "batches are counted in a dense source");
  static_assert(kThreads * kRows == kTileSide * kTileSide, "one column of kRows pixels per thread");
  __shared__ RunCounts runs;

  const int tile = static_cast<int>(blockIdx.x);
  const typename Source::Cursor cursor = source.begin(tile);
  const std::uint32_t pairs = cursor.end - cursor.first;
  if (pairs == 0 || pairs < plan.min_pairs) return false;
  if (plan.min_full_percent > 0) {
    // The count costs a coverage test per pixel row for a partial pair, and
    // nearly nothing for a whole-tile one: tiles of mostly partial pairs
    // blend in full.
    __shared__ unsigned full_pairs;
    if (threadIdx.x == 0) full_pairs = 0;
    __syncthreads();
    unsigned mine = 0;
    for (int batch = 0; batch < cursor.batches; ++batch)
      mine += (source.fetch(cursor, batch) >> kKindShift) == kFull; // past the end: 0
    for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_xor_sync(~0u, mine, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(&full_pairs, mine);
    __syncthreads();
    if (100ull * full_pairs < static_cast<unsigned long long>(plan.min_full_percent) * pairs)
      return false;
  }
  const int tile_x = tile % f.tiles_x;
  const int tile_y = tile / f.tiles_x;
  const TileRect rect = tile_rect(tile_x, tile_y, f);
  if (threadIdx.x == 0) atomicAdd(&plan.tiles[0], 1ull);
  // The first batch's staging barrier orders this before any run is added.
  for (int i = static_cast<int>(threadIdx.x); i < kTileSide * kTileSide; i += kThreads)
    runs[i / kTileSide][i % kTileSide] = 0;

  PixelColumn<kRows> column = load_column<kRows>(pixels, f, start, tile_x, tile_y);
  // Per pixel: its covering circles, and how many of them lie in the window.
  int covering[kRows];
  int in_window[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    covering[r] = 0;
    in_window[r] = 0;
  }

  // Backwards, last batch first. The window starts at the first batch (so
  // walking back) from which every pixel inside the image has at least
  // kSuffixCircles covering circles; earlier batches are only counted.
  // Pixels outside the image are counted but never stored: they do not
  // decide the window. Block-uniform: window_found, window_first.
  bool window_found = false;
  int window_first = 0;
  const int last = cursor.batches - 1;
  for_each_batch(source, cursor, last, -1, source.fetch(cursor, last), s, tile_x, tile_y, rect, f,
                 [&](int count, int batch) {
                   count_batch<kRows>(s, count, runs, column, tile_x, tile_y, f, covering);
                   if (window_found) return;
                   bool enough = true;
#pragma unroll
                   for (int r = 0; r < kRows; ++r) {
                     const bool inside = column.x < f.width && column.y0 + r < f.height;
                     if (inside && covering[r] < kSuffixCircles) enough = false;
                   }
                   if (__syncthreads_and(enough)) {
                     window_found = true;
                     window_first = batch;
#pragma unroll
                     for (int r = 0; r < kRows; ++r) in_window[r] = covering[r];
                   }
                 });
  if (!window_found) { // the window is the whole list
#pragma unroll
    for (int r = 0; r < kRows; ++r) in_window[r] = covering[r];
  }

  // The two starts: a pixel whose covering circles all lie in the window
  // blends them from its own start (lo = hi, the exact full blend); the
  // others blend the window's from the bounds.
  float lo[kRows][3];
  float hi[kRows][3];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    for (int ch = 0; ch < 3; ++ch) {
      const float p = column.rgba[r][ch];
      const bool whole = covering[r] == in_window[r];
      lo[r][ch] = whole ? p : fminf(plan.color_lo[ch], p);
      hi[r][ch] = whole ? p : fmaxf(plan.color_hi[ch], p);
    }
  }
  // Forwards over the window with the full path's per-pixel test, and the
  // reference's two roundings per channel: the fused blend's proof covers
  // the values a pixel takes, not the bounds.
  const shade::BlendTerms flat = shade::blend_terms(shade::flat_contribution(0.f, 0.f, 0.f));
  for_each_batch(source, cursor, window_first, 1, source.fetch(cursor, window_first), s, tile_x,
                 tile_y, rect, f, [&](int count, int) {
                   for (int k = 0; k < count; ++k) {
                     const std::uint32_t kind = s.kind[k];
                     const float4 geometry = s.geometry[k];
                     const float4 paint = s.paint[k];
                     const float terms[3] = {paint.x, paint.y, paint.z};
#pragma unroll
                     for (int r = 0; r < kRows; ++r) {
                       float d2;
                       if (!covers_pixel<false>(s, k, kind, geometry, column, r, d2)) continue;
                       for (int ch = 0; ch < 3; ++ch) {
                         lo[r][ch] = shade::add(terms[ch], shade::mul(flat.scale[ch], lo[r][ch]));
                         hi[r][ch] = shade::add(terms[ch], shade::mul(flat.scale[ch], hi[r][ch]));
                       }
                     }
                   }
                 });

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
