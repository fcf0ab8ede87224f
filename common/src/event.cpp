#include "common/event.h"

#include <cstdio>

#include "common/cuda_check.h"

namespace common {

CudaEvent::CudaEvent(unsigned flags) {
  CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags));
}

namespace {
// Destructors cannot throw: a failed destroy is reported and dropped.
void release(cudaEvent_t event) noexcept {
  if (event && cudaEventDestroy(event) != cudaSuccess)
    std::fputs("warning: cudaEventDestroy failed\n", stderr);
}
} // namespace

CudaEvent::~CudaEvent() {
  release(event_);
}

CudaEvent& CudaEvent::operator=(CudaEvent&& other) noexcept {
  if (this != &other) {
    release(event_);
    event_ = std::exchange(other.event_, nullptr);
  }
  return *this;
}

void CudaEvent::record(cudaStream_t stream) {
  CUDA_CHECK(cudaEventRecord(event_, stream));
}

void CudaEvent::make_wait(cudaStream_t stream) const {
  CUDA_CHECK(cudaStreamWaitEvent(stream, event_, 0));
}

} // namespace common
