// The course's work-efficient scan (Blelloch 1990): an up-sweep that builds
// partial sums in a binary tree in place, then a down-sweep that turns them
// into exclusive prefixes. One launch per tree level, one thread per pair.
//
// Any n: the tree is that of the next power of two N, with the elements past
// n taken as zero. Those virtual elements are never stored. Up-sweep pairs
// whose right node is past n are skipped (every real node's subtree is then
// complete). In the down-sweep, exactly one node per level is virtual but
// holds real elements under it: the one containing element n - 1. Its value
// (the sum of everything before its subtree) lives in `carry`, starting at 0
// for a virtual root; the one pair per level that straddles n hands `carry`
// to its real left child and moves it on to the right child.
#include "common/cuda_check.h"
#include "kernels.h"
#include "launch.h"

namespace scan::detail {
namespace {

// Pair k at this level: right node (k + 1) * 2 * stride - 1, left node right - stride.
__global__ void up_sweep_kernel(unsigned* data, long long stride, long long pairs) {
  const long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= pairs) return;
  const long long right = (k + 1) * 2 * stride - 1;
  data[right] += data[right - stride];
}

__global__ void down_sweep_kernel(unsigned* data, long long n, long long stride, long long pairs,
                                  unsigned* carry) {
  const long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= pairs) return;
  const long long right = (k + 1) * 2 * stride - 1;
  const long long left = right - stride;
  const unsigned left_sum = data[left];
  if (right < n) {
    data[left] = data[right];
    data[right] += left_sum;
  } else { // the pair that straddles n (only the last one can)
    data[left] = *carry;
    *carry += left_sum;
  }
}

} // namespace

void blelloch_scan(const unsigned* in, unsigned* out, std::int64_t n, unsigned* carry,
                   cudaStream_t stream) {
  if (in != out)
    CUDA_CHECK(cudaMemcpyAsync(out, in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice, stream));
  int levels = 0; // log2 of the next power of two
  while ((std::int64_t{1} << levels) < n) ++levels;

  // Up-sweep: pairs whose right node is real.
  for (int d = 0; d < levels; ++d) {
    const long long stride = 1LL << d;
    const long long pairs = n / (2 * stride);
    if (pairs == 0) break;
    up_sweep_kernel<<<flat_blocks(pairs), kFlatThreads, 0, stream>>>(out, stride, pairs);
    CUDA_CHECK_LAUNCH();
  }

  // The root is 0: stored when it is real (n a power of two), else in carry.
  if ((n & (n - 1)) == 0) CUDA_CHECK(cudaMemsetAsync(out + n - 1, 0, sizeof(unsigned), stream));
  CUDA_CHECK(cudaMemsetAsync(carry, 0, sizeof(unsigned), stream));

  // Down-sweep: pairs whose left node is real.
  for (int d = levels - 1; d >= 0; --d) {
    const long long stride = 1LL << d;
    const long long pairs = (n + stride) / (2 * stride);
    down_sweep_kernel<<<flat_blocks(pairs), kFlatThreads, 0, stream>>>(out, n, stride, pairs,
                                                                       carry);
    CUDA_CHECK_LAUNCH();
  }
}

} // namespace scan::detail
