// A move-only owner of a CUDA event, for ordering work between streams.
#pragma once

#include <cuda_runtime_api.h>

#include "common/cuda_handle.h"

namespace common {

class CudaEvent {
public:
  // Without timing by default: such events are cheaper to record and wait on.
  explicit CudaEvent(unsigned flags = cudaEventDisableTiming);

  cudaEvent_t get() const noexcept { return event_.get(); }
  // Marks the point `stream` has reached. Recording again moves the mark;
  // streams already told to wait keep waiting for the mark they were given.
  void record(cudaStream_t stream);
  // Work queued on `stream` after this call waits for the last recorded mark.
  void make_wait(cudaStream_t stream) const;

private:
  CudaHandle<cudaEvent_t, cudaEventDestroy> event_;
};

} // namespace common
