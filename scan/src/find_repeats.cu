// find_repeats as the course composes it: flag each index, scan the flags
// into output positions (with the Kogge-Stone or the Blelloch scan), scatter
// each flagged index to its position.
#include "common/cuda_check.h"
#include "kernels.h"
#include "launch.h"

namespace scan::detail {
namespace {

__global__ void flag_repeats_kernel(const int* in, long long n, unsigned* flags) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  flags[i] = i + 1 < n && in[i] == in[i + 1] ? 1u : 0u;
}

// After the scan, index i is flagged exactly when positions[i + 1] differs
// from positions[i]; the last position is the count (the last flag is 0).
__global__ void scatter_repeats_kernel(const unsigned* positions, long long n, int* out,
                                       long long* count) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i + 1 < n) {
    if (positions[i + 1] != positions[i]) out[positions[i]] = static_cast<int>(i);
  } else {
    *count = positions[i];
  }
}

} // namespace

void composed_find_repeats(const int* in, std::int64_t n, int* out, std::int64_t* count,
                           unsigned* positions, ComposedScan scan, unsigned* scan_scratch,
                           cudaStream_t stream) {
  flag_repeats_kernel<<<flat_blocks(n), kFlatThreads, 0, stream>>>(in, n, positions);
  CUDA_CHECK_LAUNCH();
  scan(positions, positions, n, scan_scratch, stream);
  scatter_repeats_kernel<<<flat_blocks(n), kFlatThreads, 0, stream>>>(
      positions, n, out, reinterpret_cast<long long*>(count));
  CUDA_CHECK_LAUNCH();
}

} // namespace scan::detail
