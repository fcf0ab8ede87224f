#include "common/cuda_handle.h"

#include <cstdio>

namespace common {

void warn_release_failed(cudaError_t code) noexcept {
  std::fprintf(stderr, "warning: releasing a CUDA stream, event or graph failed: %s\n",
               cudaGetErrorName(code));
}

} // namespace common
