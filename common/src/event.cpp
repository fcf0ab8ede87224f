#include "common/event.h"

#include "common/cuda_check.h"

namespace common {

CudaEvent::CudaEvent(unsigned flags) {
  CUDA_CHECK(cudaEventCreateWithFlags(event_.out(), flags));
}

void CudaEvent::record(cudaStream_t stream) {
  CUDA_CHECK(cudaEventRecord(event_.get(), stream));
}

void CudaEvent::make_wait(cudaStream_t stream) const {
  CUDA_CHECK(cudaStreamWaitEvent(stream, event_.get(), 0));
}

} // namespace common
