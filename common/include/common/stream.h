// A move-only owner of a CUDA stream.
#pragma once

#include <cuda_runtime_api.h>

#include "common/cuda_handle.h"

namespace common {

class CudaStream {
public:
  // Creates a non-blocking stream (it does not synchronize with stream 0).
  CudaStream();

  cudaStream_t get() const noexcept { return stream_.get(); }
  void synchronize() const;

private:
  CudaHandle<cudaStream_t, cudaStreamDestroy> stream_;
};

} // namespace common
