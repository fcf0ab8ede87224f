#include "common/timer.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "common/cuda_check.h"

namespace common {

CudaEventTimer::CudaEventTimer(cudaStream_t stream) : stream_(stream) {
  CUDA_CHECK(cudaEventCreate(&start_));
  const cudaError_t status = cudaEventCreate(&stop_);
  if (status != cudaSuccess) {
    cudaEventDestroy(start_);
    check_cuda(status, "cudaEventCreate(&stop_)", __FILE__, __LINE__);
  }
}

CudaEventTimer::~CudaEventTimer() {
  // Destructors log instead of throwing.
  if (start_ && cudaEventDestroy(start_) != cudaSuccess)
    std::fputs("warning: cudaEventDestroy failed\n", stderr);
  if (stop_ && cudaEventDestroy(stop_) != cudaSuccess)
    std::fputs("warning: cudaEventDestroy failed\n", stderr);
}

void CudaEventTimer::start() {
  CUDA_CHECK(cudaEventRecord(start_, stream_));
}
void CudaEventTimer::stop() {
  CUDA_CHECK(cudaEventRecord(stop_, stream_));
}

double CudaEventTimer::elapsed_ms() const {
  CUDA_CHECK(cudaEventSynchronize(stop_));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  return ms;
}

Summary summarize(std::vector<double> samples) {
  Summary s;
  s.count = samples.size();
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.min = samples.front();
  s.max = samples.back();
  const std::size_t mid = samples.size() / 2;
  s.median = samples.size() % 2 ? samples[mid] : 0.5 * (samples[mid - 1] + samples[mid]);
  s.mean =
      std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
  return s;
}

} // namespace common
