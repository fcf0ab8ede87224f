// CUDA error checks that throw. Every runtime call is wrapped in CUDA_CHECK and
// every kernel launch is followed by CUDA_CHECK_LAUNCH(), so a failure names the
// call, the file and the line where it happened.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace common {

class CudaError : public std::runtime_error {
public:
  CudaError(cudaError_t code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  cudaError_t code() const noexcept { return code_; }

private:
  cudaError_t code_;
};

// "cudaMalloc(&p, n) failed at saxpy.cu:42: out of memory (cudaErrorMemoryAllocation)"
std::string describe_cuda_failure(cudaError_t code, const char* expr, const char* file, int line);

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* expr, const char* file, int line);

inline void check_cuda(cudaError_t code, const char* expr, const char* file, int line) {
  if (code != cudaSuccess) throw_cuda_error(code, expr, file, line);
}

} // namespace common

#define CUDA_CHECK(expr) ::common::check_cuda((expr), #expr, __FILE__, __LINE__)

// After a launch: catches bad launch configurations at once; errors inside the
// kernel surface at the next synchronizing call, which is checked too.
#define CUDA_CHECK_LAUNCH()                                                                        \
  ::common::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
