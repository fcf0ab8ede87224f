// The textbook's first parallel scan (Kogge-Stone, as Hillis and Steele
// wrote it for the Connection Machine): log2(B) steps over a block of B
// elements in shared memory, where in step k every element adds the one
// 2^k places before it. It does B·log2(B) additions where a serial scan
// does B, hence "work-inefficient"; blelloch.cu does O(n) work.
//
// Any n: each block scans its B elements and writes their total to a block
// sum; the block sums are scanned the same way (recursively, until one block
// holds them all); then each element adds its block's scanned sum.
#include "common/cuda_check.h"
#include "kernels.h"
#include "launch.h"

namespace scan::detail {
namespace {

// Elements per block, one per thread.
constexpr int kBlockElements = 512;

std::int64_t blocks_for(std::int64_t n) {
  return (n + kBlockElements - 1) / kBlockElements;
}

// Exclusive scan of one block's elements; with `block_sums`, the block's
// total goes to block_sums[blockIdx.x]. Two shared buffers: a step reads one
// and writes the other, so no thread overwrites a value another still reads.
__global__ void block_scan_kernel(const unsigned* in, unsigned* out, long long n,
                                  unsigned* block_sums) {
  __shared__ unsigned buffer[2][kBlockElements];
  const int t = static_cast<int>(threadIdx.x);
  const long long i = static_cast<long long>(blockIdx.x) * kBlockElements + t;
  const unsigned value = i < n ? in[i] : 0u; // past n: zeros, which change no sum
  int current = 0;
  buffer[current][t] = value;
  __syncthreads();
  for (int offset = 1; offset < kBlockElements; offset *= 2) {
    unsigned sum = buffer[current][t];
    if (t >= offset) sum += buffer[current][t - offset];
    buffer[1 - current][t] = sum;
    current = 1 - current;
    __syncthreads(); // every write of this step lands before the next reads
  }
  // The inclusive sum less the element itself is the exclusive sum (mod 2^32).
  const unsigned inclusive = buffer[current][t];
  if (i < n) out[i] = inclusive - value;
  if (block_sums && t == kBlockElements - 1) block_sums[blockIdx.x] = inclusive;
}

// Element i adds the scanned sum of the blocks before its own.
__global__ void add_block_offsets_kernel(unsigned* out, long long n, const unsigned* offsets) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] += offsets[i / kBlockElements];
}

} // namespace

std::size_t kogge_stone_scratch_elements(std::int64_t n) {
  std::size_t total = 0;
  for (std::int64_t blocks = blocks_for(n); blocks > 1; blocks = blocks_for(blocks))
    total += static_cast<std::size_t>(blocks);
  return total;
}

void kogge_stone_scan(const unsigned* in, unsigned* out, std::int64_t n, unsigned* block_sums,
                      cudaStream_t stream) {
  const std::int64_t blocks = blocks_for(n);
  // Each block reads its elements before writing them, so in == out is fine.
  block_scan_kernel<<<static_cast<unsigned>(blocks), kBlockElements, 0, stream>>>(
      in, out, n, blocks > 1 ? block_sums : nullptr);
  CUDA_CHECK_LAUNCH();
  if (blocks == 1) return;
  // The block sums, in place; the next level's sums follow them in scratch.
  kogge_stone_scan(block_sums, block_sums, blocks, block_sums + blocks, stream);
  add_block_offsets_kernel<<<flat_blocks(n), kFlatThreads, 0, stream>>>(out, n, block_sums);
  CUDA_CHECK_LAUNCH();
}

} // namespace scan::detail
