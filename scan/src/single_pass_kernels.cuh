// The single-pass kernels as templates over their tiling, so that the library
// (single_pass.cu) and the tuning tool (tools/scan_tune.cu) build the same
// code. Thin kernels: the work is in TileScan (tile.cuh).
#pragma once

#include "common/cuda_check.h"
#include "repeats.cuh"
#include "tile.cuh"

namespace scan::detail {
namespace {

// Exclusive scan of one tile per block.
template <class T>
__global__ void __launch_bounds__(T::kThreads)
    single_pass_scan_kernel(const unsigned* in, unsigned* out, long long n, unsigned num_tiles,
                            bool aligned, LookbackState state) {
  __shared__ typename TileScan<T>::Shared shared;
  const unsigned tile = TileScan<T>::claim_tile(shared, state, num_tiles);
  const long long first = thread_first_item<T>(tile);
  const bool vector_ok = aligned && static_cast<long long>(tile + 1) * T::kTileItems <= n;

  unsigned x[T::kVecs][4];
  load_items<T>(in, first, n, vector_ok, x);
  unsigned totals[T::kVecs];
#pragma unroll
  for (int k = 0; k < T::kVecs; ++k) totals[k] = x[k][0] + x[k][1] + x[k][2] + x[k][3];

  unsigned excl[T::kVecs];
  TileScan<T>::exclusive_prefixes(totals, excl, tile, shared, state);

  unsigned y[T::kVecs][4];
#pragma unroll
  for (int k = 0; k < T::kVecs; ++k) {
    y[k][0] = excl[k];
    y[k][1] = y[k][0] + x[k][0];
    y[k][2] = y[k][1] + x[k][1];
    y[k][3] = y[k][2] + x[k][2];
  }
  store_items<T>(out, first, n, vector_ok, y);
}

// find_repeats in one pass: flag in[i] == in[i+1], count the flags with the
// tile scan and look-back, and store each flagged index at its rank. The tile
// stays in registers on every GPU: staged in shared memory as the scan's
// is, it ran slower at every size on the H200 (docs/scan.md, change 13).
template <class T>
__global__ void __launch_bounds__(T::kThreads)
    fused_find_repeats_kernel(const unsigned* in, long long n, int* out, long long* count,
                              unsigned num_tiles, bool aligned, bool prefetch,
                              LookbackState state) {
  __shared__ typename TileScan<T>::Shared shared;
  const unsigned tile = TileScan<T>::claim_tile(shared, state, num_tiles);
  if (prefetch && threadIdx.x == 0) prefetch_ahead<T>(in, tile, n);
  const long long first = thread_first_item<T>(tile);
  const bool vector_ok = aligned && static_cast<long long>(tile + 1) * T::kTileItems <= n;
  const unsigned lane = threadIdx.x % 32;

  unsigned x[T::kVecs][4];
  load_items<T>(in, first, n, vector_ok, x);

  // Each item's right neighbour: the next item of the vector, else the first
  // item of the next lane's vector, else (lane 31) the next column's first
  // item, else the item after this warp's part of the tile, read directly.
  unsigned bits[T::kVecs], totals[T::kVecs];
#pragma unroll
  for (int k = 0; k < T::kVecs; ++k) {
    const unsigned next_lane = __shfl_down_sync(kFullMask, x[k][0], 1);
    unsigned after = next_lane;
    if (k + 1 < T::kVecs) {
      const unsigned next_column = __shfl_sync(kFullMask, x[k + 1 < T::kVecs ? k + 1 : k][0], 0);
      if (lane == 31) after = next_column;
    } else if (lane == 31) {
      const long long i = first + k * 128 + 4;
      after = i < n ? in[i] : 0u;
    }
    const long long g = first + k * 128; // index of x[k][0]
    bits[k] = repeat_bits(make_uint4(x[k][0], x[k][1], x[k][2], x[k][3]), after, n - g);
    totals[k] = __popc(bits[k]);
  }

  unsigned excl[T::kVecs];
  const unsigned through_tile = TileScan<T>::exclusive_prefixes(totals, excl, tile, shared, state);
  if (tile == num_tiles - 1 && threadIdx.x == 0) *count = through_tile;
#pragma unroll
  for (int k = 0; k < T::kVecs; ++k) store_repeats(out, excl[k], first + k * 128, bits[k]);
}

template <class T>
void launch_single_pass_scan(const unsigned* in, unsigned* out, long long n,
                             const LookbackState& state, cudaStream_t stream) {
  const long long tiles = tiles_for<T>(n);
  single_pass_scan_kernel<T><<<static_cast<unsigned>(tiles), T::kThreads, 0, stream>>>(
      in, out, n, static_cast<unsigned>(tiles), aligned16(in) && aligned16(out), state);
  CUDA_CHECK_LAUNCH();
}

template <class T>
void launch_fused_find_repeats(const int* in, long long n, int* out, long long* count,
                               const LookbackState& state, cudaStream_t stream,
                               bool prefetch = true) {
  const long long tiles = tiles_for<T>(n);
  fused_find_repeats_kernel<T><<<static_cast<unsigned>(tiles), T::kThreads, 0, stream>>>(
      reinterpret_cast<const unsigned*>(in), n, out, count, static_cast<unsigned>(tiles),
      aligned16(in), prefetch && use_prefetch(in, n), state);
  CUDA_CHECK_LAUNCH();
}

} // namespace
} // namespace scan::detail
