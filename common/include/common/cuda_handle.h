// The move-only ownership shared by the CUDA handle wrappers (streams,
// events, graphs): one handle, released once by its owner, never copied.
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

namespace common {

// Destructors cannot throw: a failed release is reported on stderr and dropped.
void warn_release_failed(cudaError_t code) noexcept;

// Owns a `Handle` (cudaStream_t, cudaEvent_t, cudaGraph_t, ...) released by
// `Release` (cudaStreamDestroy, cudaEventDestroy, cudaGraphDestroy, ...).
template <class Handle, cudaError_t (*Release)(Handle)> class CudaHandle {
public:
  CudaHandle() = default;
  ~CudaHandle() { reset(); }
  CudaHandle(const CudaHandle&) = delete;
  CudaHandle& operator=(const CudaHandle&) = delete;
  CudaHandle(CudaHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  CudaHandle& operator=(CudaHandle&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }

  Handle get() const noexcept { return handle_; }
  // Where a create call writes the new handle; the owner must be empty.
  Handle* out() noexcept { return &handle_; }

private:
  void reset() noexcept {
    if (handle_) {
      const cudaError_t code = Release(handle_);
      if (code != cudaSuccess) warn_release_failed(code);
    }
    handle_ = nullptr;
  }

  Handle handle_ = nullptr;
};

} // namespace common
