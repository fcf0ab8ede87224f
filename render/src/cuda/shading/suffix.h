// Exact suffix compositing in binned mode (docs/design/suffix_proof.md,
// has the proof; render/suffix.h the CPU renderer's version). In a flat scene
// with safe colors every blend is monotone and keeps a pixel within [lo, hi],
// the bounds of its start and of the scene's colors. So if a pixel's last K
// covering circles, blended once from lo and once from hi, end on the same
// float, that float is the serial result whatever came before them.
//
// A tile with many pairs, mostly covering it whole, finds its window from
// the pairs' kinds alone: from its kSuffixCircles-th whole-tile pair from the
// end on, every pixel has at least that many covering circles. It counts
// each pixel's covering circles over the whole list (its alpha: the
// whole-tile pairs by number, the others by their covered runs), then
// blends the window forwards from lo and hi. If any pixel of the tile is not
// settled, the caller draws the whole tile in full instead. Device code;
// include from .cu files only.
#pragma once

#include <cstdint>

#include "kernels.h"
#include "render/covered_run.h"
#include "render/shade.h"
#include "render/suffix.h"
#include "shading/tile_shading.h"

namespace render::gpu {

// The suffix length (tuning.h says why 48). A window of that many
// whole-tile pairs gives each pixel at least that many covering circles.
constexpr int kSuffixCircles = tuning::kSuffixCircles;

// Per tile row, a difference array of covered runs: +1 at a run's first
// column, -1 after its last (dropped past the tile's edge).
using RunCounts = int[kTileSide][kTileSide];

// Adds to `runs` the covered run in each tile row of every circle of the
// batch that does not cover the whole tile, with the full path's coverage
// test but not pixel by pixel: render/covered_run.h finds a row's run with
// the very test covers_pixel applies (the covered columns of a row are one
// run, and a clipped circle's box cuts it to another). No barrier.
template <int kThreads>
__device__ void add_runs(const BatchStorage<kThreads>& s, int count, RunCounts& runs, int tile_x,
                         int tile_y, const FrameGeometry& f) {
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
}

// Adds to covering[r] the thread's row-r pixel's count in `runs`, plus
// `everywhere`, and zeroes `runs`. Every thread of the block must call it,
// after a barrier that follows the last add_runs. Each entry has one owner,
// which zeroes it: the next add_runs must come after a barrier.
template <int kRows>
__device__ void take_runs(RunCounts& runs, const PixelColumn<kRows>& column, int tile_x, int tile_y,
                          int everywhere, int (&covering)[kRows]) {
  const int thread = static_cast<int>(threadIdx.x);
  if (thread < kTileSide) {
    int sum = 0;
    for (int col = 0; col < kTileSide; ++col) {
      sum += runs[thread][col];
      runs[thread][col] = sum;
    }
  }
  __syncthreads();
  const int col = column.x - tile_x * kTileSide;
  const int row0 = column.y0 - tile_y * kTileSide;
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    covering[r] += runs[row0 + r][col] + everywhere;
    runs[row0 + r][col] = 0;
  }
}

// The list as the count needs it: a compacting source over the same batches
// that offers only the pairs that do not cover the whole tile, with their
// geometry. suffix_tile counts the whole-tile pairs from their kinds,
// without gathering their circles.
template <class Source> struct PartialPairs {
  static constexpr bool kCompact = true;
  using Cursor = typename Source::Cursor;
  using Ticket = typename Source::Ticket;
  Source source;

  __device__ Ticket fetch(const Cursor& cursor, int batch) const {
    return source.fetch(cursor, batch);
  }
  __device__ Candidate resolve(const Cursor& cursor, int batch, Ticket ticket, int, int,
                               const TileRect&, const FrameGeometry&) const {
    return source.resolve_partial(cursor, batch, ticket);
  }
  __device__ int dense_count(const Cursor&, int) const { return 0; } // compacting: unused
};

// The window's first pair: the position, in the tile's list, of its
// kSuffixCircles-th whole-tile pair from the end, found from the pairs'
// kinds alone, walking the batches back; or -1 when the list holds fewer.
// Every pixel of the tile has at least kSuffixCircles covering circles from
// there on. Every thread of the block must call it; the result is the same
// on all.
template <int kThreads, class Source>
__device__ int window_start(const Source& source, const typename Source::Cursor& cursor) {
  constexpr int kWarps = kThreads / 32;
  __shared__ unsigned full_masks[kWarps];
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int warp = static_cast<int>(threadIdx.x / 32);
  int needed = kSuffixCircles;
  for (int batch = cursor.batches - 1; batch >= 0; --batch) {
    const bool full = (source.fetch(cursor, batch) >> kKindShift) == kFull; // past the end: no
    const unsigned mask = __ballot_sync(~0u, full);
    if (lane == 0) full_masks[warp] = mask;
    __syncthreads();
    int found = -1;
    for (int w = kWarps - 1; w >= 0 && found < 0; --w) {
      unsigned m = full_masks[w];
      const int here = __popc(m);
      if (here < needed) {
        needed -= here;
        continue;
      }
      for (int i = 1; i < needed; ++i) m &= ~(1u << (31 - __clz(m))); // drop the later ones
      found = w * 32 + 31 - __clz(m);
    }
    __syncthreads(); // all have read the masks before the next batch's
    if (found >= 0) return batch * kThreads + found;
  }
  return -1;
}

// Draws the tile by suffix compositing and returns true, or returns false
// having written nothing: when the tile has fewer than plan.min_pairs pairs,
// too small a share of whole-tile ones or fewer than kSuffixCircles of them,
// when the window would be the whole list (the full blend draws that more
// cheaply), or when a pixel's starts did not meet. `source` is dense (batch
// b holds list entries kThreads·b on) and its Cursor has the list's `first`
// and `end`. Every thread of the block must call it; the result is the same
// on all.
template <int kRows, class Source, int kThreads>
__device__ bool suffix_tile(BatchStorage<kThreads>& s, const Source& source, const SuffixPlan& plan,
                            const FrameGeometry& f, PixelStart start, float4* pixels) {
  static_assert(!Source::kCompact, "batches are counted in a dense source");
  static_assert(kThreads * kRows == kTileSide * kTileSide, "one column of kRows pixels per thread");
  __shared__ RunCounts runs;
  __shared__ unsigned full_pairs;

  const int tile = static_cast<int>(blockIdx.x);
  const typename Source::Cursor cursor = source.begin(tile);
  const std::uint32_t pairs = cursor.end - cursor.first;
  if (pairs < static_cast<std::uint32_t>(kSuffixCircles) || pairs < plan.min_pairs) return false;
  // The whole-tile pairs, from the kinds alone: the count costs a coverage
  // test per pixel row for a partial pair and nearly nothing for a whole-tile
  // one, so tiles of mostly partial pairs blend in full; and the count adds
  // the whole-tile pairs without reading their circles.
  if (threadIdx.x == 0) full_pairs = 0;
  __syncthreads();
  unsigned mine = 0;
#pragma unroll 4
  for (int batch = 0; batch < cursor.batches; ++batch)
    mine += (source.fetch(cursor, batch) >> kKindShift) == kFull; // past the end: 0
  for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_xor_sync(~0u, mine, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(&full_pairs, mine);
  __syncthreads();
  const unsigned total_full = full_pairs;
  if (total_full < static_cast<unsigned>(kSuffixCircles) ||
      100ull * total_full < static_cast<unsigned long long>(plan.min_full_percent) * pairs)
    return false;
  const int window = window_start<kThreads>(source, cursor);
  if (window <= 0) return false;
  const int tile_x = tile % f.tiles_x;
  const int tile_y = tile / f.tiles_x;
  const TileRect rect = tile_rect(tile_x, tile_y, f);
  if (threadIdx.x == 0) atomicAdd(&plan.tiles[0], 1ull);
  // The first batch's staging barrier orders this before any run is added.
  for (int i = static_cast<int>(threadIdx.x); i < kTileSide * kTileSide; i += kThreads)
    runs[i / kTileSide][i % kTileSide] = 0;

  PixelColumn<kRows> column = load_column<kRows>(pixels, f, start, tile_x, tile_y);

  // Each pixel's covering circles, its alpha: the whole-tile pairs by
  // number, the others by their covered runs, gathered compactly and summed
  // once at the end.
  int covering[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) covering[r] = 0;
  const PartialPairs<Source> partial{source};
  for_each_batch(partial, cursor, 0, 1, partial.fetch(cursor, 0), s, tile_x, tile_y, rect, f,
                 [&](int count, int) { add_runs(s, count, runs, tile_x, tile_y, f); });
  take_runs(runs, column, tile_x, tile_y, static_cast<int>(total_full), covering);

  // The two starts: the bounds, which hold whatever came before the window.
  float lo[kRows][3];
  float hi[kRows][3];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    for (int ch = 0; ch < 3; ++ch) {
      lo[r][ch] = fminf(plan.color_lo[ch], column.rgba[r][ch]);
      hi[r][ch] = fmaxf(plan.color_hi[ch], column.rgba[r][ch]);
    }
  }
  // Forwards over the window with the full path's per-pixel test, and the
  // reference's two roundings per channel: the fused blend's proof covers
  // the values a pixel takes, not the bounds.
  const shade::BlendTerms flat = shade::blend_terms(shade::flat_contribution(0.f, 0.f, 0.f));
  const int window_batch = window / kThreads;
  for_each_batch(source, cursor, window_batch, 1, source.fetch(cursor, window_batch), s, tile_x,
                 tile_y, rect, f, [&](int count, int batch) {
                   const int first = batch == window_batch ? window % kThreads : 0;
                   for (int k = first; k < count; ++k) {
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
    bool met =
        isfinite(column.rgba[r][0]) && isfinite(column.rgba[r][1]) && isfinite(column.rgba[r][2]);
    for (int ch = 0; ch < 3; ++ch) met = met && suffix::same_bits(lo[r][ch], hi[r][ch]);
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
