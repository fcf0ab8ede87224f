#include "common/stream.h"

#include <cstdio>

#include "common/cuda_check.h"

namespace common {

CudaStream::CudaStream() {
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

CudaStream::~CudaStream() {
  if (stream_ && cudaStreamDestroy(stream_) != cudaSuccess)
    std::fputs("warning: cudaStreamDestroy failed\n", stderr);
}

CudaStream& CudaStream::operator=(CudaStream&& other) noexcept {
  if (this != &other) {
    if (stream_) cudaStreamDestroy(stream_);
    stream_ = std::exchange(other.stream_, nullptr);
  }
  return *this;
}

void CudaStream::synchronize() const {
  CUDA_CHECK(cudaStreamSynchronize(stream_));
}

} // namespace common
