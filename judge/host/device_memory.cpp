#include "judge/device_memory.h"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#include "common/cuda_check.h"

namespace judge {

namespace {
constexpr std::size_t kMiB = std::size_t(1) << 20;
} // namespace

std::size_t device_free_bytes() {
  std::size_t free = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

std::size_t reference_scratch_bytes(std::int64_t n) {
  std::size_t pow2 = 1;
  while (pow2 < static_cast<std::size_t>(n)) pow2 <<= 1;
  // Four arrays of ints at the padded size, and 64 MiB for the allocator's
  // granularity and the runtime's own.
  return 4 * pow2 * sizeof(int) + 64 * kMiB;
}

DeviceReserve::DeviceReserve(std::size_t bytes) : bytes_(bytes) {
  retake();
}

DeviceReserve::~DeviceReserve() {
  release();
}

void DeviceReserve::release() {
  if (!block_) return;
  // A free that fails leaves nothing to do: the context ends with the judge.
  cudaFree(block_);
  block_ = nullptr;
}

void DeviceReserve::retake() {
  if (block_) return;
  if (cudaMalloc(&block_, bytes_) != cudaSuccess) {
    cudaGetLastError(); // not sticky: the context is fine
    block_ = nullptr;
    throw std::runtime_error("cannot hold " + std::to_string(bytes_ / kMiB) +
                             " MiB of the GPU's memory for the reference (" +
                             std::to_string(device_free_bytes() / kMiB) + " MiB free)");
  }
}

} // namespace judge
