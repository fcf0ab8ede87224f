// The block-level agent shared by the single-pass kernels: how a tile is laid
// out over a block, loading and storing it with 16-byte accesses, and turning
// per-thread totals into prefixes over the whole input with a block scan and
// the look-back.
#pragma once

#include <cstdint>

#include "lookback.cuh"

namespace scan::detail {

// A tile is kThreads * kVecs * 4 consecutive 32-bit items. Each warp owns a
// contiguous kWarpItems of it; a thread's vector k holds the 4 items at
// warp * kWarpItems + k * 128 + lane * 4, so each of the kVecs loads is one
// coalesced 512-byte access per warp, and no transpose is needed: the
// register kernels keep a thread's items in registers from load to store,
// and the staged scan reads the same layout from shared memory, conflict-free.
// kSleepNsT: nanoseconds a look-back warp sleeps between polls of tiles not
// yet ready (0: poll without pause). kLookbackT: predecessors each look-back
// lane reads per round (the window is 32 times that; lookback.cuh).
template <int kThreadsT, int kVecsT, int kSleepNsT = 0, int kLookbackT = 1> struct Tiling {
  static constexpr int kThreads = kThreadsT;
  static constexpr int kVecs = kVecsT;
  static constexpr int kSleepNs = kSleepNsT;
  static constexpr int kLookback = kLookbackT;
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kWarpItems = 32 * 4 * kVecs;
  static constexpr int kTileItems = kThreads * 4 * kVecs;
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps, one block");
};

// L2 prefetch: each block asks the L2 for the input this many bytes past the
// start of its own tile, so DRAM keeps streaming while blocks wait in the
// look-back (the wait holds a tile's shared memory, not the L2). 1-4 MB
// measured best on the H200; 8 MB or more thrashed the L2 and ran slower than
// no prefetch at all (docs/scan.md, change 10).
constexpr std::int64_t kPrefetchBytes = std::int64_t{2304} * 1024;
// Shorter inputs (up to a couple of waves of tiles) measured slower with the
// prefetch: there is no later wave for it to feed.
constexpr std::int64_t kPrefetchMinItems = std::int64_t{1} << 24;

template <class T> constexpr std::int64_t tiles_for(std::int64_t n) {
  return (n + T::kTileItems - 1) / T::kTileItems;
}

inline bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// Whether a launch over n items at `in` prefetches: long inputs only, and the
// bulk prefetch needs 16-byte addresses.
inline bool use_prefetch(const void* in, std::int64_t n) {
  return n >= kPrefetchMinItems && aligned16(in);
}

// Called by one thread of the block that claimed `tile`: prefetches the whole
// tile kPrefetchBytes ahead into the L2 when it lies inside the input. The
// bulk prefetch is Hopper's (sm_90 and newer); older GPUs skip the prefetch,
// since one thread's per-line prefetches could not cover a tile.
template <class T>
__device__ __forceinline__ void prefetch_ahead(const unsigned* in, unsigned tile, long long n) {
#if __CUDA_ARCH__ >= 900
  constexpr long long kTileBytes = T::kTileItems * 4;
  constexpr long long kAhead = kPrefetchBytes / kTileBytes > 0 ? kPrefetchBytes / kTileBytes : 1;
  const long long first = (static_cast<long long>(tile) + kAhead) * T::kTileItems;
  if (first + T::kTileItems <= n)
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(in + first),
                 "r"(static_cast<unsigned>(kTileBytes))
                 : "memory");
#else
  (void)in, (void)tile, (void)n;
#endif
}

// Index of this thread's first item (item 0 of vector 0).
template <class T> __device__ __forceinline__ long long thread_first_item(unsigned tile) {
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  return static_cast<long long>(tile) * T::kTileItems + warp * T::kWarpItems + lane * 4;
}

// Loads the thread's items. `vector_ok`: the whole tile is in range and the
// array is 16-byte aligned. Otherwise each item is loaded on its own, and
// items past n read as 0.
template <class T>
__device__ __forceinline__ void load_items(const unsigned* in, long long first, long long n,
                                           bool vector_ok, unsigned (&x)[T::kVecs][4]) {
  if (vector_ok) {
    const uint4* p = reinterpret_cast<const uint4*>(in + first);
#pragma unroll
    for (int k = 0; k < T::kVecs; ++k) {
      const uint4 v = p[k * 32];
      x[k][0] = v.x;
      x[k][1] = v.y;
      x[k][2] = v.z;
      x[k][3] = v.w;
    }
  } else {
#pragma unroll
    for (int k = 0; k < T::kVecs; ++k)
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const long long i = first + k * 128 + c;
        x[k][c] = i < n ? in[i] : 0u;
      }
  }
}

// Stores the thread's items (the same layout as load_items); items past n are dropped.
template <class T>
__device__ __forceinline__ void store_items(unsigned* out, long long first, long long n,
                                            bool vector_ok, const unsigned (&y)[T::kVecs][4]) {
  if (vector_ok) {
    uint4* p = reinterpret_cast<uint4*>(out + first);
#pragma unroll
    for (int k = 0; k < T::kVecs; ++k) p[k * 32] = make_uint4(y[k][0], y[k][1], y[k][2], y[k][3]);
  } else {
#pragma unroll
    for (int k = 0; k < T::kVecs; ++k)
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const long long i = first + k * 128 + c;
        if (i < n) out[i] = y[k][c];
      }
  }
}

template <class T> struct TileScan {
  struct Shared {
    unsigned warp_totals[T::kWarps];
    unsigned tile_prefix;
    unsigned tile;
  };

  // Claims the next tile in launch order. Blocks that claimed earlier tiles
  // are running, so waiting on them cannot deadlock. The block that claims
  // the last tile resets the counter for the next launch: every other claim
  // came before it.
  __device__ static unsigned claim_tile(Shared& s, const LookbackState& state, unsigned num_tiles) {
    if (threadIdx.x == 0) {
      const unsigned tile = atomicAdd(state.tile_counter, 1u);
      if (tile == num_tiles - 1) atomicExch(state.tile_counter, 0u);
      s.tile = tile;
    }
    __syncthreads();
    return s.tile;
  }

  // totals[k] is the sum of this thread's vector k. On return excl[k] is the
  // sum of every item of the input before that vector (modulo 2^32). Returns
  // the sum of every item up to the end of this tile. Every thread of the
  // block calls it once.
  __device__ static unsigned exclusive_prefixes(const unsigned (&totals)[T::kVecs],
                                                unsigned (&excl)[T::kVecs], unsigned tile,
                                                Shared& s, const LookbackState& state) {
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;

    unsigned inc[T::kVecs];
#pragma unroll
    for (int k = 0; k < T::kVecs; ++k) inc[k] = totals[k];
    warp_inclusive_scans(inc);
    // Column k of the warp follows columns 0..k-1.
    unsigned warp_total = 0;
#pragma unroll
    for (int k = 0; k < T::kVecs; ++k) {
      excl[k] = warp_total + inc[k] - totals[k];
      warp_total += __shfl_sync(kFullMask, inc[k], 31);
    }
    if (lane == 0) s.warp_totals[warp] = warp_total;
    __syncthreads();

    unsigned warp_prefix = 0, aggregate = 0;
#pragma unroll
    for (int w = 0; w < T::kWarps; ++w) {
      const unsigned total = s.warp_totals[w];
      if (w < static_cast<int>(warp)) warp_prefix += total;
      aggregate += total;
    }

    unsigned tile_prefix = 0;
    if (tile == 0) {
      if (threadIdx.x == 0)
        publish_status(&state.status[0], pack_status(state.epoch, kFlagPrefix, aggregate));
    } else {
      if (warp == 0) {
        if (lane == 0)
          publish_status(&state.status[tile], pack_status(state.epoch, kFlagAggregate, aggregate));
        const unsigned prefix = look_back<T::kSleepNs, T::kLookback>(state, tile);
        if (lane == 0) {
          publish_status(&state.status[tile],
                         pack_status(state.epoch, kFlagPrefix, prefix + aggregate));
          s.tile_prefix = prefix;
        }
      }
      __syncthreads();
      tile_prefix = s.tile_prefix;
    }
#pragma unroll
    for (int k = 0; k < T::kVecs; ++k) excl[k] += tile_prefix + warp_prefix;
    return tile_prefix + aggregate;
  }
};

} // namespace scan::detail
