// The judge's probe of the GPU: an empty kernel on its own context (see
// probe_device_ms in shared_array.h).
#include <cuda_runtime.h>

#include "common/cuda_check.h"
#include "common/timer.h"
#include "judge/shared_array.h"

namespace judge {

namespace {
__global__ void empty_kernel() {}

// The probe's stream and its few bytes each side, made once.
struct ProbeState {
  ProbeState() {
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaMallocHost(&host, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&device, sizeof(int)));
  }
  cudaStream_t stream = nullptr;
  int* host = nullptr;
  int* device = nullptr;
};
} // namespace

double probe_device_ms() {
  // Kept for the judge's life: the process ends with the context.
  static ProbeState* const state = new ProbeState;
  common::Stopwatch clock;
  // The copy engines as well as the compute engine: a copy the worker
  // queued (on an engine a kernel does not wait for) delays these.
  CUDA_CHECK(cudaMemcpyAsync(state->device, state->host, sizeof(int), cudaMemcpyHostToDevice,
                             state->stream));
  empty_kernel<<<1, 1, 0, state->stream>>>();
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpyAsync(state->host, state->device, sizeof(int), cudaMemcpyDeviceToHost,
                             state->stream));
  CUDA_CHECK(cudaStreamSynchronize(state->stream));
  return clock.elapsed_ms();
}

std::string probe_held_idle(MemoryKind memory, double switch_ms, const std::string& when) {
  if (memory != MemoryKind::kDevice) return {};
  return judge_held_idle(switch_ms, when, probe_device_ms);
}

LateWork probe_late_work(MemoryKind memory, double switch_ms, const std::string& what,
                         double call_ms) {
  if (memory != MemoryKind::kDevice) return {};
  return judge_late_work(switch_ms, what, call_ms, probe_device_ms);
}

} // namespace judge
