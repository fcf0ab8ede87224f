// Stopwatches and summary statistics over repeated samples.
#pragma once

#include <cuda_runtime_api.h>

#include <chrono>
#include <vector>

#include "common/event.h"

namespace common {

// Wall clock (steady). For GPU work, synchronize before stop() or the time is
// only the launch.
class Stopwatch {
public:
  Stopwatch() : start_(Clock::now()) {}
  void restart() { start_ = Clock::now(); }
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
  }

private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

// Times device work on one stream with a pair of CUDA events. Owns the events.
class CudaEventTimer {
public:
  explicit CudaEventTimer(cudaStream_t stream = nullptr);

  void start();
  void stop();
  // Waits for the stop event, then returns the time between the two events.
  double elapsed_ms() const;

private:
  cudaStream_t stream_;
  CudaEvent start_, stop_;
};

struct Summary {
  std::size_t count = 0;
  double min = 0;
  double median = 0;
  double max = 0;
  double mean = 0;
};

// Empty input gives an all-zero summary.
Summary summarize(std::vector<double> samples);

} // namespace common
