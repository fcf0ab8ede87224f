#include "common/stream.h"

#include <cstdio>

#include "common/cuda_check.h"

namespace common {

CudaStream::CudaStream() {
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

namespace {
// Destructors cannot throw: a failed destroy is reported and dropped.
void release(cudaStream_t stream) noexcept {
  if (stream && cudaStreamDestroy(stream) != cudaSuccess)
    std::fputs("warning: cudaStreamDestroy failed\n", stderr);
}
} // namespace

CudaStream::~CudaStream() {
  release(stream_);
}

CudaStream& CudaStream::operator=(CudaStream&& other) noexcept {
  if (this != &other) {
    release(stream_);
    stream_ = std::exchange(other.stream_, nullptr);
  }
  return *this;
}

void CudaStream::synchronize() const {
  CUDA_CHECK(cudaStreamSynchronize(stream_));
}

} // namespace common
