// A move-only owner of one executable CUDA graph: the launches a function
// queues on a stream, recorded once and replayed with a single launch. It
// saves the launch gaps of a fixed sequence of short kernels (a frame).
#pragma once

#include <cuda_runtime_api.h>

#include <functional>

#include "common/cuda_handle.h"

namespace common {

class CudaGraph {
public:
  // Records what `queue` puts on `stream` (nothing runs) and makes it the
  // graph to launch, replacing any earlier one. A throw from `queue`, or a
  // call it makes that a capture forbids, ends the capture, leaves the
  // stream usable and the graph empty, and propagates.
  void capture(cudaStream_t stream, const std::function<void()>& queue);
  // Queues the recorded work on `stream`; the graph must not be empty.
  void launch(cudaStream_t stream) const;
  bool empty() const noexcept { return exec_.get() == nullptr; }
  void reset() noexcept { exec_ = {}; }

private:
  CudaHandle<cudaGraphExec_t, cudaGraphExecDestroy> exec_;
};

} // namespace common
