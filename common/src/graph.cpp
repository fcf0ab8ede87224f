#include "common/graph.h"

#include <stdexcept>

#include "common/cuda_check.h"

namespace common {

void CudaGraph::capture(cudaStream_t stream, const std::function<void()>& queue) {
  reset();
  // Thread-local: another thread's unrelated CUDA calls cannot break it.
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  CudaHandle<cudaGraph_t, cudaGraphDestroy> graph;
  try {
    queue();
  } catch (...) {
    // Ends the capture (a failed one returns an error and no graph) so the
    // stream takes plain launches again.
    (void)cudaStreamEndCapture(stream, graph.out());
    (void)cudaGetLastError();
    throw;
  }
  CUDA_CHECK(cudaStreamEndCapture(stream, graph.out()));
  CUDA_CHECK(cudaGraphInstantiate(exec_.out(), graph.get(), 0));
}

void CudaGraph::launch(cudaStream_t stream) const {
  if (empty()) throw std::logic_error("CudaGraph::launch before capture");
  CUDA_CHECK(cudaGraphLaunch(exec_.get(), stream));
}

} // namespace common
