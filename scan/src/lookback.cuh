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

// Called by all 32 lanes of one warp of tile `tile` (> 0) after the tile
// published its aggregate. Lane i watches tile - 1 - i (a window of 32
// predecessors); the window moves back until it meets an inclusive prefix.
// Returns the sum of every element before the tile, in all lanes.
template <int kSleepNs>
__device__ __forceinline__ unsigned look_back(const LookbackState& state, unsigned tile) {
  const int lane = static_cast<int>(threadIdx.x & 31u);
  unsigned exclusive = 0;
  long long nearest = static_cast<long long>(tile) - 1; // the window's first tile
  for (;;) {
    const long long pred = nearest - lane;
    unsigned long long word;
    unsigned prefix_lanes;
    for (;;) {
      // Tiles before the first act as an inclusive prefix of 0.
      word =
          pred >= 0 ? read_status(&state.status[pred]) : pack_status(state.epoch, kFlagPrefix, 0);
      const bool ready = status_epoch(word) == state.epoch && status_flag(word) != 0;
      const unsigned not_ready = __ballot_sync(kFullMask, !ready);
      prefix_lanes = __ballot_sync(kFullMask, ready && status_flag(word) == kFlagPrefix);
      // Go on once every tile up to the nearest prefix is ready, or the whole
      // window is: farther tiles are not needed.
      const unsigned needed =
          prefix_lanes ? (prefix_lanes & (0u - prefix_lanes)) * 2u - 1u : kFullMask;
      if ((not_ready & needed) == 0) break;
      if (kSleepNs > 0) __nanosleep(kSleepNs);
    }
    // Lanes up to the nearest prefix contribute (all lanes when there is none).
    const int stop = prefix_lanes ? __ffs(static_cast<int>(prefix_lanes)) - 1 : 31;
    exclusive += __reduce_add_sync(kFullMask, lane <= stop ? status_value(word) : 0u);
    if (prefix_lanes) return exclusive;
    nearest -= 32;
  }
}

} // namespace scan::detail
