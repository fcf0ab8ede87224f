// A block-wide exclusive scan, given to you for your kernels: every thread
// of a block hands in one value and gets back the sum of the values of the
// threads before it, and the total of the whole block. A renderer can turn
// per-thread flags ("my circle touches this tile": 1 or 0) into each flagged
// circle's place in a list this way, keeping the circles in index order.
//
// Device code: include it from a .cu file (render/student/student_renderer.cu
// as "block_scan.cuh").
//
// How to call it:
// - kBlockSize is the number of threads in the block, a power of two from 1
//   to 1024, fixed at compile time; launch the kernel with exactly that many
//   threads per block. The block may be 1D, 2D or 3D (16x16, say): threads
//   count in CUDA's order, x fastest, then y, then z.
// - Every thread of the block must make the same calls, none may have
//   returned before them, and none may skip one inside a branch: the scan
//   waits at barriers (__syncthreads) that all the block's threads must reach.
// - Shared memory: one BlockScanStorage<kBlockSize, T> per block, declared
//   __shared__ in your kernel (a T per warp and one more, a few bytes), passed
//   to every call. A call owns it until it returns; the next call may reuse
//   it at once.
// - T is an arithmetic type that warp shuffles move (int, unsigned, float,
//   ...). Sums behave as T's own additions: unsigned sums wrap modulo 2^32,
//   and int sums must not overflow.
//
//   __shared__ render::BlockScanStorage<256, unsigned> storage;
//   unsigned count;
//   const unsigned place = render::block_exclusive_scan<256>(flag, storage, count);
//
// How it works: each warp scans its 32 values in registers (shuffles, no
// shared memory), the warps' totals go through shared memory, one warp scans
// those, and each thread adds the total of the warps before its own: five
// shuffle steps per thread and three barriers.
#pragma once

#if !defined(__CUDACC__)
#error "block_scan.cuh holds device code: include it from a .cu file"
#endif

namespace render {

template <int kBlockSize, class T> struct BlockScanStorage {
  static_assert(kBlockSize >= 1 && kBlockSize <= 1024 && (kBlockSize & (kBlockSize - 1)) == 0,
                "kBlockSize must be a power of two from 1 to 1024");
  static constexpr int kWarps = kBlockSize < 32 ? 1 : kBlockSize / 32;
  T warp_sums[kWarps]; // each warp's total, then the sum of the warps before it
  T total;
};

namespace block_scan_detail {

constexpr int kWarpSize = 32;

// The lanes of a scan over the first `width` lanes of a warp.
__host__ __device__ constexpr unsigned lane_mask(int width) {
  return width >= kWarpSize ? 0xffffffffu : (1u << width) - 1u;
}

// Inclusive scan over the first kWidth lanes (a power of two up to 32), all
// of which must call it: log2(kWidth) shuffle steps.
template <int kWidth, class T> __device__ T warp_inclusive_scan(T value, int lane) {
  for (int offset = 1; offset < kWidth; offset *= 2) {
    const T before = __shfl_up_sync(lane_mask(kWidth), value, offset, kWidth);
    if (lane >= offset) value += before;
  }
  return value;
}

// The inclusive sum of the lane before (0 for lane 0): the exclusive scan,
// without subtracting, so float sums stay those of the additions made.
template <int kWidth, class T> __device__ T lane_before(T inclusive, int lane) {
  const T before = __shfl_up_sync(lane_mask(kWidth), inclusive, 1, kWidth);
  return lane == 0 ? T(0) : before;
}

} // namespace block_scan_detail

// This thread's place in the block, counting x fastest, then y, then z: the
// order in which CUDA groups threads into warps.
__device__ inline int block_thread_rank() {
  return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}

// Returns the sum of the values of threads 0 .. rank-1 (0 for thread 0), and
// sets `total` to the sum over the whole block, the same on every thread.
template <int kBlockSize, class T>
__device__ T block_exclusive_scan(T value, BlockScanStorage<kBlockSize, T>& storage, T& total) {
  using block_scan_detail::kWarpSize;
  constexpr int kWidth = kBlockSize < kWarpSize ? kBlockSize : kWarpSize;
  constexpr int kWarps = BlockScanStorage<kBlockSize, T>::kWarps;
  const int rank = block_thread_rank();
  const int lane = rank % kWarpSize;
  const int warp = rank / kWarpSize;

  const T inclusive = block_scan_detail::warp_inclusive_scan<kWidth>(value, lane);
  const T in_warp = block_scan_detail::lane_before<kWidth>(inclusive, lane);

  __syncthreads(); // a previous call may still be reading storage
  if (lane == kWidth - 1) storage.warp_sums[warp] = inclusive;
  __syncthreads();
  if (rank < kWarps) { // the first warp's first kWarps lanes scan the warps' totals
    const T warps_inclusive =
        block_scan_detail::warp_inclusive_scan<kWarps>(storage.warp_sums[rank], rank);
    storage.warp_sums[rank] = block_scan_detail::lane_before<kWarps>(warps_inclusive, rank);
    if (rank == kWarps - 1) storage.total = warps_inclusive;
  }
  __syncthreads();
  total = storage.total;
  return storage.warp_sums[warp] + in_warp;
}

// The same scan over an array of kBlockSize values (in shared memory,
// usually): data[rank] becomes the sum of data[0 .. rank-1]; returns the
// total. It waits for the whole block before reading and after writing, so
// threads may fill any entries just before the call and read any just after.
// Before writing the array again, wait for those reads (__syncthreads).
template <int kBlockSize, class T>
__device__ T block_exclusive_scan_in_place(T* data, BlockScanStorage<kBlockSize, T>& storage) {
  const int rank = block_thread_rank();
  __syncthreads();
  T total;
  const T prefix = block_exclusive_scan<kBlockSize>(data[rank], storage, total);
  data[rank] = prefix;
  __syncthreads();
  return total;
}

} // namespace render
