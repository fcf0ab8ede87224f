#include "common/device_buffer.h"

#include <cstdio>
#include <string>

#include "common/cuda_check.h"

namespace common {

namespace {
[[noreturn]] void throw_allocation_failure(cudaError_t status, const char* what, std::size_t bytes,
                                           const char* label) {
  (void)cudaGetLastError();
  throw CudaError(status, std::string(what) + " of " + std::to_string(bytes) + " bytes for '" +
                              label + "' failed: " + cudaGetErrorString(status));
}
} // namespace

void* device_allocate(std::size_t bytes, const char* label) {
  void* ptr = nullptr;
  const cudaError_t status = cudaMalloc(&ptr, bytes);
  if (status != cudaSuccess) throw_allocation_failure(status, "device allocation", bytes, label);
  return ptr;
}

void device_free(void* ptr) noexcept {
  if (ptr && cudaFree(ptr) != cudaSuccess) std::fputs("warning: cudaFree failed\n", stderr);
}

void* pinned_allocate(std::size_t bytes, const char* label) {
  void* ptr = nullptr;
  const cudaError_t status = cudaMallocHost(&ptr, bytes);
  if (status != cudaSuccess)
    throw_allocation_failure(status, "pinned host allocation", bytes, label);
  return ptr;
}

void pinned_free(void* ptr) noexcept {
  if (ptr && cudaFreeHost(ptr) != cudaSuccess) std::fputs("warning: cudaFreeHost failed\n", stderr);
}

void* mapped_allocate(std::size_t bytes, const char* label) {
  void* ptr = nullptr;
  const cudaError_t status = cudaHostAlloc(&ptr, bytes, cudaHostAllocMapped);
  if (status != cudaSuccess)
    throw_allocation_failure(status, "mapped host allocation", bytes, label);
  return ptr;
}

void* mapped_device_pointer(void* host) {
  void* device = nullptr;
  CUDA_CHECK(cudaHostGetDevicePointer(&device, host, 0));
  return device;
}

namespace detail {

void check_copy_count(std::size_t count, std::size_t capacity) {
  if (count > capacity)
    throw std::out_of_range("copy of " + std::to_string(count) + " elements into a buffer of " +
                            std::to_string(capacity));
}

void copy_bytes(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                cudaStream_t stream, bool async) {
  if (bytes == 0) return;
  if (async)
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, stream));
  else
    CUDA_CHECK(cudaMemcpy(dst, src, bytes, kind));
}

} // namespace detail
} // namespace common
