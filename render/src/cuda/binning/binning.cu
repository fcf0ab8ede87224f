// Binned mode's first half, the staged pipeline of tile rasterizers: the
// circles' tile counts (written by prepare_circles) are scanned into pair
// offsets, every circle writes one (tile, circle) pair per tile it touches in
// circle order (small circles from the tile kinds their count kept), a
// stable radix sort on the tile groups the pairs per tile with circles still
// in index order, and each tile's range is found.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>

#include "common/cuda_check.h"
#include "kernels.h"
#include "shading/coverage.h"

namespace render::gpu {

namespace {

// Bits of the sort key: enough for the largest tile index.
int tile_key_bits(int tile_count) {
  int bits = 1;
  while ((1LL << bits) < tile_count) ++bits;
  return bits;
}

// The warp kernels loop over the work list with at most a full SM's 64 warps
// per SM of this device: more would only wait.
std::size_t max_list_warps() {
  static const std::size_t warps = [] {
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return static_cast<std::size_t>(sms) * 64;
  }();
  return warps;
}

// Blocks for a warp per item of `items`, at most max_list_warps() of them.
unsigned list_blocks(std::size_t items) {
  const std::size_t warps = std::min(items, max_list_warps());
  return static_cast<unsigned>(
      std::max<std::size_t>(1, (warps * 32 + kHelperThreads - 1) / kHelperThreads));
}

// Blocks for a thread per item, at most max_list_warps() warps of them.
unsigned stride_blocks(std::size_t items) {
  return list_blocks((items + 31) / 32);
}

// Pair k of a small circle's kept tiles, written at `at`.
template <class Key>
__device__ void write_kept_pair(Key* keys, std::uint32_t* values, std::uint64_t at, uint2 span,
                                std::uint32_t kinds, int k, const FrameGeometry& frame,
                                std::uint32_t circle) {
  int kind = 0;
  const int tile = kept_tile(span, kinds, k, frame, kind);
  keys[at] = static_cast<Key>(tile);
  values[at] = pair_value(circle, kind);
}

// A warp whose circles have at most this many pairs each writes them a lane
// per circle (tuning.h).
constexpr int kLanePairs = tuning::kLanePairs;

// The small circles' pairs (the listed ones are emit_by_warp_kernel's), from
// the kinds their count kept. A warp's 32 circles write their pairs
// together, lane l taking pairs l, l + 32, ... of their concatenation, so
// that the stores of consecutive lanes are consecutive (a thread writing its
// own circle's run left them scattered across the warp).
template <class Key>
__global__ void emit_kernel(const uint2* spans, BinCounts bins, int count, FrameGeometry frame,
                            std::uint64_t first, std::uint64_t end, Key* keys,
                            std::uint32_t* values) {
  constexpr unsigned kAll = 0xffffffffu;
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int lane = static_cast<int>(threadIdx.x % 32);
  uint2 span = make_uint2(1u, 1u);
  std::uint32_t kinds = 0;
  std::uint64_t start = 0;
  int pairs = 0; // this lane's circle's pairs within [first, end)'s circles
  if (i < count) {
    span = spans[i];
    if (!walked_by_warp(unpack_tile_span(span))) {
      kinds = bins.small_kinds[i];
      start = bins.tile_counts[i];
      pairs = kept_tile_count(kinds);
      if (start + static_cast<std::uint64_t>(pairs) <= first || start >= end) pairs = 0;
    }
  }
  int most = pairs;
  for (int d = 16; d > 0; d /= 2) most = max(most, __shfl_xor_sync(kAll, most, d));
  if (most <= kLanePairs) {
    for (int k = 0; k < pairs; ++k) {
      const std::uint64_t pair = start + static_cast<std::uint64_t>(k);
      if (pair >= first && pair < end)
        write_kept_pair(keys, values, pair - first, span, kinds, k, frame,
                        static_cast<std::uint32_t>(i));
    }
    return;
  }
  int before = pairs; // an inclusive scan over the lanes, then exclusive
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(kAll, before, d);
    if (lane >= d) before += up;
  }
  const int total = __shfl_sync(kAll, before, 31);
  before -= pairs;
  for (int round = 0; round < total; round += 32) {
    const int j = round + lane;
    // The owner of pair j: the last lane whose first pair is j or earlier.
    int owner = 0;
    for (int step = 16; step > 0; step /= 2)
      if (__shfl_sync(kAll, before, owner + step) <= j) owner += step;
    const int k = j - __shfl_sync(kAll, before, owner);
    const uint2 owner_span =
        make_uint2(__shfl_sync(kAll, span.x, owner), __shfl_sync(kAll, span.y, owner));
    const std::uint32_t owner_kinds = __shfl_sync(kAll, kinds, owner);
    const std::uint64_t pair = __shfl_sync(kAll, start, owner) + static_cast<std::uint64_t>(k);
    if (j >= total || pair < first || pair >= end) continue;
    write_kept_pair(keys, values, pair - first, owner_span, owner_kinds, k, frame,
                    static_cast<std::uint32_t>(i - lane + owner));
  }
}

__global__ void count_by_warp_kernel(const float4* geometry, BinCounts bins, FrameGeometry frame) {
  const unsigned warps = gridDim.x * blockDim.x / 32;
  const unsigned listed = *bins.warp_circle_count;
  for (unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32; w < listed; w += warps) {
    const std::uint32_t circle = bins.warp_circles[w];
    std::uint64_t tiles = 0;
    for_each_binned_tile_by_warp(geometry[circle], frame, [&](int, int kind) {
      tiles += __popc(__ballot_sync(0xffffffffu, kind != kMiss));
      return true;
    });
    if (threadIdx.x % 32 == 0) bins.tile_counts[circle] = tiles;
  }
}

// A listed circle's pairs fill its range of the pair order round by round;
// any order within one circle keeps each tile's circles in index order.
template <class Key>
__global__ void emit_by_warp_kernel(const float4* geometry, BinCounts bins, FrameGeometry frame,
                                    std::uint64_t first, std::uint64_t end, Key* keys,
                                    std::uint32_t* values) {
  const unsigned warps = gridDim.x * blockDim.x / 32;
  const unsigned lane = threadIdx.x % 32;
  const unsigned listed = *bins.warp_circle_count;
  for (unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32; w < listed; w += warps) {
    const std::uint32_t circle = bins.warp_circles[w];
    std::uint64_t pair = bins.tile_counts[circle];
    const std::uint64_t circle_end = bins.tile_counts[circle + 1];
    if (pair == circle_end || circle_end <= first || pair >= end) continue;
    for_each_binned_tile_by_warp(geometry[circle], frame, [&](int tile, int kind) {
      const bool hit = kind != kMiss;
      const unsigned hits = __ballot_sync(0xffffffffu, hit);
      const std::uint64_t mine = pair + __popc(hits & ((1u << lane) - 1u));
      if (hit && mine >= first && mine < end) {
        keys[mine - first] = static_cast<Key>(tile);
        values[mine - first] = pair_value(circle, kind);
      }
      pair += __popc(hits);
      return pair < end;
    });
  }
}

// A grid of at most max_list_warps() warps strides over the keys: a block per
// 256 keys made millions of pairs wait on block launches instead of memory.
template <class Key>
__global__ void tile_ranges_kernel(const Key* keys, std::uint32_t pairs, uint2* ranges) {
  const std::uint32_t threads = gridDim.x * blockDim.x;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < pairs; i += threads) {
    const Key tile = keys[i];
    if (i == 0 || keys[i - 1] != tile) ranges[tile].x = i;
    if (i + 1 == pairs || keys[i + 1] != tile) ranges[tile].y = i + 1;
  }
}

template <class Key>
void emit_pairs_as(const CircleRecords& circles, const BinCounts& bins, int count,
                   const FrameGeometry& frame, std::uint64_t first, std::uint64_t end, Key* keys,
                   std::uint32_t* values, cudaStream_t stream) {
  if (count == 0) return;
  emit_kernel<<<helper_blocks(static_cast<std::size_t>(count)), kHelperThreads, 0, stream>>>(
      circles.tiles, bins, count, frame, first, end, keys, values);
  CUDA_CHECK_LAUNCH();
  emit_by_warp_kernel<<<list_blocks(static_cast<std::size_t>(count)), kHelperThreads, 0, stream>>>(
      circles.geometry, bins, frame, first, end, keys, values);
  CUDA_CHECK_LAUNCH();
}

template <class Key> std::size_t sort_scratch_bytes_as(std::size_t pairs, int tile_count) {
  cub::DoubleBuffer<Key> keys(nullptr, nullptr);
  cub::DoubleBuffer<std::uint32_t> values(nullptr, nullptr);
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values,
                                             static_cast<std::int64_t>(pairs), 0,
                                             tile_key_bits(tile_count)));
  return bytes;
}

template <class Key>
int sort_pairs_as(Key* const keys[2], std::uint32_t* const values[2], std::size_t pairs,
                  int tile_count, void* scratch, std::size_t scratch_bytes, cudaStream_t stream) {
  cub::DoubleBuffer<Key> key_buffers(keys[0], keys[1]);
  cub::DoubleBuffer<std::uint32_t> value_buffers(values[0], values[1]);
  std::size_t bytes = scratch_bytes;
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch, bytes, key_buffers, value_buffers,
                                             static_cast<std::int64_t>(pairs), 0,
                                             tile_key_bits(tile_count), stream));
  return key_buffers.selector;
}

template <class Key>
void find_tile_ranges_as(const Key* sorted_keys, std::size_t pairs, uint2* ranges,
                         cudaStream_t stream) {
  tile_ranges_kernel<<<stride_blocks(pairs), kHelperThreads, 0, stream>>>(
      sorted_keys, static_cast<std::uint32_t>(pairs), ranges);
  CUDA_CHECK_LAUNCH();
}

} // namespace

std::size_t scan_scratch_bytes(int count) {
  std::size_t bytes = 0;
  std::uint64_t* none = nullptr;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, none, none, count + 1));
  return bytes;
}

void scan_tile_counts(std::uint64_t* counts, int count, void* scratch, std::size_t scratch_bytes,
                      cudaStream_t stream) {
  std::size_t bytes = scratch_bytes;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch, bytes, counts, counts, count + 1, stream));
}

void count_tiles_by_warp(const CircleRecords& circles, const BinCounts& bins, int count,
                         const FrameGeometry& frame, cudaStream_t stream) {
  count_by_warp_kernel<<<list_blocks(static_cast<std::size_t>(count)), kHelperThreads, 0, stream>>>(
      circles.geometry, bins, frame);
  CUDA_CHECK_LAUNCH();
}

void emit_pairs(const CircleRecords& circles, const BinCounts& bins, int count,
                const FrameGeometry& frame, std::uint64_t first, std::uint64_t end, PairKeys keys,
                std::uint32_t* values, cudaStream_t stream) {
  if (keys.narrow)
    emit_pairs_as(circles, bins, count, frame, first, end, keys.narrow, values, stream);
  else
    emit_pairs_as(circles, bins, count, frame, first, end, keys.wide, values, stream);
}

std::size_t sort_scratch_bytes(std::size_t pairs, int tile_count) {
  return narrow_pair_keys(tile_count) ? sort_scratch_bytes_as<std::uint16_t>(pairs, tile_count)
                                      : sort_scratch_bytes_as<std::uint32_t>(pairs, tile_count);
}

int sort_pairs(const PairKeys keys[2], std::uint32_t* const values[2], std::size_t pairs,
               int tile_count, void* scratch, std::size_t scratch_bytes, cudaStream_t stream) {
  if (keys[0].narrow) {
    std::uint16_t* const narrow[2] = {keys[0].narrow, keys[1].narrow};
    return sort_pairs_as(narrow, values, pairs, tile_count, scratch, scratch_bytes, stream);
  }
  std::uint32_t* const wide[2] = {keys[0].wide, keys[1].wide};
  return sort_pairs_as(wide, values, pairs, tile_count, scratch, scratch_bytes, stream);
}

void find_tile_ranges(PairKeys sorted_keys, std::size_t pairs, int tile_count, uint2* ranges,
                      cudaStream_t stream) {
  CUDA_CHECK(
      cudaMemsetAsync(ranges, 0, sizeof(uint2) * static_cast<std::size_t>(tile_count), stream));
  if (pairs == 0) return;
  if (sorted_keys.narrow)
    find_tile_ranges_as(sorted_keys.narrow, pairs, ranges, stream);
  else
    find_tile_ranges_as(sorted_keys.wide, pairs, ranges, stream);
}

} // namespace render::gpu
