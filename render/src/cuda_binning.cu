// Binned mode's first half, the staged pipeline of tile rasterizers: the
// circles' tile counts (written by prepare_circles) are scanned into pair
// offsets, every circle writes one (tile, circle) pair per tile it touches in
// circle order, a stable radix sort on the tile groups the pairs per tile
// with circles still in index order, and each tile's range is found.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "common/cuda_check.h"
#include "cuda_coverage.h"
#include "cuda_kernels.h"

namespace render::gpu {

namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t items) {
  return static_cast<unsigned>((items + kThreads - 1) / kThreads);
}

// Bits of the sort key: enough for the largest tile index.
int tile_key_bits(int tile_count) {
  int bits = 1;
  while ((1LL << bits) < tile_count) ++bits;
  return bits;
}

__global__ void emit_kernel(const float4* geometry, const std::uint64_t* offsets, int count,
                            FrameGeometry frame, std::uint64_t first, std::uint64_t end,
                            std::uint32_t* keys, std::uint32_t* values) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= count) return;
  std::uint64_t pair = offsets[i];
  const std::uint64_t circle_end = offsets[i + 1];
  if (pair == circle_end || circle_end <= first || pair >= end) return;
  const std::uint32_t circle = static_cast<std::uint32_t>(i);
  for_each_binned_tile(geometry[i], frame, [&](int tile, int kind) {
    if (pair >= first) {
      keys[pair - first] = static_cast<std::uint32_t>(tile);
      values[pair - first] = circle | static_cast<std::uint32_t>(kind) << kKindShift;
    }
    return ++pair < end;
  });
}

__global__ void tile_ranges_kernel(const std::uint32_t* keys, std::uint32_t pairs, uint2* ranges) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pairs) return;
  const std::uint32_t tile = keys[i];
  if (i == 0 || keys[i - 1] != tile) ranges[tile].x = i;
  if (i + 1 == pairs || keys[i + 1] != tile) ranges[tile].y = i + 1;
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

void emit_pairs(const CircleRecords& circles, const std::uint64_t* offsets, int count,
                const FrameGeometry& frame, std::uint64_t first, std::uint64_t end,
                std::uint32_t* keys, std::uint32_t* values, cudaStream_t stream) {
  if (count == 0) return;
  emit_kernel<<<blocks_for(static_cast<std::size_t>(count)), kThreads, 0, stream>>>(
      circles.geometry, offsets, count, frame, first, end, keys, values);
  CUDA_CHECK_LAUNCH();
}

std::size_t sort_scratch_bytes(std::size_t pairs, int tile_count) {
  cub::DoubleBuffer<std::uint32_t> keys(nullptr, nullptr);
  cub::DoubleBuffer<std::uint32_t> values(nullptr, nullptr);
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values,
                                             static_cast<std::int64_t>(pairs), 0,
                                             tile_key_bits(tile_count)));
  return bytes;
}

int sort_pairs(std::uint32_t* const keys[2], std::uint32_t* const values[2], std::size_t pairs,
               int tile_count, void* scratch, std::size_t scratch_bytes, cudaStream_t stream) {
  cub::DoubleBuffer<std::uint32_t> key_buffers(keys[0], keys[1]);
  cub::DoubleBuffer<std::uint32_t> value_buffers(values[0], values[1]);
  std::size_t bytes = scratch_bytes;
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch, bytes, key_buffers, value_buffers,
                                             static_cast<std::int64_t>(pairs), 0,
                                             tile_key_bits(tile_count), stream));
  return key_buffers.selector;
}

void find_tile_ranges(const std::uint32_t* sorted_keys, std::size_t pairs, int tile_count,
                      uint2* ranges, cudaStream_t stream) {
  CUDA_CHECK(
      cudaMemsetAsync(ranges, 0, sizeof(uint2) * static_cast<std::size_t>(tile_count), stream));
  if (pairs == 0) return;
  tile_ranges_kernel<<<blocks_for(pairs), kThreads, 0, stream>>>(
      sorted_keys, static_cast<std::uint32_t>(pairs), ranges);
  CUDA_CHECK_LAUNCH();
}

} // namespace render::gpu
