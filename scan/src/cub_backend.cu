// The library peer: CUB's device-wide scan and selection.
#include <thrust/iterator/counting_iterator.h>

#include <climits>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include "common/cuda_check.h"
#include "kernels.h"

namespace scan::detail {
namespace {

// CUB picks its offset type from the count's type; 32-bit counts when they
// fit, as a caller with an int n would pass, so CUB runs its usual path.
template <class Count>
std::size_t run_cub_scan(const unsigned* in, unsigned* out, Count n, void* scratch,
                         std::size_t bytes, cudaStream_t stream) {
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch, bytes, in, out, n, stream));
  return bytes;
}

std::size_t cub_scan_any(const unsigned* in, unsigned* out, std::int64_t n, void* scratch,
                         std::size_t bytes, cudaStream_t stream) {
  if (n <= INT_MAX) return run_cub_scan(in, out, static_cast<int>(n), scratch, bytes, stream);
  return run_cub_scan(in, out, static_cast<long long>(n), scratch, bytes, stream);
}

// Selects index i when in[i] == in[i + 1].
struct IsRepeat {
  const int* in;
  __device__ bool operator()(int i) const { return in[i] == in[i + 1]; }
};

std::size_t cub_select_repeats(const int* in, std::int64_t n, int* out, long long* count,
                               void* scratch, std::size_t bytes, cudaStream_t stream) {
  CUDA_CHECK(cub::DeviceSelect::If(scratch, bytes, thrust::counting_iterator<int>(0), out, count,
                                   n - 1, IsRepeat{in}, stream));
  return bytes;
}

} // namespace

std::size_t cub_scan_scratch_bytes(std::int64_t n) {
  return cub_scan_any(nullptr, nullptr, n, nullptr, 0, nullptr);
}

void cub_scan(const unsigned* in, unsigned* out, std::int64_t n, void* scratch,
              std::size_t scratch_bytes, cudaStream_t stream) {
  cub_scan_any(in, out, n, scratch, scratch_bytes, stream);
}

std::size_t cub_find_repeats_scratch_bytes(std::int64_t n) {
  return n < 2 ? 0 : cub_select_repeats(nullptr, n, nullptr, nullptr, nullptr, 0, nullptr);
}

void cub_find_repeats(const int* in, std::int64_t n, int* out, std::int64_t* count, void* scratch,
                      std::size_t scratch_bytes, cudaStream_t stream) {
  auto* d_count = reinterpret_cast<long long*>(count);
  if (n < 2) {
    CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(long long), stream));
    return;
  }
  cub_select_repeats(in, n, out, d_count, scratch, scratch_bytes, stream);
}

} // namespace scan::detail
