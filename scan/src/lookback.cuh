// Decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan
// with Decoupled Look-back", 2016), device side.
//
// Each tile publishes its state in one 64-bit word, so a reader always sees a
// flag together with its value:
//   bits  0-31  value (a sum modulo 2^32)
//   bits 32-33  flag: 1 = the tile's aggregate, 2 = its inclusive prefix
//   bits 34-63  epoch: the launch that wrote it
// A word from an earlier launch has another epoch and reads as "not ready",
// so the words need no clearing between launches (the host zeroes them when
// it allocates them and when the 30-bit epoch wraps).
#pragma once

#include <cuda/atomic>

#include "kernels.h"

namespace scan::detail {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr unsigned kFlagAggregate = 1;
constexpr unsigned kFlagPrefix = 2;

__device__ __forceinline__ unsigned long long pack_status(unsigned epoch, unsigned flag,
                                                          unsigned value) {
  return (static_cast<unsigned long long>(epoch) << 34) |
         (static_cast<unsigned long long>(flag) << 32) | value;
}
__device__ __forceinline__ unsigned status_epoch(unsigned long long word) {
  return static_cast<unsigned>(word >> 34);
}
__device__ __forceinline__ unsigned status_flag(unsigned long long word) {
  return static_cast<unsigned>(word >> 32) & 3u;
}
__device__ __forceinline__ unsigned status_value(unsigned long long word) {
  return static_cast<unsigned>(word);
}

// Relaxed device-scope atomics: the word carries everything a reader needs,
// so no other write has to be ordered before it.
__device__ __forceinline__ void publish_status(unsigned long long* word, unsigned long long value) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*word).store(
      value, cuda::std::memory_order_relaxed);
}
__device__ __forceinline__ unsigned long long read_status(unsigned long long* word) {
  return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*word).load(
      cuda::std::memory_order_relaxed);
}

// The sum of `value` over the 32 lanes, in every lane. Ampere and newer add
// in one instruction (REDUX); Turing has no such instruction, so it adds
// along a butterfly of shuffles.
__device__ __forceinline__ unsigned warp_sum(unsigned value) {
#if __CUDA_ARCH__ >= 800
  return __reduce_add_sync(kFullMask, value);
#else
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(kFullMask, value, offset);
  return value;
#endif
}

// Inclusive scans over the 32 lanes of K columns at once (column k: every
// lane's x[k]), interleaved so that their shuffles overlap.
template <int K> __device__ __forceinline__ void warp_inclusive_scans(unsigned (&x)[K]) {
  const unsigned lane = threadIdx.x & 31u;
#pragma unroll
  for (unsigned offset = 1; offset < 32; offset *= 2)
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const unsigned up = __shfl_up_sync(kFullMask, x[k], offset);
      if (lane >= offset) x[k] += up;
    }
}

// Called by all 32 lanes of one warp of tile `tile` (> 0) after the tile
// published its aggregate. The warp reads a window of 32 * kPerLane
// predecessors per round: in part j (0 = nearest), lane i watches tile
// nearest - 32 j - i. The window moves back until it meets an inclusive
// prefix. Returns the sum of every element before the tile, in all lanes.
//
// kPerLane > 1 reads several predecessors per lane in one round, for when
// prefixes advance too slowly through a 32-tile window. On the H200 every
// wider window measured slower (docs/scan.md, change 5), so the shipped
// tilings use 1; the parameter stays for tuning.
template <int kSleepNs, int kPerLane = 1>
__device__ __forceinline__ unsigned look_back(const LookbackState& state, unsigned tile) {
  static_assert(kPerLane >= 1 && kPerLane <= 8, "a window of 32 to 256 tiles");
  const int lane = static_cast<int>(threadIdx.x & 31u);
  unsigned exclusive = 0;
  long long nearest = static_cast<long long>(tile) - 1; // the window's first tile
  for (;;) {
    unsigned long long word[kPerLane];
    unsigned prefix_lanes[kPerLane];
    int found; // the nearest part holding an inclusive prefix; kPerLane: none
    for (;;) {
#pragma unroll
      for (int j = 0; j < kPerLane; ++j) {
        // Tiles before the first act as an inclusive prefix of 0.
        const long long pred = nearest - 32 * j - lane;
        word[j] =
            pred >= 0 ? read_status(&state.status[pred]) : pack_status(state.epoch, kFlagPrefix, 0);
      }
      found = kPerLane;
      bool waiting = false;
#pragma unroll
      for (int j = 0; j < kPerLane; ++j) {
        const bool ready = status_epoch(word[j]) == state.epoch && status_flag(word[j]) != 0;
        const unsigned not_ready = __ballot_sync(kFullMask, !ready);
        prefix_lanes[j] = __ballot_sync(kFullMask, ready && status_flag(word[j]) == kFlagPrefix);
        if (found < kPerLane) continue; // farther parts are not needed
        // Every tile up to the nearest prefix must be ready, or the whole
        // part when it holds none.
        const unsigned needed =
            prefix_lanes[j] ? (prefix_lanes[j] & (0u - prefix_lanes[j])) * 2u - 1u : kFullMask;
        if (not_ready & needed) waiting = true;
        if (prefix_lanes[j]) found = j;
      }
      if (!waiting) break;
      if (kSleepNs > 0) __nanosleep(kSleepNs);
    }
    // Parts before the one with the prefix contribute whole; that one, its
    // lanes up to the prefix.
    unsigned mine = 0;
#pragma unroll
    for (int j = 0; j < kPerLane; ++j) {
      if (j < found) {
        mine += status_value(word[j]);
      } else if (j == found) {
        const int stop = __ffs(static_cast<int>(prefix_lanes[j])) - 1;
        if (lane <= stop) mine += status_value(word[j]);
      }
    }
    exclusive += warp_sum(mine);
    if (found < kPerLane) return exclusive;
    nearest -= 32 * kPerLane;
  }
}

} // namespace scan::detail
