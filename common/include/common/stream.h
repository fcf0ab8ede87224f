// A move-only owner of a CUDA stream.
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

namespace common {

class CudaStream {
public:
  // Creates a non-blocking stream (it does not synchronize with stream 0).
  CudaStream();
  ~CudaStream();
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  CudaStream(CudaStream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  CudaStream& operator=(CudaStream&& other) noexcept;

  cudaStream_t get() const noexcept { return stream_; }
  void synchronize() const;

private:
  cudaStream_t stream_ = nullptr;
};

} // namespace common
