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
  if (memory != MemoryKind::kDevice) return {};
  return judge_late_work(switch_ms, what, call_ms, probe_device_ms);
}

} // namespace judge
