// Binned mode's counting placement on the device (binning/placement.h has
// the design): a count kernel and a place kernel, a block per chunk of
// circles, with a CUB scan of the count matrix between them.
#include <cub/device/device_scan.cuh>

#include "binning/placement.h"
#include "common/cuda_check.h"
#include "kernels.h"

namespace render::gpu {

namespace {

using placement::ChunkInputs;

constexpr int kPlaceThreads = tuning::kPlaceThreads;

// How a chunk's block shares the work of placement.h's templates: a thread
// per item, the first warp for a run's lanes, shared-memory atomics.
struct DeviceBlock {
  template <class Fn> __device__ void for_strided(int n, Fn&& fn) {
    for (int j = static_cast<int>(threadIdx.x); j < n; j += static_cast<int>(blockDim.x)) fn(j);
  }
  template <class Fn> __device__ void for_lanes(Fn&& fn) {
    if (threadIdx.x < 32) fn(static_cast<int>(threadIdx.x));
  }
  __device__ void sync_warp() { __syncwarp(); }
  __device__ void sync_block() { __syncthreads(); }
  __device__ void add(std::uint32_t* at, std::uint32_t v) { atomicAdd(at, v); }
  __device__ void set_bits(std::uint32_t* at, std::uint32_t bits) { atomicOr(at, bits); }
  // The same mask in every warp: each reads the round's spans.
  __device__ std::uint32_t big_lanes(const ChunkInputs& in, int round, int n) {
    const int lane = static_cast<int>(threadIdx.x % 32);
    return __ballot_sync(0xffffffffu, lane < n && placement::is_big(in.spans[round + lane]));
  }
};

ChunkInputs chunk_inputs(const CircleRecords& circles, const BinCounts& bins, int count,
                         const FrameGeometry& frame, PlacementChunks chunks) {
  return ChunkInputs{circles.geometry, circles.tiles, bins.small_kinds, count, frame, chunks};
}

std::size_t column_bytes(const PlacementChunks& chunks) {
  return sizeof(std::uint32_t) * static_cast<std::size_t>(chunks.tiles);
}

__global__ void __launch_bounds__(kPlaceThreads)
    count_kernel(ChunkInputs in, std::uint32_t* matrix) {
  extern __shared__ std::uint32_t counts[];
  const int chunk = static_cast<int>(blockIdx.x);
  DeviceBlock b;
  b.for_strided(in.chunks.tiles, [&](int t) { counts[t] = 0; });
  b.sync_block();
  placement::count_chunk(b, in, chunk, counts);
  b.sync_block();
  const auto chunks = static_cast<std::size_t>(in.chunks.chunks);
  b.for_strided(in.chunks.tiles, [&](int t) {
    matrix[static_cast<std::size_t>(t) * chunks + static_cast<std::size_t>(chunk)] = counts[t];
  });
  if (chunk == 0 && threadIdx.x == 0)
    matrix[static_cast<std::size_t>(in.chunks.tiles) * chunks] = 0;
}

__global__ void __launch_bounds__(kPlaceThreads)
    place_kernel(ChunkInputs in, const std::uint32_t* matrix, std::uint32_t* values,
                 uint2* ranges) {
  extern __shared__ std::uint32_t words[];
  DeviceBlock b;
  placement::place_chunk(b, in, static_cast<int>(blockIdx.x), matrix, words,
                         words + in.chunks.tiles, values, ranges);
}

} // namespace

std::size_t placement_scan_bytes(std::size_t entries) {
  std::size_t bytes = 0;
  std::uint32_t* none = nullptr;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, none, none, static_cast<int>(entries)));
  return bytes;
}

void count_chunk_pairs(const CircleRecords& circles, const BinCounts& bins, int count,
                       const FrameGeometry& frame, PlacementChunks chunks, std::uint32_t* matrix,
                       cudaStream_t stream) {
  if (chunks.chunks == 0) return;
  count_kernel<<<static_cast<unsigned>(chunks.chunks), kPlaceThreads, column_bytes(chunks),
                 stream>>>(chunk_inputs(circles, bins, count, frame, chunks), matrix);
  CUDA_CHECK_LAUNCH();
}

void scan_chunk_pairs(std::uint32_t* matrix, PlacementChunks chunks, void* scratch,
                      std::size_t scratch_bytes, cudaStream_t stream) {
  std::size_t bytes = scratch_bytes;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch, bytes, matrix, matrix,
                                           static_cast<int>(chunks.entries()), stream));
}

void place_chunk_pairs(const CircleRecords& circles, const BinCounts& bins, int count,
                       const FrameGeometry& frame, PlacementChunks chunks,
                       const std::uint32_t* matrix, std::uint32_t* values, uint2* ranges,
                       cudaStream_t stream) {
  if (chunks.chunks == 0) return;
  place_kernel<<<static_cast<unsigned>(chunks.chunks), kPlaceThreads, 2 * column_bytes(chunks),
                 stream>>>(chunk_inputs(circles, bins, count, frame, chunks), matrix, values,
                           ranges);
  CUDA_CHECK_LAUNCH();
}

} // namespace render::gpu
