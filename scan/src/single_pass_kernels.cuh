// The single-pass kernels as templates over their tiling, so that the library
// (single_pass.cu) and the tuning tool (tools/scan_tune.cu) build the same
// code. Thin kernels: the work is in TileScan (tile.cuh).
#pragma once

#include <cuda/barrier>
#include <cuda/ptx>
#include <cuda/std/utility>

#include "common/cuda_check.h"
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

// The same scan with the tile staged in shared memory by one bulk copy (the
// Hopper copy engine, completing on a shared-memory barrier): the bytes in
// flight no longer occupy registers, so more tiles load at once per SM. With
// one tile per block, registers capped the loads in flight at about 128 KB per
// SM; shared memory holds over 200 KB. Tiles that are cut short or not 16-byte
// aligned are loaded by the threads instead. The tile lives in dynamic shared
// memory, so tiles may exceed the 48 KB of static shared memory.
// Hopper and newer only: the kernel body exists for sm_90 and newer, and the
// host launches it only where it does (staged_scan_runs_here).
// Shared memory one block of a staged tiling takes: its tile, the 1 KB the
// GPU reserves per block, and the static variables.
template <class T> constexpr int staged_block_shared_bytes() {
  return T::kTileItems * 4 + 1024 + 64;
}
// Blocks of a staged tiling that fit one SM's 228 KB of shared memory (H100,
// H200, B200) and 2048 threads; the registers are capped to match, so shared
// memory alone limits how many tiles load at once.
template <class T> constexpr int staged_blocks_per_sm() {
  const int by_shared = 228 * 1024 / staged_block_shared_bytes<T>();
  const int by_threads = 2048 / T::kThreads;
  return by_shared < by_threads ? by_shared : by_threads;
}

template <class T>
__global__ void __launch_bounds__(T::kThreads, staged_blocks_per_sm<T>())
    staged_scan_kernel(const unsigned* in, unsigned* out, long long n, unsigned num_tiles,
                       bool aligned, bool prefetch, LookbackState state) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap(); // no bulk copies before Hopper; the host never launches this image
#else
  using Barrier = cuda::barrier<cuda::thread_scope_block>;
  extern __shared__ uint4 staged_tile[]; // kTileItems items
  unsigned* items = reinterpret_cast<unsigned*>(staged_tile);
  constexpr unsigned kTileBytes = T::kTileItems * 4;
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ Barrier bar;
  __shared__ typename TileScan<T>::Shared shared;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared); // the copy engine sees the barrier
  }
  const unsigned tile = TileScan<T>::claim_tile(shared, state, num_tiles); // ends in a barrier
  if (prefetch && threadIdx.x == 0) prefetch_ahead<T>(in, tile, n);
  const long long tile_first = static_cast<long long>(tile) * T::kTileItems;
  const bool vector_ok = aligned && tile_first + T::kTileItems <= n;
  if (vector_ok) {
    Barrier::arrival_token token;
    if (threadIdx.x == 0) {
      cuda::device::memcpy_async_tx(items, in + tile_first, cuda::aligned_size_t<16>(kTileBytes),
                                    bar);
      token = cuda::device::barrier_arrive_tx(bar, 1, kTileBytes);
    } else {
      token = bar.arrive();
    }
    bar.wait(cuda::std::move(token));
  } else {
    for (int i = static_cast<int>(threadIdx.x); i < T::kTileItems; i += T::kThreads) {
      const long long g = tile_first + i;
      items[i] = g < n ? in[g] : 0u;
    }
    __syncthreads();
  }

  // The register kernel's layout, read from shared memory: vector k of a
  // thread is 16 bytes at `local + 128 k`, conflict-free across a warp.
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int local = static_cast<int>(warp * T::kWarpItems + lane * 4);
  const uint4* staged = reinterpret_cast<const uint4*>(items + local);
  unsigned totals[T::kVecs];
#pragma unroll
  for (int k = 0; k < T::kVecs; ++k) {
    const uint4 v = staged[k * 32];
    totals[k] = v.x + v.y + v.z + v.w;
  }
  unsigned excl[T::kVecs];
  TileScan<T>::exclusive_prefixes(totals, excl, tile, shared, state);

  const long long first = tile_first + local;
#pragma unroll
  for (int k = 0; k < T::kVecs; ++k) {
    const uint4 v = staged[k * 32];
    const uint4 y =
        make_uint4(excl[k], excl[k] + v.x, excl[k] + v.x + v.y, excl[k] + v.x + v.y + v.z);
    if (vector_ok) {
      reinterpret_cast<uint4*>(out + first)[k * 32] = y;
    } else {
      const unsigned ys[4] = {y.x, y.y, y.z, y.w};
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const long long i = first + k * 128 + c;
        if (i < n) out[i] = ys[c];
      }
    }
  }
#endif
}

// Bit c (0-3) set where item c of a vector equals its right neighbour (item
// c + 1; `after` for item 3) and that neighbour is in the input: `left` is n
// minus the index of item 0.
__device__ __forceinline__ unsigned repeat_bits(uint4 v, unsigned after, long long left) {
  unsigned bits = static_cast<unsigned>(v.x == v.y) | static_cast<unsigned>(v.y == v.z) << 1 |
                  static_cast<unsigned>(v.z == v.w) << 2 | static_cast<unsigned>(v.w == after) << 3;
  if (left < 5) bits &= left > 1 ? (1u << (left - 1)) - 1u : 0u;
  return bits;
}

// Stores the indices `g + c` of the set bits c at ranks from `rank` on.
__device__ __forceinline__ void store_repeats(int* out, unsigned rank, long long g, unsigned bits) {
#pragma unroll
  for (int c = 0; c < 4; ++c)
    if (bits >> c & 1u) out[rank++] = static_cast<int>(g + c);
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

// Whether staged_scan_kernel<T> can run on the current device: the image of
// it that this process loaded there (a cubin, or PTX the driver compiled) was
// compiled for sm_90 or newer, and the device's shared memory holds the
// blocks per SM the tiling was chosen for (not so on sm_120's 100 KB). The
// device's compute capability cannot tell the first: a build with PTX for
// compute_75 only runs on an H200 without the bulk copies. A kernel's PTX
// version is the architecture its code was compiled for (its __CUDA_ARCH__).
// Where it can, this also sets the kernel's attributes for the device (they
// are per device), so launch_staged_scan runs only where this said yes.
template <class T> bool staged_scan_runs_here() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  thread_local int cached_device = -1;
  thread_local bool cached = false;
  if (device != cached_device) {
    cudaFuncAttributes attributes{};
    CUDA_CHECK(cudaFuncGetAttributes(&attributes, staged_scan_kernel<T>));
    int shared_per_sm = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&shared_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                                      device));
    cached = attributes.ptxVersion >= 90 &&
             shared_per_sm >= staged_blocks_per_sm<T>() * staged_block_shared_bytes<T>();
    if (cached) {
      // As many tiles per SM as shared memory holds: the largest carveout,
      // and room for tiles over 48 KB.
      CUDA_CHECK(cudaFuncSetAttribute(staged_scan_kernel<T>,
                                      cudaFuncAttributePreferredSharedMemoryCarveout,
                                      cudaSharedmemCarveoutMaxShared));
      CUDA_CHECK(cudaFuncSetAttribute(
          staged_scan_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, T::kTileItems * 4));
    }
    cached_device = device;
  }
  return cached;
}

// Only where staged_scan_runs_here<T>() said yes on this device (it sets the
// kernel's attributes). `prefetch`: whether long inputs prefetch into the L2
// (tile.cuh); off only for tuning runs that measure what it brings.
template <class T>
void launch_staged_scan(const unsigned* in, unsigned* out, long long n, const LookbackState& state,
                        cudaStream_t stream, bool prefetch = true) {
  constexpr int kTileBytes = T::kTileItems * 4;
  const long long tiles = tiles_for<T>(n);
  staged_scan_kernel<T><<<static_cast<unsigned>(tiles), T::kThreads, kTileBytes, stream>>>(
      in, out, n, static_cast<unsigned>(tiles), aligned16(in) && aligned16(out),
      prefetch && use_prefetch(in, n), state);
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
