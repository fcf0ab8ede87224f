// The judge's probe of the GPU: an empty kernel on its own context (see
// probe_device_ms in shared_array.h).
#include <cuda_runtime.h>

#include "common/cuda_check.h"
#include "common/timer.h"
#include "judge/shared_array.h"

namespace judge {

namespace {
__global__ void empty_kernel() {}
} // namespace

double probe_device_ms() {
  common::Stopwatch clock;
  empty_kernel<<<1, 1>>>();
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
  return clock.elapsed_ms();
}

LateWork probe_late_work(MemoryKind memory, double switch_ms, const std::string& what,
                         double call_ms) {
  LateWork w;
  if (memory != MemoryKind::kDevice) return w;
  const double probe = probe_device_ms();
  w.charged_ms = probe > switch_ms ? probe - switch_ms : 0.0;
  if (w.charged_ms > 1.0 + 0.1 * call_ms)
    w.reason = "GPU work still running after " + what + " answered (the judge's probe took " +
               std::to_string(probe) + " ms, after an honest worker " + std::to_string(switch_ms) +
               " ms)";
  return w;
}

} // namespace judge
