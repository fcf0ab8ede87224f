#include "common/timer.h"

#include <algorithm>
#include <numeric>

#include "common/cuda_check.h"

namespace common {

// Timing events (the default flags): these are the ones whose elapsed time
// can be read.
CudaEventTimer::CudaEventTimer(cudaStream_t stream)
    : stream_(stream), start_(cudaEventDefault), stop_(cudaEventDefault) {}

void CudaEventTimer::start() {
  start_.record(stream_);
}
void CudaEventTimer::stop() {
  stop_.record(stream_);
}

double CudaEventTimer::elapsed_ms() const {
  CUDA_CHECK(cudaEventSynchronize(stop_.get()));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
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
