// Timing pieces shared by --bench and the tuning tool: buffer sets rotated
// past the L2 cache, and the median of CUDA-event timings.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "common/cuda_check.h"
#include "common/device_buffer.h"
#include "common/timer.h"

namespace scan_app {

// Input and output buffers, rotated so that repeated runs miss the L2 cache.
struct BufferSets {
  std::vector<common::DeviceBuffer<int>> in, out;
  int count() const { return static_cast<int>(in.size()); }
};

// As many sets (1 to 64) as make the working set 3x the L2, and as fit in
// device memory after `keep_free` bytes; each input holds a copy of `input`.
BufferSets make_buffer_sets(const std::vector<int>& input, std::size_t l2_bytes,
                            std::size_t keep_free);

constexpr int kWarmups = 3;

// Median time of op(set) in milliseconds by CUDA events on `stream`, after
// kWarmups runs; as many runs as fit in about `budget_ms` (11 to 201). All
// runs are queued before any is read, so host launch latency stays outside
// the events.
template <class Op>
double median_event_ms(const Op& op, int sets, cudaStream_t stream, double budget_ms = 300) {
  for (int i = 0; i < kWarmups; ++i) op(i % sets);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  common::Stopwatch estimate;
  op(0);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  const double once_ms = std::max(estimate.elapsed_ms(), 1e-3);
  const int reps = std::clamp(static_cast<int>(budget_ms / once_ms), 11, 201);
  std::vector<std::unique_ptr<common::CudaEventTimer>> timers;
  for (int r = 0; r < reps; ++r) timers.push_back(std::make_unique<common::CudaEventTimer>(stream));
  for (int r = 0; r < reps; ++r) {
    timers[r]->start();
    op((r + 1) % sets);
    timers[r]->stop();
  }
  std::vector<double> ms;
  for (auto& t : timers) ms.push_back(t->elapsed_ms());
  return common::summarize(ms).median;
}

// The course's timing: host clock around call() plus cudaDeviceSynchronize,
// best of `runs`. prepare() runs before each, outside the clock.
template <class Prepare, class Call>
double course_host_ms(int runs, const Prepare& prepare, const Call& call) {
  double best = 0;
  for (int r = 0; r < runs; ++r) {
    prepare();
    CUDA_CHECK(cudaDeviceSynchronize());
    common::Stopwatch clock;
    call();
    CUDA_CHECK(cudaDeviceSynchronize());
    const double ms = clock.elapsed_ms();
    best = r == 0 ? ms : std::min(best, ms);
  }
  return best;
}

} // namespace scan_app
