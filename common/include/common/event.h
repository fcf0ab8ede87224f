// A move-only owner of a CUDA event, for ordering work between streams.
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

namespace common {

class CudaEvent {
public:
  // Without timing by default: such events are cheaper to record and wait on.
  explicit CudaEvent(unsigned flags = cudaEventDisableTiming);
  ~CudaEvent();
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  CudaEvent(CudaEvent&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  CudaEvent& operator=(CudaEvent&& other) noexcept;

  cudaEvent_t get() const noexcept { return event_; }
  // Marks the point `stream` has reached. Recording again moves the mark;
  // streams already told to wait keep waiting for the mark they were given.
  void record(cudaStream_t stream);
  // Work queued on `stream` after this call waits for the last recorded mark.
  void make_wait(cudaStream_t stream) const;

private:
  cudaEvent_t event_ = nullptr;
};

} // namespace common
