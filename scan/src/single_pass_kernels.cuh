// The single-pass kernels as templates over their tiling, so that the library
// (single_pass.cu) and the tuning tool (tools/scan_tune.cu) build the same
// code. Thin kernels: the tile loop is TileLoop (tile.cuh); each kernel only
// says what a tile's items are and what becomes of them.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>

#include "common/cuda_check.h"
#include "tile.cuh"

namespace scan::detail {
namespace {

// Exclusive scan: each thread scans its vectors in registers; the tile loop
// supplies the prefixes.
template <class T> struct ScanBody {
  const unsigned* in;
  unsigned* out;
  long long n;
  bool aligned;

  struct Items {
    unsigned x[T::kVecs][4];
  };

  __device__ bool vector_ok(unsigned tile) const {
    return aligned && static_cast<long long>(tile + 1) * T::kTileItems <= n;
  }
  __device__ void load(unsigned tile, Items& items) const {
    load_items<T>(in, thread_first_item<T>(tile), n, vector_ok(tile), items.x);
  }
  // Turns each vector into its inclusive scan; the last item is its total.
  __device__ void totals(unsigned, Items& items, unsigned (&t)[T::kVecs]) const {
#pragma unroll
    for (int k = 0; k < T::kVecs; ++k) {
      items.x[k][1] += items.x[k][0];
      items.x[k][2] += items.x[k][1];
      items.x[k][3] += items.x[k][2];
      t[k] = items.x[k][3];
    }
  }
  __device__ void finish(unsigned tile, const Items& items, const unsigned (&excl)[T::kVecs],
                         unsigned) const {
    unsigned y[T::kVecs][4];
#pragma unroll
    for (int k = 0; k < T::kVecs; ++k) {
      y[k][0] = excl[k];
      y[k][1] = excl[k] + items.x[k][0];
      y[k][2] = excl[k] + items.x[k][1];
      y[k][3] = excl[k] + items.x[k][2];
    }
    store_items<T>(out, thread_first_item<T>(tile), n, vector_ok(tile), y);
  }
};

// find_repeats in one pass: flag in[i] == in[i+1], count the flags with the
// tile loop, and store each flagged index at its rank.
template <class T> struct RepeatsBody {
  const unsigned* in;
  long long n;
  int* out;
  long long* count;
  unsigned num_tiles;
  bool aligned;

  struct Items {
    unsigned x[T::kVecs][4];
    unsigned after; // lane 31: the item after this warp's part of the tile
    unsigned flags; // bit 4k + c: item c of vector k equals its right neighbour
  };

  __device__ void load(unsigned tile, Items& items) const {
    const long long first = thread_first_item<T>(tile);
    load_items<T>(in, first, n, aligned && static_cast<long long>(tile + 1) * T::kTileItems <= n,
                  items.x);
    items.after = 0;
    if (threadIdx.x % 32 == 31) {
      const long long i = first + (T::kVecs - 1) * 128 + 4;
      if (i < n) items.after = in[i];
    }
  }

  // Each item's right neighbour: the next item of the vector, else the first
  // item of the next lane's vector, else (lane 31) the next column's first
  // item, else the item after the warp's part, loaded with the tile. Items
  // whose neighbour is past n are not repeats.
  __device__ void totals(unsigned tile, Items& items, unsigned (&t)[T::kVecs]) const {
    const unsigned lane = threadIdx.x % 32;
    const long long first = thread_first_item<T>(tile);
    items.flags = 0;
#pragma unroll
    for (int k = 0; k < T::kVecs; ++k) {
      unsigned after = __shfl_down_sync(kFullMask, items.x[k][0], 1);
      if (k + 1 < T::kVecs) {
        const unsigned next_column =
            __shfl_sync(kFullMask, items.x[k + 1 < T::kVecs ? k + 1 : k][0], 0);
        if (lane == 31) after = next_column;
      } else if (lane == 31) {
        after = items.after;
      }
      const long long g = first + k * 128; // index of item 0 of vector k
      const unsigned bits = (g + 1 < n && items.x[k][0] == items.x[k][1] ? 1u : 0u) |
                            (g + 2 < n && items.x[k][1] == items.x[k][2] ? 2u : 0u) |
                            (g + 3 < n && items.x[k][2] == items.x[k][3] ? 4u : 0u) |
                            (g + 4 < n && items.x[k][3] == after ? 8u : 0u);
      items.flags |= bits << (4 * k);
      t[k] = __popc(bits);
    }
  }

  __device__ void finish(unsigned tile, const Items& items, const unsigned (&excl)[T::kVecs],
                         unsigned through_tile) const {
    if (tile == num_tiles - 1 && threadIdx.x == 0) *count = through_tile;
    const long long first = thread_first_item<T>(tile);
#pragma unroll
    for (int k = 0; k < T::kVecs; ++k) {
      unsigned rank = excl[k];
#pragma unroll
      for (int c = 0; c < 4; ++c)
        if (items.flags & (1u << (4 * k + c))) out[rank++] = static_cast<int>(first + k * 128 + c);
    }
  }
};

template <class T>
__global__ void __launch_bounds__(T::kThreads)
    single_pass_scan_kernel(const unsigned* in, unsigned* out, long long n, unsigned num_tiles,
                            bool aligned, LookbackState state) {
  TileLoop<T>::run(ScanBody<T>{in, out, n, aligned}, state, num_tiles);
}

template <class T>
__global__ void __launch_bounds__(T::kThreads)
    fused_find_repeats_kernel(const unsigned* in, long long n, int* out, long long* count,
                              unsigned num_tiles, bool aligned, LookbackState state) {
  TileLoop<T>::run(RepeatsBody<T>{in, n, out, count, num_tiles, aligned}, state, num_tiles);
}

// Blocks of a persistent launch: as many as fit on the device at once (asked
// once per device and kernel), and no more than the tiles.
template <class T, class Kernel> unsigned persistent_blocks(Kernel kernel, long long tiles) {
  constexpr int kMaxDevices = 64;
  static std::array<std::atomic<int>, kMaxDevices> resident{}; // 0: not asked yet
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int blocks = device < kMaxDevices ? resident[device].load(std::memory_order_relaxed) : 0;
  if (blocks == 0) {
    int per_sm = 0, sms = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, T::kThreads, 0));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    blocks = std::max(1, per_sm * sms);
    if (device < kMaxDevices) resident[device].store(blocks, std::memory_order_relaxed);
  }
  return static_cast<unsigned>(std::min<long long>(blocks, tiles));
}

template <class T>
void launch_single_pass_scan(const unsigned* in, unsigned* out, long long n,
                             const LookbackState& state, cudaStream_t stream) {
  const long long tiles = tiles_for<T>(n);
  const unsigned blocks = persistent_blocks<T>(single_pass_scan_kernel<T>, tiles);
  single_pass_scan_kernel<T><<<blocks, T::kThreads, 0, stream>>>(
      in, out, n, static_cast<unsigned>(tiles), aligned16(in) && aligned16(out), state);
  CUDA_CHECK_LAUNCH();
}

template <class T>
void launch_fused_find_repeats(const int* in, long long n, int* out, long long* count,
                               const LookbackState& state, cudaStream_t stream) {
  const long long tiles = tiles_for<T>(n);
  const unsigned blocks = persistent_blocks<T>(fused_find_repeats_kernel<T>, tiles);
  fused_find_repeats_kernel<T>
      <<<blocks, T::kThreads, 0, stream>>>(reinterpret_cast<const unsigned*>(in), n, out, count,
                                           static_cast<unsigned>(tiles), aligned16(in), state);
  CUDA_CHECK_LAUNCH();
}

} // namespace
} // namespace scan::detail
