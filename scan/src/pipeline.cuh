// The warp-specialized pipeline (Hopper and newer): persistent blocks stream
// tiles through a ring of shared-memory stages, and each warp has one job.
//
//   warp 0          producer: claims the next tile from the global counter
//                   and starts its bulk copy (the copy engine) into a stage
//   R warps         reducers: when a tile lands, total each store warp's
//                   region; the first publishes the tile's aggregate at once
//   L warps         look-back: warp j takes the block's tiles j, j+L, ...,
//                   finds each one's exclusive prefix (lookback.cuh) and
//                   publishes its inclusive prefix
//   W warps         store warps: scan their region of the stage from the
//                   prefix and store the results straight from registers
//
// Why: in the one-tile-per-block kernels a block that waits in its look-back
// holds its tile, so no new load starts in its place; a block that loaded
// ahead published its aggregate late and every later look-back waited on it
// (docs/scan.md, changes 3 and 10). Here the reducer publishes a tile's
// aggregate as soon as its bytes land, whatever the look-back is doing, and a
// block waiting in one look-back holds one stage while the producer keeps
// loading into the others.
//
// Stages hand over through shared-memory mbarriers, four per stage, with no
// block-wide barrier after setup:
//   full[s]     producer -> reducers     32 arrivals + the copy's bytes
//   reduced[s]  reducers -> look-back    R x 32 arrivals (aggregate written)
//   prefixed[s] look-back -> store warps 32 arrivals (prefix written)
//   empty[s]    reducers + store warps -> producer, (W + R) x 32 arrivals
// Every lane arrives, so each lane's own shared-memory reads and writes are
// ordered by its own release. A role at iteration `it` uses stage it % S and
// waits on the phase of parity (it / S) & 1; no waiter can fall two phases
// behind, since the next phase of any barrier of a stage needs the producer
// to refill it, which needs every consumer's arrival on `empty` first.
//
// The operation (scan or find_repeats) is a small policy type, Op:
//   kExtraItems      items after the tile the operation reads (its right
//                    neighbours), loaded into the stage with the tile
//   Vector           what a lane keeps of its four items
//   load<kWhole>(items, g, n) the lane's Vector from the stage (called by
//                    whole warps); g is the global index of items[0];
//                    kWhole: the tile and the items after it are in range
//   total(v)         the vector's count towards the scan
//   tally<kWhole>(items, g, n) the reducers' count of the vector at
//                    `items`; it may leave what load needs in the vector's
//                    last word (items[3]), which no other lane reads
//   kStaged          whether store writes the results into the store warp's
//                    own region of the stage (read by then) for flush to
//                    copy out as one run, instead of straight to memory
//   store(g, n, whole, excl, v, region, first) writes the results of one
//                    vector, `excl` being the count before it and `first`
//                    the count before the region; whole: the store warp's
//                    region lies in range (and, for the scan, `out` is
//                    16-byte aligned)
//   flush(region, first, count) (kStaged only) copies out the region's
//                    `count` staged results, whole warps
//   finish(tile, num_tiles, inclusive) called by one lane per tile with
//                    the count through that tile
// Pipeline-specific state sits in a struct passed by value.
#pragma once

#include <cuda/ptx>

#include <cstdint>

#include "common/cuda_check.h"
#include "lookback.cuh"
#include "repeats.cuh"
#include "tile.cuh"

namespace scan::detail {
// In an anonymous namespace, as single_pass_kernels.cuh, so that each file
// that includes this header has its own kernels.
namespace {

// kTileItems items per tile (one stage), kStages stages, kStoreWarps warps
// scanning and storing (each owns a contiguous region of the tile),
// kBlocksPerSm blocks resident per SM (the launch needs that many to fit),
// kLookbackWarps warps taking the block's tiles in turn, kPrefetchTiles: the
// producer asks the L2 for the tile this far past each claim (0: never),
// kReduceWarps: warps sharing the reducer's work, kSleepNs: the look-back's
// pause between polls.
template <int kTileItemsT, int kStagesT, int kStoreWarpsT, int kBlocksPerSmT, int kLookbackWarpsT,
          int kPrefetchTilesT, int kReduceWarpsT = 1, int kSleepNsT = 100>
struct Pipeline {
  static constexpr int kTileItems = kTileItemsT;
  static constexpr int kStages = kStagesT;
  static constexpr int kStoreWarps = kStoreWarpsT;
  static constexpr int kBlocksPerSm = kBlocksPerSmT;
  static constexpr int kLookbackWarps = kLookbackWarpsT;
  static constexpr int kPrefetchTiles = kPrefetchTilesT;
  static constexpr int kReduceWarps = kReduceWarpsT;
  static constexpr int kSleepNs = kSleepNsT;
  static constexpr int kThreads = (1 + kReduceWarps + kLookbackWarps + kStoreWarps) * 32;
  static constexpr int kRegionItems = kTileItems / kStoreWarps;
  static constexpr int kColumns = kRegionItems / 128; // 512-byte columns per store warp
  static constexpr int kBatch = kColumns < 8 ? kColumns : 8;
  static_assert(kTileItems % (128 * kStoreWarps) == 0, "regions of whole 512-byte columns");
  static_assert(kColumns % kBatch == 0, "whole batches of columns");
  static_assert(kThreads <= 1024, "one block");
  // The end marker passes through kLookbackWarps iterations, each of which
  // must find its stage freed by a real tile (see produce).
  static_assert(kLookbackWarps >= 1 && kLookbackWarps <= kStages, "1 to kStages look-back warps");
  static_assert(kStoreWarps % kReduceWarps == 0, "each reducer totals as many regions");
  static_assert(kTileItems * 4 < (1 << 20) - 64, "an mbarrier counts under 2^20 bytes a phase");
};

// Items of one stage: the tile and the items after it that Op reads.
template <class P, class Op> __host__ __device__ constexpr int stage_items() {
  return P::kTileItems + Op::kExtraItems;
}
// Stages start 128-byte aligned, as the copy engine moves whole 128-byte lines best.
template <class P, class Op> __host__ __device__ constexpr int stage_stride() {
  return (stage_items<P, Op>() + 31) / 32 * 32;
}
template <class P, class Op> __host__ __device__ constexpr int stage_bytes() {
  return P::kStages * stage_stride<P, Op>() * 4;
}

// The exclusive scan: a Vector is the four items.
struct ScanOp {
  unsigned* out;
  bool out_aligned;
  static constexpr int kExtraItems = 0;
  using Vector = uint4;
  template <bool kWhole> __device__ static uint4 load(const unsigned* items, long long, long long) {
    return *reinterpret_cast<const uint4*>(items);
  }
  __device__ static unsigned total(uint4 v) { return v.x + v.y + v.z + v.w; }
  template <bool kWhole>
  __device__ static unsigned tally(const unsigned* items, long long g, long long n) {
    return total(load<kWhole>(items, g, n));
  }
  static constexpr bool kStaged = false;
  __device__ void store(long long g, long long n, bool whole, unsigned e, uint4 v, unsigned*,
                        unsigned) const {
    const uint4 y = make_uint4(e, e + v.x, e + v.x + v.y, e + v.x + v.y + v.z);
    if (whole && out_aligned) {
      *reinterpret_cast<uint4*>(out + g) = y;
    } else {
      if (g < n) out[g] = y.x;
      if (g + 1 < n) out[g + 1] = y.y;
      if (g + 2 < n) out[g + 2] = y.z;
      if (g + 3 < n) out[g + 3] = y.w;
    }
  }
  __device__ void flush(const unsigned*, unsigned, unsigned) const {}
  __device__ void finish(unsigned, unsigned, unsigned) const {}
};

// find_repeats: a Vector is the four items' repeat bits; the stage holds the
// next tile's first vector too, so every item's neighbour is in the stage.
// The bits are found once, by the reducers, which leave them in each
// vector's last word for the store warps; these stage the region's indices
// over the region's items (the warp has read them all by then) and copy them
// out as one run, so that each L2 sector is written whole instead of once
// per index (docs/scan.md, change 16).
struct RepeatsOp {
  int* out;
  long long* count;
  static constexpr int kExtraItems = 4;
  static constexpr bool kStaged = true;
  using Vector = unsigned;
  // Called by whole warps, lane i on the vector after lane i - 1's: each
  // item's neighbour is in the next lane's vector, or for lane 31 in the
  // stage (one shared-memory read instead of 32 conflicting ones). Reads
  // only the vectors' first words, which the reducers leave as they are.
  __device__ static unsigned next_item(const unsigned* items, uint4 v) {
    const unsigned after = __shfl_down_sync(kFullMask, v.x, 1);
    return (threadIdx.x & 31u) == 31u ? items[4] : after;
  }
  template <bool kWhole>
  __device__ static unsigned load(const unsigned* items, long long, long long) {
    return items[3];
  }
  __device__ static unsigned total(unsigned bits) { return __popc(bits); }
  template <bool kWhole>
  __device__ static unsigned tally(unsigned* items, long long g, long long n) {
    const uint4 v = *reinterpret_cast<const uint4*>(items);
    const unsigned after = next_item(items, v);
    const unsigned bits = kWhole ? repeat_bits(v, after, 5) : repeat_bits(v, after, n - g);
    items[3] = bits;
    return __popc(bits);
  }
  __device__ void store(long long g, long long, bool, unsigned rank, unsigned bits,
                        unsigned* region, unsigned first) const {
    store_repeats(reinterpret_cast<int*>(region), rank - first, g, bits);
  }
  __device__ void flush(const unsigned* region, unsigned first, unsigned n) const {
    for (unsigned i = threadIdx.x & 31u; i < n; i += 32)
      out[first + i] = static_cast<int>(region[i]);
  }
  __device__ void finish(unsigned tile, unsigned num_tiles, unsigned inclusive) const {
    if (tile == num_tiles - 1) *count = inclusive;
  }
};

namespace pipeline {

constexpr unsigned kNoTile = 0xffffffffu; // the producer's end marker

template <class P> struct Control {
  std::uint64_t full[P::kStages];
  std::uint64_t reduced[P::kStages];
  std::uint64_t prefixed[P::kStages];
  std::uint64_t empty[P::kStages];
  unsigned tile[P::kStages];
  unsigned aggregate[P::kStages];
  unsigned prefix[P::kStages];
  unsigned region[P::kStages][P::kStoreWarps]; // each store warp's region total
};

// arrive: release at CTA scope; try_wait: acquire at CTA scope (the defaults).
__device__ __forceinline__ void arrive(std::uint64_t* bar) {
  (void)cuda::ptx::mbarrier_arrive(bar);
}
__device__ __forceinline__ void wait_phase(std::uint64_t* bar, unsigned parity) {
  while (!cuda::ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

template <class P, class Op>
__device__ __forceinline__ void produce(Control<P>& ctl, unsigned* stages, const unsigned* in,
                                        long long n, unsigned num_tiles, bool in_aligned,
                                        bool prefetch, const LookbackState& state) {
  constexpr unsigned kItems = stage_items<P, Op>();
  const unsigned lane = threadIdx.x & 31u;
  for (unsigned it = 0;; ++it) {
    const unsigned s = it % P::kStages, round = it / P::kStages;
    // The waits are on the phases of the stage's previous tile (iteration
    // it - kStages); in round 0 they pass at once (the phase "before" a
    // fresh barrier's first counts as complete). The claim goes out once the
    // previous tile's prefix is known, so its round trip overlaps that
    // tile's stores; a tile claimed earlier, with no stage to load into,
    // would hold up every later tile's look-back (claiming two tiles at a
    // time measured slower: docs/scan.md, change 15).
    const unsigned previous = (round & 1u) ^ 1u;
    wait_phase(&ctl.prefixed[s], previous);
    unsigned tile = 0;
    if (lane == 0) {
      tile = atomicAdd(state.tile_counter, 1u);
      // Every block claims exactly once past the end, so the claim that
      // returns the last such value is the launch's last: its block resets
      // the counter for the next launch.
      if (tile == num_tiles + gridDim.x - 1) atomicExch(state.tile_counter, 0u);
    }
    tile = __shfl_sync(kFullMask, tile, 0);
    wait_phase(&ctl.empty[s], previous);
    if (tile >= num_tiles) {
      // The end marker fills kLookbackWarps iterations, one per look-back
      // warp. The stage of iteration it + i was last used by iteration
      // it + i - kStages < it, a real tile (or none), so the wait ends.
      for (unsigned i = 0; i < static_cast<unsigned>(P::kLookbackWarps); ++i) {
        const unsigned e = it + i, es = e % P::kStages;
        if (i > 0) wait_phase(&ctl.empty[es], ((e / P::kStages) & 1u) ^ 1u);
        if (lane == 0) ctl.tile[es] = kNoTile;
        arrive(&ctl.full[es]);
      }
      return;
    }
    if (lane == 0) ctl.tile[s] = tile;
    const long long first = static_cast<long long>(tile) * P::kTileItems;
    const long long left = n - first;
    const unsigned valid = left < kItems ? static_cast<unsigned>(left) : kItems;
    // The bulk copy takes whole 16-byte pieces of a 16-byte aligned input.
    const unsigned bulk_bytes = in_aligned ? (valid * 4u) & ~15u : 0u;
    unsigned* stage = stages + static_cast<std::size_t>(s) * stage_stride<P, Op>();
    if (lane == 0) {
      if (P::kPrefetchTiles > 0 && prefetch) {
        const long long ahead = (static_cast<long long>(tile) + P::kPrefetchTiles) * P::kTileItems;
        if (ahead + P::kTileItems <= n)
          asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(in + ahead),
                       "r"(static_cast<unsigned>(P::kTileItems * 4))
                       : "memory");
      }
      if (bulk_bytes != 0) {
        cuda::ptx::mbarrier_expect_tx(cuda::ptx::sem_relaxed, cuda::ptx::scope_cta,
                                      cuda::ptx::space_shared, &ctl.full[s], bulk_bytes);
        cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, stage,
                                 in + first, bulk_bytes, &ctl.full[s]);
      }
    }
    const unsigned bulk_items = bulk_bytes / 4u;
    if (bulk_items < kItems) {
      // The rest by hand: the last tile's tail (zeros past n) or an
      // unaligned input.
      for (unsigned i = bulk_items + lane; i < kItems; i += 32)
        stage[i] = i < valid ? in[first + i] : 0u;
      // A later round's bulk copy writes these bytes again: order these
      // generic writes before it for the async proxy.
      cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    }
    arrive(&ctl.full[s]);
  }
}

// The global index of a lane's vector in column c of store warp w's region.
template <class P>
__device__ __forceinline__ long long vector_index(unsigned tile, int w, int c, unsigned lane) {
  return static_cast<long long>(tile) * P::kTileItems + w * P::kRegionItems + c * 128 + lane * 4;
}

// A tile's items and the items after it that Op reads all lie in range.
template <class P, class Op>
__device__ __forceinline__ bool tile_whole(unsigned tile, long long n) {
  return (static_cast<long long>(tile) + 1) * P::kTileItems + Op::kExtraItems <= n;
}

// Reducer warp r of kReduceWarps totals the store regions r, r + R, ...;
// with several, they meet at a named barrier and warp 0 publishes.
template <class P, class Op, bool kWhole>
__device__ __forceinline__ void total_regions(Control<P>& ctl, unsigned s, unsigned* stage,
                                              unsigned tile, long long n, int r) {
  const unsigned lane = threadIdx.x & 31u;
#pragma unroll
  for (int w = r; w < P::kStoreWarps; w += P::kReduceWarps) {
    unsigned sum = 0;
#pragma unroll 8
    for (int c = 0; c < P::kColumns; ++c)
      sum += Op::template tally<kWhole>(stage + w * P::kRegionItems + c * 128 + lane * 4,
                                        vector_index<P>(tile, w, c, lane), n);
    const unsigned region = warp_sum(sum);
    if (lane == 0) ctl.region[s][w] = region;
  }
}

template <class P, class Op>
__device__ __forceinline__ void reduce(Control<P>& ctl, unsigned* stages, long long n,
                                       const LookbackState& state, int r) {
  const unsigned lane = threadIdx.x & 31u;
  int ends = 0;
  for (unsigned it = 0;; ++it) {
    const unsigned s = it % P::kStages;
    wait_phase(&ctl.full[s], (it / P::kStages) & 1u);
    // Where the store warps wrote the stage last round, wait for them here
    // too: the producer did already (so this wait ends at once), but the
    // direct edge lets racecheck see the order.
    if (Op::kStaged) wait_phase(&ctl.empty[s], ((it / P::kStages) & 1u) ^ 1u);
    const unsigned tile = ctl.tile[s];
    if (tile == kNoTile) { // each end marker goes on to its look-back warp
      arrive(&ctl.reduced[s]);
      if (++ends == P::kLookbackWarps) return;
      continue;
    }
    unsigned* stage = stages + static_cast<std::size_t>(s) * stage_stride<P, Op>();
    if (tile_whole<P, Op>(tile, n))
      total_regions<P, Op, true>(ctl, s, stage, tile, n, r);
    else
      total_regions<P, Op, false>(ctl, s, stage, tile, n, r);
    if (P::kReduceWarps > 1) // every reducer's region totals are written
      asm volatile("bar.sync 1, %0;" ::"r"(P::kReduceWarps * 32) : "memory");
    if (r == 0 && lane == 0) {
      unsigned aggregate = 0;
      for (int w = 0; w < P::kStoreWarps; ++w) aggregate += ctl.region[s][w];
      publish_status(&state.status[tile],
                     pack_status(state.epoch, tile == 0 ? kFlagPrefix : kFlagAggregate, aggregate));
      ctl.aggregate[s] = aggregate;
    }
    // Done with the stage and, for warp 0, with the region totals, which the
    // reducers rewrite only after the stage is refilled. What tally wrote
    // into the stage is ordered before the next bulk copy into it.
    if (Op::kStaged) cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    arrive(&ctl.empty[s]);
    arrive(&ctl.reduced[s]);
  }
}

template <class P, class Op>
__device__ __forceinline__ void look_back_role(Control<P>& ctl, unsigned num_tiles,
                                               const LookbackState& state, const Op& op,
                                               unsigned j) {
  const unsigned lane = threadIdx.x & 31u;
  for (unsigned it = j;; it += P::kLookbackWarps) {
    const unsigned s = it % P::kStages;
    wait_phase(&ctl.reduced[s], (it / P::kStages) & 1u);
    const unsigned tile = ctl.tile[s];
    if (tile == kNoTile) {
      arrive(&ctl.prefixed[s]);
      return;
    }
    const unsigned aggregate = ctl.aggregate[s];
    const unsigned prefix = tile == 0 ? 0u : look_back<P::kSleepNs>(state, tile);
    if (lane == 0) {
      if (tile != 0)
        publish_status(&state.status[tile],
                       pack_status(state.epoch, kFlagPrefix, prefix + aggregate));
      ctl.prefix[s] = prefix;
      op.finish(tile, num_tiles, prefix + aggregate);
    }
    arrive(&ctl.prefixed[s]);
  }
}

template <class P, class Op>
__device__ __forceinline__ void store_role(Control<P>& ctl, unsigned* stages, long long n,
                                           const Op& op, int w) {
  const unsigned lane = threadIdx.x & 31u;
  for (unsigned it = 0;; ++it) {
    const unsigned s = it % P::kStages;
    wait_phase(&ctl.prefixed[s], (it / P::kStages) & 1u);
    // What the reducers left in the stage: ordered through the look-back
    // already, waited for directly as well for racecheck (ends at once).
    if (Op::kStaged) wait_phase(&ctl.reduced[s], (it / P::kStages) & 1u);
    const unsigned tile = ctl.tile[s];
    if (tile == kNoTile) return;
    unsigned carry = ctl.prefix[s];
    for (int v = 0; v < w; ++v) carry += ctl.region[s][v];
    const unsigned first = carry; // the count before this region
    const bool whole = vector_index<P>(tile, w, 0, 0) + P::kRegionItems <= n;
    const bool all_whole = tile_whole<P, Op>(tile, n);
    unsigned* region =
        stages + static_cast<std::size_t>(s) * stage_stride<P, Op>() + w * P::kRegionItems;
#pragma unroll 1
    for (int c0 = 0; c0 < P::kColumns; c0 += P::kBatch) {
      typename Op::Vector v[P::kBatch];
      unsigned total[P::kBatch], inclusive[P::kBatch];
#pragma unroll
      for (int b = 0; b < P::kBatch; ++b) {
        const unsigned* items = region + (c0 + b) * 128 + lane * 4;
        const long long g = vector_index<P>(tile, w, c0 + b, lane);
        v[b] = all_whole ? Op::template load<true>(items, g, n)
                         : Op::template load<false>(items, g, n);
        total[b] = Op::total(v[b]);
        inclusive[b] = total[b];
      }
      warp_inclusive_scans(inclusive);
      // Staged results land below the items read so far (a region holds
      // at most one result per item): every lane has read them first.
      if (Op::kStaged) __syncwarp();
#pragma unroll
      for (int b = 0; b < P::kBatch; ++b) {
        op.store(vector_index<P>(tile, w, c0 + b, lane), n, whole, carry + inclusive[b] - total[b],
                 v[b], region, first);
        carry += __shfl_sync(kFullMask, inclusive[b], 31);
      }
    }
    if (Op::kStaged) {
      __syncwarp(); // every lane's staged results are written
      op.flush(region, first, carry - first);
      // The generic writes above come before the next bulk copy's.
      cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    }
    arrive(&ctl.empty[s]); // done with the stage
  }
}

} // namespace pipeline

// Hopper and newer only: below sm_90 the body is a trap that never runs (the
// host launches the kernel only where pipeline_slots says it can).
template <class P, class Op>
__global__ void __launch_bounds__(P::kThreads, P::kBlocksPerSm)
    pipelined_kernel(const unsigned* in, long long n, unsigned num_tiles, bool in_aligned,
                     bool prefetch, LookbackState state, Op op) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  (void)in, (void)n, (void)num_tiles, (void)in_aligned, (void)prefetch, (void)state, (void)op;
  __trap();
#else
  extern __shared__ __align__(128) uint4 stage_memory[];
  unsigned* stages = reinterpret_cast<unsigned*>(stage_memory);
  __shared__ pipeline::Control<P> ctl;
  if (threadIdx.x == 0) {
    for (int s = 0; s < P::kStages; ++s) {
      cuda::ptx::mbarrier_init(&ctl.full[s], 32);
      cuda::ptx::mbarrier_init(&ctl.reduced[s], P::kReduceWarps * 32);
      cuda::ptx::mbarrier_init(&ctl.prefixed[s], 32);
      cuda::ptx::mbarrier_init(&ctl.empty[s], (P::kStoreWarps + P::kReduceWarps) * 32);
    }
    // The copy engine (the async proxy) must see the initialized barriers.
    cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  }
  __syncthreads(); // the last block-wide barrier: from here the roles run on their own
  const int warp = static_cast<int>(threadIdx.x / 32);
  if (warp == 0)
    pipeline::produce<P, Op>(ctl, stages, in, n, num_tiles, in_aligned, prefetch, state);
  else if (warp <= P::kReduceWarps)
    pipeline::reduce<P, Op>(ctl, stages, n, state, warp - 1);
  else if (warp <= P::kReduceWarps + P::kLookbackWarps)
    pipeline::look_back_role<P, Op>(ctl, num_tiles, state, op,
                                    static_cast<unsigned>(warp - 1 - P::kReduceWarps));
  else
    pipeline::store_role<P, Op>(ctl, stages, n, op, warp - 1 - P::kReduceWarps - P::kLookbackWarps);
#endif
}

// Blocks of pipelined_kernel<P, Op> resident on the current device at once,
// or 0 where it cannot run as tuned: the image this process loaded (a cubin,
// or PTX the driver compiled) must be for sm_90 or newer, which the device's
// compute capability cannot tell (a build with PTX for compute_75 only runs
// on an H200 without bulk copies), and P::kBlocksPerSm blocks must fit an SM
// (not so on sm_120's 100 KB of shared memory). Sets the kernel's attributes
// on the way (they are per device), so launch only where this said yes.
template <class P, class Op> long long pipeline_slots() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  thread_local int cached_device = -1;
  thread_local long long cached = 0;
  if (device != cached_device) {
    cudaFuncAttributes attributes{};
    CUDA_CHECK(cudaFuncGetAttributes(&attributes, pipelined_kernel<P, Op>));
    int optin = 0, sms = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    cached = 0;
    if (attributes.ptxVersion >= 90 && optin >= stage_bytes<P, Op>()) {
      CUDA_CHECK(cudaFuncSetAttribute(pipelined_kernel<P, Op>,
                                      cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      stage_bytes<P, Op>()));
      CUDA_CHECK(cudaFuncSetAttribute(pipelined_kernel<P, Op>,
                                      cudaFuncAttributePreferredSharedMemoryCarveout,
                                      cudaSharedmemCarveoutMaxShared));
      int fit = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, pipelined_kernel<P, Op>,
                                                               P::kThreads, stage_bytes<P, Op>()));
      if (fit >= P::kBlocksPerSm) cached = static_cast<long long>(sms) * P::kBlocksPerSm;
    }
    cached_device = device;
  }
  return cached;
}

// Only where pipeline_slots<P, Op>() is nonzero: one persistent block per
// slot, fewer for short inputs. `prefetch`: the producer's L2 prefetch (off
// only for tuning runs that measure what it brings).
template <class P, class Op>
void launch_pipelined(const unsigned* in, long long n, const LookbackState& state,
                      cudaStream_t stream, const Op& op, bool prefetch = true) {
  const long long tiles = (n + P::kTileItems - 1) / P::kTileItems;
  const long long slots = pipeline_slots<P, Op>();
  const long long grid = tiles < slots ? tiles : slots;
  pipelined_kernel<P, Op>
      <<<static_cast<unsigned>(grid), P::kThreads, stage_bytes<P, Op>(), stream>>>(
          in, n, static_cast<unsigned>(tiles), aligned16(in), prefetch && aligned16(in), state, op);
  CUDA_CHECK_LAUNCH();
}

} // namespace
} // namespace scan::detail
