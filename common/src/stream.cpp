#include "common/stream.h"

#include "common/cuda_check.h"

namespace common {

CudaStream::CudaStream() {
  CUDA_CHECK(cudaStreamCreateWithFlags(stream_.out(), cudaStreamNonBlocking));
}

void CudaStream::synchronize() const {
  CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

} // namespace common
