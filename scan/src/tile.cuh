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
// coalesced 512-byte access per warp, and a thread's items stay in registers
// from load to store (no transpose through shared memory).
// kSleepNsT: nanoseconds a look-back warp sleeps between polls of tiles not
// yet ready (0: poll without pause).
template <int kThreadsT, int kVecsT, int kSleepNsT = 0> struct Tiling {
  static constexpr int kThreads = kThreadsT;
  static constexpr int kVecs = kVecsT;
  static constexpr int kSleepNs = kSleepNsT;
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kWarpItems = 32 * 4 * kVecs;
  static constexpr int kTileItems = kThreads * 4 * kVecs;
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps, one block");
};

template <class T> constexpr std::int64_t tiles_for(std::int64_t n) {
  return (n + T::kTileItems - 1) / T::kTileItems;
}

inline bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
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

// Claims the next tile in launch order. A block's claims end with exactly one
// past the last tile, so the claim numbered last_claim is the launch's final
// one: it resets the counter for the next launch.
__device__ __forceinline__ unsigned claim_tile(const LookbackState& state, unsigned last_claim) {
  const unsigned tile = atomicAdd(state.tile_counter, 1u);
  if (tile == last_claim) atomicExch(state.tile_counter, 0u);
  return tile;
}

// The block-level loop of the single-pass kernels. A persistent block claims
// tiles in order until none is left, and pipelines them: the next tile is
// claimed while the current one arrives, and loaded while the current one
// looks back, so a block keeps loads in flight through its look-back.
//
// No deadlock: the smallest unfinished tile is always being processed (a block
// holding it as its next tile would be processing a smaller unfinished one),
// and its look-back only waits on smaller, finished tiles.
//
// Body supplies: struct Items (one tile's registers); load(tile, Items&);
// totals(tile, Items&, unsigned (&)[kVecs]) (the sum of each of the
// thread's vectors); finish(tile, const Items&, excl, through_tile), where excl[k] is
// the sum of every item before vector k and through_tile the sum up to the
// end of the tile (sums modulo 2^32).
template <class T> struct TileLoop {
  struct Shared {
    unsigned warp_totals[T::kWarps];
    unsigned tile_prefix;
    unsigned first_tile;
    unsigned next_tile;
  };

  template <class Body>
  __device__ static void run(const Body& body, const LookbackState& state, unsigned num_tiles) {
    __shared__ Shared s;
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned last_claim = num_tiles + gridDim.x - 1;

    if (threadIdx.x == 0) s.first_tile = claim_tile(state, last_claim);
    __syncthreads();
    unsigned tile = s.first_tile;
    if (tile >= num_tiles) return;
    typename Body::Items current;
    body.load(tile, current);

    for (;;) {
      unsigned claimed = 0;
      if (threadIdx.x == 0) claimed = claim_tile(state, last_claim); // in flight with the loads

      // Inclusive warp scans of the kVecs columns, interleaved for ILP.
      unsigned totals[T::kVecs], inc[T::kVecs], excl[T::kVecs];
      body.totals(tile, current, totals);
#pragma unroll
      for (int k = 0; k < T::kVecs; ++k) inc[k] = totals[k];
#pragma unroll
      for (unsigned offset = 1; offset < 32; offset *= 2)
#pragma unroll
        for (int k = 0; k < T::kVecs; ++k) {
          const unsigned up = __shfl_up_sync(kFullMask, inc[k], offset);
          if (lane >= offset) inc[k] += up;
        }
      // Column k of the warp follows columns 0..k-1.
      unsigned warp_total = 0;
#pragma unroll
      for (int k = 0; k < T::kVecs; ++k) {
        excl[k] = warp_total + inc[k] - totals[k];
        warp_total += __shfl_sync(kFullMask, inc[k], 31);
      }
      if (lane == 0) s.warp_totals[warp] = warp_total;
      if (threadIdx.x == 0) s.next_tile = claimed;
      __syncthreads();

      unsigned warp_prefix = 0, aggregate = 0;
#pragma unroll
      for (int w = 0; w < T::kWarps; ++w) {
        const unsigned total = s.warp_totals[w];
        if (w < static_cast<int>(warp)) warp_prefix += total;
        aggregate += total;
      }
      const unsigned next = s.next_tile;
      if (threadIdx.x == 0)
        publish_status(
            &state.status[tile],
            pack_status(state.epoch, tile == 0 ? kFlagPrefix : kFlagAggregate, aggregate));

      typename Body::Items ahead;
      if (next < num_tiles) body.load(next, ahead);

      if (tile != 0 && warp == 0) {
        const unsigned prefix = look_back<T::kSleepNs>(state, tile);
        if (lane == 0) {
          publish_status(&state.status[tile],
                         pack_status(state.epoch, kFlagPrefix, prefix + aggregate));
          s.tile_prefix = prefix;
        }
      }
      __syncthreads();
      const unsigned tile_prefix = tile == 0 ? 0u : s.tile_prefix;
#pragma unroll
      for (int k = 0; k < T::kVecs; ++k) excl[k] += tile_prefix + warp_prefix;
      body.finish(tile, current, excl, tile_prefix + aggregate);

      if (next >= num_tiles) return;
      current = ahead;
      tile = next;
    }
  }
};

} // namespace scan::detail
